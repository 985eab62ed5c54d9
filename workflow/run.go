package workflow

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/relavium/relavium/engine/sanitize"
	"github.com/relavium/relavium/fault"

	"github.com/relavium/relavium/engine"

	"github.com/relavium/relavium/authored"
)

// GateRequest is a gate step asking the person to go on.
type GateRequest struct {
	RunID    string
	Workflow string
	Step     string
	Message  string // rendered and sanitized for display
	Pos      authored.Pos
}

// GateFunc answers a gate: true goes on, false refuses (the run stops as a
// cancellation, E610). It must honour ctx. An error ends the run; an error
// carrying a code (Code() fault.Code) is returned as it is.
type GateFunc func(ctx context.Context, req GateRequest) (bool, error)

// RunOptions are what a run needs from its caller.
type RunOptions struct {
	// Host is the capability every tool call goes through. Required when the
	// workflow has tool steps.
	Host engine.ToolHost
	// Emitter receives the run's events (Discard when nil). A Bus stamps
	// Seq and Time.
	Emitter engine.Emitter
	// Gate answers gate steps. Required when the workflow has gates: with no
	// one to ask, callers pass a GateFunc that approves (--yes) or refuse
	// before calling Run.
	Gate GateFunc
	// RunID names the run in every event (generated when empty).
	RunID string
}

// StepRecord is what one step did.
type StepRecord struct {
	ID         string `json:"id"`
	Kind       string `json:"kind"`
	Tool       string `json:"tool,omitempty"` // the tool called (an mcp_call's target)
	Server     string `json:"server,omitempty"`
	IsError    bool   `json:"is_error,omitempty"`
	Approved   *bool  `json:"approved,omitempty"` // gates
	DurationMS int64  `json:"duration_ms"`
}

// RunResult is a completed run.
type RunResult struct {
	RunID      string         `json:"run_id"`
	Workflow   string         `json:"workflow"`
	Status     string         `json:"status"` // "completed"
	Outputs    map[string]any `json:"outputs"`
	Steps      []StepRecord   `json:"steps"`
	DurationMS int64          `json:"duration_ms"`
}

// Run executes w's steps in order. Inputs are validated and defaulted first
// (E603, nothing emitted). Then run:started; each tool step renders its
// arguments and calls through the registry (agent:tool_call, progress,
// agent:tool_result); each gate step asks opts.Gate (gate:requested,
// gate:resolved); finally outputs are rendered and run:completed carries
// them. Exactly one terminal event ends every started run:
//
//   - run:completed, and a *RunResult;
//   - run:failed with E604/E605 (a tool not offered), E606 (a tool result
//     with isError, unless the step has continue_on_error), E607 (a failed
//     call), E608 (a lookup with no value);
//   - run:cancelled with E609 when ctx ends (Ctrl-C) or E610 when a person
//     refuses a gate. IsCancellation tells the two classes apart.
//
// Before the first step every literal tool name is resolved, so a run never
// stops half-way for a tool that was never there.
func Run(ctx context.Context, w *Workflow, inputs map[string]any, opts RunOptions) (*RunResult, error) {
	if w == nil {
		return nil, &engine.Error{Base: fault.Base{ErrCode: engine.CodeRunOptions, Msg: "Run needs a workflow"}}
	}
	resolved, err := w.ResolveInputs(inputs)
	if err != nil {
		return nil, err
	}
	hasTools := false
	for i := range w.Steps {
		hasTools = hasTools || w.Steps[i].Kind() == StepTool
	}
	var reg *engine.Registry
	if hasTools {
		if opts.Host == nil {
			return nil, &engine.Error{Base: fault.Base{ErrCode: engine.CodeRunOptions, Msg: "workflow " + w.ID + " calls tools but the run has no ToolHost"}}
		}
		if reg, err = engine.NewRegistry(opts.Host); err != nil {
			return nil, err
		}
	}
	if gates := w.Gates(); len(gates) > 0 && opts.Gate == nil {
		return nil, GateUnanswerable(w, gates[0])
	}
	r := &runner{w: w, reg: reg, opts: opts, em: opts.Emitter, runID: opts.RunID,
		sc: &scope{inputs: resolved, steps: map[string]*stepValue{}}}
	if r.em == nil {
		r.em = engine.Discard{}
	}
	if r.runID == "" {
		r.runID = NewRunID()
	}
	return r.run(ctx)
}

// GateUnanswerable is the E611 error (exit 2) for a gate no one can answer:
// no terminal to ask and no --yes.
func GateUnanswerable(w *Workflow, g *Step) error {
	return &engine.Error{Base: fault.Base{ErrCode: CodeGateUnanswerable, Exit: fault.ExitUsage, Msg: fmt.Sprintf("workflow %s has gate %s (%s:%d:%d) %q and no one can be asked: run it on a terminal, or pass --yes to approve its gates",
		w.ID, g.ID, g.Pos.File, g.Pos.Line, g.Pos.Col, g.Gate)}, Step: g.ID}
}

