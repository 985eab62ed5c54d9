package host

import (
	"context"
	"errors"
	"net"
	"net/http"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/relavium/relavium/engine"
	"github.com/relavium/relavium/host/era"
	"github.com/relavium/relavium/host/failure"
	"github.com/relavium/relavium/host/netguard"
)

// loopbackServer is a real HTTP server on a fixed loopback port that can go
// away (stop) and come back (start) on the same port: a new server process,
// with none of the old sessions.
type loopbackServer struct {
	t    *testing.T
	addr string
	mu   sync.Mutex
	srv  *http.Server
	mcp  *mcp.Server
	dead []*mcp.Server // servers stopped: their sessions are closed at the end
	done chan struct{}
	// handler serves the requests; forget swaps in a new one.
	handler atomic.Pointer[mcp.StreamableHTTPHandler]
}

// forget is a server that restarted behind the same listener: a new
// handler that knows none of the old sessions (they get 404).
func (l *loopbackServer) forget() {
	s := inprocServer()
	l.handler.Store(mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return s }, nil))
	l.mu.Lock()
	l.dead = append(l.dead, s)
	l.mu.Unlock()
}

func newLoopbackServer(t *testing.T) *loopbackServer {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	l := &loopbackServer{t: t, addr: ln.Addr().String()}
	l.serve(ln)
	t.Cleanup(func() {
		l.stop()
		for _, s := range l.dead { // what died with each process
			for ss := range s.Sessions() {
				_ = ss.Close()
			}
		}
	})
	return l
}

func (l *loopbackServer) url() string { return "http://" + l.addr + "/mcp" }

func (l *loopbackServer) serve(ln net.Listener) {
	s := inprocServer()
	l.handler.Store(mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return s }, nil))
	srv := &http.Server{Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { l.handler.Load().ServeHTTP(w, r) })}
	done := make(chan struct{})
	go func() {
		defer close(done)
		_ = srv.Serve(ln)
	}()
	l.mu.Lock()
	l.srv, l.mcp, l.done = srv, s, done
	l.mu.Unlock()
}

// stop closes the listener and every connection at once (a server that
// died, not one shutting down politely).
func (l *loopbackServer) stop() {
	l.mu.Lock()
	srv, s, done := l.srv, l.mcp, l.done
	l.srv = nil
	l.mu.Unlock()
	if srv != nil {
		_ = srv.Close()
		<-done
		l.mu.Lock()
		l.dead = append(l.dead, s)
		l.mu.Unlock()
	}
}

func (l *loopbackServer) start() {
	l.t.Helper()
	ln, err := net.Listen("tcp", l.addr)
	if err != nil {
		l.t.Fatal(err)
	}
	l.serve(ln)
}

