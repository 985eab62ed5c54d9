package host

import (
	"context"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/relavium/relavium/engine"
)

// maxQueuedProgress bounds the progress a call's stream holds while its
// consumer is behind. Beyond it the newest replaces the last queued value:
// a flood is coalesced to the latest progress, never buffered whole.
const maxQueuedProgress = 256

// progressRouter maps the progress tokens of in-flight calls to their
// streams. deliver never blocks: it runs in the SDK's read loop (observed
// connections) or its notification goroutine (Streamable HTTP).
type progressRouter struct {
	mu      sync.Mutex
	streams map[string]*callStream
}

func newProgressRouter() *progressRouter {
	return &progressRouter{streams: map[string]*callStream{}}
}

func (r *progressRouter) add(token string, s *callStream) {
	r.mu.Lock()
	r.streams[token] = s
	r.mu.Unlock()
}

// remove unregisters a stream. Once it returns no push can reach the stream
// (deliver pushes under the same lock).
func (r *progressRouter) remove(token string) {
	r.mu.Lock()
	delete(r.streams, token)
	r.mu.Unlock()
}

// deliver routes one progress notification that server from sent by its
// token; a token of no in-flight call on that same server (late, forged, or
// another server's call: tokens are predictable) is dropped.
func (r *progressRouter) deliver(from *conn, token any, p engine.Progress) {
	tok, ok := token.(string)
	if !ok {
		return
	}
	r.mu.Lock()
	if s := r.streams[tok]; s != nil && s.conn == from {
		s.push(p)
	}
	r.mu.Unlock()
}

// callStream is one call's progress: queued in order and delivered to the
// caller's OnProgress by a goroutine that exists only while there is
// something to deliver. The host emits no agent:tool_progress event itself:
// engine.Trace turns the caller's progress into events, under the caller's
// call id, so there is exactly one event per notification.
type callStream struct {
	conn *conn // the server the call went to: the only one whose progress it takes
	serialQueue[engine.Progress]
}

// onProgress is the SDK's progress handler, used where the connection is not
// observed (Streamable HTTP). It runs on the SDK's notification goroutine.
func (c *conn) onProgress(_ context.Context, req *mcp.ProgressNotificationClientRequest) {
	if req == nil || req.Params == nil {
		return
	}
	p := req.Params
	c.h.router.deliver(c, p.ProgressToken, engine.Progress{Progress: p.Progress, Total: p.Total, Message: c.redactText(p.Message)})
}
