package invoke

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/relavium/relavium/internal/testbin"
)

type lintFinding struct {
	Rule, Server, Kind, Item, Pointer, Severity, Suppressed, Skipped string
}

func findLint(fs []lintFinding, rule, server, item string) *lintFinding {
	for i := range fs {
		if fs[i].Rule == rule && fs[i].Server == server && fs[i].Item == item {
			return &fs[i]
		}
	}
	return nil
}

// mcp lint on real servers: the liar's read-only delete_all_files
// (RL012), the escapes server's hidden text (RL005), a skipped tool read
// as sent (weird, refused by discovery, is still linted), the same tool
// names on two servers (RL010); a suppression with its reason; exit 1 at
// --fail-on, 0 with never; --json and --format sarif.
func TestMCPLint(t *testing.T) {
	e := newMCPE2E(t)
	e.declare(t, map[string]string{"liar": "liar", "esc": "escapes"}, "")
	r := e.run(t, nil, "mcp", "ls", "--json")
	allow := allowFlags(r.pendingDigests(t))
	lintRun := func(args ...string) mcpRun {
		return e.run(t, nil, append(append([]string{"mcp", "lint"}, args...), allow...)...)
	}
	r = lintRun("--json")
	if r.code != 1 || r.errCode() != "E944" {
		t.Fatalf("lint --json: %d %s %s", r.code, r.stdout, r.stderr)
	}
	var env struct {
		Data struct {
			Findings []lintFinding
			Rules    []struct{ ID string }
		} `json:"data"`
	}
	if err := json.Unmarshal([]byte(r.stdout), &env); err != nil || len(env.Data.Rules) != 15 {
		t.Fatalf("envelope: %v %s", err, r.stdout)
	}
	fs := env.Data.Findings
	if f := findLint(fs, "RL012", "liar", "delete_all_files"); f == nil || f.Pointer != "/annotations/readOnlyHint" || f.Suppressed != "" {
		t.Errorf("RL012 on the liar: %+v", f)
	}
	if f := findLint(fs, "RL005", "esc", "escapes"); f == nil {
		t.Errorf("no RL005 on the escapes tool: %+v", fs)
	}
	if f := findLint(fs, "RL005", "liar", "weird"); f == nil || f.Skipped == "" || !strings.HasPrefix(f.Pointer, "/inputSchema/properties/") {
		t.Errorf("the skipped tool weird is not linted as sent: %+v", f)
	}
	if f := findLint(fs, "RL010", "liar", "echo"); f == nil {
		t.Errorf("no RL010 for echo offered twice")
	}

	// A suppression: the finding stays, marked, and stops failing.
	suppress := `lint_suppress = [{ rule = "RL012", tool = "delete_all_files", reason = "a test fixture that lies on purpose" }]`
	cfg := fmt.Sprintf("[[mcp_servers]]\nname = \"liar\"\ntransport = \"stdio\"\ncommand = %q\nargs = [\"-mode\", \"liar\"]\n%s\n\n"+
		"[[mcp_servers]]\nname = \"esc\"\ntransport = \"stdio\"\ncommand = %q\nargs = [\"-mode\", \"escapes\"]\n", e.hostile, suppress, e.hostile)
	if err := os.WriteFile(filepath.Join(e.project, ".relavium", "config.toml"), []byte(cfg), 0o644); err != nil {
		t.Fatal(err)
	}
	r = lintRun("--json", "--fail-on", "never")
	if r.code != 0 || json.Unmarshal([]byte(r.stdout), &env) != nil {
		t.Fatalf("--fail-on never: %d %s %s", r.code, r.stdout, r.stderr)
	}
	if f := findLint(env.Data.Findings, "RL012", "liar", "delete_all_files"); f == nil || f.Suppressed != "a test fixture that lies on purpose" {
		t.Errorf("suppressed RL012: %+v", f)
	}
	r = lintRun("--format", "sarif")
	var log struct {
		Version string
		Runs    []struct{ Results []struct{ RuleID string } }
	}
	if r.code != 1 || json.Unmarshal([]byte(r.stdout), &log) != nil || log.Version != "2.1.0" || len(log.Runs[0].Results) == 0 {
		t.Fatalf("sarif: %d %.400s", r.code, r.stdout)
	}
	r = lintRun()
	if r.code != 1 || !strings.Contains(r.stdout, "suppressed RL012") || !strings.Contains(r.stdout, "reason: a test fixture") ||
		!strings.Contains(r.stderr, "E944") || strings.Contains(r.stdout, "\x1b") {
		t.Fatalf("human: %d\n%s\n%s", r.code, r.stdout, r.stderr)
	}
	if r := lintRun("--json", "--format", "sarif"); r.code != 2 {
		t.Errorf("--json with --format sarif: %d", r.code)
	}
}

// A tools/list page over the 4 MiB the wire recorder keeps: the tool
// discovery refused on it is not passed silently but reported unread at
// error level (RL015), so lint fails instead of exiting 0 with nothing.
func TestMCPLintReportsAToolItCouldNotRead(t *testing.T) {
	e := newMCPE2E(t)
	bin := testbin.Build(t, "./testdata/servers/hostile-discovery")
	allow := e.declareStdio(t, "big", bin, "-case", "giant-line", "-variant", "desc")
	r := e.run(t, nil, append([]string{"mcp", "lint", "--json"}, allow...)...)
	var env struct {
		Data struct{ Findings []lintFinding } `json:"data"`
	}
	if r.code != 1 || r.errCode() != "E944" || json.Unmarshal([]byte(r.stdout), &env) != nil {
		t.Fatalf("lint of a 4 MiB page: %d %s %s", r.code, r.stdout, r.stderr)
	}
	if f := findLint(env.Data.Findings, "RL015", "big", "giant"); f == nil || f.Severity != "error" || f.Skipped == "" {
		t.Fatalf("no RL015 error for the unread giant tool: %+v", env.Data.Findings)
	}
}
