package host

import (
	"bytes"
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/relavium/relavium/engine"
	"github.com/relavium/relavium/host/era"
	"github.com/relavium/relavium/host/failure"
	"github.com/relavium/relavium/host/netguard"
)

// TestProtocolErasInMemory: each era asked for is the era negotiated with
// an SDK server that speaks both, and logs reach relavium in both (the
// modern era sends them only for requests that carry a level).
func TestProtocolErasInMemory(t *testing.T) {
	for _, tc := range []struct{ ask, want, era string }{
		{"", era.ProtocolLegacy, "legacy"},
		{era.ProtocolLegacy, era.ProtocolLegacy, "legacy"},
		{era.ProtocolModern, era.ProtocolModern, "modern"},
		{era.ProtocolAuto, era.ProtocolModern, "modern"}, // one stream: discover first costs nothing
	} {
		t.Run("ask="+tc.ask, func(t *testing.T) {
			rec := &recorder{}
			s := memoryServer(t, "m", inprocServer())
			s.Protocol = tc.ask
			h := startHost(t, Options{Emitter: rec, Servers: []Endpoint{s}})
			st := h.Servers()[0]
			if st.Protocol != tc.want || st.Era == nil || st.Era.Name != tc.era || st.Era.Elicitation == "" || st.Era.Logs == "" || st.Era.Sampling == "" {
				t.Fatalf("status %+v era %+v", st, st.Era)
			}
			if want := tc.ask; st.Requested != want && !(want == "" && st.Requested == era.ProtocolLegacy) {
				t.Errorf("requested %q, want %q", st.Requested, want)
			}
			if got := callText(t, h, "mcp_m_echo", `{"message":"hi"}`); got != "hi" {
				t.Errorf("echo = %q", got)
			}
			callText(t, h, "mcp_m_log", `{"n":3}`)
			deadline := time.Now().Add(5 * time.Second)
			for len(rec.ofType(engine.EventToolLog)) < 3 && time.Now().Before(deadline) {
				time.Sleep(5 * time.Millisecond)
			}
			if n := len(rec.ofType(engine.EventToolLog)); n != 3 {
				t.Errorf("%d log events in era %s, want 3", n, tc.era)
			}
			var ev engine.ServerData
			for _, e := range rec.ofType(engine.EventServer) {
				if d := e.Data.(engine.ServerData); d.State == engine.StateReady {
					ev = d
				}
			}
			if ev.Protocol != tc.want {
				t.Errorf("ready event protocol %q, want %q", ev.Protocol, tc.want)
			}
		})
	}
}

// methodCounter counts the JSON-RPC methods POSTed to an HTTP handler.
type methodCounter struct {
	mu    sync.Mutex
	posts []string
	inner http.Handler
}

func (m *methodCounter) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.Method == http.MethodPost {
		b, _ := io.ReadAll(r.Body)
		r.Body = io.NopCloser(bytes.NewReader(b))
		for _, method := range []string{"server/discover", "initialize", "tools/list"} {
			if bytes.Contains(b, []byte(`"method":"`+method+`"`)) {
				m.mu.Lock()
				m.posts = append(m.posts, method)
				m.mu.Unlock()
			}
		}
	}
	m.inner.ServeHTTP(w, r)
}

func (m *methodCounter) count(method string) int {
	m.mu.Lock()
	defer m.mu.Unlock()
	n := 0
	for _, p := range m.posts {
		if p == method {
			n++
		}
	}
	return n
}

func serveStreamable(t *testing.T, stateless bool) (string, *methodCounter) {
	t.Helper()
	s := inprocServer()
	mc := &methodCounter{inner: mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return s },
		&mcp.StreamableHTTPOptions{Stateless: stateless})}
	srv := httptest.NewServer(mc)
	t.Cleanup(srv.Close)
	return srv.URL + "/mcp", mc
}

