package host

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/relavium/relavium/consent"
	"github.com/relavium/relavium/engine"
	"github.com/relavium/relavium/fault"
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
	if _, err := callTool(t, h, ctx, "mcp_ok_echo", `{"message":"late"}`, engine.CallOptions{}); codeOf(err) != CodeHostClosed {
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
	want := map[string]fault.Code{"slow": CodeConnectDeadline, "early": CodeInitializeFailed, "missing": CodeSpawnFailed}
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

func TestMissingSecretFailsBeforeAnySpawn(t *testing.T) {
	opts := Options{
		Servers: []Endpoint{
			stdioServer(t, "a", "ok"),
			stdioServer(t, "b", "ok", consent.EnvVar{Name: "TOKEN", Value: "{{secrets.nope}}"}),
		},
		Secrets: SecretChain{EnvSecrets{LookupEnv: func(string) (string, bool) { return "", false }}},
	}
	_, err := Start(context.Background(), opts)
	if codeOf(err) != CodeSecretMissing || !strings.Contains(err.Error(), "RELAVIUM_SECRET_NOPE") {
		t.Fatalf("err = %v", err)
	}
	var he *Error
	if !errors.As(err, &he) || he.ExitCode() != fault.ExitUsage {
		t.Errorf("exit code of %v is not 2", err)
	}
	assertNoProcesses(t)
}

func TestCleanEnvironmentSecretsAndCwd(t *testing.T) {
	const secret = "s3cr3t-value-XYZ"
	rec := &recorder{}
	srv := stdioServer(t, "env", "ok",
		consent.EnvVar{Name: "LITERAL", Value: "plain"},
		consent.EnvVar{Name: "API_TOKEN", Value: "{{secrets.api-token}}"},
		consent.EnvVar{Name: "NOT_A_REF", Value: "x {{secrets.api-token}}"},
	)
	lookup := func(k string) (string, bool) {
		if k == "RELAVIUM_SECRET_API_TOKEN" {
			return secret, true
		}
		return "", false
	}
	h := startHost(t, Options{
		Servers: []Endpoint{srv},
		Emitter: rec,
		Environ: []string{"HOME=/home/x", "PATH=/usr/bin:/bin", "LC_ALL=C.UTF-8", "TZ=UTC", "AWS_SECRET_ACCESS_KEY=leak",
			"LD_PRELOAD=/evil.so", "USER=x", "SHELL=() { :; }; echo pwned"},
		Secrets: SecretChain{EnvSecrets{LookupEnv: lookup}},
	})
	env := callText(t, h, "mcp_env_env", `{}`)
	got := map[string]string{}
	for _, kv := range strings.Split(env, "\n") {
		k, v, _ := strings.Cut(kv, "=")
		got[k] = v
	}
	want := map[string]string{"HOME": "/home/x", "PATH": "/usr/bin:/bin", "LC_ALL": "C.UTF-8", "TZ": "UTC", "USER": "x",
		"LITERAL": "plain", "API_TOKEN": secret, "NOT_A_REF": "x {{secrets.api-token}}"}
	for k, v := range want {
		if got[k] != v {
			t.Errorf("child env %s = %q, want %q", k, got[k], v)
		}
	}
	for k := range got {
		if _, ok := want[k]; !ok {
			t.Errorf("child env has %s, which is not allowlisted or declared", k)
		}
	}
	cwd := callText(t, h, "mcp_env_cwd", `{}`)
	if cwd != srv.Stdio.Cwd {
		t.Errorf("cwd = %q, want the digested %q", cwd, srv.Stdio.Cwd)
	}
	_ = h.Close()
	if strings.Contains(rec.dump(t), secret) {
		t.Error("an event carries the secret value")
	}
}

func TestStderrTailRedactsSecrets(t *testing.T) {
	r := &stderrRing{}
	_, _ = r.Write([]byte("starting\ntoken is hunter2-long\nbye\n"))
	tail := r.Tail(map[string]string{"tok": "hunter2-long"})
	if strings.Contains(tail, "hunter2") || !strings.Contains(tail, "token is {{secrets.tok}}") {
		t.Errorf("tail = %q", tail)
	}
	// Overflow keeps the end and never shows half a line.
	r = &stderrRing{}
	for i := 0; i < 10000; i++ {
		_, _ = r.Write([]byte("line " + strconv.Itoa(i) + " hunter2-long\n"))
	}
	tail = r.Tail(map[string]string{"tok": "hunter2-long"})
	lines := strings.Split(tail, "\n")
	if len(lines) != tailLines || lines[len(lines)-1] != "line 9999 {{secrets.tok}}" || strings.Contains(tail, "hunter2") {
		t.Errorf("tail after overflow = %q", tail)
	}
}

func TestServerDiesMidCallOthersKeepWorking(t *testing.T) {
	rec := &recorder{}
	h := startHost(t, Options{Emitter: rec, Servers: []Endpoint{stdioServer(t, "doomed", "ok"), stdioServer(t, "fine", "ok")}})
	doomed := h.Servers()[0].PID
	_, err := callTool(t, h, context.Background(), "mcp_doomed_crash", `{}`, engine.CallOptions{})
	var he *Error
	if !errors.As(err, &he) || he.ErrCode != CodeServerExited {
		t.Fatalf("err = %v, want %s", err, CodeServerExited)
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
	if st.State != engine.StateFailed || st.ErrorCode != CodeServerExited || st.ExitStatus != "exit status 3" {
		t.Errorf("doomed status = %+v", st)
	}
	if _, err := callTool(t, h, context.Background(), "mcp_doomed_echo", `{"message":"x"}`, engine.CallOptions{}); codeOf(err) != CodeServerNotReady {
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
			failed = strings.Contains(d.StderrTail, "crashing on purpose") && d.ErrorCode == CodeServerExited
		}
	}
	if !failed {
		t.Error("no mcp:server failed event with the stderr tail")
	}
}

func TestCloseReapsGrandchildrenAndStubbornServers(t *testing.T) {
	h := startHost(t, Options{Servers: []Endpoint{stdioServer(t, "gc", "grandchild"), stdioServer(t, "stubborn", "stubborn")}})
	gcPID, err := strconv.Atoi(callText(t, h, "mcp_gc_grandchild_pid", `{}`))
	if err != nil || !processAlive(gcPID) {
		t.Fatalf("grandchild pid %d alive=%v err=%v", gcPID, processAlive(gcPID), err)
	}
	pids := h.PIDs()
	if len(pids) != 2 {
		t.Fatalf("PIDs = %v", pids)
	}
	began := time.Now()
	if err := h.Close(); err != nil {
		t.Fatal(err)
	}
	t.Logf("Close took %v", time.Since(began))
	assertNoProcesses(t, append(pids, gcPID)...)
}

func TestGarbageOnStdoutFailsTheServer(t *testing.T) {
	h := startHost(t, Options{Servers: []Endpoint{stdioServer(t, "g", "garbage")}})
	_, err := callTool(t, h, context.Background(), "mcp_g_echo", `{"message":"x"}`, engine.CallOptions{})
	if err == nil {
		t.Fatal("a server that broke the protocol answered")
	}
	pid := h.Servers()[0].PID
	deadline := time.Now().Add(10 * time.Second)
	for h.Servers()[0].State != engine.StateFailed && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	if st := h.Servers()[0]; st.State != engine.StateFailed || st.ErrorCode != CodeConnectionLost {
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

// A server that quotes its injected secret back (in a protocol error, a log
// notification, a progress message) never gets it into an error or an
// event: host shows the {{secrets.NAME}} reference instead.
func TestSecretsNeverReachErrorsOrEventsThroughTheServer(t *testing.T) {
	const secret = `s3cr3t"<&>-value`
	rec := &recorder{}
	h := startHost(t, Options{
		Servers: []Endpoint{stdioServer(t, "s", "ok", consent.EnvVar{Name: "API_TOKEN", Value: "{{secrets.api-token}}"})},
		Emitter: rec,
		Secrets: SecretChain{EnvSecrets{LookupEnv: func(k string) (string, bool) {
			return secret, k == "RELAVIUM_SECRET_API_TOKEN"
		}}},
	})
	var progress []string
	_, err := callTool(t, h, context.Background(), "mcp_s_leak", `{"name":"API_TOKEN"}`, engine.CallOptions{
		OnProgress: func(p engine.Progress) { progress = append(progress, p.Message) },
	})
	if codeOf(err) != CodeCallFailed || strings.Contains(err.Error(), secret) || !strings.Contains(err.Error(), "{{secrets.api-token}}") {
		t.Errorf("err = %v", err)
	}
	if len(progress) != 1 || progress[0] != "using {{secrets.api-token}}" {
		t.Errorf("progress = %q", progress)
	}
	deadline := time.Now().Add(5 * time.Second)
	for len(rec.ofType(engine.EventToolLog)) < 1 && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	logs := rec.ofType(engine.EventToolLog)
	if len(logs) != 1 {
		t.Fatalf("%d log events, want 1", len(logs))
	}
	d := logs[0].Data.(engine.ToolLogData)
	var data map[string]string
	if err := json.Unmarshal(d.Data, &data); err != nil || data["token"] != "{{secrets.api-token}}" ||
		data["quoted"] != `"{{secrets.api-token}}"` || d.Logger != "leak {{secrets.api-token}}" {
		t.Errorf("log = %s %s (%v)", d.Logger, d.Data, err)
	}
	_ = h.Close()
	if dump := rec.dump(t); strings.Contains(dump, "s3cr3t") {
		t.Errorf("an event carries the secret value: %s", dump)
	}
}

// Fail-loud names every missing secret of every server at once, still
// before anything is spawned.
func TestEveryMissingSecretIsNamedBeforeAnySpawn(t *testing.T) {
	opts := Options{
		Servers: []Endpoint{
			stdioServer(t, "a", "ok", consent.EnvVar{Name: "ONE", Value: "{{secrets.one}}"}, consent.EnvVar{Name: "TWO", Value: "{{secrets.two}}"}),
			stdioServer(t, "b", "ok"),
			stdioServer(t, "c", "ok", consent.EnvVar{Name: "THREE", Value: "{{secrets.three}}"}),
		},
		Secrets: SecretChain{EnvSecrets{LookupEnv: func(string) (string, bool) { return "", false }}},
	}
	_, err := Start(context.Background(), opts)
	if codeOf(err) != CodeSecretMissing {
		t.Fatalf("err = %v", err)
	}
	for _, want := range []string{"RELAVIUM_SECRET_ONE", "RELAVIUM_SECRET_TWO", "RELAVIUM_SECRET_THREE", "server a", "server c"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("the error does not name %s: %v", want, err)
		}
	}
	var he *Error
	if !errors.As(err, &he) || he.ExitCode() != fault.ExitUsage {
		t.Errorf("exit code of %v is not 2", err)
	}
	assertNoProcesses(t)
}

// A tool whose RESULT quotes an injected secret (here: its own environment)
// goes to the caller as it is, but the events engine.Trace makes of the call
// carry the {{secrets.NAME}} reference instead (Host is an engine.Redactor).
func TestSecretsNeverReachCallEventsThroughAResult(t *testing.T) {
	const secret = "s3cr3t-result-value"
	h := startHost(t, Options{
		Servers: []Endpoint{stdioServer(t, "s", "ok", consent.EnvVar{Name: "API_TOKEN", Value: "{{secrets.api-token}}"})},
		Secrets: SecretChain{EnvSecrets{LookupEnv: func(k string) (string, bool) {
			return secret, k == "RELAVIUM_SECRET_API_TOKEN"
		}}},
	})
	var def engine.ToolDef
	for _, d := range h.Tools() {
		if d.Name == "mcp_s_env" {
			def = d
		}
	}
	rec := &recorder{}
	res, _, err := engine.Trace(context.Background(), h, rec, engine.TracedCall{CallID: "c", Tool: def, Args: json.RawMessage(`{}`)})
	if err != nil || !strings.Contains(res.Text(), secret) {
		t.Fatalf("the caller gets the server's own result: %v %v", res, err)
	}
	if dump := rec.dump(t); strings.Contains(dump, secret) || !strings.Contains(dump, "{{secrets.api-token}}") {
		t.Errorf("call events must carry the reference, not the value: %s", dump)
	}
	_ = h.Close()
}

// A secret whose resolved value is an exported shell function ("() {") is
// refused like an authored one, before anything is spawned, and the error
// never echoes the value.
func TestResolvedSecretValueIsCheckedAgainstTheDenylist(t *testing.T) {
	const value = "() { :; }; echo pwned-by-secret"
	_, err := Start(context.Background(), Options{
		Servers: []Endpoint{stdioServer(t, "s", "ok", consent.EnvVar{Name: "API_TOKEN", Value: "{{secrets.api-token}}"})},
		Secrets: SecretChain{EnvSecrets{LookupEnv: func(k string) (string, bool) { return value, k == "RELAVIUM_SECRET_API_TOKEN" }}},
	})
	if codeOf(err) != consent.CodeEnvRefused || strings.Contains(err.Error(), "pwned") {
		t.Fatalf("err = %v, want %s without the value", err, consent.CodeEnvRefused)
	}
}

// A grandchild that calls setsid (leaving the server's process group) dies
// with its server: it is recorded below the server while it runs and
// killed at teardown. So does one orphaned by a double fork whose middle
// process lived long enough to be seen (the orphan comes back to the
// subreaper, is killed and reaped). Another server's processes are not
// touched by the first one's teardown.
func TestCloseKillsSetsidEscapees(t *testing.T) {
	for _, mode := range []string{"escapee", "daemon"} {
		t.Run(mode, func(t *testing.T) {
			srv := stdioServer(t, "e", mode)
			if mode == "daemon" {
				srv.Stdio.Args = append(srv.Stdio.Args, "-delay-exit", "300ms")
			}
			other := startHost(t, Options{Servers: []Endpoint{stdioServer(t, "o", "escapee")}})
			otherGC, err := strconv.Atoi(callText(t, other, "mcp_o_grandchild_pid", `{}`))
			if err != nil || !processAlive(otherGC) {
				t.Fatalf("other grandchild %d: %v", otherGC, err)
			}
			h := startHost(t, Options{Servers: []Endpoint{srv}})
			gc, err := strconv.Atoi(callText(t, h, "mcp_e_grandchild_pid", `{}`))
			if err != nil || !processAlive(gc) {
				t.Fatalf("grandchild pid %d alive=%v err=%v", gc, processAlive(gc), err)
			}
			if st, _ := readProcStat(gc); st.pgrp == h.PIDs()[0] {
				t.Fatalf("the grandchild did not leave the server's group: %+v", st)
			}
			if mode == "daemon" {
				// Wait for the middle process to exit: the grandchild is an
				// orphan, reparented to this (subreaper) process.
				for end := time.Now().Add(10 * time.Second); time.Now().Before(end); time.Sleep(10 * time.Millisecond) {
					if st, ok := readProcStat(gc); ok && st.ppid == os.Getpid() {
						break
					}
				}
				if st, _ := readProcStat(gc); st.ppid != os.Getpid() {
					t.Fatalf("the orphan was not reparented to the subreaper: %+v", st)
				}
			}
			pids := h.PIDs()
			if err := h.Close(); err != nil {
				t.Fatal(err)
			}
			if _, ok := readProcStat(gc); ok {
				st, _ := readProcStat(gc)
				t.Fatalf("the setsid grandchild %d survives (or is an unreaped zombie): %+v", gc, st)
			}
			for _, p := range pids {
				if processAlive(p) {
					t.Errorf("server %d survives", p)
				}
			}
			if !processAlive(otherGC) {
				t.Fatalf("closing one host killed another server's grandchild %d", otherGC)
			}
			_ = other.Close()
			if _, ok := readProcStat(otherGC); ok {
				t.Fatalf("the other setsid grandchild %d survives its own teardown", otherGC)
			}
			assertNoProcesses(t, append(pids, gc, otherGC)...)
		})
	}
}

// A recorded process is signalled only while its pid still names the
// process that started at the recorded time: a reused pid is left alone.
func TestSignalExactChecksTheStartTime(t *testing.T) {
	cmd := exec.Command(hostileBin, "-mode", "sleeper")
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { _ = cmd.Process.Kill(); _ = cmd.Wait() }()
	st, ok := readProcStat(cmd.Process.Pid)
	if !ok {
		t.Fatal("no /proc entry for the sleeper")
	}
	signalExact(cmd.Process.Pid, st.start+1, syscall.SIGKILL)
	time.Sleep(50 * time.Millisecond)
	if !processAlive(cmd.Process.Pid) {
		t.Fatal("a process with another start time was signalled")
	}
	signalExact(cmd.Process.Pid, st.start, syscall.SIGKILL)
	if err := cmd.Wait(); err == nil || !strings.Contains(err.Error(), "killed") {
		t.Fatalf("the recorded process was not killed: %v", err)
	}
}

// A recorded orphan that dies while its server still runs is reaped by the
// walk (relavium is its parent now, as subreaper): no zombie piles up.
func TestDeadOrphanIsReapedWhileTheServerRuns(t *testing.T) {
	srv := stdioServer(t, "d", "daemon")
	srv.Stdio.Args = append(srv.Stdio.Args, "-delay-exit", "300ms")
	h := startHost(t, Options{Servers: []Endpoint{srv}})
	gc, err := strconv.Atoi(callText(t, h, "mcp_d_grandchild_pid", `{}`))
	if err != nil {
		t.Fatal(err)
	}
	for end := time.Now().Add(10 * time.Second); time.Now().Before(end); time.Sleep(10 * time.Millisecond) {
		if st, ok := readProcStat(gc); ok && st.ppid == os.Getpid() {
			break
		}
	}
	if st, _ := readProcStat(gc); st.ppid != os.Getpid() {
		t.Fatalf("the orphan was not reparented to the subreaper: %+v", st)
	}
	_ = syscall.Kill(gc, syscall.SIGKILL)
	gone := false
	for end := time.Now().Add(10 * time.Second); !gone && time.Now().Before(end); time.Sleep(10 * time.Millisecond) {
		_, ok := readProcStat(gc)
		gone = !ok
	}
	if !gone {
		st, _ := readProcStat(gc)
		t.Fatalf("the dead orphan %d was not reaped: %+v", gc, st)
	}
	if got := callText(t, h, "mcp_d_echo", `{"message":"still"}`); got != "still" {
		t.Fatalf("the server after its orphan died: %q", got)
	}
}
