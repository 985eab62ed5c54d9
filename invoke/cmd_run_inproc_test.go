package invoke

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/relavium/relavium/engine"
	"github.com/relavium/relavium/host/config"
	"github.com/relavium/relavium/invoke/cli"
	runcmd "github.com/relavium/relavium/invoke/cmd/run"
	"github.com/relavium/relavium/workflow"
)

// In-process tests of the run handler with a fake LiveHost in place of
// connectServers: printers, gates on a (pipe) terminal, cancellation and
// teardown, without processes.

type fakeLive struct {
	em      engine.Emitter
	mu      sync.Mutex
	closed  int
	servers []string
	started chan struct{} // closed when long_operation starts
}

func (f *fakeLive) Tools() []engine.ToolDef {
	var out []engine.ToolDef
	for _, n := range []string{"echo", "add_numbers", "test_error_handling", "long_operation"} {
		out = append(out, engine.ToolDef{ID: engine.ToolID("id:" + n), Name: "mcp_demo_" + n, Server: "demo", Tool: n})
	}
	return out
}

func (f *fakeLive) Skipped() []engine.SkippedTool { return nil }

func (f *fakeLive) Tool(name string) (engine.ToolDef, bool) {
	for _, t := range f.Tools() {
		if t.Name == name {
			return t, true
		}
	}
	return engine.ToolDef{}, false
}

func (f *fakeLive) Call(ctx context.Context, id engine.ToolID, args json.RawMessage, opts engine.CallOptions) (*engine.ToolResult, error) {
	var in map[string]any
	_ = json.Unmarshal(args, &in)
	text := func(s string) *engine.ToolResult {
		return &engine.ToolResult{Content: []engine.Content{{Type: "text", Text: s}}}
	}
	switch id {
	case "id:echo":
		return text(fmt.Sprint(in["message"])), nil
	case "id:add_numbers":
		sum := in["a"].(float64) + in["b"].(float64)
		r := text(fmt.Sprintf("The sum is %g.", sum))
		r.Structured = json.RawMessage(fmt.Sprintf(`{"sum":%g}`, sum))
		return r, nil
	case "id:test_error_handling":
		r := text("This tool intentionally returns an error for testing")
		r.IsError = true
		return r, nil
	case "id:long_operation":
		// Like the real host, progress reaches only the caller's OnProgress;
		// engine.Trace makes the one event of it.
		opts.OnProgress(engine.Progress{Progress: 1, Total: 600})
		close(f.started)
		<-ctx.Done()
		return nil, ctx.Err()
	}
	return nil, errors.New("unknown tool")
}

func (f *fakeLive) Close() error {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.closed++
	f.em.Emit(engine.Event{Type: engine.EventServer, Data: engine.ServerData{Server: "demo", State: engine.StateClosed, Transport: "stdio"}})
	return nil
}

type inproc struct {
	project, home string
	live          *fakeLive
	connected     chan *fakeLive // receives every host connect hands out
	connectErr    error
}

