package machine

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/relavium/relavium/internal/testbin"
	"github.com/relavium/relavium/invoke/cli"
	"github.com/relavium/relavium/workflow"
)

// markLines reads the stub's run log: one line per child that ran.
func stubMarkLines(t *testing.T, path string) []string {
	t.Helper()
	b, err := os.ReadFile(path)
	if os.IsNotExist(err) {
		return nil
	}
	if err != nil {
		t.Fatal(err)
	}
	return strings.Split(strings.TrimSpace(string(b)), "\n")
}

// stubSession is the session binding of the stub invocations.
var stubSession = Options{Session: "session:test bearer:test", Tool: "relavium-stub"}

func invokeStub(iv *Invoker, path, req string) Result {
	return invokeStubAs(iv, stubSession, path, req)
}

func invokeStubAs(iv *Invoker, opts Options, path, req string) Result {
	return iv.Invoke(context.Background(), TransportMCPHTTP, strings.Fields(path), []byte(req), opts)
}

// alive reports whether pid is a live (not zombie) process.
func procAlive(pid int) bool {
	b, err := os.ReadFile(filepath.Join("/proc", pidText(pid), "stat"))
	if err != nil {
		return syscall.Kill(pid, 0) == nil
	}
	f := strings.Fields(string(b[strings.LastIndexByte(string(b), ')')+1:]))
	return len(f) > 0 && f[0] != "Z" && f[0] != "X"
}

func pidText(i int) string { b, _ := json.Marshal(i); return string(b) }

