package invoke

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// driftE2E is a project declaring the hostile server's drift mode as "fs"
// with its consent given on the command line.
type driftE2E struct {
	*mcpE2E
	allow []string
}

func newDriftE2E(t *testing.T) *driftE2E {
	t.Helper()
	e := &driftE2E{mcpE2E: newMCPE2E(t)}
	e.declare(t, map[string]string{"fs": "drift"}, "")
	r := e.run(t, nil, "mcp", "ls", "--json")
	if r.code != 2 || r.errCode() != "E301" {
		t.Fatalf("ls without consent: %d %s %s", r.code, r.stdout, r.stderr)
	}
	e.allow = allowFlags(r.pendingDigests(t))
	return e
}

func (e *driftE2E) mcp(t *testing.T, args ...string) mcpRun {
	t.Helper()
	return e.run(t, nil, append(append([]string{"mcp"}, args...), e.allow...)...)
}

func (e *driftE2E) drift(t *testing.T, on bool, names ...string) {
	t.Helper()
	for _, n := range names {
		p := filepath.Join(e.project, "drift-"+n)
		if on {
			if err := os.WriteFile(p, nil, 0o644); err != nil {
				t.Fatal(err)
			}
		} else if err := os.Remove(p); err != nil {
			t.Fatal(err)
		}
	}
}

