package host

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/relavium/relavium/engine"
	"github.com/relavium/relavium/fault"
	"github.com/relavium/relavium/host/failure"
)

func TestStdioListCallClose(t *testing.T) {
	rec := &recorder{}
	h := startHost(t, Options{Servers: []Endpoint{stdioServer(t, "ok", "ok")}, Emitter: rec})

	names := strings.Join(toolNames(h), " ")
	for _, want := range []string{"mcp_ok_echo", "mcp_ok_add", "mcp_ok_slow", "mcp_ok_fail"} {
		if !strings.Contains(names, want) {
			t.Errorf("tool %s not admitted: %s", want, names)
		}
	}
	ctx := context.Background()
	if got := callText(t, h, "mcp_ok_echo", `{"message":"hi"}`); got != "hi" {
		t.Errorf("echo = %q", got)
	}
	res, err := callTool(t, h, ctx, "mcp_ok_add", `{"a":2,"b":3}`, engine.CallOptions{})
	if got := mustText(t, res, err); got != "5" || string(res.Structured) != `{"sum":5}` {
		t.Errorf("add = %q %s", got, res.Structured)
	}
	// A tool error is a result, not a Go error.
	res, err = callTool(t, h, ctx, "mcp_ok_fail", `{}`, engine.CallOptions{})
	if err != nil || !res.IsError || res.Text() != "it failed, as asked" {
		t.Errorf("fail = %+v, %v", res, err)
	}
	// Arguments are validated before dispatch.
	if _, err := callTool(t, h, ctx, "mcp_ok_echo", `{"message":7}`, engine.CallOptions{}); err == nil {
		t.Error("a wrongly typed argument reached the server")
	}

	// The tool with a control character in a property name is skipped,
	// reported, and never callable.
	if sk := h.Skipped(); len(sk) != 1 || sk[0].Tool != "weird" || sk[0].Code != "control_char_in_semantic_field" {
		t.Errorf("skipped = %+v", sk)
	}
	if ev := rec.ofType(engine.EventToolSkipped); len(ev) != 1 {
		t.Errorf("%d mcp:tool_skipped events", len(ev))
	}
	if _, ok := h.Lookup("mcp_ok_weird"); ok {
		t.Error("a skipped tool is callable")
	}

	st := h.Servers()[0]
	if st.State != engine.StateReady || st.PID == 0 || st.Protocol != ProtocolVersion || st.ConnectMS <= 0 || st.ServerName != "hostile" {
		t.Errorf("status = %+v", st)
	}
	if pids := h.PIDs(); len(pids) != 1 || pids[0] != st.PID {
		t.Errorf("PIDs = %v, want [%d]", pids, st.PID)
	}
	if err := h.Close(); err != nil {
		t.Fatal(err)
	}
	if pids := h.PIDs(); len(pids) != 0 {
		t.Errorf("PIDs after Close = %v", pids)
	}
	assertNoProcesses(t, st.PID)
	states := strings.Join(rec.serverStates("ok"), ",")
	if states != "connecting,connecting,ready,closed" {
		t.Errorf("states = %s", states)
	}
	if _, err := callTool(t, h, ctx, "mcp_ok_echo", `{"message":"late"}`, engine.CallOptions{}); codeOf(err) != failure.CodeHostClosed {
		t.Errorf("call after Close: %v", err)
	}
}

func TestStartFailsLoudListingEveryFailure(t *testing.T) {
	rec := &recorder{}
	slow := stdioServer(t, "slow", "no-init")
	slow.ConnectTimeout = 500 * time.Millisecond
	missing := stdioServer(t, "missing", "ok")
	gone := *missing.Stdio
	gone.Command = "/nonexistent/relavium-test-server"
	missing.Stdio = &gone
	opts := Options{Emitter: rec, Servers: []Endpoint{
		stdioServer(t, "good", "ok"),
		slow,
		stdioServer(t, "early", "exit-early"),
		missing,
	}}
	h, err := Start(context.Background(), opts)
	if h != nil {
		t.Fatal("Start returned a host although servers failed")
	}
	var se *StartError
	if !errors.As(err, &se) {
		t.Fatalf("err = %v, want *StartError", err)
	}
	codes := map[string]fault.Code{}
	for _, f := range se.Failures {
		codes[f.Server] = f.ErrCode
	}
	want := map[string]fault.Code{"slow": failure.CodeConnectDeadline, "early": failure.CodeInitializeFailed, "missing": failure.CodeSpawnFailed}
	for s, c := range want {
		if codes[s] != c {
			t.Errorf("failure of %s = %q, want %q (all: %v)", s, codes[s], c, codes)
		}
	}
	if len(se.Failures) != 3 {
		t.Errorf("%d failures, want 3: %v", len(se.Failures), err)
	}
	for _, f := range se.Failures {
		if f.Server == "early" {
			if f.ExitStatus != "exit status 3" || !strings.Contains(f.StderrTail, "cannot start (this is on purpose)") {
				t.Errorf("early: status %q tail %q", f.ExitStatus, f.StderrTail)
			}
		}
	}
	if se.ExitCode() != fault.ExitFailure {
		t.Errorf("exit code %d", se.ExitCode())
	}
	// The healthy server was torn down with the rest.
	var pids []int
	for _, s := range se.Servers {
		if s.PID != 0 {
			pids = append(pids, s.PID)
		}
		if s.Name == "good" && s.State != engine.StateReady {
			t.Errorf("good server state %s", s.State)
		}
	}
	if len(pids) != 3 {
		t.Errorf("spawned pids %v, want 3", pids)
	}
	assertNoProcesses(t, pids...)
	if got := rec.serverStates("good"); got[len(got)-1] != engine.StateClosed {
		t.Errorf("good states %v", got)
	}
}

