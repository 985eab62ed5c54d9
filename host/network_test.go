package host

import (
	"context"
	"errors"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/relavium/relavium/engine"
	"github.com/relavium/relavium/host/netguard"
)

func TestNetworkTransportsThroughTheGuard(t *testing.T) {
	base := serveHTTP(t, inprocServer())
	ws := "ws" + strings.TrimPrefix(base, "http")
	for _, tc := range []struct {
		transport, url string
	}{
		{TransportHTTP, base + "/mcp"},
		{TransportSSE, base + "/sse"},
		{TransportWebsocket, ws + "/ws"},
	} {
		t.Run(tc.transport, func(t *testing.T) {
			g := netguard.New()
			rec := &recorder{}
			h := startHost(t, Options{Guard: g, Emitter: rec, Elicitor: DefaultsElicitor{},
				Servers: []Server{networkServer(t, g, "n", tc.transport, tc.url)}})
			if got := callText(t, h, "mcp_n_echo", `{"message":"over `+tc.transport+`"}`); got != "over "+tc.transport {
				t.Errorf("echo = %q", got)
			}
			var n atomic.Int64
			res, err := callTool(t, h, context.Background(), "mcp_n_progress", `{"steps":20}`, engine.CallOptions{
				OnProgress: func(engine.Progress) { n.Add(1) },
			})
			if err != nil || res.Text() != "done" {
				t.Fatalf("progress: %v %v", res, err)
			}
			// Streamable HTTP progress comes through the SDK's handler, which
			// may lag the response; stdio-like transports deliver all of it.
			if tc.transport != TransportHTTP && n.Load() != 20 {
				t.Errorf("%d progress notifications, want 20", n.Load())
			}
			if got := callText(t, h, "mcp_n_elicit", `{}`); got != "acceptanon" {
				t.Errorf("elicit = %q", got)
			}
			callText(t, h, "mcp_n_log", `{"n":2}`)
			st := h.Servers()[0]
			if st.State != engine.StateReady || st.Protocol != ProtocolVersion || st.URL == "" || st.PID != 0 {
				t.Errorf("status %+v", st)
			}
			ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
			defer cancel()
			if _, err := callTool(t, h, ctx, "mcp_n_slow", `{"ms":30000}`, engine.CallOptions{}); codeOf(err) != CodeCallCancelled {
				t.Errorf("slow: %v", err)
			}
			began := time.Now()
			if err := h.Close(); err != nil {
				t.Fatal(err)
			}
			t.Logf("close took %v", time.Since(began))
			deadline := time.Now().Add(5 * time.Second)
			for len(rec.ofType(engine.EventToolLog)) < 2 && time.Now().Before(deadline) {
				time.Sleep(10 * time.Millisecond)
			}
			if n := len(rec.ofType(engine.EventToolLog)); n != 2 {
				t.Errorf("%d log events, want 2", n)
			}
		})
	}
}

func TestRedirectIsRefusedNotFollowed(t *testing.T) {
	base := serveHTTP(t, inprocServer())
	g := netguard.New()
	_, err := Start(context.Background(), Options{Guard: g, Servers: []Server{networkServer(t, g, "r", TransportHTTP, base+"/moved")}})
	var se *StartError
	if !errors.As(err, &se) {
		t.Fatalf("err = %v", err)
	}
	if f := se.Failures[0]; f.ErrCode != netguard.CodeRedirect {
		t.Errorf("failure = %v, want the guard's %s", f, netguard.CodeRedirect)
	}
}

func TestNetworkConnectDeadline(t *testing.T) {
	g := netguard.New()
	// A listener that accepts and never answers.
	srv := serveHang(t)
	s := networkServer(t, g, "hang", TransportHTTP, srv+"/mcp")
	s.ConnectTimeout = 300 * time.Millisecond
	_, err := Start(context.Background(), Options{Guard: g, Servers: []Server{s}})
	var se *StartError
	if !errors.As(err, &se) || se.Failures[0].ErrCode != CodeConnectDeadline {
		t.Fatalf("err = %v", err)
	}
}

func TestUnadmittedTargetIsRefused(t *testing.T) {
	_, err := Start(context.Background(), Options{Servers: []Server{{Name: "x", Transport: TransportHTTP}}})
	if codeOf(err) != CodeBadOptions {
		t.Errorf("err = %v", err)
	}
	other := netguard.New()
	base := serveHTTP(t, inprocServer())
	s := networkServer(t, other, "x", TransportHTTP, base+"/mcp")
	_, err = Start(context.Background(), Options{Guard: netguard.New(), Servers: []Server{s}})
	var se *StartError
	if !errors.As(err, &se) || se.Failures[0].ErrCode != netguard.CodeNotAdmitted {
		t.Errorf("a target of another guard: %v", err)
	}
}

func TestInMemoryServer(t *testing.T) {
	h := startHost(t, Options{Servers: []Server{memoryServer(t, "m", inprocServer())}})
	if got := callText(t, h, "mcp_m_echo", `{"message":"mem"}`); got != "mem" {
		t.Errorf("echo = %q", got)
	}
	var n int
	if _, err := callTool(t, h, context.Background(), "mcp_m_progress", `{"steps":100}`, engine.CallOptions{OnProgress: func(engine.Progress) { n++ }}); err != nil || n != 100 {
		t.Errorf("progress: %d, %v", n, err)
	}
}
