package engine

import (
	"context"
	"encoding/json"
	"errors"
	"sync"
	"time"

	"github.com/relavium/relavium/engine/sanitize"
	"github.com/relavium/relavium/fault"
)

// TracedCall is one tool call made through Trace.
type TracedCall struct {
	CallID  string
	RunID   string // set inside a run
	Step    string // set inside a run
	Tool    ToolDef
	Args    json.RawMessage
	Timeout time.Duration // 0: the host's tools/call deadline
}

// Trace is the one place a tool call becomes events: it emits
// agent:tool_call, then agent:tool_progress for every progress notification
// (and agent:tool_log for every log the host attributes to it) routed to this
// call until it returns (a late notification never follows
// the result), then agent:tool_result. Arguments, progress messages and the
// result in events are sanitized display copies — and, when the host is a
// Redactor, every injected secret value in them is replaced by its
// {{secrets.NAME}} reference; the returned result is the host's own. The
// host itself emits no agent:* call events.
func Trace(ctx context.Context, host ToolHost, em Emitter, c TracedCall) (*ToolResult, time.Duration, error) {
	emit := func(typ string, data any) {
		em.Emit(Event{Type: typ, Time: time.Now(), RunID: c.RunID, Data: data})
	}
	var m textMapper
	if r, ok := host.(Redactor); ok {
		m = func(s string) string { return r.Redact(c.Tool.Server, s) }
	}
	emit(EventToolCall, ToolCallData{CallID: c.CallID, Tool: c.Tool.Name, Server: c.Tool.Server, Args: displayJSONWith(c.Args, m), Step: c.Step})

	var mu sync.Mutex
	open := true
	onProgress := func(p Progress) {
		mu.Lock()
		defer mu.Unlock()
		if open {
			p.Message = m.apply(sanitize.Line(p.Message))
			emit(EventToolProgress, ToolProgressData{CallID: c.CallID, Progress: p})
		}
	}
	onLog := func(l LogEntry) {
		mu.Lock()
		defer mu.Unlock()
		if open {
			emit(EventToolLog, ToolLogData{CallID: c.CallID, LogEntry: l})
		}
	}
	t0 := time.Now()
	res, err := host.Call(ctx, c.Tool.ID, c.Args, CallOptions{Timeout: c.Timeout, OnProgress: onProgress, OnLog: onLog})
	mu.Lock()
	open = false
	mu.Unlock()
	dur := time.Since(t0)
	if err == nil && res == nil {
		err = errors.New("the host returned no result and no error")
	}
	rd := ToolResultData{CallID: c.CallID, Tool: c.Tool.Name, DurationMS: dur.Milliseconds(), Step: c.Step}
	switch {
	case err != nil && ctx.Err() != nil:
		rd.ErrorCode, rd.Error = fault.CodeOf(err, CodeRunCancelled), "cancelled"
	case err != nil:
		rd.ErrorCode, rd.Error = fault.CodeOf(err, CodeStepCallFailed), m.apply(sanitize.Text(err.Error()))
	default:
		rd.Result = displayResult(res, m)
	}
	emit(EventToolResult, rd)
	return res, dur, err
}
