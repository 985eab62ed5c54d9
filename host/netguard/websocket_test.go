package netguard

import (
	"context"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/coder/websocket"
)

func newEchoWebsocketServer(t *testing.T) *countingServer {
	return newCountingServer(t, func(w http.ResponseWriter, r *http.Request) {
		c, err := websocket.Accept(w, r, nil)
		if err != nil {
			return
		}
		defer c.CloseNow()
		for {
			typ, msg, err := c.Read(r.Context())
			if err != nil {
				return
			}
			if err := c.Write(r.Context(), typ, msg); err != nil {
				return
			}
		}
	})
}

func TestWebsocketLocalOptedInConnects(t *testing.T) {
	s := newEchoWebsocketServer(t)
	res := newFakeResolver()
	res.set("ws.test", "127.0.0.1") // only the guard's resolver knows this name
	g := New(WithResolver(res))
	port := itoaPort(s.Listener.Addr().(*net.TCPAddr).Port)
	tg, err := g.Admit("ws://ws.test:"+port+"/ws", TransportWebsocket, true)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	// A caller-supplied client and Host are replaced by the guard's.
	conn, _, err := g.DialWebsocket(ctx, tg, &websocket.DialOptions{HTTPClient: http.DefaultClient, Host: "169.254.169.254"})
	if err != nil {
		t.Fatalf("dial: %v", err)
	}
	defer conn.CloseNow()
	if err := conn.Write(ctx, websocket.MessageText, []byte("ping")); err != nil {
		t.Fatal(err)
	}
	_, msg, err := conn.Read(ctx)
	if err != nil || string(msg) != "ping" {
		t.Fatalf("echo = %q, %v", msg, err)
	}
	if err := conn.Close(websocket.StatusNormalClosure, ""); err != nil {
		t.Fatal(err)
	}
	if res.count("ws.test") != 1 {
		t.Fatalf("resolved %d times", res.count("ws.test"))
	}
}

func TestWebsocketHandshakeRedirectRefused(t *testing.T) {
	target := newEchoWebsocketServer(t)
	origin := newCountingServer(t, func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, strings.Replace(target.URL, "http", "ws", 1), http.StatusFound)
	})
	g := New()
	tg, err := g.Admit(strings.Replace(origin.URL, "http", "ws", 1)+"/", TransportWebsocket, true)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	conn, _, err := g.DialWebsocket(ctx, tg, nil)
	if conn != nil {
		conn.CloseNow()
	}
	if !isCode(err, CodeRedirect) {
		t.Fatalf("err = %v, want %s", err, CodeRedirect)
	}
	if origin.hits.Load() != 1 || target.hits.Load() != 0 {
		t.Fatalf("origin saw %d, target saw %d", origin.hits.Load(), target.hits.Load())
	}
}

func TestWebsocketOptedInButPublicIsRefused(t *testing.T) {
	rec := &recordingDialer{}
	res := newFakeResolver()
	res.set("ws.example.com", "93.184.215.14")
	g := New(WithResolver(res), WithDialer(rec))
	for _, u := range []string{"wss://ws.example.com/ws", "ws://ws.example.com:8080/ws"} {
		tg, err := g.Admit(u, TransportWebsocket, true)
		if err != nil {
			t.Fatal(err)
		}
		_, _, err = g.DialWebsocket(context.Background(), tg, nil)
		r, ok := AsRefusal(err)
		if !ok || (r.Code() != CodeRemoteWebsocket && r.Code() != CodeLocalResolvedPublic) {
			t.Fatalf("%s: %v, want a remote-websocket or local-resolved-public refusal", u, err)
		}
	}
	if got := rec.recorded(); len(got) != 0 {
		t.Fatalf("dialled %q", got)
	}
}
