package host

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/relavium/relavium/engine"
	"github.com/relavium/relavium/engine/sanitize"
	"github.com/relavium/relavium/fault"
	"github.com/relavium/relavium/host/browse"
	"github.com/relavium/relavium/host/failure"
)

// Tasks (protocol 2025-11-25, experimental): a tool called as a task
// answers at once with a task id; the task is then polled (tasks/get),
// listed (tasks/list), cancelled (tasks/cancel) and its result fetched when
// it is done (tasks/result). go-sdk v1.8.0 has no task API on either side,
// so these go over the raw request path (host/direct): stdio, sse and
// websocket servers only.

// Task statuses.
const (
	TaskWorking       = "working"
	TaskInputRequired = "input_required"
	TaskCompleted     = "completed"
	TaskFailed        = "failed"
	TaskCancelled     = "cancelled"
)

// DefaultTaskTTL is the task lifetime asked for (the server may choose
// another).
const DefaultTaskTTL = 5 * time.Minute

// Task is one task as a server describes it. Status and StatusMessage are
// the server's words, cleaned as one-line fields.
type Task struct {
	Server         string `json:"server"`
	TaskID         string `json:"task_id"`
	Status         string `json:"status"`
	StatusMessage  string `json:"status_message,omitempty"`
	CreatedAt      string `json:"created_at,omitempty"`
	LastUpdatedAt  string `json:"last_updated_at,omitempty"`
	TTLMS          *int64 `json:"ttl_ms,omitempty"`
	PollIntervalMS int64  `json:"poll_interval_ms,omitempty"`
}

// Terminal reports whether the task has ended.
func (t *Task) Terminal() bool {
	return t.Status == TaskCompleted || t.Status == TaskFailed || t.Status == TaskCancelled
}

// wireTask is a task on the wire.
type wireTask struct {
	TaskID        string   `json:"taskId"`
	Status        string   `json:"status"`
	StatusMessage string   `json:"statusMessage"`
	CreatedAt     string   `json:"createdAt"`
	LastUpdatedAt string   `json:"lastUpdatedAt"`
	TTL           *float64 `json:"ttl"`
	PollInterval  float64  `json:"pollInterval"`
}

// maxTaskID bounds a task id a server answers: relavium shows it, sends it
// back and keeps it in the task list.
const maxTaskID = 256

// task takes a task the server answered; an unusable id is E926.
func (c *conn) task(w wireTask) (*Task, error) {
	if w.TaskID == "" || len(w.TaskID) > maxTaskID || sanitize.Line(w.TaskID) != w.TaskID {
		return nil, &failure.Error{Base: fault.Base{ErrCode: failure.CodeBadTask, Exit: fault.ExitFailure,
			Msg: fmt.Sprintf("answered a task id of %d bytes that is empty, over %d bytes or not plain text; the task cannot be followed", len(w.TaskID), maxTaskID)}, Server: c.srv.Name}
	}
	t := &Task{Server: c.srv.Name, TaskID: w.TaskID, Status: sanitize.Line(w.Status),
		StatusMessage: sanitize.Line(c.redactText(w.StatusMessage)), CreatedAt: sanitize.Line(w.CreatedAt),
		LastUpdatedAt: sanitize.Line(w.LastUpdatedAt), PollIntervalMS: int64(max(0, w.PollInterval))}
	if w.TTL != nil {
		ms := int64(*w.TTL)
		t.TTLMS = &ms
	}
	return t, nil
}

// tasksOffered refuses a server that does not declare tasks (E920), or
// the part of them what needs ("list", "cancel", "tools/call").
func (c *conn) tasksOffered(what string) error {
	if err := c.rawReady("tasks/" + what); err != nil {
		return err // unread: what the server declared is not known either
	}
	raw := c.raw.TasksCap()
	var caps struct {
		List     json.RawMessage `json:"list"`
		Cancel   json.RawMessage `json:"cancel"`
		Requests struct {
			Tools struct {
				Call json.RawMessage `json:"call"`
			} `json:"tools"`
		} `json:"requests"`
	}
	ok := len(raw) > 0 && string(raw) != "null" && json.Unmarshal(raw, &caps) == nil
	switch what {
	case "list":
		ok = ok && len(caps.List) > 0
	case "cancel":
		ok = ok && len(caps.Cancel) > 0
	case "tools/call":
		ok = ok && len(caps.Requests.Tools.Call) > 0
	}
	if !ok {
		return &failure.Error{Base: fault.Base{ErrCode: failure.CodeNotOffered, Msg: "does not offer tasks for " + what + " (capabilities.tasks)"}, Server: c.srv.Name}
	}
	return nil
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
		Task *wireTask `json:"task"`
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
		return nil, nil, taskFailure(err)
	}
	return task, res, nil
}

// GetTask is tasks/get.
func (h *Host) GetTask(ctx context.Context, server, taskID string) (*Task, error) {
	var w wireTask
	if err := h.taskRequest(ctx, server, "get", "tasks/get", map[string]string{"taskId": taskID}, &w); err != nil {
		return nil, taskFailure(err)
	}
	return h.connTask(server, w)
}

// CancelTask is tasks/cancel; it returns the task as the server now has it.
func (h *Host) CancelTask(ctx context.Context, server, taskID string) (*Task, error) {
	var w wireTask
	if err := h.taskRequest(ctx, server, "cancel", "tasks/cancel", map[string]string{"taskId": taskID}, &w); err != nil {
		return nil, taskFailure(err)
	}
	return h.connTask(server, w)
}

// maxTaskPages bounds a tasks/list walk.
const maxTaskPages = 100

// Tasks is tasks/list (every page, at most 100).
func (h *Host) Tasks(ctx context.Context, server string) ([]*Task, error) {
	out := []*Task{}
	err := h.browse(ctx, server, "tasks/list", func(ctx context.Context, c *conn, _ *mcp.ClientSession) error {
		if err := c.tasksOffered("list"); err != nil {
			return err
		}
		return browse.Pages("tasks/list", func(cursor string) (string, error) {
			var page struct {
				Tasks      []wireTask `json:"tasks"`
				NextCursor string     `json:"nextCursor"`
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
		return nil, taskFailure(err)
	}
	return out, nil
}

// TaskResult is tasks/result: the tool's result once the task is done (the
// server holds the answer until then; the call deadline bounds the wait).
func (h *Host) TaskResult(ctx context.Context, server, taskID string) (*engine.ToolResult, error) {
	var res mcp.CallToolResult
	if err := h.taskRequest(ctx, server, "get", "tasks/result", map[string]string{"taskId": taskID}, &res); err != nil {
		return nil, taskFailure(err)
	}
	out, err := convertResult("task "+taskID, &res)
	if err != nil {
		return nil, err
	}
	return out, nil
}

func (h *Host) connTask(server string, w wireTask) (*Task, error) {
	c := h.connNamed(server)
	if c == nil {
		return nil, &failure.Error{Base: fault.Base{ErrCode: failure.CodeServerNotReady, Msg: "is not connected in this session"}, Server: server}
	}
	return c.task(w)
}

// taskFailure keeps the refusals that say why (not offered, no raw path)
// as they are, rather than as a call failure wrapping them.
func taskFailure(err error) error {
	var he *failure.Error
	if errors.As(err, &he) && (he.ErrCode == failure.CodeNoRawPath || he.ErrCode == failure.CodeNotOffered || he.ErrCode == failure.CodeBadTask) {
		return he
	}
	return err
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
