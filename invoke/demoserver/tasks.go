package demoserver

import (
	"context"
	"encoding/json"
	"fmt"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// Tasks (protocol 2025-11-25, experimental) on the stdio transport.
// go-sdk v1.8.0 has no task support on the server side, so a layer on the
// connection provides it: it declares capabilities.tasks in the initialize
// answer; a tools/call carrying "task" is answered at once with the task it
// creates and handed on to the SDK under an id of the layer's own, whose
// answer becomes the task's result; tasks/get, tasks/list, tasks/cancel and
// tasks/result are answered by the layer itself. A cancelled task's call is
// cancelled at the SDK (notifications/cancelled) and its answer dropped.
// Every tool may run as a task (the layer does not restrict it).

// maxDemoTasks bounds the tasks one session holds.
const maxDemoTasks = 64

// taskPollMS is the pollInterval the layer suggests.
const taskPollMS = 250

type demoTask struct {
	id, status, message string
	created, updated    time.Time
	inner               jsonrpc.ID // the id the SDK answers
	result              json.RawMessage
	rpcErr              error
	done                chan struct{}
}

func (t *demoTask) wire() map[string]any {
	m := map[string]any{"taskId": t.id, "status": t.status, "ttl": nil, "pollInterval": taskPollMS,
		"createdAt": t.created.UTC().Format(time.RFC3339Nano), "lastUpdatedAt": t.updated.UTC().Format(time.RFC3339Nano)}
	if t.message != "" {
		m["statusMessage"] = t.message
	}
	return m
}

// taskTransport puts the task layer on a transport's connection.
type taskTransport struct{ mcp.Transport }

func (t taskTransport) Connect(ctx context.Context) (mcp.Connection, error) {
	c, err := t.Transport.Connect(ctx)
	if err != nil {
		return nil, err
	}
	tc := &taskConn{Connection: c, tasks: map[string]*demoTask{}, byInner: map[jsonrpc.ID]*demoTask{},
		inject: make(chan jsonrpc.Message, 8), read: make(chan readResult)}
	// The client's messages are read on a goroutine of their own, so that
	// a cancellation the layer makes reaches the SDK at once, not with the
	// client's next message. It ends when the connection does (Close).
	tc.pump.Add(1)
	go func() {
		defer tc.pump.Done()
		for {
			msg, err := c.Read(context.Background())
			tc.read <- readResult{msg, err}
			if err != nil {
				return
			}
		}
	}()
	return tc, nil
}

type readResult struct {
	msg jsonrpc.Message
	err error
}

type taskConn struct {
	mcp.Connection
	mu      sync.Mutex
	seq     int
	tasks   map[string]*demoTask
	order   []string
	byInner map[jsonrpc.ID]*demoTask
	initID  *jsonrpc.ID
	inject  chan jsonrpc.Message // messages for the SDK from the layer (a cancellation)
	read    chan readResult      // the client's messages (the pump)
	pump    sync.WaitGroup
	readErr error // the read that ended the stream, said again to any later Read
	closed  sync.Once
	wg      sync.WaitGroup // tasks/result answers waiting
}

// Read hands the SDK what is its, answering the task requests itself.
func (c *taskConn) Read(ctx context.Context) (jsonrpc.Message, error) {
	for {
		if c.readErr != nil {
			return nil, c.readErr
		}
		var msg jsonrpc.Message
		select {
		case m := <-c.inject:
			return m, nil
		case r := <-c.read:
			if r.err != nil {
				c.readErr = r.err // Read is called from one goroutine (the SDK's)
				return nil, r.err
			}
			msg = r.msg
		case <-ctx.Done():
			return nil, ctx.Err()
		}
		req, ok := msg.(*jsonrpc.Request)
		if !ok || !req.IsCall() {
			return msg, nil
		}
		switch req.Method {
		case "initialize":
			id := req.ID
			c.mu.Lock()
			c.initID = &id
			c.mu.Unlock()
			return msg, nil
		case "tools/call":
			fwd, isTask := c.startTask(ctx, req)
			switch {
			case !isTask:
				return msg, nil
			case fwd == nil: // refused, answered already
				continue
			}
			return fwd, nil
		case "tasks/get", "tasks/list", "tasks/cancel", "tasks/result":
			c.answerTask(ctx, req)
			continue
		}
		return msg, nil
	}
}

// Write turns the SDK's answer to a task's call into the task's result,
// and adds capabilities.tasks to the initialize answer.
func (c *taskConn) Write(ctx context.Context, msg jsonrpc.Message) error {
	if resp, ok := msg.(*jsonrpc.Response); ok {
		c.mu.Lock()
		t := c.byInner[resp.ID]
		isInit := c.initID != nil && *c.initID == resp.ID
		if t != nil {
			delete(c.byInner, resp.ID)
			if t.status == "working" {
				t.status, t.message, t.updated = "completed", "", time.Now()
				t.result, t.rpcErr = resp.Result, resp.Error
				if resp.Error != nil {
					t.status, t.message = "failed", resp.Error.Error()
				}
			}
			close(t.done)
		}
		c.mu.Unlock()
		if t != nil {
			return nil // the client asks for it with tasks/result
		}
		if isInit && resp.Error == nil {
			var res map[string]any
			if json.Unmarshal(resp.Result, &res) == nil {
				caps, _ := res["capabilities"].(map[string]any)
				if caps == nil {
					caps = map[string]any{}
				}
				caps["tasks"] = map[string]any{"list": map[string]any{}, "cancel": map[string]any{},
					"requests": map[string]any{"tools": map[string]any{"call": map[string]any{}}}}
				res["capabilities"] = caps
				if b, err := json.Marshal(res); err == nil {
					msg = &jsonrpc.Response{ID: resp.ID, Result: b}
				}
			}
		}
	}
	return c.Connection.Write(ctx, msg)
}

// Close waits for the tasks/result answers still waiting (they end: every
// task's call is answered or cancelled when the session closes).
func (c *taskConn) Close() error {
	err := c.Connection.Close()
	c.closed.Do(func() {
		// The pump's last read ends with the connection; its result is
		// taken here when no Read is waiting for it.
		go func() {
			for range c.read {
			}
		}()
		c.pump.Wait()
		close(c.read)
	})
	c.mu.Lock()
	for _, t := range c.tasks {
		select {
		case <-t.done:
		default:
			t.status = "cancelled"
			close(t.done)
		}
	}
	c.byInner = map[jsonrpc.ID]*demoTask{}
	c.mu.Unlock()
	c.wg.Wait()
	return err
}

// startTask creates a task for a tools/call carrying "task" and returns
// the call for the SDK under the task's own id; isTask is false for a
// plain call, fwd nil for a task refused (answered already).
func (c *taskConn) startTask(ctx context.Context, req *jsonrpc.Request) (fwd jsonrpc.Message, isTask bool) {
	var params map[string]json.RawMessage
	if json.Unmarshal(req.Params, &params) != nil || params["task"] == nil {
		return nil, false
	}
	delete(params, "task")
	c.mu.Lock()
	if len(c.tasks) >= maxDemoTasks {
		c.mu.Unlock()
		_ = c.Connection.Write(ctx, &jsonrpc.Response{ID: req.ID, Error: &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: "too many tasks"}})
		return nil, true
	}
	c.seq++
	now := time.Now()
	t := &demoTask{id: fmt.Sprintf("demo-task-%d", c.seq), status: "working", message: "running", created: now, updated: now, done: make(chan struct{})}
	inner, _ := jsonrpc.MakeID(t.id)
	t.inner = inner
	c.tasks[t.id] = t
	c.order = append(c.order, t.id)
	c.byInner[inner] = t
	wire := t.wire()
	c.mu.Unlock()
	b, _ := json.Marshal(map[string]any{"task": wire})
	_ = c.Connection.Write(ctx, &jsonrpc.Response{ID: req.ID, Result: b})
	p, _ := json.Marshal(params)
	return &jsonrpc.Request{ID: inner, Method: "tools/call", Params: p}, true
}

