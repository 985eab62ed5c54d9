package mcp

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/relavium/relavium/engine"
	"github.com/relavium/relavium/engine/sanitize"
	"github.com/relavium/relavium/fault"
	"github.com/relavium/relavium/host"
	"github.com/relavium/relavium/host/failure"
	"github.com/relavium/relavium/invoke/cli"
)

// mcp call --task and mcp tasks: a tool called as a task (protocol
// 2025-11-25, experimental), polled until it ends, its result printed; the
// tasks a server holds, listed or cancelled.

// Poll bounds: a server's pollInterval is kept within them.
const (
	minTaskPoll = 200 * time.Millisecond
	maxTaskPoll = 5 * time.Second
)

var errTaskDeadline = errors.New("the task did not end within --timeout")

// callAsTask calls def as a task and waits for it: every change of status
// is said on stderr; --timeout bounds the whole wait, and a task still
// running at its end (or at Ctrl-C) is cancelled at the server.
func callAsTask(ctx context.Context, inv *cli.Invocation, h *host.Host, def engine.ToolDef, args json.RawMessage) (*engine.ToolResult, *host.Task, time.Duration, error) {
	t0 := time.Now()
	timeout := inv.Duration("timeout")
	tctx, cancel := context.WithTimeoutCause(ctx, timeout, errTaskDeadline)
	defer cancel()
	task, res, err := h.CallTask(tctx, def.ID, args, 0)
	if err != nil {
		return nil, nil, 0, err
	}
	if task == nil { // the server ran it at once
		return res, nil, time.Since(t0), nil
	}
	say := func(t *host.Task) {
		line := "task " + t.TaskID + ": " + t.Status
		if t.StatusMessage != "" {
			line += " — " + t.StatusMessage
		}
		fmt.Fprintln(inv.Env.Stderr, sanitize.Line(line))
	}
	say(task)
	for !task.Terminal() {
		wait := min(max(time.Duration(task.PollIntervalMS)*time.Millisecond, minTaskPoll), maxTaskPoll)
		select {
		case <-time.After(wait):
		case <-tctx.Done():
			cctx, ccancel := context.WithTimeout(context.WithoutCancel(ctx), maxTaskPoll)
			_, _ = h.CancelTask(cctx, def.Server, task.TaskID)
			ccancel()
			if ctx.Err() != nil {
				return nil, task, time.Since(t0), &failure.Error{Base: fault.Base{ErrCode: failure.CodeCallCancelled, Msg: "task " + task.TaskID + " cancelled (and cancelled at the server)"}, Server: def.Server}
			}
			return nil, task, time.Since(t0), &cli.Error{ErrCode: cli.CodeTaskDeadline, Msg: fmt.Sprintf("task %s of %s did not end within --timeout %s; it was cancelled at the server", task.TaskID, def.Name, timeout)}
		}
		next, err := h.GetTask(tctx, def.Server, task.TaskID)
		if err != nil {
			if tctx.Err() != nil {
				continue // the select above says why
			}
			return nil, task, time.Since(t0), err
		}
		if next.Status != task.Status || next.StatusMessage != task.StatusMessage {
			say(next)
		}
		task = next
	}
	if task.Status != host.TaskCompleted {
		msg := fmt.Sprintf("task %s of %s ended %s", task.TaskID, def.Name, task.Status)
		if task.StatusMessage != "" {
			msg += ": " + task.StatusMessage
		}
		return nil, task, time.Since(t0), &cli.Error{ErrCode: cli.CodeTaskEnded, Msg: msg}
	}
	res, err = h.TaskResult(tctx, def.Server, task.TaskID)
	return res, task, time.Since(t0), err
}

// MCPTasksResult is the data of `relavium mcp tasks`.
type MCPTasksResult struct {
	Server    string       `json:"server"`
	Tasks     []*host.Task `json:"tasks"`
	Cancelled *host.Task   `json:"cancelled,omitempty"`
}

// WriteHuman lists the tasks, one a line: id, status, message.
func (r *MCPTasksResult) WriteHuman(w io.Writer) error {
	var b strings.Builder
	if r.Cancelled != nil {
		fmt.Fprintf(&b, "task %s: %s\n", r.Cancelled.TaskID, r.Cancelled.Status)
	}
	if r.Cancelled == nil && len(r.Tasks) == 0 {
		fmt.Fprintf(&b, "%s holds no task\n", sanitize.Line(r.Server))
	}
	for _, t := range r.Tasks {
		line := fmt.Sprintf("%-38s %-15s %s", t.TaskID, t.Status, t.StatusMessage)
		b.WriteString(sanitize.Line(strings.TrimRight(line, " ")) + "\n")
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// RunMCPTasks is `relavium mcp tasks`: list the tasks a declared server
// holds (2025-11-25, experimental); --cancel cancels one.
func RunMCPTasks(ctx context.Context, inv *cli.Invocation) (any, error) {
	name := inv.Args[0]
	servers, co, err := oneServer(inv, name)
	if err != nil {
		return nil, err
	}
	h, err := cli.ConnectWith(ctx, inv, servers, nil, co)
	if err != nil {
		return nil, err
	}
	defer h.Close()
	out := &MCPTasksResult{Server: name, Tasks: []*host.Task{}}
	if id := inv.String("cancel"); inv.Changed("cancel") {
		if out.Cancelled, err = h.CancelTask(ctx, name, id); err != nil {
			return nil, err
		}
		return out, nil
	}
	if out.Tasks, err = h.Tasks(ctx, name); err != nil {
		return nil, err
	}
	return out, nil
}
