package machine

import (
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/relavium/relavium/internal/testbin"
	"github.com/relavium/relavium/invoke"
)

// readCountingBody records whether anyone read it.
type readCountingBody struct {
	r    io.Reader
	read int
}

func (b *readCountingBody) Read(p []byte) (int, error) {
	n, err := b.r.Read(p)
	b.read += n
	return n, err
}
func (b *readCountingBody) Close() error { return nil }

func TestHTTPGuard(t *testing.T) {
	var got string
	next := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		got = string(b)
		w.WriteHeader(http.StatusNoContent)
	})
	g := &httpGuard{token: newToken(TokenFromEnv, "", "tok"), allowed: []string{"box.lan"}, next: next}
	serve := func(host, auth, origin string, body io.ReadCloser) *httptest.ResponseRecorder {
		r := httptest.NewRequest("POST", "http://"+host+"/mcp", body)
		r.Host = host
		if auth != "" {
			r.Header.Set("Authorization", "Bearer "+auth)
		}
		if origin != "" {
			r.Header.Set("Origin", origin)
		}
		w := httptest.NewRecorder()
		g.ServeHTTP(w, r)
		return w
	}

	body := &readCountingBody{r: strings.NewReader(`{"jsonrpc":"2.0"}`)}
	w := serve("127.0.0.1:3825", "wrong", "", body)
	if w.Code != http.StatusUnauthorized || w.Header().Get("WWW-Authenticate") != `Bearer realm="relavium-mcp"` || body.read != 0 {
		t.Fatalf("unauthenticated: %d %q, %d body bytes read", w.Code, w.Header().Get("WWW-Authenticate"), body.read)
	}
	if w := serve("127.0.0.1:3825", "", "", nil); w.Code != http.StatusUnauthorized {
		t.Fatalf("no header: %d", w.Code)
	}
	for _, c := range []struct {
		host, origin string
		code         int
	}{
		{"localhost:3825", "", http.StatusNoContent},
		{"[::1]:3825", "http://localhost:6274", http.StatusNoContent},
		{"box.lan:3825", "https://box.lan", http.StatusNoContent},
		{"evil.example.com", "", http.StatusForbidden},
		{"evil.example.com:3825", "http://evil.example.com", http.StatusForbidden},
		{"127.0.0.1:3825", "http://evil.example.com", http.StatusForbidden},
		{"127.0.0.1:3825", "null", http.StatusForbidden},
		{"127.0.0.1:3825", "file://", http.StatusForbidden},
	} {
		if w := serve(c.host, "tok", c.origin, io.NopCloser(strings.NewReader("x"))); w.Code != c.code {
			t.Errorf("Host %s Origin %q: %d, want %d", c.host, c.origin, w.Code, c.code)
		}
	}
	got = ""
	if w := serve("127.0.0.1", "tok", "", io.NopCloser(strings.NewReader("hello"))); w.Code != http.StatusNoContent || got != "hello" {
		t.Fatalf("body not passed on: %d %q", w.Code, got)
	}
	big := io.NopCloser(strings.NewReader(strings.Repeat("a", MaxBodyBytes+1)))
	if w := serve("127.0.0.1", "tok", "", big); w.Code != http.StatusRequestEntityTooLarge {
		t.Fatalf("over 4 MiB: %d", w.Code)
	}
	exact := io.NopCloser(strings.NewReader(strings.Repeat("a", MaxBodyBytes)))
	if w := serve("127.0.0.1", "tok", "", exact); w.Code != http.StatusNoContent {
		t.Fatalf("exactly 4 MiB: %d", w.Code)
	}
}

func TestHTTPServerTimeouts(t *testing.T) {
	srv := newHTTPServer(http.NotFoundHandler())
	if srv.ReadHeaderTimeout != ReadHeaderTimeout || srv.ReadTimeout != ReadTimeout || srv.WriteTimeout != 0 {
		t.Fatalf("%v %v %v", srv.ReadHeaderTimeout, srv.ReadTimeout, srv.WriteTimeout)
	}
}

