package host

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/relavium/relavium/engine"
	"github.com/relavium/relavium/fault"
	"github.com/relavium/relavium/host/browse"
	"github.com/relavium/relavium/host/failure"
	"github.com/relavium/relavium/host/tasks"
)

// Tasks (protocol 2025-11-25, experimental): a tool called as a task
// answers at once with a task id; the task is then polled (tasks/get),
// listed (tasks/list), cancelled (tasks/cancel) and its result fetched when
// it is done (tasks/result). go-sdk v1.8.0 has no task API on either side,
// so these go over the raw request path (host/direct): stdio, sse and
// websocket servers only.

// The task types and statuses (host/tasks).
type Task = tasks.Task

// Task statuses.
const (
	TaskWorking       = tasks.Working
	TaskInputRequired = tasks.InputRequired
	TaskCompleted     = tasks.Completed
	TaskFailed        = tasks.Failed
	TaskCancelled     = tasks.Cancelled
)

// DefaultTaskTTL is the task lifetime asked for (the server may choose
// another).
const DefaultTaskTTL = tasks.DefaultTTL

// task takes a task the server answered; an unusable id is E926.
func (c *conn) task(w tasks.Wire) (*Task, error) { return tasks.Take(c.srv.Name, w, c.redactText) }

// tasksOffered refuses a server that does not declare tasks (E920), or
// the part of them what needs ("list", "cancel", "tools/call").
func (c *conn) tasksOffered(what string) error {
	if err := c.rawReady("tasks/" + what); err != nil {
		return err // unread: what the server declared is not known either
	}
	return tasks.Offered(c.srv.Name, c.raw.TasksCap(), what)
}

// taskRequest runs one raw task request on server under the call deadline.
func (h *Host) taskRequest(ctx context.Context, server, what, method string, params, out any) error {
	return h.browse(ctx, server, method, func(ctx context.Context, c *conn, _ *mcp.ClientSession) error {
		if err := c.tasksOffered(what); err != nil {
			return err
		}
		return c.rawCall(ctx, method, params, out)
	})
}

// CallTask calls tool id as a task (validated as Call validates) and
// returns the task the server created. A server that ran the call at once
// instead (it may) returns no task and the result.
func (h *Host) CallTask(ctx context.Context, id engine.ToolID, args json.RawMessage, ttl time.Duration) (*Task, *engine.ToolResult, error) {
	h.mu.Lock()
	t, ok := h.byID[id]
	h.mu.Unlock()
	if !ok {
		return nil, nil, &failure.Error{Base: fault.Base{ErrCode: failure.CodeUnknownTool, Msg: fmt.Sprintf("no admitted tool has id %q", id)}}
	}
	if len(args) == 0 {
		args = json.RawMessage("{}")
	}
	if t.validate != nil {
		if err := t.validate(args); err != nil {
			return nil, nil, err
		}
	}
	if ttl <= 0 {
		ttl = DefaultTaskTTL
	}
	params := map[string]any{"name": t.def.Tool, "arguments": args, "task": map[string]any{"ttl": ttl.Milliseconds()}}
	var raw json.RawMessage
	var task *Task
	var res *engine.ToolResult
	err := h.taskRequest(ctx, t.conn.srv.Name, "tools/call", "tools/call", params, &raw)
	var created struct {
		Task *tasks.Wire `json:"task"`
	}
	if err == nil {
		err = json.Unmarshal(raw, &created)
	}
	if err == nil && created.Task != nil {
		task, err = t.conn.task(*created.Task)
	} else if err == nil {
		var direct mcp.CallToolResult
		if err = json.Unmarshal(raw, &direct); err == nil {
			res, err = convertResult(t.def.Name, &direct)
		}
	}
	if err != nil {
		return nil, nil, tasks.Failure(err)
	}
	return task, res, nil
}

// GetTask is tasks/get.
func (h *Host) GetTask(ctx context.Context, server, taskID string) (*Task, error) {
	var w tasks.Wire
	if err := h.taskRequest(ctx, server, "get", "tasks/get", map[string]string{"taskId": taskID}, &w); err != nil {
		return nil, tasks.Failure(err)
	}
	return h.connTask(server, w)
}

// CancelTask is tasks/cancel; it returns the task as the server now has it.
func (h *Host) CancelTask(ctx context.Context, server, taskID string) (*Task, error) {
	var w tasks.Wire
	if err := h.taskRequest(ctx, server, "cancel", "tasks/cancel", map[string]string{"taskId": taskID}, &w); err != nil {
		return nil, tasks.Failure(err)
	}
	return h.connTask(server, w)
}

// Tasks is tasks/list (every page, at most 100).
func (h *Host) Tasks(ctx context.Context, server string) ([]*Task, error) {
	out := []*Task{}
	err := h.browse(ctx, server, "tasks/list", func(ctx context.Context, c *conn, _ *mcp.ClientSession) error {
		if err := c.tasksOffered("list"); err != nil {
			return err
		}
		return browse.Pages("tasks/list", func(cursor string) (string, error) {
			var page struct {
				Tasks      []tasks.Wire `json:"tasks"`
				NextCursor string       `json:"nextCursor"`
			}
			params := map[string]any{}
			if cursor != "" {
				params["cursor"] = cursor
			}
			if err := c.rawCall(ctx, "tasks/list", params, &page); err != nil {
				return "", err
			}
			for _, w := range page.Tasks {
				t, err := c.task(w)
				if err != nil {
					return "", err
				}
				out = append(out, t)
			}
			return page.NextCursor, nil
		})
	})
	if err != nil {
		return nil, tasks.Failure(err)
	}
	return out, nil
}

// TaskResult is tasks/result: the tool's result once the task is done (the
// server holds the answer until then; the call deadline bounds the wait).
func (h *Host) TaskResult(ctx context.Context, server, taskID string) (*engine.ToolResult, error) {
	var res mcp.CallToolResult
	if err := h.taskRequest(ctx, server, "get", "tasks/result", map[string]string{"taskId": taskID}, &res); err != nil {
		return nil, tasks.Failure(err)
	}
	out, err := convertResult("task "+taskID, &res)
	if err != nil {
		return nil, err
	}
	return out, nil
}

func (h *Host) connTask(server string, w tasks.Wire) (*Task, error) {
	c := h.connNamed(server)
	if c == nil {
		return nil, &failure.Error{Base: fault.Base{ErrCode: failure.CodeServerNotReady, Msg: "is not connected in this session"}, Server: server}
	}
	return c.task(w)
}

// rawReady refuses method on a connection relavium does not read (E925).
func (c *conn) rawReady(method string) error {
	if !c.raw.Ready() {
		return &failure.Error{Base: fault.Base{ErrCode: failure.CodeNoRawPath, Msg: method + " needs a stdio, sse or websocket connection: go-sdk v1.8.0 has no API for it, and relavium sends it only on a connection it reads itself (not Streamable HTTP)"}, Server: c.srv.Name}
	}
	return nil
}

// rawCall sends method with params on c's raw path and waits for the
// answer (or ctx, or c's end).
func (c *conn) rawCall(ctx context.Context, method string, params any, out any) error {
	if err := c.rawReady(method); err != nil {
		return err
	}
	return c.raw.Call(ctx, c.ctx, cancelFlush, method, params, out)
}