// The lock holds every definition canonically and is stable; check exits
// 0 while nothing changed and 1 naming each change: a description (word
// diff), a schema (type changed, property added, required changed), an
// annotation (a destructive tool now claiming read-only, called out first),
// an added tool; --json carries the structured diff and --format github
// workflow annotations.
func TestMCPLockAndCheck(t *testing.T) {
	e := newDriftE2E(t)
	r := e.mcp(t, "lock", "--json")
	if r.code != 0 {
		t.Fatalf("lock: %d %s %s", r.code, r.stdout, r.stderr)
	}
	path := filepath.Join(e.project, ".relavium", "mcp-lock.json")
	first, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var lf struct {
		V       int `json:"v"`
		Servers []struct {
			Name, Transport, Digest, Protocol string
			Tools                             []struct{ Name, Digest string }
			Prompts, Resources                []struct{ Name string }
		} `json:"servers"`
	}
	if err := json.Unmarshal(first, &lf); err != nil || lf.V != 1 || len(lf.Servers) != 1 {
		t.Fatalf("lock file: %v %s", err, first)
	}
	s := lf.Servers[0]
	if s.Name != "fs" || s.Transport != "stdio" || !strings.HasPrefix(s.Digest, "v1:") || s.Protocol == "" ||
		len(s.Prompts) != 1 || len(s.Resources) != 1 || s.Resources[0].Name != "note://one" {
		t.Fatalf("server entry: %+v", s)
	}
	names := []string{}
	for _, tool := range s.Tools {
		names = append(names, tool.Name)
		if !strings.HasPrefix(tool.Digest, "sha256:") {
			t.Errorf("tool %s digest %q", tool.Name, tool.Digest)
		}
	}
	if !strings.Contains(strings.Join(names, ","), "echo") || !strings.Contains(strings.Join(names, ","), "wipe") {
		t.Fatalf("tools %v", names)
	}
	if strings.Contains(string(first), e.home) {
		t.Error("the lock names the relavium home")
	}
	if r := e.mcp(t, "lock"); r.code != 0 {
		t.Fatalf("second lock: %d %s", r.code, r.stderr)
	}
	if again, _ := os.ReadFile(path); string(again) != string(first) {
		t.Fatal("locking an unchanged server changed the lock")
	}

	if r := e.mcp(t, "check"); r.code != 0 || !strings.Contains(r.stdout, "no drift") {
		t.Fatalf("check unchanged: %d %s %s", r.code, r.stdout, r.stderr)
	}

	e.drift(t, true, "description")
	r = e.mcp(t, "check")
	if r.code != 1 || !strings.Contains(r.stdout, "tool wipe changed") ||
		!strings.Contains(r.stdout, "description: Removes the file at [-path.-] {+path, then sends its contents to a server of ours.+}") ||
		!strings.Contains(r.stderr, "E941") {
		t.Fatalf("description drift: %d\n%s\n%s", r.code, r.stdout, r.stderr)
	}
	e.drift(t, false, "description")

	e.drift(t, true, "schema")
	r = e.mcp(t, "check")
	for _, want := range []string{
		"schema type changed /inputSchema/properties/path/type: \"string\" → \"integer\"",
		"schema property added /inputSchema/properties/to: (absent) → {\"type\":\"string\"}",
		"required changed /inputSchema/required",
	} {
		if r.code != 1 || !strings.Contains(r.stdout, want) {
			t.Errorf("schema drift lacks %q: %d\n%s", want, r.code, r.stdout)
		}
	}
	e.drift(t, false, "schema")

	e.drift(t, true, "annotation", "added")
	r = e.mcp(t, "check")
	lines := strings.Split(r.stdout, "\n")
	if r.code != 1 || !strings.HasPrefix(lines[0], "!! server fs: tool wipe now claims read-only") ||
		!strings.Contains(r.stdout, "annotation flipped /annotations/destructiveHint: true → (absent)") ||
		!strings.Contains(r.stdout, "now claims read-only /annotations/readOnlyHint: false → true") ||
		!strings.Contains(r.stdout, "server fs: tool extra added") {
		t.Fatalf("annotation drift: %d\n%s", r.code, r.stdout)
	}

	r = e.mcp(t, "check", "--json")
	if r.code != 1 || r.errCode() != "E941" {
		t.Fatalf("check --json: %d %s", r.code, r.stdout)
	}
	var env struct {
		Data struct {
			Servers []struct {
				Server string
				Tools  struct {
					Added   []string `json:"added"`
					Changed []struct {
						Name            string `json:"name"`
						ReadOnlyClaimed bool   `json:"read_only_claimed"`
						Changes         []struct{ Pointer, Kind string }
					} `json:"changed"`
				} `json:"tools"`
			} `json:"servers"`
		} `json:"data"`
	}
	if err := json.Unmarshal([]byte(r.stdout), &env); err != nil || len(env.Data.Servers) != 1 {
		t.Fatalf("envelope: %v %s", err, r.stdout)
	}
	tools := env.Data.Servers[0].Tools
	if len(tools.Added) != 1 || tools.Added[0] != "extra" || len(tools.Changed) != 1 || !tools.Changed[0].ReadOnlyClaimed ||
		tools.Changed[0].Changes[0].Kind != "read_only_claimed" {
		t.Fatalf("structured diff: %+v", tools)
	}

	r = e.mcp(t, "check", "--format", "github")
	if r.code != 1 || !strings.HasPrefix(r.stdout, "::error file=") || !strings.Contains(r.stdout, "file=.relavium/mcp-lock.json,title=relavium mcp check::server fs: tool wipe now claims read-only") {
		t.Fatalf("github annotations: %d\n%s", r.code, r.stdout)
	}
	e.drift(t, false, "annotation", "added")
	if r := e.mcp(t, "check"); r.code != 0 {
		t.Fatalf("check after the drift went away: %d %s", r.code, r.stdout)
	}
}

// mcp check on a lock file that is a FIFO (a hostile checkout) refuses it
// at once with E940 instead of waiting for a writer.
func TestMCPCheckRefusesAFIFOLock(t *testing.T) {
	e := newDriftE2E(t)
	if err := syscall.Mkfifo(filepath.Join(e.project, ".relavium", "mcp-lock.json"), 0o644); err != nil {
		t.Skipf("no FIFOs here: %v", err)
	}
	r := e.mcp(t, "check", "--json")
	if r.code != 2 || r.errCode() != "E940" || !strings.Contains(r.stdout, "named pipe") {
		t.Fatalf("check on a FIFO lock: %d %s %s", r.code, r.stdout, r.stderr)
	}
}
