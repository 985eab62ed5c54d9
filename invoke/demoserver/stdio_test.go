package demoserver_test

import (
	"context"
	"errors"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/relavium/relavium/invoke/demoserver"
)

// stdioPair runs ServeStdio on pipes and returns the client's ends and the
// server's result.
func stdioPair(t *testing.T, ctx context.Context) (clientIn io.ReadCloser, clientOut io.WriteCloser, served <-chan error) {
	t.Helper()
	c2sR, c2sW := io.Pipe()
	s2cR, s2cW := io.Pipe()
	srv := demoserver.New(demoserver.Options{Version: "test", WatchInterval: 10 * time.Millisecond})
	done := make(chan error, 1)
	go func() {
		done <- srv.ServeStdio(ctx, c2sR, s2cW)
		_ = s2cW.Close()
	}()
	t.Cleanup(func() {
		_ = c2sW.Close()
		_ = s2cR.Close()
	})
	return s2cR, c2sW, done
}

func waitServed(t *testing.T, served <-chan error) error {
	t.Helper()
	select {
	case err := <-served:
		return err
	case <-time.After(30 * time.Second):
		t.Fatal("ServeStdio did not return")
		return nil
	}
}

// A client that closes its end ends the session cleanly; the watched
// resource ticker (10 ms here) reached the subscriber meanwhile.
func TestStdioServesUntilClientCloses(t *testing.T) {
	in, out, served := stdioPair(t, context.Background())
	rec := newRecorder()
	c := mcp.NewClient(&mcp.Implementation{Name: "stdio-test", Version: "1"}, rec.options(nil))
	cs, err := c.Connect(context.Background(), &mcp.IOTransport{Reader: in, Writer: out}, nil)
	if err != nil {
		t.Fatal(err)
	}
	wantText("via stdio")(t, call(t, cs, "echo", map[string]any{"message": "via stdio"}))
	if err := cs.Subscribe(context.Background(), &mcp.SubscribeParams{URI: "test://watched-resource"}); err != nil {
		t.Fatal(err)
	}
	rec.waitFor(t, "a periodic update", func(r *recorder) bool { return len(r.updated) > 0 })
	if err := cs.Close(); err != nil {
		t.Fatal(err)
	}
	if err := waitServed(t, served); err != nil {
		t.Fatalf("ServeStdio: %v", err)
	}
}

// Cancelling the server's context (SIGINT in the binary) answers the call
// in progress with a "shutting down" result and returns nil.
func TestStdioCancelAnswersCallsInProgress(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	in, out, served := stdioPair(t, ctx)
	c := mcp.NewClient(&mcp.Implementation{Name: "stdio-test", Version: "1"}, nil)
	cs, err := c.Connect(context.Background(), &mcp.IOTransport{Reader: in, Writer: out}, &mcp.ClientSessionOptions{ProtocolVersion: legacy})
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	result := make(chan *mcp.CallToolResult, 1)
	go func() {
		res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "long_operation", Arguments: map[string]any{"steps": 1, "duration_ms": 600000}})
		if err != nil {
			res = errorText("call error: " + err.Error())
		}
		result <- res
	}()
	time.Sleep(100 * time.Millisecond) // let the call start
	cancel()
	if err := waitServed(t, served); err != nil {
		t.Fatalf("ServeStdio: %v", err)
	}
	select {
	case res := <-result:
		wantError("the demo server is shutting down")(t, res)
	case <-time.After(30 * time.Second):
		t.Fatal("the call was not answered")
	}
}

func errorText(s string) *mcp.CallToolResult {
	return &mcp.CallToolResult{IsError: true, Content: []mcp.Content{&mcp.TextContent{Text: s}}}
}

// A stream that is not JSON-RPC is a served error with code E803.
func TestStdioBrokenStream(t *testing.T) {
	in, out, served := stdioPair(t, context.Background())
	go func() { _, _ = io.Copy(io.Discard, in) }()
	if _, err := io.WriteString(out, "this is not json\n"); err != nil {
		t.Fatal(err)
	}
	err := waitServed(t, served)
	var e *demoserver.Error
	if !errors.As(err, &e) || e.Code() != demoserver.CodeServe || e.ExitCode() != 1 || !strings.Contains(err.Error(), "stdio") {
		t.Fatalf("ServeStdio: %v, want an E803 error", err)
	}
}