// NewRunID returns a fresh run id.
func NewRunID() string {
	var b [8]byte
	_, _ = rand.Read(b[:])
	return "run-" + hex.EncodeToString(b[:])
}

type runner struct {
	w     *Workflow
	reg   *engine.Registry
	opts  RunOptions
	em    engine.Emitter
	runID string
	sc    *scope
	start time.Time
	steps []StepRecord
}

func (r *runner) emit(typ string, data any) {
	r.em.Emit(engine.Event{Type: typ, Time: time.Now(), RunID: r.runID, Data: data})
}

func (r *runner) run(ctx context.Context) (*RunResult, error) {
	r.start = time.Now()
	r.emit(engine.EventRunStarted, engine.RunStartedData{Workflow: r.w.ID, SideEffect: r.w.SideEffect,
		Inputs: engine.DisplayValue(r.sc.inputs).(map[string]any), Steps: len(r.w.Steps)})
	if err := r.preflight(); err != nil {
		return r.end("", err)
	}
	for i := range r.w.Steps {
		st := &r.w.Steps[i]
		if ctx.Err() != nil {
			return r.end(st.ID, r.cancelled(ctx, st.ID))
		}
		var err error
		if st.Kind() == StepGate {
			err = r.gate(ctx, st)
		} else {
			err = r.tool(ctx, st)
		}
		if err != nil {
			return r.end(st.ID, err)
		}
	}
	outputs := map[string]any{}
	for _, o := range r.w.Outputs {
		v, err := renderValue(o.Value, r.sc)
		if err != nil {
			return r.end("", &engine.Error{Base: fault.Base{ErrCode: CodeTemplateValue, Msg: "output " + o.Name + ": " + err.Error()}})
		}
		if v != absent {
			outputs[o.Name] = v
		}
	}
	dur := time.Since(r.start).Milliseconds()
	r.emit(engine.EventRunCompleted, engine.RunCompletedData{Workflow: r.w.ID, Outputs: outputs, DurationMS: dur})
	return &RunResult{RunID: r.runID, Workflow: r.w.ID, Status: "completed", Outputs: outputs, Steps: r.steps, DurationMS: dur}, nil
}

// preflight resolves every literal tool name before anything runs.
func (r *runner) preflight() error {
	for i := range r.w.Steps {
		st := &r.w.Steps[i]
		if st.Kind() != StepTool {
			continue
		}
		if st.Tool != engine.BuiltinMCPCall {
			if _, err := r.reg.Lookup(st.Tool); err != nil {
				return withStep(err, st.ID)
			}
			continue
		}
		server, sok := st.Args["server"].(string)
		tool, tok := st.Args["tool"].(string)
		if !sok || !tok {
			continue // templated: resolved when the step runs
		}
		probe, _ := json.Marshal(map[string]any{"server": server, "tool": tool})
		if _, _, err := r.reg.ResolveMCPCall(probe); err != nil {
			return withStep(err, st.ID)
		}
	}
	return nil
}

func withStep(err error, step string) error {
	var e *engine.Error
	if errors.As(err, &e) {
		c := *e
		c.Msg = "step " + step + ": " + c.Msg
		c.Step = step
		return &c
	}
	return err
}

func (r *runner) cancelled(ctx context.Context, step string) error {
	return &engine.Error{Base: fault.Base{ErrCode: engine.CodeRunCancelled, Msg: fmt.Sprintf("run of workflow %s cancelled at step %s", r.w.ID, step), Cause: context.Cause(ctx)}}
}

func (r *runner) tool(ctx context.Context, st *Step) error {
	rendered, err := renderValue(st.Args, r.sc)
	if err != nil {
		return &engine.Error{Base: fault.Base{ErrCode: CodeTemplateValue, Msg: "step " + st.ID + ": " + err.Error()}}
	}
	args, err := json.Marshal(rendered)
	if err != nil {
		return &engine.Error{Base: fault.Base{ErrCode: CodeTemplateValue, Msg: "step " + st.ID + ": arguments do not encode as JSON", Cause: err}}
	}
	target, inner, err := r.reg.Resolve(st.Tool, args)
	if err != nil {
		return withStep(err, st.ID)
	}
	res, took, err := engine.Trace(ctx, r.opts.Host, r.em, engine.TracedCall{
		CallID: r.runID + "/" + st.ID, RunID: r.runID, Step: st.ID, Tool: target, Args: inner, Timeout: st.Timeout})
	dur := took.Milliseconds()
	rec := StepRecord{ID: st.ID, Kind: StepTool, Tool: target.Name, Server: target.Server, DurationMS: dur}
	if err != nil {
		if ctx.Err() != nil {
			return r.cancelled(ctx, st.ID)
		}
		return &engine.Error{Base: fault.Base{ErrCode: engine.CodeStepCallFailed, Msg: fmt.Sprintf("step %s: calling %s failed", st.ID, target.Name), Cause: err}}
	}
	rec.IsError = res.IsError
	r.steps = append(r.steps, rec)
	r.sc.steps[st.ID] = valueOf(res)
	if res.IsError && !st.ContinueOnError {
		return &engine.Error{Base: fault.Base{ErrCode: CodeStepToolError, Msg: fmt.Sprintf("step %s: tool %s returned an error: %s", st.ID, target.Name, clip(sanitize.Line(res.Text()), 400))}}
	}
	return nil
}