// waitFor polls cond for up to 20 s.
func eventually(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

func lastServerEvent(rec *recorder, name string) engine.ServerData {
	var d engine.ServerData
	for _, e := range rec.ofType(engine.EventServer) {
		if s := e.Data.(engine.ServerData); s.Server == name {
			d = s
		}
	}
	return d
}

func TestPing(t *testing.T) {
	h := startHost(t, Options{Servers: []Endpoint{memoryServer(t, "m", inprocServer())}})
	rtt, err := h.Ping(context.Background(), "m")
	if err != nil || rtt <= 0 {
		t.Fatalf("ping = %v, %v", rtt, err)
	}
	if _, err := h.Ping(context.Background(), "nope"); codeOf(err) != failure.CodeServerNotReady {
		t.Errorf("ping of an unknown server: %v", err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := h.Ping(ctx, "m"); codeOf(err) != failure.CodeCallCancelled {
		t.Errorf("cancelled ping: %v", err)
	}
}

// A server that stops answering pings fails the ping with E598 at the
// deadline, not later.
func TestPingDeadline(t *testing.T) {
	s := inprocServer()
	s.AddReceivingMiddleware(func(next mcp.MethodHandler) mcp.MethodHandler {
		return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
			if method == "ping" {
				<-ctx.Done()
				return nil, ctx.Err()
			}
			return next(ctx, method, req)
		}
	})
	h := startHost(t, Options{Servers: []Endpoint{memoryServer(t, "m", s)}})
	ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
	defer cancel()
	if _, err := h.Ping(ctx, "m"); codeOf(err) != failure.CodePingFailed {
		t.Errorf("unanswered ping: %v", err)
	}
}

// notifications/tools/list_changed: the list is walked again, a new tool
// joins, an unchanged tool keeps its id, a changed definition is flagged
// (judged against its pin like the first walk); prompts/list_changed is
// reported for the faces to read again.
func TestListChangedRefreshes(t *testing.T) {
	s := inprocServer()
	url := serveHTTP(t, s) + "/mcp"
	g := netguard.New()
	rec := &recorder{}
	h := startHost(t, Options{Guard: g, Emitter: rec, Home: t.TempDir(), Servers: []Endpoint{networkServer(t, g, "n", TransportHTTP, url)}})
	echoID, _ := h.Lookup("mcp_n_echo")
	refreshed := func(n int) func() bool {
		return func() bool {
			c := 0
			for _, e := range rec.ofType(engine.EventListChanged) {
				if d := e.Data.(ListChangedData); d.List == "tools" && d.Error == "" {
					c++
				}
			}
			return c >= n
		}
	}

	s.AddTool(&mcp.Tool{Name: "added", InputSchema: &jsonschema.Schema{Type: "object"}},
		func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "new"}}}, nil
		})
	eventually(t, "the tool list walked again", refreshed(1))
	if got := callText(t, h, "mcp_n_added", `{}`); got != "new" {
		t.Errorf("the added tool: %q", got)
	}
	if id, _ := h.Lookup("mcp_n_echo"); id != echoID {
		t.Errorf("an unchanged tool's id changed: %s → %s", echoID, id)
	}
	if d := lastServerEvent(rec, "n"); d.State != engine.StateReady || d.Tools != len(h.Tools()) {
		t.Errorf("the ready event after the walk: %+v (have %d tools)", d, len(h.Tools()))
	}

	// The same name, another definition: flagged as changed.
	s.RemoveTools("added")
	s.AddTool(&mcp.Tool{Name: "added", Description: "now says something else", InputSchema: &jsonschema.Schema{Type: "object"}},
		func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			return &mcp.CallToolResult{}, nil
		})
	eventually(t, "the changed definition flagged", func() bool {
		def, ok := h.Tool("mcp_n_added")
		return ok && def.Changed
	})

	s.AddPrompt(&mcp.Prompt{Name: "p"}, func(context.Context, *mcp.GetPromptRequest) (*mcp.GetPromptResult, error) {
		return &mcp.GetPromptResult{}, nil
	})
	eventually(t, "prompts/list_changed reported", func() bool {
		for _, e := range rec.ofType(engine.EventListChanged) {
			if e.Data.(ListChangedData).List == "prompts" {
				return true
			}
		}
		return false
	})
}

// A Streamable HTTP server that goes away is failed at once (the refused
// connection), a call in flight fails with that code, and the host dials
// it again with backoff until it is back.
func TestHTTPServerGoneAndBack(t *testing.T) {
	ls := newLoopbackServer(t)
	g := netguard.New()
	rec := &recorder{}
	h := startHost(t, Options{Guard: g, Emitter: rec, Reconnect: &ReconnectPolicy{Base: 100 * time.Millisecond, Max: 200 * time.Millisecond, Attempts: 50},
		Servers: []Endpoint{networkServer(t, g, "n", TransportHTTP, ls.url())}})

	errc := make(chan error, 1)
	go func() {
		_, err := callTool(t, h, context.Background(), "mcp_n_slow", `{"ms":4000}`, engine.CallOptions{})
		errc <- err
	}()
	time.Sleep(200 * time.Millisecond) // the call is at the server
	began := time.Now()
	ls.stop()
	select {
	case err := <-errc:
		if codeOf(err) != failure.CodeConnectionLost {
			t.Errorf("the call in flight: %v (code %s)", err, codeOf(err))
		}
		t.Logf("the call failed %v after the server went away", time.Since(began))
	case <-time.After(10 * time.Second):
		t.Fatal("the call in flight did not fail")
	}
	eventually(t, "the failed state", func() bool { return lastServerEvent(rec, "n").State == engine.StateFailed })
	if d := lastServerEvent(rec, "n"); d.ErrorCode != failure.CodeConnectionLost {
		t.Errorf("failed event %+v", d)
	}
	eventually(t, "a retry announced", func() bool {
		for _, e := range rec.ofType(engine.EventServer) {
			if d := e.Data.(engine.ServerData); d.RetryMS > 0 && d.ErrorCode != "" {
				return true
			}
		}
		return false
	})

	ls.start()
	eventually(t, "ready again", func() bool {
		st := h.Servers()
		return len(st) == 1 && st[0].State == engine.StateReady
	})
	if got := callText(t, h, "mcp_n_echo", `{"message":"back"}`); got != "back" {
		t.Errorf("echo after the reconnect: %q", got)
	}
}

