package host

import (
	"context"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/relavium/relavium/fault"
	"github.com/relavium/relavium/host/failure"
)

// The raw request path: requests go-sdk v1.8.0 has no API for (the tasks
// of protocol 2025-11-25). On a connection host reads itself (observedConn:
// stdio, sse, websocket, in-process) relavium writes the request with an id
// of its own ("relavium-raw-N", never one of the SDK's integer ids) and
// takes the answer off the stream before the SDK sees it. Streamable HTTP is
// read by the SDK alone, so these requests are refused there (E925).

// rawPrefix marks the ids of relavium's own requests.
const rawPrefix = "relavium-raw-"

// maxRawResult bounds one raw answer's result.
const maxRawResult = 4 << 20

// rawPath is one connection's raw requests in flight and what the server
// declared that the SDK does not read (capabilities.tasks).
type rawPath struct {
	mu      sync.Mutex
	w       mcp.Connection // the connection observedConn wraps (nil: not observed)
	seq     uint64
	waiters map[string]chan *jsonrpc.Response
	tasks   json.RawMessage // capabilities.tasks of the initialize answer
	sawInit bool
}

// observe records the connection the raw path writes to.
func (r *rawPath) observe(w mcp.Connection) {
	r.mu.Lock()
	if r.w == nil {
		r.w = w
	}
	r.mu.Unlock()
}

// take reports whether msg answers a raw request (then delivered, and not
// for the SDK). The first answer carrying serverInfo is the initialize
// answer: its capabilities.tasks is kept.
func (r *rawPath) take(msg jsonrpc.Message) bool {
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

// tasksCap is the server's capabilities.tasks (nil: none declared).
func (r *rawPath) tasksCap() json.RawMessage {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.tasks
}

// rawReady refuses method on a connection relavium does not read (E925).
func (c *conn) rawReady(method string) error {
	c.raw.mu.Lock()
	defer c.raw.mu.Unlock()
	if c.raw.w == nil {
		return &failure.Error{Base: fault.Base{ErrCode: failure.CodeNoRawPath, Msg: method + " needs a stdio, sse or websocket connection: go-sdk v1.8.0 has no API for it, and relavium sends it only on a connection it reads itself (not Streamable HTTP)"}, Server: c.srv.Name}
	}
	return nil
}

// rawCall sends method with params and waits for the answer (or ctx).
func (c *conn) rawCall(ctx context.Context, method string, params any, out any) error {
	if err := c.rawReady(method); err != nil {
		return err
	}
	r := &c.raw
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
			wctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), cancelFlush)
			_ = w.Write(wctx, &jsonrpc.Request{Method: methodCancelled, Params: p})
			cancel()
		}
		return context.Cause(ctx)
	case <-c.ctx.Done():
		return context.Cause(c.ctx)
	}
}