func TestInvokerHardening(t *testing.T) {
	stub := testbin.Build(t, "./testdata/machine/stubchild")

	t.Run("E432 unknown command", func(t *testing.T) {
		iv := newStubInvoker(t, stub, "ok")
		res := invokeStub(iv.Invoker, "stub nope", `{}`)
		wantMachineCode(t, res, CodeNoSuchCommand)
		if recs := auditLines(t, iv.home); len(recs) != 1 || recs[0]["decision"] != DecisionRefused || recs[0]["error_code"] != string(CodeNoSuchCommand) {
			t.Fatalf("audit %v", recs)
		}
	})

	t.Run("E420 invalid request runs nothing", func(t *testing.T) {
		mark := filepath.Join(t.TempDir(), "mark")
		iv := newStubInvoker(t, stub, "ok", "STUB_MARK="+mark)
		for _, req := range []string{`{"args":["a"],"args":["b"]}`, `{"flags":{"count":1.5}}`, `{"Flags":{}}`, `{"args":["a\u0000"]}`} {
			wantMachineCode(t, invokeStub(iv.Invoker, "stub read", req), CodeInvalidRequest)
		}
		if len(stubMarkLines(t, mark)) != 0 {
			t.Fatal("a child ran for an invalid request")
		}
		if n := len(auditLines(t, iv.home)); n != 4 {
			t.Fatalf("%d audit lines, want every refusal logged", n)
		}
	})

	t.Run("E421 refusals", func(t *testing.T) {
		mark := filepath.Join(t.TempDir(), "mark")
		iv := newStubInvoker(t, stub, "ok", "STUB_MARK="+mark)
		wantMachineCode(t, invokeStub(iv.Invoker, "stub cli", `{}`), cli.CodeNotExposed)
		wantMachineCode(t, invokeStub(iv.Invoker, "stub destroy", `{}`), cli.CodeNotExposed)
		wantMachineCode(t, invokeStub(iv.Invoker, "stub read", `{"flags":{"nuke":true}}`), cli.CodeNotExposed)
		wantMachineCode(t, invokeStub(iv.Invoker, "stub read", `{"flags":{"stream":true}}`), cli.CodeNotExposed)
		wantMachineCode(t, invokeStub(iv.Invoker, "stub read", `{"argv":["x"]}`), cli.CodeNotExposed)
		noStore := *iv.Invoker
		noStore.Nonces = nil
		wantMachineCode(t, invokeStub(&noStore, "stub remote", `{"args":["t"]}`), cli.CodeNotExposed)
		// outside any session there is nothing to bind a confirmation to
		wantMachineCode(t, invokeStubAs(iv.Invoker, Options{Tool: "relavium-stub"}, "stub remote", `{"args":["t"]}`), cli.CodeNotExposed)
		noAudit := *iv.Invoker
		noAudit.Audit = nil
		wantMachineCode(t, invokeStub(&noAudit, "stub write", `{}`), cli.CodeNotExposed)
		// an audit log that cannot be opened for append refuses every non-read run
		broken := newStubInvoker(t, stub, "ok", "STUB_MARK="+mark)
		if err := os.MkdirAll(filepath.Dir(broken.Audit.Path), 0o700); err != nil {
			t.Fatal(err)
		}
		if err := os.Symlink("/nonexistent/target", broken.Audit.Path); err != nil {
			t.Fatal(err)
		}
		e := wantMachineCode(t, invokeStub(broken.Invoker, "stub write", `{"args":["x"]}`), cli.CodeNotExposed)
		if !strings.Contains(e.Error.Message, "audit log") {
			t.Fatalf("message %q", e.Error.Message)
		}
		if res := invokeStub(broken.Invoker, "stub read", `{}`); !res.OK {
			t.Fatalf("a read must still run without an audit log: %s", res.Envelope)
		}
		if got := stubMarkLines(t, mark); len(got) != 1 {
			t.Fatalf("children ran: %q", got)
		}
	})

	t.Run("E422 not exactly one JSON object", func(t *testing.T) {
		for _, mode := range []string{"two", "none", "array", "huge"} {
			iv := newStubInvoker(t, stub, mode, "STUB_ECHO=s3cr3t-value")
			res := invokeStub(iv.Invoker, "stub read", `{"args":["k","s3cr3t-value"]}`)
			e := wantMachineCode(t, res, CodeNoDocument)
			cause, _ := e.Error.Cause.(string)
			if strings.Contains(string(res.Envelope), "s3cr3t-value") || strings.Contains(string(res.Envelope), "hunter2") ||
				strings.Contains(string(res.Envelope), "abc.def") {
				t.Fatalf("%s: a secret leaked: %s", mode, res.Envelope)
			}
			if mode == "none" && (!strings.Contains(cause, "password=[REDACTED]") || !strings.Contains(cause, "Bearer [REDACTED]") ||
				!strings.Contains(cause, "the secret value [REDACTED] leaked")) {
				t.Fatalf("cause is not the redacted stderr tail: %q", cause)
			}
			if len(cause) > CauseTailBytes {
				t.Fatalf("cause of %d bytes", len(cause))
			}
		}
	})

	t.Run("E423 timeout stops the whole group", func(t *testing.T) {
		pidfile := filepath.Join(t.TempDir(), "pids")
		iv := newStubInvoker(t, stub, "sleep", "STUB_PIDFILE="+pidfile)
		iv.Timeout = 500 * time.Millisecond
		res := invokeStub(iv.Invoker, "stub write", `{}`)
		wantMachineCode(t, res, CodeTimeout)
		b, err := os.ReadFile(pidfile)
		if err != nil {
			t.Fatal(err)
		}
		var child, grandchild int
		if _, err := scanPids(string(b), &child, &grandchild); err != nil {
			t.Fatal(err)
		}
		for _, pid := range []int{child, grandchild} {
			if waitProcGone(pid, 2*time.Second) {
				continue
			}
			t.Fatalf("pid %d outlived the timed-out request", pid)
		}
		if recs := auditLines(t, iv.home); len(recs) != 1 || recs[0]["error_code"] != string(CodeTimeout) || recs[0]["exit_code"] != nil {
			t.Fatalf("audit %v", recs)
		}
	})

	t.Run("E423 cancellation and a child that ignores SIGTERM", func(t *testing.T) {
		pidfile := filepath.Join(t.TempDir(), "pid")
		iv := newStubInvoker(t, stub, "stubborn", "STUB_PIDFILE="+pidfile)
		ctx, cancel := context.WithCancel(context.Background())
		go func() {
			for i := 0; i < 200; i++ {
				if _, err := os.Stat(pidfile); err == nil {
					break
				}
				time.Sleep(10 * time.Millisecond)
			}
			cancel()
		}()
		res := iv.Invoke(ctx, TransportMCPStdio, []string{"stub", "read"}, nil, Options{})
		wantMachineCode(t, res, CodeTimeout)
		var pid int
		b, _ := os.ReadFile(pidfile)
		if _, err := scanPids(string(b), &pid); err != nil {
			t.Fatal(err)
		}
		if !waitProcGone(pid, 2*time.Second) {
			t.Fatalf("pid %d survived SIGKILL", pid)
		}
	})

	t.Run("E424 request confirmation round trip", func(t *testing.T) {
		mark := filepath.Join(t.TempDir(), "mark")
		iv := newStubInvoker(t, stub, "ok", "STUB_MARK="+mark)
		req := `{"args":["prod"],"flags":{"token":"t0k3n-value"}}`
		res := invokeStub(iv.Invoker, "stub remote", req)
		if !res.OK || res.Confirm == nil || res.Confirm.Kind != KindRequest || res.ExitCode != nil {
			t.Fatalf("want a confirmation, got %s", res.Envelope)
		}
		var env struct {
			OK   bool           `json:"ok"`
			Data map[string]any `json:"data"`
		}
		_ = json.Unmarshal(res.Envelope, &env)
		if len(env.Data) != 6 || env.Data["confirmation_required"] != true || env.Data["kind"] != "request" ||
			env.Data["side_effect"] != "remote" || env.Data["plan"] != nil || env.Data["reason"] == "" || !isConfirmValue(env.Data["confirm"].(string)) {
			t.Fatalf("confirmation shape: %s", res.Envelope)
		}
		if len(stubMarkLines(t, mark)) != 0 {
			t.Fatal("a child ran before the confirmation")
		}
		nonce := res.Confirm.Confirm
		confirmed := `{"args":["prod"],"flags":{"token":"t0k3n-value"},"confirm":"` + nonce + `"}`
		run := invokeStub(iv.Invoker, "stub remote", confirmed)
		if !run.OK || run.ExitCode == nil || *run.ExitCode != 0 {
			t.Fatalf("confirmed run: %s", run.Envelope)
		}
		lines := stubMarkLines(t, mark)
		if len(lines) != 1 || !strings.Contains(lines[0], "--token=t0k3n-value --yes=true -- prod") {
			t.Fatalf("child argv %q", lines)
		}
		wantMachineCode(t, invokeStub(iv.Invoker, "stub remote", confirmed), CodeBadConfirm) // replay

		// a different request (another secret value) spends the nonce
		res = invokeStub(iv.Invoker, "stub remote", req)
		other := `{"args":["prod"],"flags":{"token":"other"},"confirm":"` + res.Confirm.Confirm + `"}`
		wantMachineCode(t, invokeStub(iv.Invoker, "stub remote", other), CodeBadConfirm)
		wantMachineCode(t, invokeStub(iv.Invoker, "stub remote", `{"args":["prod"],"flags":{"token":"t0k3n-value"},"confirm":"`+res.Confirm.Confirm+`"}`), CodeBadConfirm)
		// the request id is public, never a confirmation
		wantMachineCode(t, invokeStub(iv.Invoker, "stub remote", `{"args":["prod"],"confirm":"`+res.RequestID+`"}`), CodeBadConfirm)
		// another session, or the same session through another tool: refused, and the nonce is spent
		for _, as := range []Options{{Session: "session:other bearer:test", Tool: stubSession.Tool}, {Session: stubSession.Session, Tool: "relavium-other"}} {
			res = invokeStub(iv.Invoker, "stub remote", req)
			withConfirm := `{"args":["prod"],"flags":{"token":"t0k3n-value"},"confirm":"` + res.Confirm.Confirm + `"}`
			wantMachineCode(t, invokeStubAs(iv.Invoker, as, "stub remote", withConfirm), CodeBadConfirm)
			wantMachineCode(t, invokeStub(iv.Invoker, "stub remote", withConfirm), CodeBadConfirm)
		}
		// expiry
		clk := &nonceClock{t: time.Now()}
		iv.Nonces = NewNonceStore(clk.now)
		res = invokeStub(iv.Invoker, "stub remote", req)
		clk.advance(NonceTTL)
		wantMachineCode(t, invokeStub(iv.Invoker, "stub remote", `{"args":["prod"],"flags":{"token":"t0k3n-value"},"confirm":"`+res.Confirm.Confirm+`"}`), CodeBadConfirm)
		if len(stubMarkLines(t, mark)) != 1 {
			t.Fatal("a refused confirmation ran a child")
		}

		raw, _ := os.ReadFile(iv.Audit.Path)
		if strings.Contains(string(raw), nonce) || strings.Contains(string(raw), "t0k3n-value") {
			t.Fatal("the audit log holds a nonce or a secret")
		}
		recs := auditLines(t, iv.home)
		if recs[0]["decision"] != DecisionConfirmation || recs[0]["confirm_kind"] != KindRequest || recs[0]["exit_code"] != nil ||
			recs[1]["decision"] != DecisionRun || recs[1]["confirm_kind"] != KindRequest || recs[1]["exit_code"] != float64(0) ||
			recs[2]["decision"] != DecisionRefused || recs[2]["error_code"] != string(CodeBadConfirm) {
			t.Fatalf("audit %v", recs[:3])
		}
		if flags := recs[1]["request"].(map[string]any)["flags"].(map[string]any); flags["token"] != Redacted {
			t.Fatalf("audit request %v", recs[1]["request"])
		}
	})

	t.Run("E425 invoker flags", func(t *testing.T) {
		mark := filepath.Join(t.TempDir(), "mark")
		iv := newStubInvoker(t, stub, "plan", "STUB_MARK="+mark)
		wantMachineCode(t, invokeStub(iv.Invoker, "stub remote", `{"args":["t"],"flags":{"yes":true}}`), CodeInvokerFlag)
		wantMachineCode(t, invokeStub(iv.Invoker, "stub plan", `{"args":["w"],"flags":{"plan-id":"x"}}`), CodeInvokerFlag)
		wantMachineCode(t, invokeStub(iv.Invoker, "stub plan", `{"args":["w"],"flags":{"plan":true}}`), CodeInvokerFlag)
		wantMachineCode(t, invokeStub(iv.Invoker, "stub plan", `{"args":["w"],"flags":{"yes":false}}`), CodeInvokerFlag)
		if len(stubMarkLines(t, mark)) != 0 {
			t.Fatal("a child ran")
		}
	})

	t.Run("E450 plan confirmation round trip", func(t *testing.T) {
		mark := filepath.Join(t.TempDir(), "mark")
		planID := strings.Repeat("ab", 32)
		iv := newStubInvoker(t, stub, "plan", "STUB_MARK="+mark, "STUB_PLAN_ID="+planID, "STUB_REQUIRES=true")
		res := invokeStub(iv.Invoker, "stub plan", `{"args":["w"]}`)
		if res.Confirm == nil || res.Confirm.Kind != KindPlan || res.Confirm.PlanID != planID || !isConfirmValue(res.Confirm.Confirm) ||
			res.Confirm.Confirm == planID || !strings.Contains(string(res.Confirm.Plan), `"steps":["a","b"]`) {
			t.Fatalf("want a plan confirmation (plan id for review, a nonce to confirm), got %s", res.Envelope)
		}
		// the plan id is for review: it confirms nothing
		wantMachineCode(t, invokeStub(iv.Invoker, "stub plan", `{"args":["w"],"confirm":"`+planID+`"}`), CodeBadConfirm)
		ok := invokeStub(iv.Invoker, "stub plan", `{"args":["w"],"confirm":"`+res.Confirm.Confirm+`"}`)
		if !ok.OK {
			t.Fatalf("confirmed plan: %s", ok.Envelope)
		}
		// the same value a second time: refused, nothing runs
		wantMachineCode(t, invokeStub(iv.Invoker, "stub plan", `{"args":["w"],"confirm":"`+res.Confirm.Confirm+`"}`), CodeBadConfirm)
		// changed arguments
		res = invokeStub(iv.Invoker, "stub plan", `{"args":["w"]}`)
		wantMachineCode(t, invokeStub(iv.Invoker, "stub plan", `{"args":["x"],"confirm":"`+res.Confirm.Confirm+`"}`), CodeBadConfirm)
		// the plan moved between the confirmation and the run: the child's E450, unchanged
		res = invokeStub(iv.Invoker, "stub plan", `{"args":["w"]}`)
		moved := *iv.Invoker
		moved.Environ = append(append([]string(nil), iv.Environ...), "STUB_PLAN_ID="+strings.Repeat("cd", 32))
		got := invokeStub(&moved, "stub plan", `{"args":["w"],"confirm":"`+res.Confirm.Confirm+`"}`)
		if string(got.Envelope) != `{"ok":false,"error":{"code":"E450","message":"the plan moved","cause":null}}` || *got.ExitCode != 1 {
			t.Fatalf("the child's E450 must come back unchanged: %s", got.Envelope)
		}
		lines := stubMarkLines(t, mark)
		if len(lines) != 5 || !strings.HasSuffix(lines[0], "--plan=true -- w") || !strings.HasSuffix(lines[1], "--plan-id="+planID+" --yes=true -- w") ||
			!strings.HasSuffix(lines[4], "--plan-id="+planID+" --yes=true -- w") {
			t.Fatalf("children %q", lines)
		}
	})

	t.Run("plan without confirmation runs with the plan id only", func(t *testing.T) {
		mark := filepath.Join(t.TempDir(), "mark")
		planID := strings.Repeat("ef", 32)
		iv := newStubInvoker(t, stub, "plan", "STUB_MARK="+mark, "STUB_PLAN_ID="+planID, "STUB_REQUIRES=false")
		if res := invokeStub(iv.Invoker, "stub plan", `{"args":["w"]}`); !res.OK || res.Confirm != nil {
			t.Fatalf("%s", res.Envelope)
		}
		lines := stubMarkLines(t, mark)
		if len(lines) != 2 || !strings.HasSuffix(lines[1], "--plan-id="+planID+" -- w") {
			t.Fatalf("children %q", lines)
		}
		bad := newStubInvoker(t, stub, "plan", "STUB_PLAN_ID=not-hex", "STUB_REQUIRES=false")
		wantMachineCode(t, invokeStub(bad.Invoker, "stub plan", `{"args":["w"]}`), CodeNoDocument)
		failing := newStubInvoker(t, stub, "fail")
		if res := invokeStub(failing.Invoker, "stub plan", `{"args":["w"]}`); res.ErrorCode != "E603" || *res.ExitCode != 2 {
			t.Fatalf("a failed plan exec returns the child's envelope: %s", res.Envelope)
		}
	})

	t.Run("gates answered by the client", func(t *testing.T) {
		mark := filepath.Join(t.TempDir(), "mark")
		planID := strings.Repeat("12", 32)
		iv := newStubInvoker(t, stub, "plan", "STUB_MARK="+mark, "STUB_PLAN_ID="+planID, "STUB_REQUIRES=true")
		ask := func(a GateAnswer) Options {
			o := stubSession
			o.Gates = func(context.Context, json.RawMessage) (GateAnswer, error) { return a, nil }
			return o
		}
		call := func(a GateAnswer) Result {
			return iv.Invoke(context.Background(), TransportMCPStdio, []string{"stub", "plan"}, []byte(`{"args":["w"]}`), ask(a))
		}
		if res := call(GatePending); !res.Pending {
			t.Fatalf("pending: %+v", res)
		}
		if res := call(GateDeclined); res.ErrorCode != workflow.CodeGateRefused {
			t.Fatalf("declined: %s", res.Envelope)
		}
		if res := call(GateApproved); !res.OK {
			t.Fatalf("approved: %s", res.Envelope)
		}
		runs := 0
		for _, l := range stubMarkLines(t, mark) {
			if !strings.Contains(l, "--plan=true") {
				runs++
				if !strings.Contains(l, "--plan-id="+planID+" --yes=true") {
					t.Fatalf("approved run argv %q", l)
				}
			}
		}
		if runs != 1 {
			t.Fatalf("%d runs, want only the approved one", runs)
		}
	})
}

