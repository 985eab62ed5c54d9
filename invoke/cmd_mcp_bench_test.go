package invoke

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/relavium/relavium/internal/testbin"
	"github.com/relavium/relavium/loadtest"
)

// benchE2E is a project declaring the stall server (testdata/servers/stall:
// one call at a time, -latency each, the -stall-at'th call takes a second)
// as "stall", and the demo server as "demo", with their digests.
type benchE2E struct {
	*runE2E
	allow []string
}

func newBenchE2E(t *testing.T, stallArgs ...string) *benchE2E {
	t.Helper()
	e := newE2E(t)
	stall := testbin.Build(t, "./testdata/servers/stall")
	args := "["
	for i, a := range stallArgs {
		if i > 0 {
			args += ", "
		}
		args += fmt.Sprintf("%q", a)
	}
	args += "]"
	cfg := fmt.Sprintf("[[mcp_servers]]\nname = \"stall\"\ntransport = \"stdio\"\ncommand = %q\nargs = %s\n\n"+
		"[[mcp_servers]]\nname = \"demo\"\ntransport = \"stdio\"\ncommand = %q\nargs = [\"demo-server\"]\n", stall, args, e.bin)
	if err := os.WriteFile(filepath.Join(e.project, ".relavium", "config.toml"), []byte(cfg), 0o644); err != nil {
		t.Fatal(err)
	}
	o := e.run(t, "consent", "digest", "--json")
	servers, _ := runData(runEnvelope(t, o))["servers"].([]any)
	if o.code != 0 || len(servers) != 2 {
		t.Fatalf("consent digest: exit %d %s\n%s", o.code, o.stdout, o.stderr)
	}
	b := &benchE2E{runE2E: e}
	for _, s := range servers {
		b.allow = append(b.allow, "--allow-mcp-stdio", s.(map[string]any)["digest"].(string))
	}
	return b
}

func (b *benchE2E) bench(t *testing.T, args ...string) (runOutcome, map[string]any) {
	t.Helper()
	o := b.run(t, append(append([]string{"mcp", "bench", "--json", "--yes"}, b.allow...), args...)...)
	env := runEnvelope(t, o)
	data := runData(env)
	if data == nil {
		if e, _ := env["error"].(map[string]any); e != nil {
			data, _ = e["data"].(map[string]any)
		}
	}
	return o, data
}

func num(t *testing.T, m map[string]any, k string) float64 {
	t.Helper()
	v, ok := m[k].(float64)
	if !ok {
		t.Fatalf("%s missing from %v", k, m)
	}
	return v
}

// Against a real server with one 1-second stall, at 50 requests/s for 4 s,
// the open loop's p90 reflects the stall (the ~50 requests scheduled
// during it waited) while one closed-loop caller, which sends nothing
// while it waits, reports a p90 of milliseconds: the numbers the docs show
// side by side. Load can only raise the open loop's p90, so the bound on
// it holds on a busy machine.
func TestBenchOpenLoopShowsTheStallClosedLoopHides(t *testing.T) {
	if testing.Short() {
		t.Skip("runs two 4-second loads")
	}
	b := newBenchE2E(t, "-stall-at", "60")
	o, open := b.bench(t, "mcp_stall_work", "--rate", "50", "--duration", "4s")
	if o.code != 0 {
		t.Fatalf("open loop: exit %d\n%s", o.code, o.stderr)
	}
	if num(t, open, "count") != 200 || num(t, open, "error_count") != 0 {
		t.Fatalf("open loop: %v requests, %v errors", open["count"], open["error_count"])
	}
	if p90 := num(t, open, "p90_ms"); p90 < 500 {
		t.Errorf("open loop p90 %.1f ms hides the 1 s stall", p90)
	}
	o, closed := b.bench(t, "mcp_stall_work", "--closed", "1", "--duration", "4s")
	if o.code != 0 {
		t.Fatalf("closed loop: exit %d\n%s", o.code, o.stderr)
	}
	if num(t, closed, "max_ms") < 900 {
		t.Errorf("closed loop max %.1f ms: the stalled call was not measured", num(t, closed, "max_ms"))
	}
	if num(t, closed, "p90_ms") >= num(t, open, "p90_ms")/2 {
		t.Errorf("closed loop p90 %.1f ms against open %.1f ms", num(t, closed, "p90_ms"), num(t, open, "p90_ms"))
	}
	if closed["mode"] != "closed" || open["mode"] != "open" {
		t.Errorf("modes %v / %v", open["mode"], closed["mode"])
	}
}