// TestProtocolAutoOverHTTP: auto costs a stateful server no extra round
// trip (no server/discover reaches it; one initialize), and moves to the
// modern era on a stateless server that speaks it.
func TestProtocolAutoOverHTTP(t *testing.T) {
	t.Run("stateful", func(t *testing.T) {
		url, mc := serveStreamable(t, false)
		g := netguard.New()
		s := networkServer(t, g, "n", TransportHTTP, url)
		s.Protocol = era.ProtocolAuto
		h := startHost(t, Options{Guard: g, Servers: []Endpoint{s}})
		if st := h.Servers()[0]; st.Protocol != era.ProtocolLegacy || st.Era.Name != "legacy" {
			t.Fatalf("status %+v", st)
		}
		if d, i := mc.count("server/discover"), mc.count("initialize"); d != 0 || i != 1 {
			t.Errorf("stateful server got %d server/discover and %d initialize POSTs, want 0 and 1", d, i)
		}
		if got := callText(t, h, "mcp_n_echo", `{"message":"x"}`); got != "x" {
			t.Errorf("echo = %q", got)
		}
	})
	t.Run("stateless", func(t *testing.T) {
		url, mc := serveStreamable(t, true)
		g := netguard.New()
		s := networkServer(t, g, "n", TransportHTTP, url)
		s.Protocol = era.ProtocolAuto
		h := startHost(t, Options{Guard: g, Servers: []Endpoint{s}})
		if st := h.Servers()[0]; st.Protocol != era.ProtocolModern || st.Era.Name != "modern" {
			t.Fatalf("status %+v", st)
		}
		if mc.count("server/discover") == 0 {
			t.Error("no server/discover reached the stateless server")
		}
		if got := callText(t, h, "mcp_n_echo", `{"message":"y"}`); got != "y" {
			t.Errorf("echo = %q", got)
		}
	})
}

// TestProtocolModernRefused: a server that does not speak 2026-07-28 fails
// a declaration that asks for it (E597), naming what it answered; nothing
// is left running.
func TestProtocolModernRefused(t *testing.T) {
	url, _ := serveStreamable(t, false) // stateful: legacy only
	g := netguard.New()
	s := networkServer(t, g, "n", TransportHTTP, url)
	s.Protocol = era.ProtocolModern
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	h, err := Start(ctx, Options{Guard: g, Servers: []Endpoint{s}})
	if err == nil {
		_ = h.Close()
		t.Fatal("a legacy server was accepted for protocol 2026-07-28")
	}
	se, ok := err.(*StartError)
	if !ok || len(se.Failures) != 1 || se.Failures[0].ErrCode != failure.CodeProtocolEra {
		t.Fatalf("err = %#v", err)
	}
	if msg := se.Failures[0].Message(); !bytes.Contains([]byte(msg), []byte("2025-11-25")) {
		t.Errorf("message does not name what the server answered: %s", msg)
	}
}

func TestProtocolOptionsChecked(t *testing.T) {
	s := memoryServer(t, "m", inprocServer())
	s.Protocol = "2024-01-01"
	if _, err := Start(context.Background(), Options{Servers: []Endpoint{s}}); codeOf(err) != failure.CodeBadOptions {
		t.Errorf("unknown protocol: %v", err)
	}
	g := netguard.New()
	sse := networkServer(t, g, "s", TransportSSE, "http://127.0.0.1:1/sse")
	sse.Protocol = era.ProtocolModern
	if _, err := Start(context.Background(), Options{Guard: g, Servers: []Endpoint{sse}}); codeOf(err) != failure.CodeBadOptions {
		t.Errorf("modern over sse: %v", err)
	}
}

// TestProtocolModernNeverFallsBackOnAnUnansweredDiscover: a 2026-07-28
// declaration whose server/discover gets no JSON-RPC answer (here a 401)
// fails with that reason; initialize is never sent, so a protected server
// is not mistaken for one that speaks another era.
func TestProtocolModernNeverFallsBackOnAnUnansweredDiscover(t *testing.T) {
	mc := &methodCounter{inner: http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("WWW-Authenticate", `Bearer realm="test"`)
		http.Error(w, "sign in first", http.StatusUnauthorized)
	})}
	srv := httptest.NewServer(mc)
	t.Cleanup(srv.Close)
	g := netguard.New()
	s := networkServer(t, g, "n", TransportHTTP, srv.URL+"/mcp")
	s.Protocol = era.ProtocolModern
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	h, err := Start(ctx, Options{Guard: g, Servers: []Endpoint{s}})
	if err == nil {
		_ = h.Close()
		t.Fatal("a server answering 401 was connected")
	}
	se, ok := err.(*StartError)
	if !ok || len(se.Servers) != 1 || !strings.Contains(se.Servers[0].Error, "server/discover failed") || !strings.Contains(se.Servers[0].Error, "Unauthorized") {
		t.Fatalf("the failure does not carry the 401: %#v", err)
	}
	if n, i := mc.count("server/discover"), mc.count("initialize"); n != 1 || i != 0 {
		t.Fatalf("server/discover sent %d times, initialize %d times; want 1 and 0", n, i)
	}
}