func waitProcGone(pid int, within time.Duration) bool {
	deadline := time.Now().Add(within)
	for time.Now().Before(deadline) {
		if !procAlive(pid) {
			return true
		}
		time.Sleep(20 * time.Millisecond)
	}
	return !procAlive(pid)
}

func TestAuditWriteFailureAfterARun(t *testing.T) {
	stub := testbin.Build(t, "./testdata/machine/stubchild")
	iv := newStubInvoker(t, stub, "ok")
	iv.Environ = append(iv.Environ, "STUB_BREAK="+iv.Audit.Path)
	var stderr strings.Builder
	iv.Stderr = &stderr
	res := invokeStub(iv.Invoker, "stub write", `{"args":["v4lue"]}`)
	if !res.OK || *res.ExitCode != 0 {
		t.Fatalf("the run itself succeeded: %s", res.Envelope)
	}
	lines := strings.Split(strings.TrimSpace(stderr.String()), "\n")
	if len(lines) != 1 || !strings.Contains(lines[0], "audit log write failed") || strings.Contains(stderr.String(), "v4lue") {
		t.Fatalf("want one stderr line without the request, got %q", stderr.String())
	}
	// the server goes on: reads still run, and a non-read is refused while the log cannot be opened
	if res := invokeStub(iv.Invoker, "stub read", `{}`); !res.OK {
		t.Fatalf("read after a failed audit write: %s", res.Envelope)
	}
	wantMachineCode(t, invokeStub(iv.Invoker, "stub write", `{}`), cli.CodeNotExposed)
}
