package demoserver_test

import (
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/relavium/relavium/fault"
	"github.com/relavium/relavium/invoke/demoserver"
)

// serveHTTP runs a demo server on a free loopback port until the test ends
// (or stop is called) and returns its endpoint url.
func serveHTTP(t *testing.T, host string) (url string, stop func() error) {
	t.Helper()
	ln, err := demoserver.Listen(host, 0)
	if err != nil {
		t.Fatal(err)
	}
	srv := demoserver.New(demoserver.Options{Version: "test", WatchInterval: -1})
	ctx, cancel := context.WithCancel(context.Background())
	ready := make(chan string, 1)
	done := make(chan error, 1)
	go func() { done <- srv.ServeHTTP(ctx, ln, func(u string) { ready <- u }) }()
	url = <-ready
	var once sync.Once
	var serveErr error
	stop = func() error {
		once.Do(func() {
			cancel()
			select {
			case serveErr = <-done:
			case <-time.After(30 * time.Second):
				serveErr = fmt.Errorf("ServeHTTP did not return 30 s after its context ended")
			}
		})
		return serveErr
	}
	t.Cleanup(func() {
		if err := stop(); err != nil {
			t.Error(err)
		}
	})
	return url, stop
}

func httpClient(t *testing.T, url string, proto string) *mcp.ClientSession {
	t.Helper()
	c := mcp.NewClient(&mcp.Implementation{Name: "http-test", Version: "1"}, nil)
	cs, err := c.Connect(context.Background(), &mcp.StreamableClientTransport{Endpoint: url}, &mcp.ClientSessionOptions{ProtocolVersion: proto})
	if err != nil {
		t.Fatalf("connect %s: %v", url, err)
	}
	t.Cleanup(func() { _ = cs.Close() })
	return cs
}

func TestHTTPServesTools(t *testing.T) {
	for _, host := range []string{"127.0.0.1", "localhost"} {
		t.Run(host, func(t *testing.T) {
			url, _ := serveHTTP(t, host)
			if !strings.HasSuffix(url, "/mcp") || !strings.HasPrefix(url, "http://127.0.0.1:") && !strings.HasPrefix(url, "http://[::1]:") {
				t.Fatalf("endpoint url %q", url)
			}
			cs := httpClient(t, url, legacy)
			if cs.ID() == "" {
				t.Error("no Mcp-Session-Id: the HTTP transport should keep sessions")
			}
			tools, err := cs.ListTools(context.Background(), nil)
			if err != nil || len(tools.Tools) < 20 {
				t.Fatalf("tools/list: %v (%d tools)", err, len(tools.Tools))
			}
			wantText("over http")(t, call(t, cs, "echo", map[string]any{"message": "over http"}))
		})
	}
}

// Over HTTP the demo server speaks both eras at one endpoint: a 2026-07-28
// client (the SDK's default asks for it) gets server/discover and no
// session, and its calls are answered; a 2025-11-25 client still gets its
// session (TestHTTPServesTools).
func TestHTTPServesTheModernEra(t *testing.T) {
	url, _ := serveHTTP(t, "127.0.0.1")
	for _, proto := range []string{latest, ""} {
		cs := httpClient(t, url, proto)
		if v := cs.InitializeResult().ProtocolVersion; v != latest {
			t.Fatalf("asked for %q: negotiated %q, want %q", proto, v, latest)
		}
		if cs.ID() != "" {
			t.Errorf("asked for %q: session id %q in the stateless era", proto, cs.ID())
		}
		wantText("modern over http")(t, call(t, cs, "echo", map[string]any{"message": "modern over http"}))
	}
}

