package host

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/relavium/relavium/engine"
	"github.com/relavium/relavium/fault"
	"github.com/relavium/relavium/host/clientside"
	"github.com/relavium/relavium/host/deadline"
	"github.com/relavium/relavium/host/discovery"
	"github.com/relavium/relavium/host/failure"
	"github.com/relavium/relavium/host/netguard"
)

func TestCallDeadlineAndCancellationAreDistinct(t *testing.T) {
	h := startHost(t, Options{Servers: []Endpoint{stdioServer(t, "s", "ok")}})

	_, err := callTool(t, h, context.Background(), "mcp_s_slow", `{"ms":30000}`, engine.CallOptions{Timeout: 200 * time.Millisecond})
	if codeOf(err) != failure.CodeCallDeadline || !IsDeadline(err) || IsCancelled(err) {
		t.Errorf("deadline: %v", err)
	}

	ctx, cancel := context.WithCancelCause(context.Background())
	time.AfterFunc(200*time.Millisecond, func() { cancel(errors.New("the person pressed Esc")) })
	_, err = callTool(t, h, ctx, "mcp_s_slow", `{"ms":30000}`, engine.CallOptions{})
	if codeOf(err) != failure.CodeCallCancelled || !IsCancelled(err) || IsDeadline(err) || !strings.Contains(err.Error(), "pressed Esc") {
		t.Errorf("cancel: %v", err)
	}
	// Both cancellations reached the server (notifications/cancelled).
	deadline := time.Now().Add(10 * time.Second)
	for callText(t, h, "mcp_s_cancelled", `{}`) != "2" {
		if time.Now().After(deadline) {
			t.Fatalf("the server saw %s cancellations, want 2", callText(t, h, "mcp_s_cancelled", `{}`))
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// The precedence is decided when the failure is classified: a caller that
// cancelled is told so even when the deadline had also elapsed by then.
func TestCancellationWinsOverAnElapsedDeadline(t *testing.T) {
	c := &conn{srv: Endpoint{Name: "s"}, ctx: context.Background()}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	d := &deadline.Cause{What: "tools/call x", D: time.Nanosecond}
	tctx, tcancel := context.WithTimeoutCause(context.Background(), time.Nanosecond, d)
	defer tcancel()
	<-tctx.Done()
	if err := c.callFailure(ctx, tctx, d, "x", context.DeadlineExceeded); codeOf(err) != failure.CodeCallCancelled {
		t.Errorf("both elapsed: %v, want cancelled", err)
	}
	if err := c.callFailure(context.Background(), tctx, d, "x", context.DeadlineExceeded); codeOf(err) != failure.CodeCallDeadline {
		t.Errorf("deadline only: %v", err)
	}
}

func TestProgressIsRoutedToItsCallInOrderAndComplete(t *testing.T) {
	rec := &recorder{}
	h := startHost(t, Options{Emitter: rec, Servers: []Endpoint{stdioServer(t, "p", "ok")}})
	const steps = 200
	var wg sync.WaitGroup
	got := make([][]engine.Progress, 2)
	for i := range got {
		wg.Add(1)
		go func() {
			defer wg.Done()
			var mu sync.Mutex
			res, err := callTool(t, h, context.Background(), "mcp_p_progress", `{"steps":200}`, engine.CallOptions{
				OnProgress: func(p engine.Progress) { mu.Lock(); got[i] = append(got[i], p); mu.Unlock() },
			})
			if err != nil || res.Text() != "200 steps" {
				t.Errorf("call %d: %v %v", i, res, err)
			}
			mu.Lock() // everything was delivered before Call returned
			defer mu.Unlock()
			if len(got[i]) != steps {
				t.Errorf("call %d got %d progress notifications, want all %d", i, len(got[i]), steps)
				return
			}
			for j, p := range got[i] {
				if p.Progress != float64(j+1) || p.Total != steps {
					t.Errorf("call %d notification %d = %+v", i, j, p)
					return
				}
			}
		}()
	}
	wg.Wait()
	// Progress reaches the caller only; engine.Trace turns it into events
	// under the caller's call id, so the host itself must emit none.
	if evs := rec.ofType(engine.EventToolProgress); len(evs) != 0 {
		t.Errorf("host emitted %d agent:tool_progress events itself, want 0", len(evs))
	}
}

func TestProgressFloodIsCoalescedNotBuffered(t *testing.T) {
	h := startHost(t, Options{Servers: []Endpoint{stdioServer(t, "f", "ok")}})
	var n int
	var last engine.Progress
	res, err := callTool(t, h, context.Background(), "mcp_f_flood", `{"n":10000}`, engine.CallOptions{
		OnProgress: func(p engine.Progress) {
			time.Sleep(200 * time.Microsecond) // a consumer slower than the flood
			n++
			last = p
		},
	})
	if err != nil || res.Text() != "flooded 10000" {
		t.Fatalf("flood: %v %v", res, err)
	}
	if last.Progress != 10000 {
		t.Errorf("last progress = %v, want the latest (10000)", last.Progress)
	}
	if n == 0 || n > 10000 {
		t.Errorf("%d progress deliveries", n)
	}
	t.Logf("%d of 10000 progress notifications delivered (the rest coalesced)", n)
	// The host still answers at once.
	if got := callText(t, h, "mcp_f_echo", `{"message":"after"}`); got != "after" {
		t.Errorf("echo after flood = %q", got)
	}
}

func TestResultTextOverOneMiBFailsTheCall(t *testing.T) {
	h := startHost(t, Options{Servers: []Endpoint{stdioServer(t, "b", "ok")}})
	res, err := callTool(t, h, context.Background(), "mcp_b_big", `{"bytes":1048576,"parts":3}`, engine.CallOptions{})
	if err != nil || len(res.Text()) != MaxResultText {
		t.Fatalf("exactly 1 MiB: %v", err)
	}
	res, err = callTool(t, h, context.Background(), "mcp_b_big", `{"bytes":1048577,"parts":3}`, engine.CallOptions{})
	if codeOf(err) != failure.CodeResultTooLarge || res != nil {
		t.Errorf("1 MiB + 1: res=%v err=%v", res != nil, err)
	}
	if he := (*failure.Error)(nil); !errors.As(err, &he) || he.Server != "b" {
		t.Errorf("the oversized-result failure does not name its server: %v", err)
	}
}

func TestServerLogsBecomeEvents(t *testing.T) {
	rec := &recorder{}
	h := startHost(t, Options{Emitter: rec, Servers: []Endpoint{stdioServer(t, "l", "ok")}})
	callText(t, h, "mcp_l_log", `{"n":3}`)
	deadline := time.Now().Add(5 * time.Second)
	for len(rec.ofType(engine.EventToolLog)) < 3 && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	logs := rec.ofType(engine.EventToolLog)
	if len(logs) != 3 {
		t.Fatalf("%d log events, want 3 (debug filtered at info)", len(logs))
	}
	d := logs[2].Data.(engine.ToolLogData)
	if d.Server != "l" || d.Level != "info" || d.Logger != "hostile" || string(d.Data) != `"line 3"` {
		t.Errorf("log event = %+v", d)
	}
}

type funcElicitor func(context.Context, engine.ElicitRequest) (engine.ElicitResponse, error)

func (f funcElicitor) Elicit(ctx context.Context, r engine.ElicitRequest) (engine.ElicitResponse, error) {
	return f(ctx, r)
}

func TestElicitationPolicies(t *testing.T) {
	for _, tc := range []struct {
		name string
		el   engine.Elicitor
		want string
	}{
		{"none", nil, `decline null`},
		{"decline", clientside.DeclineElicitor{}, `decline null`},
		{"defaults", clientside.DefaultsElicitor{}, `accept {"count":3,"name":"anon"}`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rec := &recorder{}
			h := startHost(t, Options{Emitter: rec, Elicitor: tc.el, Servers: []Endpoint{stdioServer(t, "e", "ok")}})
			if got := callText(t, h, "mcp_e_elicit", `{}`); got != tc.want {
				t.Errorf("elicit = %q, want %q", got, tc.want)
			}
			if n := len(rec.ofType(engine.EventElicitationResolved)); n != 1 {
				t.Errorf("%d elicitation:resolved events", n)
			}
		})
	}
}

// The form a person fills in lists the fields in the server's order, even
// though the go-sdk hands the schema over as a map.
func TestElicitationKeepsTheServersFieldOrder(t *testing.T) {
	var got json.RawMessage
	el := funcElicitor(func(_ context.Context, r engine.ElicitRequest) (engine.ElicitResponse, error) {
		got = r.Schema
		return engine.ElicitResponse{Action: "accept", Content: map[string]any{"name": "ada", "count": 1}}, nil
	})
	h := startHost(t, Options{Elicitor: el, Servers: []Endpoint{stdioServer(t, "e", "ok")}})
	if out := callText(t, h, "mcp_e_elicit", `{}`); out != `accept {"count":1,"name":"ada"}` {
		t.Fatalf("elicit = %q", out)
	}
	want := `{"properties":{"name":{"default":"anon","type":"string"},"count":{"default":3,"type":"integer"}},"type":"object"}`
	if string(got) != want {
		t.Fatalf("schema handed to the elicitor:\n got %s\nwant %s", got, want)
	}
}

// The go-sdk close deadlock (docs/mcp-integration.md): a call in flight whose
// server waits on an elicitation that nobody answers. Close must cancel
// first and return.
func TestCloseDuringCallAndPendingElicitation(t *testing.T) {
	asked := make(chan struct{})
	el := funcElicitor(func(ctx context.Context, _ engine.ElicitRequest) (engine.ElicitResponse, error) {
		close(asked)
		<-ctx.Done()
		return engine.ElicitResponse{}, ctx.Err()
	})
	h := startHost(t, Options{Elicitor: el, Servers: []Endpoint{stdioServer(t, "d", "ok")}})
	pid := h.Servers()[0].PID
	errc := make(chan error, 1)
	go func() {
		_, err := callTool(t, h, context.Background(), "mcp_d_elicit", `{}`, engine.CallOptions{})
		errc <- err
	}()
	<-asked
	done := make(chan struct{})
	go func() { _ = h.Close(); close(done) }()
	select {
	case <-done:
	case <-time.After(30 * time.Second):
		t.Fatal("Close deadlocked on a pending elicitation")
	}
	if err := <-errc; codeOf(err) != failure.CodeCallCancelled || !strings.Contains(err.Error(), "relavium closed the connection") {
		t.Errorf("in-flight call: %v", err)
	}
	assertNoProcesses(t, pid)
}

func TestServerIgnoringCancellationCannotHoldTheCallOrClose(t *testing.T) {
	h := startHost(t, Options{Servers: []Endpoint{stdioServer(t, "i", "ignore-cancel")}})
	pid := h.Servers()[0].PID
	ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
	defer cancel()
	began := time.Now()
	_, err := callTool(t, h, ctx, "mcp_i_slow", `{"ms":60000}`, engine.CallOptions{})
	if codeOf(err) != failure.CodeCallCancelled {
		t.Errorf("err = %v", err)
	}
	if d := time.Since(began); d > 10*time.Second {
		t.Errorf("the call was held %v by a server ignoring cancellation", d)
	}
	_ = h.Close()
	assertNoProcesses(t, pid)
}

func TestStartCancelledDuringConnect(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	time.AfterFunc(300*time.Millisecond, cancel)
	_, err := Start(ctx, Options{Servers: []Endpoint{stdioServer(t, "n", "no-init")}})
	var se *StartError
	if !errors.As(err, &se) || se.Failures[0].ErrCode != failure.CodeCallCancelled {
		t.Fatalf("err = %v", err)
	}
	assertNoProcesses(t, se.Servers[0].PID)
}

// The tools/list walk outliving its deadline is a deadline failure (the
// walk's own E584), not a generic discovery failure, and not a
// cancellation.
func TestDiscoveryDeadlineIsADeadline(t *testing.T) {
	s := inprocServer()
	release := make(chan struct{})
	defer close(release)
	s.AddReceivingMiddleware(func(next mcp.MethodHandler) mcp.MethodHandler {
		return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
			if method == "tools/list" {
				select {
				case <-ctx.Done():
				case <-release:
				}
			}
			return next(ctx, method, req)
		}
	})
	_, err := Start(context.Background(), Options{Servers: []Endpoint{memoryServer(t, "m", s)},
		Timeouts: Timeouts{Discovery: 200 * time.Millisecond}})
	var se *StartError
	if !errors.As(err, &se) || len(se.Failures) != 1 {
		t.Fatalf("err = %v", err)
	}
	if f := se.Failures[0]; f.ErrCode != discovery.CodeDeadline || !IsDeadline(f) || IsCancelled(f) {
		t.Errorf("failure = %v, want the discovery deadline %s", f, discovery.CodeDeadline)
	}
}

// A server that never answers logging/setLevel still connects: the wait
// for that answer is a share of the discovery window, and tools/list gets
// the rest (before, the mute answer spent the whole window and the server
// failed with a "tools/list discovery" deadline it never reached).
func TestMuteSetLevelDoesNotSpendTheDiscoveryWindow(t *testing.T) {
	h := startHost(t, Options{Servers: []Endpoint{stdioServer(t, "q", "mute-setlevel")},
		Timeouts: Timeouts{Discovery: 2 * time.Second}})
	if st := h.Servers()[0]; st.State != engine.StateReady || st.Tools == 0 {
		t.Fatalf("status = %+v", st)
	}
	if got := callText(t, h, "mcp_q_echo", `{"message":"still here"}`); got != "still here" {
		t.Fatalf("echo = %q", got)
	}
}

// A failed walk says its code and the server once: discovery's message is
// the failure's, not a cause repeating "E580: server m: …" inside it.
func TestDiscoveryFailureSaysItsCodeOnce(t *testing.T) {
	s := inprocServer()
	s.AddReceivingMiddleware(func(next mcp.MethodHandler) mcp.MethodHandler {
		return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
			if method == "tools/list" {
				return nil, errors.New("no list today")
			}
			return next(ctx, method, req)
		}
	})
	_, err := Start(context.Background(), Options{Servers: []Endpoint{memoryServer(t, "m", s)}})
	var se *StartError
	if !errors.As(err, &se) || len(se.Failures) != 1 {
		t.Fatalf("err = %v", err)
	}
	f := se.Failures[0]
	msg := f.Error()
	if strings.Count(msg, string(f.ErrCode)) != 1 || strings.Count(msg, "server m") != 1 || !strings.Contains(msg, "no list today") {
		t.Fatalf("failure %q", msg)
	}
}

// A failure whose cause carries the same code (the guard's refusal, kept
// for its refusal data) says the code once.
func TestErrorSaysASharedCodeOnce(t *testing.T) {
	r := &netguard.Error{Base: fault.Base{ErrCode: netguard.CodePrivateAddress, Msg: "mcp.example.com:443 resolves to the local address 127.0.0.1"}}
	e := &failure.Error{Base: fault.Base{ErrCode: r.ErrCode, Msg: "refused by the network guard", Cause: r}, Server: "pub"}
	if got := e.Error(); strings.Count(got, string(r.ErrCode)) != 1 || !strings.Contains(got, "resolves to the local address") {
		t.Fatalf("Error() = %q", got)
	}
	if _, ok := netguard.AsRefusal(e.Cause); !ok {
		t.Fatal("the refusal is no longer the cause")
	}
}
