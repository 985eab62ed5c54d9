package invoke

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/relavium/relavium/fault"
	"github.com/relavium/relavium/invoke/cli"
)

// End-to-end tests of `relavium run` and `relavium workflow ls`: the real
// binary, a real project (testdata/workflows/project) and the embedded demo
// server as a real stdio child, no TTY (pipes) unless tmux is used.
func TestWorkflowCommandsE2E(t *testing.T) {
	e := newE2E(t)

	t.Run("workflow ls", func(t *testing.T) {
		o := e.run(t, "workflow", "ls", "--json")
		env := runEnvelope(t, o)
		ws, _ := runData(env)["workflows"].([]any)
		if o.code != 0 || len(ws) != 6 {
			t.Fatalf("exit %d, %d workflows: %s", o.code, len(ws), o.stdout)
		}
		first := ws[0].(map[string]any)
		if first["id"] != "approve" || first["side_effect"] != "write" || first["trigger"] != "manual" {
			t.Fatalf("first row %v", first)
		}
		human := e.run(t, "workflow", "ls")
		if human.code != 0 || !strings.Contains(human.stdout, "greet") || !strings.Contains(human.stdout, "mcp_call") || !strings.Contains(human.stdout, "name:string*") {
			t.Fatalf("human list:\n%s", human.stdout)
		}
	})

	t.Run("workflow ls reports every problem", func(t *testing.T) {
		bad := filepath.Join(e.project, ".relavium", "workflows", "zz-bad.yaml")
		if err := os.WriteFile(bad, []byte("id: zz-bad\nside_effect: maybe\nsteps: [{id: a, tool: mcp_demo_echo, args: {t: \"{{secrets.x}}\"}}]\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		defer os.Remove(bad)
		o := e.run(t, "workflow", "ls", "--json")
		env := runEnvelope(t, o)
		if o.code != 2 || runErrCode(env) != "E600" {
			t.Fatalf("exit %d %v", o.code, env)
		}
		ps, _ := runData(env)["problems"].([]any)
		good, _ := runData(env)["workflows"].([]any)
		if len(ps) != 2 || len(good) != 6 {
			t.Fatalf("problems %v, good %d", ps, len(good))
		}
		p := ps[0].(map[string]any)
		if p["line"] != 2.0 || p["column"] != 14.0 || p["field"] != "side_effect" || !strings.HasSuffix(p["file"].(string), "zz-bad.yaml") {
			t.Fatalf("problem %v", p)
		}
		human := e.run(t, "workflow", "ls")
		if human.code != 2 || !strings.Contains(human.stderr, "zz-bad.yaml:2:14: side_effect:") || human.stdout != "" {
			t.Fatalf("human problems (exit %d):\n%s", human.code, human.stderr)
		}
	})

	t.Run("authored and usage errors exit 2", func(t *testing.T) {
		for _, c := range []struct {
			args []string
			code fault.Code
		}{
			{[]string{"run", "nope", "--json"}, "E601"},
			{[]string{"run", "../x", "--json"}, "E602"},
			{[]string{"run", "greet", "--json"}, "E603"},                                          // name is required
			{[]string{"run", "greet", "--json", "--input", "name=x", "--input", "a=two"}, "E603"}, // a is a number
			{[]string{"run", "greet", "--json", "--input", "zz=1", "--input", "name=x"}, "E603"},
			{[]string{"run", "ask", "--json", "--events"}, "E102"},
			{[]string{"run", "ask", "--json", "--plan", "--plan-id", strings.Repeat("a", 64)}, "E102"},
		} {
			o := e.run(t, c.args...)
			env := runEnvelope(t, o)
			if o.code != 2 || runErrCode(env) != c.code {
				t.Fatalf("%v: exit %d %v", c.args, o.code, env)
			}
		}
	})

	t.Run("gate refused headless exits 2 before anything is spawned", func(t *testing.T) {
		for _, wf := range []string{"ask", "approve"} {
			o := e.run(t, "run", wf, "--json")
			env := runEnvelope(t, o)
			if o.code != 2 || runErrCode(env) != "E611" {
				t.Fatalf("%s: exit %d %v", wf, o.code, env)
			}
			msg := env["error"].(map[string]any)["message"].(string)
			if !strings.Contains(msg, "gate ") || !strings.Contains(msg, "--yes") {
				t.Fatalf("the refusal does not name the gate: %s", msg)
			}
		}
		// approve's servers need consent (no --allow-mcp-stdio here): E611,
		// not a consent error, proves the gate was refused before connecting.
	})

	t.Run("gate approved with --yes", func(t *testing.T) {
		o := e.run(t, "run", "ask", "--yes", "--json", "--input", "who=CI")
		env := runEnvelope(t, o)
		outs, _ := runData(env)["outputs"].(map[string]any)
		if o.code != 0 || outs["who"] != "CI" || runData(env)["status"] != "completed" {
			t.Fatalf("exit %d %v\n%s", o.code, env, o.stderr)
		}
		if !strings.Contains(o.stderr, "approved by --yes") {
			t.Fatalf("stderr does not say the gate was approved by --yes:\n%s", o.stderr)
		}
	})

	t.Run("events stream ends with the terminal event", func(t *testing.T) {
		o := e.run(t, "run", "ask", "--yes", "--events")
		evs := runNDJSON(t, o.stdout)
		got := strings.Join(runTypesOf(evs), " ")
		if o.code != 0 || got != "run:started gate:requested gate:resolved run:completed" {
			t.Fatalf("exit %d events %s\n%s", o.code, got, o.stderr)
		}
		if evs[3]["outputs"].(map[string]any)["who"] != "you" || evs[0]["run_id"] == "" || evs[0]["run_id"] != evs[3]["run_id"] {
			t.Fatalf("terminal %v", evs[3])
		}
	})

	t.Run("plan and plan-id drift", func(t *testing.T) {
		o := e.run(t, "run", "greet", "--plan", "--json", "--input", "name=Ada")
		plan := runData(runEnvelope(t, o))
		id, _ := plan["plan_id"].(string)
		if o.code != 0 || len(id) != 64 || plan["requires_confirmation"] != false {
			t.Fatalf("plan: exit %d %v", o.code, plan)
		}
		servers, _ := plan["servers"].([]any)
		if len(servers) != 1 || !strings.HasPrefix(servers[0].(map[string]any)["digest"].(string), "v1:") {
			t.Fatalf("plan servers %v", servers)
		}
		if o2 := e.run(t, "run", "greet", "--plan", "--json", "--input", "name=Ada"); runData(runEnvelope(t, o2))["plan_id"] != id {
			t.Fatal("the same plan twice has two ids")
		}
		human := e.run(t, "run", "greet", "--plan", "--input", "name=Ada")
		if !strings.Contains(human.stdout, "plan_id: "+id) {
			t.Fatalf("human plan:\n%s", human.stdout)
		}
		// Without its required input the plan is still shown: the input is
		// marked missing and the plan has no id (it cannot be run as is);
		// the run itself still refuses the missing input (E603).
		o = e.run(t, "run", "greet", "--plan", "--json")
		partial := runData(runEnvelope(t, o))
		if o.code != 0 || partial["plan_id"] != nil || fmt.Sprint(partial["missing_inputs"]) != "[name]" || partial["steps"] == nil {
			t.Fatalf("plan without inputs: exit %d %v", o.code, partial)
		}
		if human := e.run(t, "run", "greet", "--plan"); human.code != 0 || !strings.Contains(human.stdout, "missing input: name (required; pass --input name=…)") ||
			!strings.Contains(human.stdout, "plan_id: none") {
			t.Fatalf("human plan without inputs: exit %d\n%s", human.code, human.stdout)
		}
		if o = e.run(t, "run", "greet", "--json"); o.code != 2 || runErrCode(runEnvelope(t, o)) != "E603" {
			t.Fatalf("a run without its required input: exit %d %s", o.code, o.stdout)
		}
		// Another input: E450 before anything is connected.
		o = e.run(t, "run", "greet", "--plan-id", id, "--json", "--input", "name=Bob")
		env := runEnvelope(t, o)
		if o.code != 2 || runErrCode(env) != "E450" || runData(env)["expected_plan_id"] != id {
			t.Fatalf("input drift: exit %d %v", o.code, env)
		}
		// The server moved (its args, hence its digest): E450.
		e.writeConfig(t, "--transport=stdio")
		o = e.run(t, "run", "greet", "--plan-id", id, "--json", "--input", "name=Ada")
		e.writeConfig(t, "")
		if env := runEnvelope(t, o); o.code != 2 || runErrCode(env) != "E450" {
			t.Fatalf("server drift: exit %d %v", o.code, env)
		}
		// The workflow moved: E450.
		path := filepath.Join(e.project, ".relavium", "workflows", "greet.yaml")
		orig, _ := os.ReadFile(path)
		_ = os.WriteFile(path, bytes.Replace(orig, []byte("b: 10"), []byte("b: 11"), 1), 0o644)
		o = e.run(t, "run", "greet", "--plan-id", id, "--json", "--input", "name=Ada")
		_ = os.WriteFile(path, orig, 0o644)
		if env := runEnvelope(t, o); o.code != 2 || runErrCode(env) != "E450" {
			t.Fatalf("workflow drift: exit %d %v", o.code, env)
		}
		// A plan that did not move runs (gate-only workflow: nothing to connect).
		p := runData(runEnvelope(t, e.run(t, "run", "ask", "--plan", "--json")))
		if p["requires_confirmation"] != true {
			t.Fatalf("a gate requires confirmation: %v", p)
		}
		o = e.run(t, "run", "ask", "--plan-id", p["plan_id"].(string), "--yes", "--json")
		if env := runEnvelope(t, o); o.code != 0 || runData(env)["status"] != "completed" {
			t.Fatalf("matching plan id: exit %d %v", o.code, env)
		}
	})

	t.Run("gate asks on a real terminal (tmux)", func(t *testing.T) {
		for _, c := range []struct{ keys, exit, out string }{
			{"y", "EXIT=0", "you"},
			{"n", "EXIT=1", "E610"},
		} {
			pane := e.tmux(t, "run", "ask")
			pane.waitFor(t, "continue? [y/N]")
			if !strings.Contains(pane.capture(t), "? gate ok: Shall we, you?") {
				t.Fatalf("the question is not on the terminal:\n%s", pane.capture(t))
			}
			pane.send(t, c.keys, "Enter")
			screen := pane.waitFor(t, "EXIT=")
			if !strings.Contains(screen, c.exit) || !strings.Contains(screen, c.out) {
				t.Fatalf("answer %s:\n%s", c.keys, screen)
			}
		}
	})

	// The tests below connect the demo server through connectServers
	// (invoke/cli/connect.go, the host seam) and `relavium demo-server`.
	digest := ""
	allow := func(t *testing.T) string {
		if digest == "" {
			digest = e.digest(t)
		}
		return digest
	}

	t.Run("success against the demo server", func(t *testing.T) {
		o := e.run(t, "run", "greet", "--json", "--allow-mcp-stdio", allow(t), "--input", "name=Ada", "--input", "a=2.5")
		env := runEnvelope(t, o)
		outs, _ := runData(env)["outputs"].(map[string]any)
		if o.code != 0 || outs["greeting"] != "hello Ada" || outs["sum"] != 5.5 || outs["plus_ten"] != 15.5 {
			t.Fatalf("exit %d %v\n%s", o.code, env, o.stderr)
		}
		h := e.run(t, "run", "greet", "--allow-mcp-stdio", allow(t), "--input", "name=Ada")
		if h.code != 0 || !strings.Contains(h.stdout, "greeting: hello Ada") || !strings.Contains(h.stderr, "▸ hello") {
			t.Fatalf("human run (exit %d):\nstdout %s\nstderr %s", h.code, h.stdout, h.stderr)
		}
	})

	t.Run("mcp_call routes through the same host", func(t *testing.T) {
		o := e.run(t, "run", "lowlevel", "--json", "--allow-mcp-stdio", allow(t))
		env := runEnvelope(t, o)
		if o.code != 0 || runData(env)["outputs"].(map[string]any)["text"] != "via mcp_call" {
			t.Fatalf("exit %d %v\n%s", o.code, env, o.stderr)
		}
	})

	t.Run("failed step", func(t *testing.T) {
		o := e.run(t, "run", "broken", "--events", "--allow-mcp-stdio", allow(t))
		evs := runNDJSON(t, o.stdout)
		last := evs[len(evs)-1]
		if o.code != 1 || last["type"] != "run:failed" || last["error_code"] != "E606" || last["step"] != "fail" {
			t.Fatalf("exit %d last %v\n%s", o.code, last, o.stderr)
		}
		for _, ev := range evs {
			if ev["type"] == "agent:tool_call" && ev["step"] == "never" {
				t.Fatal("a step after the failed one ran")
			}
		}
		j := runEnvelope(t, e.run(t, "run", "broken", "--json", "--allow-mcp-stdio", allow(t)))
		if runErrCode(j) != "E606" || runData(j)["step"] != "fail" {
			t.Fatalf("--json failure %v", j)
		}
	})

	t.Run("gate approved with --yes between tool steps", func(t *testing.T) {
		o := e.run(t, "run", "approve", "--yes", "--events", "--allow-mcp-stdio", allow(t))
		evs := runNDJSON(t, o.stdout)
		var runTypes []string
		for _, ev := range evs {
			if ev["run_id"] != nil {
				runTypes = append(runTypes, ev["type"].(string))
			}
		}
		want := "run:started agent:tool_call agent:tool_result gate:requested gate:resolved agent:tool_call agent:tool_result run:completed"
		if o.code != 0 || strings.Join(runTypes, " ") != want {
			t.Fatalf("exit %d run events %v\n%s", o.code, runTypes, o.stderr)
		}
		for _, ev := range evs {
			if ev["type"] == "gate:requested" && ev["message"] != "Really touch the demo? (about to touch the demo)" {
				t.Fatalf("gate message %v", ev["message"])
			}
		}
	})

	t.Run("plan id that did not move runs", func(t *testing.T) {
		p := runData(runEnvelope(t, e.run(t, "run", "greet", "--plan", "--json", "--input", "name=Ada")))
		o := e.run(t, "run", "greet", "--plan-id", p["plan_id"].(string), "--json", "--allow-mcp-stdio", allow(t), "--input", "name=Ada")
		if env := runEnvelope(t, o); o.code != 0 {
			t.Fatalf("exit %d %v\n%s", o.code, env, o.stderr)
		}
	})

	// A machine child (mcp serve's exec of `relavium run`) reads the time
	// its invoker gives it and stops before the kill, answering with its
	// own envelope instead of being killed into E423.
	t.Run("a machine child stops before its request's timeout", func(t *testing.T) {
		ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
		defer cancel()
		c := e.cmd(ctx, "run", "slow", "--json", "--allow-mcp-stdio", allow(t))
		c.Env = append(c.Env, cli.EnvInvokePath+"=run", cli.EnvDeadlineMS+"=4000")
		var so, se bytes.Buffer
		c.Stdout, c.Stderr = &so, &se
		err := c.Run()
		var ee *exec.ExitError
		if !errors.As(err, &ee) || ee.ExitCode() != 1 {
			t.Fatalf("exit: %v\n%s", err, se.String())
		}
		env := runEnvelope(t, runOutcome{so.String(), se.String(), 1})
		e, _ := env["error"].(map[string]any)
		if e["code"] != "E609" || !strings.Contains(fmt.Sprint(e["cause"]), "timeout is near") {
			t.Fatalf("envelope %v", env)
		}
	})

	t.Run("Ctrl-C mid-step cancels and leaves no process", func(t *testing.T) {
		ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
		defer cancel()
		c := e.cmd(ctx, "run", "slow", "--events", "--allow-mcp-stdio", allow(t))
		stdout, err := c.StdoutPipe()
		if err != nil {
			t.Fatal(err)
		}
		stderr := &lockedBuffer{}
		c.Stderr = stderr
		if err := c.Start(); err != nil {
			t.Fatal(err)
		}
		lines := make(chan string, 1024)
		go func() {
			defer close(lines)
			sc := bufio.NewScanner(stdout)
			for sc.Scan() {
				lines <- sc.Text()
			}
		}()
		waited := false
		t.Cleanup(func() { // on any early failure: nothing left running
			if !waited {
				_ = c.Process.Kill()
				for range lines {
				}
				_ = c.Wait()
			}
		})
		var all []string
		for line := range lines {
			all = append(all, line)
			if strings.Contains(line, `"agent:tool_progress"`) {
				break
			}
		}
		kids := runChildrenOf(c.Process.Pid)
		if len(kids) == 0 {
			t.Fatalf("no server child while the step runs; events so far: %v\nstderr %s", all, stderr.String())
		}
		if err := c.Process.Signal(syscall.SIGINT); err != nil {
			t.Fatal(err)
		}
		for line := range lines {
			all = append(all, line)
		}
		err = c.Wait()
		waited = true
		var ee *exec.ExitError
		if !errors.As(err, &ee) || ee.ExitCode() != 1 {
			t.Fatalf("exit after Ctrl-C: %v\nstderr %s", err, stderr.String())
		}
		evs := runNDJSON(t, strings.Join(all, "\n"))
		last := evs[len(evs)-1]
		if last["type"] != "run:cancelled" || last["error_code"] != "E609" || last["step"] != "work" {
			t.Fatalf("last event %v", last)
		}
		for _, k := range kids {
			if runProcAlive(k) {
				t.Fatalf("server process %d outlived the run", k)
			}
			if members := runGroupMembers(k); len(members) > 0 {
				t.Fatalf("process group %d still has %v", k, members)
			}
		}
	})
}