// Thresholds fail the run with E724 naming each threshold, exit 1, and the
// whole report still in the envelope; errors are counted by code; --save
// writes what --baseline reads back.
func TestBenchThresholdsErrorsAndBaseline(t *testing.T) {
	b := newBenchE2E(t, "-latency", "1ms")
	dir := t.TempDir()
	argsFile := filepath.Join(dir, "args.ndjson")
	if err := os.WriteFile(argsFile, []byte("{}\n{}\n{}\n{\"fail\":true}\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	save := filepath.Join(dir, "base.json")
	o, data := b.bench(t, "mcp_stall_work", "--rate", "40", "--duration", "1s", "--args-file", argsFile,
		"--save", save, "--max-error-rate", "1%")
	if o.code != 1 || runErrCode(runEnvelope(t, o)) != loadtest.CodeThreshold {
		t.Fatalf("exit %d, %s; want 1 and %s\n%s", o.code, runErrCode(runEnvelope(t, o)), loadtest.CodeThreshold, o.stdout)
	}
	errs, _ := data["errors"].(map[string]any)
	if errs["isError"] != float64(10) || num(t, data, "count") != 40 {
		t.Fatalf("errors %v of %v requests; want isError ×10 of 40 (one argument set in four fails)", errs, data["count"])
	}
	fails, _ := data["threshold_failures"].([]any)
	if len(fails) != 1 || fails[0].(map[string]any)["threshold"] != "--max-error-rate" {
		t.Fatalf("threshold failures %v", fails)
	}
	if _, err := loadtest.LoadBaseline(save); err != nil {
		t.Fatalf("--save wrote what --baseline refuses: %v", err)
	}
	o, data = b.bench(t, "mcp_stall_work", "--rate", "40", "--duration", "1s", "--baseline", save)
	if o.code != 0 {
		t.Fatalf("exit %d\n%s", o.code, o.stderr)
	}
	against, _ := data["against"].(map[string]any)
	rows, _ := against["rows"].([]any)
	if len(rows) != 7 {
		t.Fatalf("comparison rows %v", against)
	}
}

// tools/list loads the listing, not a tool; a plan out of bounds is
// refused before anything is spawned.
func TestBenchListAndRefusals(t *testing.T) {
	b := newBenchE2E(t)
	o, data := b.bench(t, "--method", "tools/list", "--server", "demo", "--rate", "20", "--duration", "500ms")
	if o.code != 0 || data["target"] != "tools/list" || num(t, data, "count") != 10 || num(t, data, "error_count") != 0 {
		t.Fatalf("exit %d, %v\n%s", o.code, data, o.stderr)
	}
	for _, args := range [][]string{
		{"mcp_stall_work", "--rate", "0"},
		{"mcp_stall_work", "--rate", "fast"},
		{"mcp_stall_work", "--closed", "2", "--rate", "5"},
		{"mcp_stall_work", "--timeout", "0s"},
	} {
		o, _ := b.bench(t, args...)
		if c := runErrCode(runEnvelope(t, o)); o.code != 2 || c != loadtest.CodeBadPlan {
			t.Errorf("%v: exit %d %s, want 2 %s", args, o.code, c, loadtest.CodeBadPlan)
		}
	}
	o, _ = b.bench(t, "mcp_stall_work", "--max-p99", "soon")
	if c := runErrCode(runEnvelope(t, o)); o.code != 2 || c != loadtest.CodeBadThreshold {
		t.Errorf("--max-p99 soon: exit %d %s", o.code, c)
	}
}
