package machine

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/relavium/relavium/internal/testbin"
	"github.com/relavium/relavium/invoke/cli"
)

func TestAuditRecordKeyOrder(t *testing.T) {
	home := t.TempDir()
	log := NewAuditLog(home)
	k, exit, code := KindRequest, 0, CodeBadConfirm
	rec := AuditRecord{Time: auditTime(time.Date(2026, 1, 2, 3, 4, 5, 6_000_000, time.FixedZone("x", 3600))),
		Transport: TransportMCPStdio, Project: "/p", Command: "mcp call", SideEffect: cli.Remote, Decision: DecisionRun,
		ConfirmKind: &k, RequestID: "id", Request: RedactedRequest{Args: []string{}, Argv: []string{}, Flags: map[string]any{}},
		ExitCode: &exit, ErrorCode: &code, DurationMS: 7}
	if err := log.Append(rec); err != nil {
		t.Fatal(err)
	}
	b, _ := os.ReadFile(log.Path)
	want := `{"time":"2026-01-02T02:04:05.006Z","transport":"mcp-stdio","project":"/p","command":"mcp call","side_effect":"remote",` +
		`"decision":"run","confirm_kind":"request","request_id":"id","request":{"args":[],"argv":[],"flags":{}},"exit_code":0,` +
		`"error_code":"E424","duration_ms":7,"adhoc":null}` + "\n"
	if string(b) != want {
		t.Fatalf("got  %s\nwant %s", b, want)
	}
	nulls := AuditRecord{Request: RedactedRequest{Args: []string{}, Argv: []string{}, Flags: map[string]any{}}}
	line, _ := json.Marshal(nulls)
	if !strings.Contains(string(line), `"confirm_kind":null`) || !strings.Contains(string(line), `"exit_code":null`) ||
		!strings.Contains(string(line), `"error_code":null`) {
		t.Fatalf("nulls not explicit: %s", line)
	}
}