func newInproc(t *testing.T) *inproc {
	t.Helper()
	dir := t.TempDir()
	p := &inproc{project: filepath.Join(dir, "project"), home: filepath.Join(dir, "home"), connected: make(chan *fakeLive, 8)}
	copyTree(t, filepath.Join("..", "testdata", "workflows", "project"), p.project)
	if err := os.MkdirAll(p.home, 0o700); err != nil {
		t.Fatal(err)
	}
	cfg := "[[mcp_servers]]\nname = \"demo\"\ntransport = \"stdio\"\ncommand = \"/bin/true\"\n"
	if err := os.WriteFile(filepath.Join(p.project, ".relavium", "config.toml"), []byte(cfg), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

func (p *inproc) connect(_ context.Context, _ *cli.Invocation, servers []config.Server, em engine.Emitter) (cli.LiveHost, error) {
	if p.connectErr != nil {
		return nil, p.connectErr
	}
	p.live = &fakeLive{em: em, started: make(chan struct{})}
	for _, s := range servers {
		p.live.servers = append(p.live.servers, s.Name)
	}
	p.connected <- p.live
	return p.live, nil
}

type inprocRun struct {
	stdout, stderr bytes.Buffer
	code           int
}

// run parses args like the dispatcher and runs the handler with the fake.
func (p *inproc) run(ctx context.Context, t *testing.T, stdin *os.File, tty bool, args ...string) *inprocRun {
	t.Helper()
	r := &inprocRun{}
	env := &cli.Env{Stdout: &r.stdout, Stderr: &r.stderr, Home: p.home, WorkDir: p.project,
		LookupEnv: func(k string) (string, bool) {
			if k == "PATH" {
				return os.Getenv("PATH"), true
			}
			return "", false
		},
		StdinTTY: tty, StdoutTTY: tty, Now: time.Now}
	if stdin != nil {
		env.Stdin = stdin
	} else {
		env.Stdin = strings.NewReader("")
	}
	inv, err := Commands().Parse(env, append([]string{"--project", p.project}, args...))
	if err != nil {
		r.code = cli.Finish(env, inv, nil, err)
		return r
	}
	data, err := runcmd.RunWorkflowWith(ctx, inv, p.connect)
	r.code = cli.Finish(env, inv, data, err)
	return r
}

func TestRunInProcHumanAndJSON(t *testing.T) {
	p := newInproc(t)
	r := p.run(context.Background(), t, nil, false, "run", "greet", "--input", "name=Ada")
	if r.code != 0 || r.stdout.String() != "greeting: hello Ada\nplus_ten: 15\nsum: 5\n" {
		t.Fatalf("exit %d stdout %q stderr %s", r.code, r.stdout.String(), r.stderr.String())
	}
	for _, want := range []string{"▸ hello  mcp_demo_echo", "✓ hello  mcp_demo_echo", "✓ workflow greet completed"} {
		if !strings.Contains(r.stderr.String(), want) {
			t.Fatalf("stderr lacks %q:\n%s", want, r.stderr.String())
		}
	}
	if p.live.closed != 1 || fmt.Sprint(p.live.servers) != "[demo]" {
		t.Fatalf("host closed %d times, servers %v", p.live.closed, p.live.servers)
	}
	r = p.run(context.Background(), t, nil, false, "run", "greet", "--json", "--input", "name=Ada", "--input", "b=0.5")
	var env struct {
		OK   bool
		Data workflow.RunResult
	}
	if err := json.Unmarshal(r.stdout.Bytes(), &env); err != nil || !env.OK || env.Data.Outputs["sum"] != 2.5 || len(env.Data.Steps) != 3 {
		t.Fatalf("json: %v %s", err, r.stdout.String())
	}
}

func TestRunInProcFailedStepEvents(t *testing.T) {
	p := newInproc(t)
	r := p.run(context.Background(), t, nil, false, "run", "broken", "--events")
	evs := runNDJSON(t, r.stdout.String())
	last := evs[len(evs)-1]
	if r.code != 1 || last["type"] != "run:failed" || last["error_code"] != "E606" {
		t.Fatalf("exit %d last %v", r.code, last)
	}
	if p.live.closed != 1 {
		t.Fatal("servers not torn down after a failed run")
	}
	if !strings.Contains(r.stderr.String(), "E606") {
		t.Fatalf("stderr: %s", r.stderr.String())
	}
}

func TestRunInProcCancelMidStep(t *testing.T) {
	p := newInproc(t)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	done := make(chan *inprocRun, 1)
	go func() { done <- p.run(ctx, t, nil, false, "run", "slow", "--events") }()
	live := <-p.connected
	<-live.started
	cancel()
	r := <-done
	evs := runNDJSON(t, r.stdout.String())
	last := evs[len(evs)-1]
	if r.code != 1 || last["type"] != "run:cancelled" || last["error_code"] != "E609" {
		t.Fatalf("exit %d last %v", r.code, last)
	}
	progress := 0
	for _, e := range evs {
		if e["type"] == "agent:tool_progress" {
			progress++
			if e["run_id"] == nil || !strings.HasSuffix(fmt.Sprint(e["call_id"]), "/work") {
				t.Fatalf("a progress event not under the run's call id: %v", e)
			}
		}
		if e["type"] == "mcp:server" {
			t.Fatalf("an event after the terminal one was printed: %v", e)
		}
	}
	if progress != 1 || p.live.closed != 1 {
		t.Fatalf("progress %d, closed %d", progress, p.live.closed)
	}
}

func TestRunInProcGateOnATerminal(t *testing.T) {
	for _, c := range []struct {
		answer string
		code   int
		last   string
	}{
		{"y\n", 0, ""},
		{"YES\n", 0, ""},
		{"n\n", 1, "E610"},
		{"\n", 1, "E610"},
		{"", 1, "E610"}, // end of input
	} {
		t.Run(fmt.Sprintf("%q", c.answer), func(t *testing.T) {
			p := newInproc(t)
			rd, wr, err := os.Pipe()
			if err != nil {
				t.Fatal(err)
			}
			defer rd.Close()
			go func() { _, _ = wr.WriteString(c.answer); wr.Close() }()
			r := p.run(context.Background(), t, rd, true, "run", "approve")
			if r.code != c.code {
				t.Fatalf("exit %d\nstderr %s", r.code, r.stderr.String())
			}
			if !strings.Contains(r.stderr.String(), "? gate confirm: Really touch the demo? (about to touch the demo)\n  continue? [y/N] ") {
				t.Fatalf("prompt:\n%s", r.stderr.String())
			}
			// the step's line is printed before the question
			if i, j := strings.Index(r.stderr.String(), "✓ before"), strings.Index(r.stderr.String(), "? gate"); i < 0 || i > j {
				t.Fatalf("prompt printed before the lines that led to it:\n%s", r.stderr.String())
			}
			if c.code == 0 && r.stdout.String() != "touched the demo\n" {
				t.Fatalf("stdout %q", r.stdout.String())
			}
			if c.code != 0 && !strings.Contains(r.stderr.String(), c.last) {
				t.Fatalf("stderr lacks %s:\n%s", c.last, r.stderr.String())
			}
		})
	}
}

func TestRunInProcCancelWhileAsking(t *testing.T) {
	p := newInproc(t)
	rd, wr, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer rd.Close()
	defer wr.Close() // nobody ever answers
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan *inprocRun, 1)
	go func() { done <- p.run(ctx, t, rd, true, "run", "ask") }()
	time.Sleep(200 * time.Millisecond)
	cancel()
	select {
	case r := <-done:
		if r.code != 1 || !strings.Contains(r.stderr.String(), "E609") {
			t.Fatalf("exit %d stderr %s", r.code, r.stderr.String())
		}
	case <-time.After(10 * time.Second):
		t.Fatal("the prompt did not give up on cancellation")
	}
}

func TestRunInProcConnectErrorPassesThrough(t *testing.T) {
	p := newInproc(t)
	p.connectErr = &cli.Error{ErrCode: "E301", Msg: "consent required", Exit: cli.ExitUsage}
	r := p.run(context.Background(), t, nil, false, "run", "greet", "--json", "--input", "name=x")
	if r.code != 2 || !strings.Contains(r.stdout.String(), `"code":"E301"`) {
		t.Fatalf("exit %d %s", r.code, r.stdout.String())
	}
}