func (r *runner) gate(ctx context.Context, st *Step) error {
	msg, err := renderString(st.gate, r.sc)
	if err != nil {
		return &engine.Error{Base: fault.Base{ErrCode: CodeTemplateValue, Msg: "gate " + st.ID + ": " + err.Error()}}
	}
	msg = sanitize.Text(msg)
	r.emit(engine.EventGateRequested, engine.GateRequestedData{Step: st.ID, Message: msg})
	t0 := time.Now()
	ok, err := r.opts.Gate(ctx, GateRequest{RunID: r.runID, Workflow: r.w.ID, Step: st.ID, Message: msg, Pos: st.Pos})
	approved := ok && err == nil
	rec := StepRecord{ID: st.ID, Kind: StepGate, Approved: &approved, DurationMS: time.Since(t0).Milliseconds()}
	if err != nil {
		if ctx.Err() != nil {
			r.emit(engine.EventGateResolved, engine.GateResolvedData{Step: st.ID, Approved: false, Error: "cancelled"})
			return r.cancelled(ctx, st.ID)
		}
		r.emit(engine.EventGateResolved, engine.GateResolvedData{Step: st.ID, Approved: false, Error: sanitize.Text(err.Error())})
		if _, coded := err.(interface{ Code() fault.Code }); coded {
			return err
		}
		return &engine.Error{Base: fault.Base{ErrCode: CodeGateFailed, Msg: "gate " + st.ID + ": asking failed", Cause: err}}
	}
	r.emit(engine.EventGateResolved, engine.GateResolvedData{Step: st.ID, Approved: ok})
	r.steps = append(r.steps, rec)
	if !ok {
		return &engine.Error{Base: fault.Base{ErrCode: CodeGateRefused, Msg: fmt.Sprintf("gate %s refused: the run stops here", st.ID)}}
	}
	return nil
}

// end emits the terminal event for err and returns it stamped with the run.
func (r *runner) end(step string, err error) (*RunResult, error) {
	var e *engine.Error
	if errors.As(err, &e) {
		c := *e
		c.RunID = r.runID
		if c.Step == "" {
			c.Step = step
		}
		err = &c
	}
	dur := time.Since(r.start).Milliseconds()
	code := fault.CodeOf(err, engine.CodeStepCallFailed)
	if IsCancellation(err) {
		reason := "cancelled"
		if code == CodeGateRefused {
			reason = "gate refused"
		} else if c := errors.Unwrap(err); c != nil {
			reason = c.Error()
		}
		r.emit(engine.EventRunCancelled, engine.RunCancelledData{Workflow: r.w.ID, Step: step, ErrorCode: code, Reason: reason, DurationMS: dur})
	} else {
		r.emit(engine.EventRunFailed, engine.RunFailedData{Workflow: r.w.ID, Step: step, ErrorCode: code, Error: sanitize.Text(messageOf(err)), DurationMS: dur})
	}
	return nil, err
}

// messageOf is an error's message without its code prefix but with its
// cause: a run_failed event's error is all its reader gets of the failure.
// Not fault.MessageOf, which drops the cause.
func messageOf(err error) string {
	if m, ok := err.(interface{ Message() string }); ok {
		if c := errors.Unwrap(err); c != nil {
			return m.Message() + ": " + c.Error()
		}
		return m.Message()
	}
	return err.Error()
}

func valueOf(res *engine.ToolResult) *stepValue {
	v := &stepValue{text: res.Text(), isError: res.IsError}
	if len(res.Structured) > 0 && !bytes.Equal(bytes.TrimSpace(res.Structured), []byte("null")) {
		dec := json.NewDecoder(bytes.NewReader(res.Structured))
		dec.UseNumber()
		var s any
		if dec.Decode(&s) == nil {
			v.structured, v.hasStructured = s, true
		}
	}
	return v
}

func clip(s string, n int) string {
	s = strings.TrimSpace(s)
	if len(s) <= n {
		return s
	}
	cut := n
	for cut > 0 && !utf8Start(s[cut]) {
		cut--
	}
	return s[:cut] + "…"
}

func utf8Start(b byte) bool { return b&0xC0 != 0x80 }
