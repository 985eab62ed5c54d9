package invoke

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The gates on the real peers (server-everything, server-filesystem):
// locking twice gives the same file, check finds no drift, a recording of
// the lock replays to the same definitions (check --against), and lint
// raises no error, and nothing on the filesystem server (it owns its
// well-known names).
func TestGatesOnPeers(t *testing.T) {
	p := requireMCPPeers(t)
	e := newMCPE2E(t)
	fsServer := filepath.Join(p.dir, "node_modules", "@modelcontextprotocol", "server-filesystem", "dist", "index.js")
	if _, err := os.Stat(fsServer); err != nil {
		t.Skipf("server-filesystem is not installed: %v", err)
	}
	cfg := fmt.Sprintf("[[mcp_servers]]\nname = \"everything\"\ntransport = \"stdio\"\ncommand = %q\nargs = [%q]\n\n"+
		"[[mcp_servers]]\nname = \"files\"\ntransport = \"stdio\"\ncommand = %q\nargs = [%q, %q]\n", p.node, p.everything, p.node, fsServer, e.project)
	if err := os.WriteFile(filepath.Join(e.project, ".relavium", "config.toml"), []byte(cfg), 0o644); err != nil {
		t.Fatal(err)
	}
	allow := allowFlags(e.run(t, nil, "mcp", "ls", "--json").pendingDigests(t))
	run := func(args ...string) mcpRun { return e.run(t, nil, append(args, allow...)...) }

	rec := filepath.Join(t.TempDir(), "lock.ndjson")
	if r := run("--record", rec, "mcp", "lock"); r.code != 0 {
		t.Fatalf("lock: %d %s %s", r.code, r.stdout, r.stderr)
	}
	first, _ := os.ReadFile(filepath.Join(e.project, ".relavium", "mcp-lock.json"))
	if r := run("mcp", "lock"); r.code != 0 {
		t.Fatalf("second lock: %d %s", r.code, r.stderr)
	}
	if again, _ := os.ReadFile(filepath.Join(e.project, ".relavium", "mcp-lock.json")); string(again) != string(first) || !strings.Contains(string(first), `"name": "everything"`) {
		t.Fatal("the lock of the peers is not stable")
	}
	// The lock sees what the workbench sees: server-everything offers
	// trigger-url-elicitation only to a client declaring url elicitation,
	// as the workbench does (so its drift flag agrees with mcp check).
	if !strings.Contains(string(first), "trigger-url-elicitation") {
		t.Fatal("the lock lacks the tool the workbench is offered (url elicitation not declared)")
	}
	if r := run("mcp", "check"); r.code != 0 {
		t.Fatalf("check: %d %s %s", r.code, r.stdout, r.stderr)
	}
	if r := run("mcp", "check", "--against", rec); r.code != 0 || !strings.Contains(r.stdout, "no drift") {
		t.Fatalf("check --against the recording: %d %s %s", r.code, r.stdout, r.stderr)
	}
	r := run("mcp", "lint", "--json")
	var env struct {
		Data struct{ Findings []lintFinding } `json:"data"`
	}
	if r.code != 0 || json.Unmarshal([]byte(r.stdout), &env) != nil {
		t.Fatalf("lint: %d %s %s", r.code, r.stdout, r.stderr)
	}
	for _, f := range env.Data.Findings {
		if f.Severity == "error" || f.Server == "files" {
			t.Errorf("a finding on a peer: %+v", f)
		}
	}
	// The filesystem server owns read_file: it is not shadowing anything.
	if f := findLint(env.Data.Findings, "RL011", "files", "read_file"); f != nil {
		t.Errorf("read_file of the filesystem server is called shadowing: %+v", f)
	}
}