// A server that restarted no longer knows the session: its 404 fails the
// server with E599 at the next request, and the host opens a new session.
func TestHTTPSessionGone(t *testing.T) {
	ls := newLoopbackServer(t)
	g := netguard.New()
	rec := &recorder{}
	h := startHost(t, Options{Guard: g, Emitter: rec, Reconnect: &ReconnectPolicy{Base: 50 * time.Millisecond, Attempts: 20},
		Servers: []Endpoint{networkServer(t, g, "n", TransportHTTP, ls.url())}})
	ls.forget() // a new server: the old session is unknown to it
	_, err := callTool(t, h, context.Background(), "mcp_n_echo", `{"message":"x"}`, engine.CallOptions{})
	var he *failure.Error
	if !errors.As(err, &he) || he.ErrCode != failure.CodeSessionGone {
		t.Fatalf("a call on the forgotten session: %v", err)
	}
	eventually(t, "the failed state with E599", func() bool {
		for _, e := range rec.ofType(engine.EventServer) {
			if d := e.Data.(engine.ServerData); d.State == engine.StateFailed && d.ErrorCode == failure.CodeSessionGone {
				return true
			}
		}
		return false
	})
	eventually(t, "a new session", func() bool {
		st := h.Servers()
		return len(st) == 1 && st[0].State == engine.StateReady
	})
	if got := callText(t, h, "mcp_n_echo", `{"message":"again"}`); got != "again" {
		t.Errorf("echo on the new session: %q", got)
	}
}

// A stdio server that exits is failed at once and is not restarted on its
// own (even with a reconnect policy); Reconnect (r) starts it again.
func TestStdioExitIsNotRedialled(t *testing.T) {
	rec := &recorder{}
	h := startHost(t, Options{Emitter: rec, Reconnect: &ReconnectPolicy{Base: 10 * time.Millisecond},
		Servers: []Endpoint{stdioServer(t, "s", "ok")}})
	pid := h.Servers()[0].PID
	if _, err := callTool(t, h, context.Background(), "mcp_s_crash", `{}`, engine.CallOptions{}); codeOf(err) != failure.CodeServerExited {
		t.Fatalf("crash: %v", err)
	}
	eventually(t, "failed", func() bool { return h.Servers()[0].State == engine.StateFailed })
	time.Sleep(300 * time.Millisecond) // thirty retry periods
	if st := h.Servers()[0]; st.State != engine.StateFailed || st.PID != pid || lastServerEvent(rec, "s").RetryMS != 0 {
		t.Fatalf("a stdio server was restarted on its own: %+v", st)
	}
	if err := h.Reconnect(context.Background(), "s"); err != nil {
		t.Fatal(err)
	}
	if st := h.Servers()[0]; st.State != engine.StateReady || st.PID == pid {
		t.Errorf("after Reconnect: %+v", st)
	}
	_ = h.Close()
	assertNoProcesses(t, pid)
}

// In the modern era the notification comes through the session's
// subscriptions/listen stream; the tool list is walked again the same way.
func TestListChangedInTheModernEra(t *testing.T) {
	s := inprocServer()
	rec := &recorder{}
	ep := memoryServer(t, "m", s)
	ep.Protocol = era.ProtocolModern
	h := startHost(t, Options{Emitter: rec, Servers: []Endpoint{ep}})
	if st := h.Servers()[0]; st.Protocol != era.ProtocolModern {
		t.Fatalf("status %+v", st)
	}
	s.AddTool(&mcp.Tool{Name: "added", InputSchema: &jsonschema.Schema{Type: "object"}},
		func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "modern"}}}, nil
		})
	eventually(t, "the added tool", func() bool { _, ok := h.Lookup("mcp_m_added"); return ok })
	if got := callText(t, h, "mcp_m_added", `{}`); got != "modern" {
		t.Errorf("the added tool: %q", got)
	}
}
