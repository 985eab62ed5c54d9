package host

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/relavium/relavium/engine"
	"github.com/relavium/relavium/host/clientside"
	"github.com/relavium/relavium/host/deadline"
	"github.com/relavium/relavium/host/failure"
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
			h := startHost(t, Options{Guard: g, Emitter: rec, Elicitor: clientside.DefaultsElicitor{},
				Servers: []Endpoint{networkServer(t, g, "n", tc.transport, tc.url)}})
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
			if _, err := callTool(t, h, ctx, "mcp_n_slow", `{"ms":30000}`, engine.CallOptions{}); codeOf(err) != failure.CodeCallCancelled {
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
	_, err := Start(context.Background(), Options{Guard: g, Servers: []Endpoint{networkServer(t, g, "r", TransportHTTP, base+"/moved")}})
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
	_, err := Start(context.Background(), Options{Guard: g, Servers: []Endpoint{s}})
	var se *StartError
	if !errors.As(err, &se) || se.Failures[0].ErrCode != failure.CodeConnectDeadline {
		t.Fatalf("err = %v", err)
	}
}

func TestUnadmittedTargetIsRefused(t *testing.T) {
	_, err := Start(context.Background(), Options{Servers: []Endpoint{{Name: "x", Transport: TransportHTTP}}})
	if codeOf(err) != failure.CodeBadOptions {
		t.Errorf("err = %v", err)
	}
	other := netguard.New()
	base := serveHTTP(t, inprocServer())
	s := networkServer(t, other, "x", TransportHTTP, base+"/mcp")
	_, err = Start(context.Background(), Options{Guard: netguard.New(), Servers: []Endpoint{s}})
	var se *StartError
	if !errors.As(err, &se) || se.Failures[0].ErrCode != netguard.CodeNotAdmitted {
		t.Errorf("a target of another guard: %v", err)
	}
}

func TestInMemoryServer(t *testing.T) {
	h := startHost(t, Options{Servers: []Endpoint{memoryServer(t, "m", inprocServer())}})
	if got := callText(t, h, "mcp_m_echo", `{"message":"mem"}`); got != "mem" {
		t.Errorf("echo = %q", got)
	}
	var n int
	if _, err := callTool(t, h, context.Background(), "mcp_m_progress", `{"steps":100}`, engine.CallOptions{OnProgress: func(engine.Progress) { n++ }}); err != nil || n != 100 {
		t.Errorf("progress: %d, %v", n, err)
	}
}

// A network url's query and fragment may carry a credential: the status
// shows the url redacted, and so must every error and event, including the
// transport errors that quote the request url.
func TestNetworkErrorsNeverShowTheURLQuery(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	closed := "http://" + ln.Addr().String()
	_ = ln.Close() // nothing listens: the dial is refused
	g := netguard.New()
	rec := &recorder{}
	s := networkServer(t, g, "q", TransportHTTP, closed+"/mcp?token=SECRETQ#frag")
	_, err = Start(context.Background(), Options{Guard: g, Emitter: rec, Servers: []Endpoint{s}})
	var se *StartError
	if !errors.As(err, &se) {
		t.Fatalf("err = %v", err)
	}
	var human strings.Builder
	_ = se.WriteHuman(&human)
	st, _ := json.Marshal(se.Servers)
	for what, text := range map[string]string{"error": err.Error(), "human": human.String(), "status": string(st), "events": rec.dump(t)} {
		if strings.Contains(text, "SECRETQ") || strings.Contains(text, "frag") {
			t.Errorf("%s shows the url's query: %s", what, text)
		}
	}
	if !strings.Contains(err.Error(), closed+"/mcp") {
		t.Errorf("the error no longer names the (redacted) url: %v", err)
	}

	// A call's transport failure is redacted the same way.
	c := &conn{srv: s, ctx: context.Background()}
	d := &deadline.Cause{What: "tools/call x", D: time.Minute}
	cerr := c.callFailure(context.Background(), context.Background(), d, "x",
		fmt.Errorf("calling \"tools/call\": Post %q: EOF", closed+"/mcp?token=SECRETQ"))
	var re *redactedError
	if codeOf(cerr) != failure.CodeCallFailed || strings.Contains(cerr.Error(), "SECRETQ") || !errors.As(cerr, &re) || !strings.Contains(re.err.Error(), "SECRETQ") {
		t.Errorf("call failure = %v", cerr)
	}
}

// A target is used only with the transport the guard admitted it for: the
// guard's rules differ per transport (a websocket must be local).
func TestTargetIsUsedOnlyAsAdmitted(t *testing.T) {
	g := netguard.New()
	s := networkServer(t, g, "x", TransportHTTP, "http://127.0.0.1:1/mcp")
	s.Transport = TransportWebsocket
	if _, err := Start(context.Background(), Options{Guard: g, Servers: []Endpoint{s}}); codeOf(err) != failure.CodeBadOptions {
		t.Errorf("an http target used as websocket: %v", err)
	}
}
