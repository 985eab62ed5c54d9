package lock

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/relavium/relavium/fault"
	"github.com/relavium/relavium/host"
)

func snapshot(desc string, ro bool) Snapshot {
	def := `{"description":"` + desc + `","inputSchema":{"type":"object"},"name":"t"}`
	if ro {
		def = `{"annotations":{"readOnlyHint":true},"description":"` + desc + `","inputSchema":{"type":"object"},"name":"t"}`
	}
	return Snapshot{
		Defs: &host.Definitions{Server: "s", Transport: "stdio", Digest: "v1:abc", Protocol: "2025-11-25", Capabilities: json.RawMessage(`{"tools":{}}`),
			Tools: []host.DefinedTool{{Name: "t", Canonical: json.RawMessage(def)}}},
		Prompts:   []host.Prompt{{Name: "p", Description: "a prompt\u202e"}},
		Resources: &host.ResourceList{Offered: true, Resources: []host.Resource{{URI: "note://b", Name: "b"}, {URI: "note://a", Name: "a"}}},
	}
}

// A lock round-trips through its file byte for byte, sorted and escaped;
// Compare finds nothing in it, and a changed description and a read-only
// claim are reported with the claim first.
func TestLockRoundTripAndCompare(t *testing.T) {
	f := Build([]Snapshot{snapshot("Removes a file.", false)})
	path := filepath.Join(t.TempDir(), "mcp-lock.json")
	if err := Write(path, f); err != nil {
		t.Fatal(err)
	}
	data, _ := os.ReadFile(path)
	if strings.Contains(string(data), "\u202e") || !strings.Contains(string(data), `\u202e`) {
		t.Fatalf("a bidi control is written raw: %s", data)
	}
	if i, j := strings.Index(string(data), "note://a"), strings.Index(string(data), "note://b"); i < 0 || i > j {
		t.Fatal("resources are not sorted")
	}
	back, err := Read(path)
	if err != nil {
		t.Fatal(err)
	}
	if d := Compare("lock", back, f); !d.Empty() {
		t.Fatalf("a lock differs from itself: %+v", d)
	}
	live := Build([]Snapshot{snapshot("Removes every file.", true)})
	d := Compare("lock", back, live)
	lines := d.Lines()
	if len(lines) != 2 || !lines[0].Critical || !strings.Contains(lines[0].Text, "tool t now claims read-only") ||
		!strings.Contains(strings.Join(lines[1].Detail, "\n"), "description: Removes [-a-] {+every+} file.") {
		t.Fatalf("lines %+v", lines)
	}
	var sb strings.Builder
	if err := DriftError(d).(*Error).Data.(*Diff).WriteGitHub(&sb); err != nil || strings.Count(sb.String(), "::error ") != 2 || strings.Contains(sb.String(), "\n    ") {
		t.Fatalf("github: %s", sb.String())
	}
}

func TestReadRefusals(t *testing.T) {
	dir := t.TempDir()
	_, err := Read(filepath.Join(dir, "none.json"))
	if fault.CodeOf(err, "") != CodeNoLock {
		t.Fatalf("missing: %v", err)
	}
	for name, body := range map[string]string{
		"garbage": "{", "version": `{"v":2,"servers":[]}`, "unknown": `{"v":1,"servers":[],"x":1}`,
	} {
		p := filepath.Join(dir, name)
		_ = os.WriteFile(p, []byte(body), 0o600)
		if _, err := Read(p); fault.CodeOf(err, "") != CodeBadLock {
			t.Errorf("%s: %v", name, err)
		}
	}
	p := filepath.Join(dir, "big")
	_ = os.WriteFile(p, nil, 0o600)
	_ = os.Truncate(p, maxLockBytes+1)
	var e *Error
	if _, err := Read(p); !errors.As(err, &e) || e.ErrCode != CodeBadLock {
		t.Fatalf("oversize: %v", err)
	}
}

func TestWordDiff(t *testing.T) {
	for _, c := range []struct{ a, b, want string }{
		{"a b c", "a b c", "a b c"},
		{"a b c", "a x c", "a [-b-] {+x+} c"},
		{"", "new words", "{+new words+}"},
		{"old\x1b[31m red", "old red", "old red"},
	} {
		if got := WordDiff(c.a, c.b); got != c.want {
			t.Errorf("WordDiff(%q, %q) = %q, want %q", c.a, c.b, got, c.want)
		}
	}
	long := strings.Repeat("w ", maxDiffWords+1)
	if got := WordDiff(long, "x"); !strings.HasPrefix(got, "[-w w") || len(got) > maxDiffText+4 {
		t.Errorf("long diff %q", got[:40])
	}
}

// A FIFO at the lock's path (a hostile checkout) is refused at once, never
// waited on: mcp check must not hang.
func TestReadRefusesAFIFO(t *testing.T) {
	p := filepath.Join(t.TempDir(), "mcp-lock.json")
	if err := syscall.Mkfifo(p, 0o600); err != nil {
		t.Skipf("no FIFOs here: %v", err)
	}
	done := make(chan error, 1)
	go func() { _, err := Read(p); done <- err }()
	select {
	case err := <-done:
		if fault.CodeOf(err, "") != CodeBadLock || !strings.Contains(err.Error(), "named pipe") {
			t.Fatalf("a FIFO lock: %v", err)
		}
	case <-time.After(20 * time.Second): // a hang guard only
		if f, err := os.OpenFile(p, os.O_WRONLY|syscall.O_NONBLOCK, 0); err == nil {
			f.Close()
		}
		t.Fatal("Read blocked on a FIFO")
	}
}

// A project whose servers come only from a .mcp.json has no .relavium/
// until its first lock: writing the lock makes the folder.
func TestWriteMakesTheLockFolder(t *testing.T) {
	path := filepath.Join(t.TempDir(), ".relavium", "mcp-lock.json")
	if err := Write(path, Build([]Snapshot{snapshot("Removes a file.", false)})); err != nil {
		t.Fatal(err)
	}
	if _, err := Read(path); err != nil {
		t.Fatal(err)
	}
}
