package direct

import (
	"context"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// The raw request path: requests go-sdk v1.8.0 has no API for (the tasks
// of protocol 2025-11-25). On a connection host reads itself (observedConn:
// stdio, sse, websocket, in-process) relavium writes the request with an id
// of its own ("relavium-raw-N", never one of the SDK's integer ids) and
// takes the answer off the stream before the SDK sees it. Streamable HTTP is
// read by the SDK alone, so these requests are refused there (E925).

// MethodCancelled is the notification that gives a request up.
const MethodCancelled = "notifications/cancelled"

// rawPrefix marks the ids of relavium's own requests.
const rawPrefix = "relavium-raw-"

// maxRawResult bounds one raw answer's result.
const maxRawResult = 4 << 20

// Raw is one connection's raw requests in flight and what the server
// declared that the SDK does not read (capabilities.tasks).
type Raw struct {
	mu      sync.Mutex
	w       mcp.Connection // the connection host's observedConn wraps (nil: not observed)
	seq     uint64
	waiters map[string]chan *jsonrpc.Response
	tasks   json.RawMessage // capabilities.tasks of the initialize answer
	sawInit bool
}

// Observe records the connection the raw path writes to.
func (r *Raw) Observe(w mcp.Connection) {
	r.mu.Lock()
	if r.w == nil {
		r.w = w
	}
	r.mu.Unlock()
}

// Take reports whether msg answers a raw request (then delivered, and not
// for the SDK). The first answer carrying serverInfo is the initialize
// answer: its capabilities.tasks is kept.
func (r *Raw) Take(msg jsonrpc.Message) bool {
	resp, ok := msg.(*jsonrpc.Response)
	if !ok {
		return false
	}
	id, _ := resp.ID.Raw().(string)
	r.mu.Lock()
	defer r.mu.Unlock()
	if !r.sawInit && resp.Error == nil && len(resp.Result) > 0 {
		var init struct {
			ServerInfo   json.RawMessage `json:"serverInfo"`
			Capabilities struct {
				Tasks json.RawMessage `json:"tasks"`
			} `json:"capabilities"`
		}
		if json.Unmarshal(resp.Result, &init) == nil && len(init.ServerInfo) > 0 {
			r.sawInit, r.tasks = true, init.Capabilities.Tasks
		}
	}
	if !strings.HasPrefix(id, rawPrefix) {
		return false
	}
	if ch := r.waiters[id]; ch != nil {
		delete(r.waiters, id)
		ch <- resp
	}
	return true // an answer to a request of ours that was given up on is dropped
}

// TasksCap is the server's capabilities.tasks (nil: none declared).
func (r *Raw) TasksCap() json.RawMessage {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.tasks
}

// Ready reports whether the raw path has a connection to write to (one
// host reads itself).
func (r *Raw) Ready() bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.w != nil
}

// Call sends method with params and waits for the answer (or ctx, or the
// end of life, the connection's lifetime); a request given up on is
// cancelled at the server, the write bounded by flush.
func (r *Raw) Call(ctx, life context.Context, flush time.Duration, method string, params any, out any) error {
	r.mu.Lock()
	w := r.w
	r.seq++
	id := rawPrefix + strconv.FormatUint(r.seq, 10)
	ch := make(chan *jsonrpc.Response, 1)
	if r.waiters == nil {
		r.waiters = map[string]chan *jsonrpc.Response{}
	}
	r.waiters[id] = ch
	r.mu.Unlock()
	defer func() {
		r.mu.Lock()
		delete(r.waiters, id)
		r.mu.Unlock()
	}()
	raw, err := json.Marshal(params)
	if err != nil {
		return err
	}
	jid, err := jsonrpc.MakeID(id)
	if err != nil {
		return err
	}
	if err := w.Write(ctx, &jsonrpc.Request{ID: jid, Method: method, Params: raw}); err != nil {
		return fmt.Errorf("%s: %w", method, err)
	}
	select {
	case resp := <-ch:
		if resp.Error != nil {
			return fmt.Errorf("%s: %w", method, resp.Error)
		}
		if len(resp.Result) > maxRawResult {
			return fmt.Errorf("%s: an answer of %d bytes, over the 4 MiB bound", method, len(resp.Result))
		}
		if out != nil {
			if err := json.Unmarshal(resp.Result, out); err != nil {
				return fmt.Errorf("%s: the answer does not decode: %w", method, err)
			}
		}
		return nil
	case <-ctx.Done():
		// Told, as the SDK tells a server about its own requests.
		if p, err := json.Marshal(map[string]any{"requestId": id, "reason": "cancelled by relavium"}); err == nil {
			wctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), flush)
			_ = w.Write(wctx, &jsonrpc.Request{Method: MethodCancelled, Params: p})
			cancel()
		}
		return context.Cause(ctx)
	case <-life.Done():
		return context.Cause(life)
	}
}
