package demoserver_test

import (
	"context"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/relavium/relavium/invoke/demoserver"
)

// Protocol versions the tests speak: the classic handshake, and the SDK's
// default (2026-07-28, where elicitation and sampling travel as
// InputRequests).
const (
	legacy = "2025-11-25"
	latest = "2026-07-28"
)

// connect serves a fresh demo server in memory and connects a go-sdk client
// speaking proto with opts. Everything is closed when the test ends.
func connect(t *testing.T, proto string, opts *mcp.ClientOptions) (*demoserver.Server, *mcp.ClientSession) {
	t.Helper()
	srv, cs, _ := connectSession(t, proto, opts)
	return srv, cs
}

// connectSession is connect, also returning the server side of the session.
func connectSession(t *testing.T, proto string, opts *mcp.ClientOptions) (*demoserver.Server, *mcp.ClientSession, *mcp.ServerSession) {
	t.Helper()
	srv := demoserver.New(demoserver.Options{Version: "test", WatchInterval: -1})
	st, ct := mcp.NewInMemoryTransports()
	ctx := context.Background()
	ss, err := srv.MCP().Connect(ctx, st, nil)
	if err != nil {
		t.Fatalf("server connect: %v", err)
	}
	c := mcp.NewClient(&mcp.Implementation{Name: "demoserver-test", Version: "1"}, opts)
	cs, err := c.Connect(ctx, ct, &mcp.ClientSessionOptions{ProtocolVersion: proto})
	if err != nil {
		t.Fatalf("client connect (%s): %v", proto, err)
	}
	if got := cs.InitializeResult().ProtocolVersion; got != proto {
		t.Fatalf("negotiated protocol %q, want %q", got, proto)
	}
	t.Cleanup(func() {
		_ = cs.Close()
		srv.Close()
		_ = ss.Wait()
	})
	return srv, cs, ss
}

// recorder collects notifications the client receives. The SDK may deliver
// a notification after the call that caused it returned, so tests wait for
// the count they expect.
type recorder struct {
	mu       sync.Mutex
	progress []*mcp.ProgressNotificationParams
	logs     []*mcp.LoggingMessageParams
	updated  []string
	changed  chan struct{}
}

func newRecorder() *recorder { return &recorder{changed: make(chan struct{}, 1024)} }

func (r *recorder) options(base *mcp.ClientOptions) *mcp.ClientOptions {
	o := &mcp.ClientOptions{}
	if base != nil {
		*o = *base
	}
	o.ProgressNotificationHandler = func(_ context.Context, req *mcp.ProgressNotificationClientRequest) {
		r.mu.Lock()
		r.progress = append(r.progress, req.Params)
		r.mu.Unlock()
		r.changed <- struct{}{}
	}
	o.LoggingMessageHandler = func(_ context.Context, req *mcp.LoggingMessageRequest) {
		r.mu.Lock()
		r.logs = append(r.logs, req.Params)
		r.mu.Unlock()
		r.changed <- struct{}{}
	}
	o.ResourceUpdatedHandler = func(_ context.Context, req *mcp.ResourceUpdatedNotificationRequest) {
		r.mu.Lock()
		r.updated = append(r.updated, req.Params.URI)
		r.mu.Unlock()
		r.changed <- struct{}{}
	}
	return o
}

// waitFor waits until cond holds (checked under the lock) or 10 s pass.
func (r *recorder) waitFor(t *testing.T, what string, cond func(r *recorder) bool) {
	t.Helper()
	deadline := time.After(10 * time.Second)
	for {
		r.mu.Lock()
		ok := cond(r)
		r.mu.Unlock()
		if ok {
			return
		}
		select {
		case <-r.changed:
		case <-deadline:
			r.mu.Lock()
			defer r.mu.Unlock()
			t.Fatalf("timed out waiting for %s (progress %d, logs %d, updated %v)", what, len(r.progress), len(r.logs), r.updated)
		}
	}
}

// textOf returns the text of the result's first text block.
func textOf(t *testing.T, res *mcp.CallToolResult) string {
	t.Helper()
	for _, c := range res.Content {
		if tc, ok := c.(*mcp.TextContent); ok {
			return tc.Text
		}
	}
	t.Fatalf("result has no text block: %#v", res.Content)
	return ""
}

func call(t *testing.T, cs *mcp.ClientSession, name string, args any) *mcp.CallToolResult {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: name, Arguments: args})
	if err != nil {
		t.Fatalf("call %s: %v", name, err)
	}
	return res
}