// When the server stops (SIGTERM), every request in flight is cancelled and
// Serve returns only after its child's process group is gone, even for a
// child that ignores SIGTERM: nothing outlives the server.
func TestServeStopsInFlightChildrenBeforeReturning(t *testing.T) {
	stub := testbin.Build(t, "./testdata/machine/stubchild")
	pidfile := filepath.Join(t.TempDir(), "pid")
	iv := newStubInvoker(t, stub, "stubborn", "STUB_PIDFILE="+pidfile)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	port := ln.Addr().(*net.TCPAddr).Port
	ln.Close()
	env := &invoke.Env{Stdout: io.Discard, Stderr: io.Discard, Home: iv.home, Version: "test",
		LookupEnv: func(k string) (string, bool) {
			if k == EnvMCPToken {
				return "stop-token", true
			}
			return "", false
		}}
	ctx, stop := context.WithCancel(context.Background())
	defer stop()
	served := make(chan error, 1)
	go func() {
		served <- Serve(ctx, env, iv.Invoker, invoke.ServeConfig{Transport: "http", Host: "127.0.0.1", Port: port, Timeout: time.Minute})
	}()
	hc := &http.Client{Transport: bearer{"stop-token", http.DefaultTransport}}
	var cs *mcp.ClientSession
	for i := 0; i < 100; i++ {
		if cs, err = mcp.NewClient(&mcp.Implementation{Name: "t", Version: "1"}, nil).Connect(context.Background(),
			&mcp.StreamableClientTransport{Endpoint: fmt.Sprintf("http://127.0.0.1:%d/mcp", port), HTTPClient: hc}, nil); err == nil {
			break
		}
		time.Sleep(20 * time.Millisecond)
	}
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	go func() { _, _ = cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "relavium-stub-read"}) }()
	var pid int
	for i := 0; i < 500 && pid == 0; i++ {
		if b, err := os.ReadFile(pidfile); err == nil {
			_, _ = scanPids(string(b), &pid)
		}
		time.Sleep(10 * time.Millisecond)
	}
	if pid == 0 {
		t.Fatal("the child never started")
	}
	stop()
	select {
	case err := <-served:
		if err != nil {
			t.Fatalf("Serve: %v", err)
		}
	case <-time.After(30 * time.Second):
		t.Fatal("Serve did not return")
	}
	if procAlive(pid) {
		t.Fatalf("Serve returned while its child %d was still running", pid)
	}
}

// On stdio too, stopping the server (SIGTERM cancels its context) cancels a
// call in flight, so the server does not wait for the child to finish by
// itself, and Serve returns only after the child is gone.
func TestServeStdioStopCancelsCallsInFlight(t *testing.T) {
	stub := testbin.Build(t, "./testdata/machine/stubchild")
	pidfile := filepath.Join(t.TempDir(), "pid")
	iv := newStubInvoker(t, stub, "stubborn", "STUB_PIDFILE="+pidfile)
	clientR, serverW := io.Pipe()
	serverR, clientW := io.Pipe()
	env := &invoke.Env{Stdin: serverR, Stdout: serverW, Stderr: io.Discard, Home: iv.home, Version: "test"}
	ctx, stop := context.WithCancel(context.Background())
	defer stop()
	served := make(chan error, 1)
	go func() {
		served <- Serve(ctx, env, iv.Invoker, invoke.ServeConfig{Transport: "stdio", Timeout: time.Minute})
	}()
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "t", Version: "1"}, nil).Connect(context.Background(),
		&mcp.IOTransport{Reader: clientR, Writer: clientW}, nil)
	if err != nil {
		t.Fatal(err)
	}
	called := make(chan struct{})
	go func() {
		defer close(called)
		_, _ = cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "relavium-stub-read"})
	}()
	defer func() { // the server side is gone: closing the pipes ends the client
		serverW.Close()
		clientW.Close()
		cs.Close()
		<-called
	}()
	var pid int
	for i := 0; i < 500 && pid == 0; i++ {
		if b, err := os.ReadFile(pidfile); err == nil {
			_, _ = scanPids(string(b), &pid)
		}
		time.Sleep(10 * time.Millisecond)
	}
	if pid == 0 {
		t.Fatal("the child never started")
	}
	stop()
	select {
	case <-served:
	case <-time.After(3 * KillGrace):
		t.Fatal("Serve did not return: the call in flight was not cancelled")
	}
	if procAlive(pid) {
		t.Fatalf("Serve returned while its child %d was still running", pid)
	}
}
