package invoke

import (
	"os"
	"strings"
	"testing"

	"github.com/relavium/relavium/invoke/cli"
)

// mcp call --task against server-everything's simulate-research-query: the
// task's statuses on stderr, its result on stdout; a --timeout shorter than
// the task cancels it at the server (E933); mcp tasks lists and cancels.
func TestMCPCallTaskOnServerEverything(t *testing.T) {
	p := requireMCPPeers(t)
	e := newMCPE2E(t)
	e.declare(t, nil, "[[mcp_servers]]\nname = \"ev\"\ntransport = \"stdio\"\ncommand = "+strconvQuote(p.node)+
		"\nargs = ["+strconvQuote(p.everything)+", \"stdio\"]\n")
	env := []string{"PATH=" + os.Getenv("PATH")}
	if r := e.run(t, env, "consent", "grant", "ev", "--yes"); r.code != 0 {
		t.Fatalf("consent grant: %d %s", r.code, r.stderr)
	}
	r := e.run(t, env, "mcp", "call", "mcp_ev_simulate-research-query", "topic=tides", "--task", "--yes")
	if r.code != 0 || !strings.Contains(r.stdout, "# Research Report: tides") {
		t.Fatalf("--task: %d\n%s\n%s", r.code, r.stdout, r.stderr)
	}
	// The first status comes with the task; the ones between depend on
	// when the polls fall, so only the first and the last are certain.
	for _, want := range []string{": working — Gathering sources...", ": completed"} {
		if !strings.Contains(r.stderr, want) {
			t.Errorf("stderr lacks %q:\n%s", want, r.stderr)
		}
	}
	r = e.run(t, env, "mcp", "call", "mcp_ev_simulate-research-query", "topic=tides", "--task", "--yes", "--json")
	data, _ := r.env["data"].(map[string]any)
	task, _ := data["task"].(map[string]any)
	if r.code != 0 || task["status"] != "completed" || task["task_id"] == "" {
		t.Fatalf("--task --json: %d %s", r.code, r.stdout)
	}
	r = e.run(t, env, "mcp", "call", "mcp_ev_simulate-research-query", "topic=tides", "--task", "--yes", "--timeout", "1500ms", "--json")
	if r.code != 1 || r.errCode() != cli.CodeTaskDeadline || !strings.Contains(r.stdout, "cancelled at the server") {
		t.Fatalf("--task past --timeout: %d %s", r.code, r.stdout)
	}
	if r := e.run(t, env, "mcp", "tasks", "ev"); r.code != 0 || r.stdout != "ev holds no task\n" {
		t.Errorf("mcp tasks on a fresh server: %d %q %s", r.code, r.stdout, r.stderr)
	}
	if r := e.run(t, env, "mcp", "tasks", "ev", "--cancel", "nope", "--json"); r.code != 1 || !strings.Contains(r.stdout, "Task not found") {
		t.Errorf("cancel of an unknown task: %d %s", r.code, r.stdout)
	}
}

// The demo server runs any tool as a task over stdio: long_operation is
// polled to its result; past --timeout it is cancelled at the server; a
// tool's isError result stays one.
func TestMCPCallTaskOnTheDemoServer(t *testing.T) {
	e := newMCPE2E(t)
	e.declareDemo(t)
	r := e.run(t, nil, "mcp", "call", "mcp_demo_long_operation", "steps=3", "duration_ms=600", "--task", "--yes")
	if r.code != 0 || !strings.Contains(r.stdout, "Long operation finished: 3 steps") ||
		!strings.Contains(r.stderr, "task demo-task-1: working") || !strings.Contains(r.stderr, "task demo-task-1: completed") {
		t.Fatalf("--task: %d\n%s\n%s", r.code, r.stdout, r.stderr)
	}
	r = e.run(t, nil, "mcp", "call", "mcp_demo_long_operation", "steps=4", "duration_ms=20000", "--task", "--yes", "--timeout", "1s")
	if r.code != 1 || !strings.Contains(r.stderr, "E933") || !strings.Contains(r.stderr, "cancelled at the server") {
		t.Fatalf("past --timeout: %d\n%s", r.code, r.stderr)
	}
	if r := e.run(t, nil, "mcp", "call", "mcp_demo_always_fails", "--task", "--yes", "--json"); r.code != 1 || r.errCode() != cli.CodeToolError {
		t.Errorf("an isError result through a task: %d %s", r.code, r.stdout)
	}
}