func postInitialize(t *testing.T, url string, header http.Header) (int, string) {
	t.Helper()
	body := `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"raw","version":"1"}}}`
	req, err := http.NewRequest(http.MethodPost, url, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	for k, v := range header {
		req.Header[k] = v
	}
	if h := header.Get("Host"); h != "" {
		req.Host = h
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(io.LimitReader(resp.Body, 1<<16))
	if sid := resp.Header.Get("Mcp-Session-Id"); sid != "" {
		del, _ := http.NewRequest(http.MethodDelete, url, nil)
		del.Header.Set("Mcp-Session-Id", sid)
		if r, err := http.DefaultClient.Do(del); err == nil {
			r.Body.Close()
		}
	}
	return resp.StatusCode, string(b)
}

// DNS rebinding: a Host or Origin naming another site is refused with 4xx
// before any session exists; the loopback names are served.
func TestHTTPHostAndOriginValidation(t *testing.T) {
	url, _ := serveHTTP(t, "127.0.0.1")
	port := url[strings.LastIndex(url, ":")+1 : strings.LastIndex(url, "/")]
	cases := []struct {
		name   string
		host   string
		origin string
		ok     bool
	}{
		{"evil host and origin", "evil.example.com", "http://evil.example.com", false},
		{"evil host", "evil.example.com:" + port, "", false},
		{"evil origin", "127.0.0.1:" + port, "http://evil.example.com", false},
		{"localhost", "localhost:" + port, "http://localhost:" + port, true},
		{"127.0.0.1", "127.0.0.1:" + port, "", true},
		{"no origin", "", "", true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			h := http.Header{}
			if c.host != "" {
				h.Set("Host", c.host)
			}
			if c.origin != "" {
				h.Set("Origin", c.origin)
			}
			code, body := postInitialize(t, url, h)
			if c.ok && code != http.StatusOK {
				t.Fatalf("status %d (%s), want 200", code, body)
			}
			if !c.ok && (code < 400 || code > 499) {
				t.Fatalf("status %d, want 4xx", code)
			}
		})
	}
}

// Concurrent POSTs in one session each get their own SSE stream.
func TestHTTPConcurrentStreams(t *testing.T) {
	url, _ := serveHTTP(t, "127.0.0.1")
	cs := httpClient(t, url, legacy)
	var wg sync.WaitGroup
	errs := make(chan error, 8)
	for i := 0; i < 8; i++ {
		wg.Go(func() {
			res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "long_operation", Arguments: map[string]any{"steps": 2, "duration_ms": 100}})
			if err == nil && res.IsError {
				err = fmt.Errorf("isError")
			}
			errs <- err
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Error(err)
		}
	}
}

// Shutdown does not wait for a ten-minute call: the call is answered with a
// "shutting down" error result (not a cut stream), every session and
// connection closes, and ServeHTTP returns nil.
func TestHTTPShutdownEndsCallsInProgress(t *testing.T) {
	url, stop := serveHTTP(t, "127.0.0.1")
	cs := httpClient(t, url, legacy)
	callErr := make(chan error, 1)
	go func() {
		res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "long_operation", Arguments: map[string]any{"steps": 1, "duration_ms": 600000}})
		if err == nil && !res.IsError {
			err = fmt.Errorf("the call completed")
		}
		if err == nil {
			err = fmt.Errorf("isError: %s", res.Content[0].(*mcp.TextContent).Text)
		}
		callErr <- err
	}()
	time.Sleep(200 * time.Millisecond) // let the call start
	if err := stop(); err != nil {
		t.Fatal(err)
	}
	select {
	case err := <-callErr:
		if err == nil || !strings.Contains(err.Error(), "isError: stopped after 0 of 1 steps: the demo server is shutting down") {
			t.Fatalf("the call ended with %v, want the shutdown result", err)
		}
	case <-time.After(30 * time.Second):
		t.Fatal("the call still runs after the server stopped")
	}
	// The port is closed.
	addr := strings.TrimSuffix(strings.TrimPrefix(url, "http://"), "/mcp")
	if c, err := net.DialTimeout("tcp", addr, time.Second); err == nil {
		c.Close()
		t.Fatal("the listener is still open")
	}
}

func TestListenRefusals(t *testing.T) {
	cases := []struct {
		host string
		port int
		code fault.Code
	}{
		{"127.0.0.1", -1, demoserver.CodeBadPort},
		{"127.0.0.1", 65536, demoserver.CodeBadPort},
		{"0.0.0.0", 0, demoserver.CodeHostNotLoopback},
		{"example.com", 0, demoserver.CodeHostNotLoopback},
		{"", 0, demoserver.CodeHostNotLoopback},
	}
	for _, c := range cases {
		_, err := demoserver.Listen(c.host, c.port)
		e, ok := err.(*demoserver.Error)
		if !ok || e.Code() != c.code || e.ExitCode() != 2 {
			t.Errorf("Listen(%q, %d) = %v, want %s exit 2", c.host, c.port, err, c.code)
		}
	}
	// A port in use is a runtime failure (exit 1) that names the address.
	ln, err := demoserver.Listen("127.0.0.1", 0)
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	port := ln.Addr().(*net.TCPAddr).Port
	_, err = demoserver.Listen("127.0.0.1", port)
	e, ok := err.(*demoserver.Error)
	if !ok || e.Code() != demoserver.CodeListen || e.ExitCode() != 1 || !strings.Contains(e.Error(), fmt.Sprint(port)) {
		t.Errorf("port in use: %v", err)
	}
}