func TestAuditPermissions(t *testing.T) {
	home := t.TempDir()
	logs := filepath.Join(home, "logs")
	if err := os.Mkdir(logs, 0o755); err != nil { // as other commands may create it
		t.Fatal(err)
	}
	log := NewAuditLog(home)
	if err := os.WriteFile(log.Path, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := log.Check(); err != nil {
		t.Fatal(err)
	}
	for path, want := range map[string]os.FileMode{logs: 0o700, log.Path: 0o600} {
		st, err := os.Stat(path)
		if err != nil || st.Mode().Perm() != want {
			t.Errorf("%s: mode %v, want %v (%v)", path, st.Mode().Perm(), want, err)
		}
	}
	fresh := NewAuditLog(t.TempDir())
	if err := fresh.Append(AuditRecord{}); err != nil {
		t.Fatal(err)
	}
	st, _ := os.Stat(fresh.Path)
	dst, _ := os.Stat(filepath.Dir(fresh.Path))
	if st.Mode().Perm() != 0o600 || dst.Mode().Perm() != 0o700 {
		t.Fatalf("created %v in %v", st.Mode().Perm(), dst.Mode().Perm())
	}
}

func TestAuditRefusesASymlink(t *testing.T) {
	home := t.TempDir()
	log := NewAuditLog(home)
	if err := os.MkdirAll(filepath.Dir(log.Path), 0o700); err != nil {
		t.Fatal(err)
	}
	target := filepath.Join(t.TempDir(), "elsewhere")
	if err := os.Symlink(target, log.Path); err != nil {
		t.Fatal(err)
	}
	if err := log.Check(); err == nil {
		t.Fatal("a symlinked audit log was accepted")
	}
	if err := log.Append(AuditRecord{}); err == nil {
		t.Fatal("appended through a symlink")
	}
	if _, err := os.Stat(target); !os.IsNotExist(err) {
		t.Fatal("the symlink target was created")
	}
}

func TestAuditRotationWithConcurrentProcesses(t *testing.T) {
	writer := testbin.Build(t, "./testdata/machine/auditwriter")
	home := t.TempDir()
	const writers, each, pad = 4, 700, 8 << 10
	cmds := make([]*exec.Cmd, writers)
	for w := range cmds {
		cmds[w] = exec.Command(writer, home, fmt.Sprintf("w%d", w), fmt.Sprint(each), fmt.Sprint(pad))
		cmds[w].Stderr = os.Stderr
		if err := cmds[w].Start(); err != nil {
			t.Fatal(err)
		}
	}
	for _, c := range cmds {
		if err := c.Wait(); err != nil {
			t.Fatalf("writer: %v", err)
		}
	}
	log := NewAuditLog(home)
	seen := map[string]int{}
	files := 0
	for _, suffix := range []string{"", ".1", ".2", ".3", ".4"} {
		b, err := os.ReadFile(log.Path + suffix)
		if os.IsNotExist(err) {
			continue
		}
		if err != nil {
			t.Fatal(err)
		}
		if suffix == ".4" {
			t.Fatal("a fourth rotated file exists")
		}
		files++
		st, _ := os.Stat(log.Path + suffix)
		if st.Size() > AuditRotateBytes || st.Mode().Perm() != 0o600 {
			t.Errorf("%s: %d bytes, mode %v", suffix, st.Size(), st.Mode().Perm())
		}
		for _, line := range strings.Split(strings.TrimSuffix(string(b), "\n"), "\n") {
			var rec AuditRecord
			if err := json.Unmarshal([]byte(line), &rec); err != nil {
				t.Fatalf("%s: a torn or interleaved line (%d bytes): %v", suffix, len(line), err)
			}
			seen[rec.RequestID]++
		}
	}
	if files < 3 {
		t.Fatalf("expected at least two rotations, found %d files", files)
	}
	for w := 0; w < writers; w++ {
		for i := 0; i < each; i++ {
			if n := seen[fmt.Sprintf("w%d-%d", w, i)]; n != 1 {
				t.Fatalf("record w%d-%d appears %d times", w, i, n)
			}
		}
	}
}

func TestAuditDropsTheOldestRotation(t *testing.T) {
	home := t.TempDir()
	log := NewAuditLog(home)
	if err := log.Check(); err != nil {
		t.Fatal(err)
	}
	for i, name := range []string{".1", ".2", ".3"} {
		if err := os.WriteFile(log.Path+name, []byte(fmt.Sprintf("old%d\n", i+1)), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(log.Path, []byte(strings.Repeat("x", AuditRotateBytes-10)+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := log.Append(AuditRecord{RequestID: "new"}); err != nil {
		t.Fatal(err)
	}
	read := func(s string) string { b, _ := os.ReadFile(log.Path + s); return string(b) }
	if read(".3") != "old2\n" || read(".2") != "old1\n" || !strings.HasPrefix(read(".1"), "xxxx") || !strings.Contains(read(""), `"request_id":"new"`) {
		t.Fatalf("rotation: .3=%q .2=%q current=%q", read(".3"), read(".2"), read(""))
	}
}

// An audit record redacts a copy: the request the caller holds (and may run
// next) keeps its values.
func TestAuditRecordLeavesTheRequestUnchanged(t *testing.T) {
	tbl := stubTable()
	cmd := tbl.Lookup([]string{"stub", "plan"})
	req := &Request{Args: []string{"w"}, Flags: map[string]FlagValue{"input": {Kind: KindList, List: []string{"api_token=abc123"}}}}
	iv := &Invoker{Table: tbl, Project: t.TempDir(), Audit: NewAuditLog(t.TempDir())}
	c := &call{iv: iv, transport: TransportMCPStdio, start: time.Now(), path: "stub plan", cmd: cmd, req: req, side: cli.Write}
	c.audit(DecisionRefused, nil, nil, nil)
	if got := req.Flags["input"].List[0]; got != "api_token=abc123" {
		t.Fatalf("the audit record rewrote the request's value to %q", got)
	}
	b, err := os.ReadFile(iv.Audit.Path)
	if err != nil || strings.Contains(string(b), "abc123") || !strings.Contains(string(b), `api_token=[REDACTED]`) {
		t.Fatalf("audit line %s (%v)", b, err)
	}
}