// answerTask answers tasks/get, tasks/list, tasks/cancel and tasks/result.
func (c *taskConn) answerTask(ctx context.Context, req *jsonrpc.Request) {
	var p struct {
		TaskID string `json:"taskId"`
	}
	_ = json.Unmarshal(req.Params, &p)
	reply := func(v any, err error) {
		resp := &jsonrpc.Response{ID: req.ID}
		if err != nil {
			resp.Error = &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: err.Error()}
		} else {
			resp.Result, _ = json.Marshal(v)
		}
		_ = c.Connection.Write(ctx, resp)
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if req.Method == "tasks/list" {
		list := []any{}
		for _, id := range c.order {
			list = append(list, c.tasks[id].wire())
		}
		reply(map[string]any{"tasks": list}, nil)
		return
	}
	t := c.tasks[p.TaskID]
	if t == nil {
		reply(nil, fmt.Errorf("task not found: %s", p.TaskID))
		return
	}
	switch req.Method {
	case "tasks/get":
		reply(t.wire(), nil)
	case "tasks/cancel":
		if t.status == "working" {
			t.status, t.message, t.updated = "cancelled", "cancelled by the client", time.Now()
			if b, err := json.Marshal(map[string]any{"requestId": t.id, "reason": "task cancelled"}); err == nil {
				select {
				case c.inject <- &jsonrpc.Request{Method: "notifications/cancelled", Params: b}:
				default:
				}
			}
		}
		reply(t.wire(), nil)
	case "tasks/result":
		c.wg.Add(1)
		go func() {
			defer c.wg.Done()
			<-t.done
			c.mu.Lock()
			res, rpcErr, status := t.result, t.rpcErr, t.status
			c.mu.Unlock()
			resp := &jsonrpc.Response{ID: req.ID, Result: res}
			switch {
			case status == "cancelled":
				resp.Result, resp.Error = nil, &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: "the task was cancelled"}
			case rpcErr != nil:
				resp.Result, resp.Error = nil, rpcErr
			}
			_ = c.Connection.Write(context.WithoutCancel(ctx), resp)
		}()
	}
}