func TestServerDiesMidCallOthersKeepWorking(t *testing.T) {
	rec := &recorder{}
	h := startHost(t, Options{Emitter: rec, Servers: []Endpoint{stdioServer(t, "doomed", "ok"), stdioServer(t, "fine", "ok")}})
	doomed := h.Servers()[0].PID
	_, err := callTool(t, h, context.Background(), "mcp_doomed_crash", `{}`, engine.CallOptions{})
	var he *failure.Error
	if !errors.As(err, &he) || he.ErrCode != failure.CodeServerExited {
		t.Fatalf("err = %v, want %s", err, failure.CodeServerExited)
	}
	if he.ExitStatus != "exit status 3" || !strings.Contains(he.StderrTail, "crashing on purpose") {
		t.Errorf("status %q, tail %q", he.ExitStatus, he.StderrTail)
	}
	// The watcher marks it failed and reaps it.
	deadline := time.Now().Add(10 * time.Second)
	for h.Servers()[0].State != engine.StateFailed && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	st := h.Servers()[0]
	if st.State != engine.StateFailed || st.ErrorCode != failure.CodeServerExited || st.ExitStatus != "exit status 3" {
		t.Errorf("doomed status = %+v", st)
	}
	if _, err := callTool(t, h, context.Background(), "mcp_doomed_echo", `{"message":"x"}`, engine.CallOptions{}); codeOf(err) != failure.CodeServerNotReady {
		t.Errorf("call to a dead server: %v", err)
	}
	if got := callText(t, h, "mcp_fine_echo", `{"message":"still here"}`); got != "still here" {
		t.Errorf("fine echo = %q", got)
	}
	for _, p := range h.PIDs() {
		if p == doomed {
			t.Errorf("PIDs still lists the dead child %d", p)
		}
	}
	fine := h.Servers()[1].PID
	_ = h.Close()
	assertNoProcesses(t, doomed, fine)
	var failed bool
	for _, e := range rec.ofType(engine.EventServer) {
		if d := e.Data.(engine.ServerData); d.Server == "doomed" && d.State == engine.StateFailed {
			failed = strings.Contains(d.StderrTail, "crashing on purpose") && d.ErrorCode == failure.CodeServerExited
		}
	}
	if !failed {
		t.Error("no mcp:server failed event with the stderr tail")
	}
}

// A line that is not JSON-RPC (a banner, a debug print) is skipped with a
// warning and kept with the server's output: the call is answered.
func TestGarbageOnStdoutIsSkipped(t *testing.T) {
	rec := &recorder{}
	h := startHost(t, Options{Emitter: rec, Servers: []Endpoint{stdioServer(t, "g", "garbage")}})
	for range 2 {
		if got := callText(t, h, "mcp_g_echo", `{"message":"x"}`); !strings.Contains(got, "x") {
			t.Fatalf("echo = %q", got)
		}
	}
	if st := h.Servers()[0]; st.State != engine.StateReady {
		t.Fatalf("status = %+v", st)
	}
	warned := 0
	for _, e := range rec.ofType(engine.EventToolLog) {
		if d := e.Data.(engine.ToolLogData); strings.Contains(string(d.Data), `not JSON-RPC on stdout (skipped; kept with its stderr): \"this is not JSON-RPC\"`) {
			warned++
		}
	}
	if warned != 1 {
		t.Fatalf("%d warnings, want one", warned)
	}
}

// A line that opens a JSON value and never parses breaks the protocol:
// the server is failed and its process reaped.
func TestBadJSONOnStdoutFailsTheServer(t *testing.T) {
	h := startHost(t, Options{Servers: []Endpoint{stdioServer(t, "g", "badjson")}})
	_, err := callTool(t, h, context.Background(), "mcp_g_echo", `{"message":"x"}`, engine.CallOptions{})
	if err == nil {
		t.Fatal("a server that broke the protocol answered")
	}
	pid := h.Servers()[0].PID
	deadline := time.Now().Add(10 * time.Second)
	for h.Servers()[0].State != engine.StateFailed && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	if st := h.Servers()[0]; st.State != engine.StateFailed || st.ErrorCode != failure.CodeConnectionLost {
		t.Errorf("status = %+v", st)
	}
	_ = h.Close()
	assertNoProcesses(t, pid)
}

func TestToolPinsAcrossConnects(t *testing.T) {
	home := t.TempDir()
	srv := stdioServer(t, "p", "ok")
	for i := 0; i < 2; i++ {
		h := startHost(t, Options{Home: home, Servers: []Endpoint{srv}})
		for _, d := range h.Tools() {
			if d.Changed {
				t.Errorf("connect %d: %s flagged changed though nothing changed", i, d.Name)
			}
		}
		_ = h.Close()
	}
	st, err := os.Stat(filepath.Join(home, "tool-pins.json"))
	if err != nil || st.Mode().Perm() != 0o600 {
		t.Errorf("tool pins: %v %v", st, err)
	}
}
