package workflow

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/relavium/relavium/engine"
	"github.com/relavium/relavium/fault"
)

func loadOne(t *testing.T, id, src string) *Workflow {
	t.Helper()
	dir := project(t, map[string]string{id + ".yaml": src})
	w, err := LoadWorkflow(dir, id)
	if err != nil {
		t.Fatal(err)
	}
	return w
}

func approve(context.Context, GateRequest) (bool, error) { return true, nil }
func refuse(context.Context, GateRequest) (bool, error)  { return false, nil }

const closeStale = `id: close
side_effect: destructive
inputs:
  - {name: repo, type: string, required: true}
  - {name: days, type: integer, default: 30}
steps:
  - id: find
    tool: mcp_gh_search
    args: {q: "repo:{{inputs.repo}} updated:<{{inputs.days}}d", days: "{{inputs.days}}"}
  - id: approve
    gate: "Close {{steps.find.structured.total}} issues in {{inputs.repo}}?"
  - id: close
    tool: mcp_gh_close
    args: {ids: "{{steps.find.structured.ids}}", note: "closing {{steps.find.structured.ids}}"}
outputs:
  closed: "{{steps.close.text}}"
  count: "{{steps.find.structured.total}}"
`

func ghHost() *fakeHost {
	h := newFakeHost()
	h.add("gh", "search", func(_ context.Context, args json.RawMessage, _ engine.CallOptions) (*engine.ToolResult, error) {
		return &engine.ToolResult{Content: []engine.Content{{Type: "text", Text: "found"}}, Structured: json.RawMessage(`{"total":2,"ids":[11,12]}`)}, nil
	})
	h.add("gh", "close", func(_ context.Context, args json.RawMessage, _ engine.CallOptions) (*engine.ToolResult, error) {
		return textResult("closed " + string(args)), nil
	})
	return h
}

func TestRunCompletesWithTypedArgsGatesAndOutputs(t *testing.T) {
	w := loadOne(t, "close", closeStale)
	h := ghHost()
	bus := engine.NewBus(engine.BusOptions{})
	sub := bus.Subscribe()
	var asked []GateRequest
	res, err := Run(context.Background(), w, map[string]any{"repo": "acme/app"}, RunOptions{
		Host: h, Emitter: bus, RunID: "run-1",
		Gate: func(_ context.Context, g GateRequest) (bool, error) { asked = append(asked, g); return true, nil },
	})
	bus.Close()
	if err != nil {
		t.Fatal(err)
	}
	calls := h.recorded()
	if len(calls) != 2 {
		t.Fatalf("calls %+v", calls)
	}
	if calls[0].Args != `{"days":30,"q":"repo:acme/app updated:\u003c30d"}` {
		t.Fatalf("find args %s", calls[0].Args)
	}
	if calls[1].Args != `{"ids":[11,12],"note":"closing [11,12]"}` {
		t.Fatalf("close args keep the structured type: %s", calls[1].Args)
	}
	if len(asked) != 1 || asked[0].Message != "Close 2 issues in acme/app?" || asked[0].Step != "approve" || asked[0].RunID != "run-1" {
		t.Fatalf("gate %+v", asked)
	}
	out, _ := json.Marshal(res.Outputs)
	if string(out) != `{"closed":"closed {\"ids\":[11,12],\"note\":\"closing [11,12]\"}","count":2}` {
		t.Fatalf("outputs %s", out)
	}
	if res.RunID != "run-1" || res.Status != "completed" || len(res.Steps) != 3 || *res.Steps[1].Approved != true {
		t.Fatalf("result %+v", res)
	}
	var types []string
	for e := range sub.Events(context.Background()) {
		if e.RunID != "run-1" {
			t.Fatalf("event without the run id: %+v", e)
		}
		types = append(types, e.Type)
	}
	want := []string{engine.EventRunStarted, engine.EventToolCall, engine.EventToolResult, engine.EventGateRequested, engine.EventGateResolved, engine.EventToolCall, engine.EventToolResult, engine.EventRunCompleted}
	if fmt.Sprint(types) != fmt.Sprint(want) {
		t.Fatalf("events\n got %v\nwant %v", types, want)
	}
}

func TestRunToolErrorFailsTheStep(t *testing.T) {
	w := loadOne(t, "f", `id: f
side_effect: read
steps:
  - {id: one, tool: mcp_s_fail}
  - {id: two, tool: mcp_s_ok}
`)
	h := newFakeHost()
	h.add("s", "fail", func(context.Context, json.RawMessage, engine.CallOptions) (*engine.ToolResult, error) {
		return &engine.ToolResult{Content: []engine.Content{{Type: "text", Text: "disk \x1b[31mfull"}}, IsError: true}, nil
	})
	h.add("s", "ok", echoArgs)
	rec := &recorder{}
	res, err := Run(context.Background(), w, nil, RunOptions{Host: h, Emitter: rec})
	if res != nil {
		t.Fatal("a failed run returned a result")
	}
	codeIs(t, err, CodeStepToolError)
	if IsCancellation(err) || ExitOf(err) != 1 || !strings.Contains(err.Error(), "disk full") {
		t.Fatalf("err %v", err)
	}
	var e *engine.Error
	errors.As(err, &e)
	if e.Step != "one" || e.RunID == "" {
		t.Fatalf("error does not name run and step: %+v", e)
	}
	if len(h.recorded()) != 1 {
		t.Fatal("the run went on after a failed step")
	}
	evs := rec.all()
	last := evs[len(evs)-1]
	if last.Type != engine.EventRunFailed || last.Data.(engine.RunFailedData).ErrorCode != CodeStepToolError || last.Data.(engine.RunFailedData).Step != "one" {
		t.Fatalf("terminal %+v", last)
	}
}

func TestRunContinueOnErrorExposesIsError(t *testing.T) {
	w := loadOne(t, "c", `id: c
side_effect: read
steps:
  - {id: one, tool: mcp_s_fail, continue_on_error: true}
  - {id: two, tool: mcp_s_ok, args: {failed: "{{steps.one.is_error}}", why: "{{steps.one.text}}"}}
outputs:
  two: "{{steps.two.structured}}"
`)
	h := newFakeHost()
	h.add("s", "fail", func(context.Context, json.RawMessage, engine.CallOptions) (*engine.ToolResult, error) {
		return &engine.ToolResult{Content: []engine.Content{{Type: "text", Text: "nope"}}, IsError: true}, nil
	})
	h.add("s", "ok", echoArgs)
	res, err := Run(context.Background(), w, nil, RunOptions{Host: h})
	if err != nil {
		t.Fatal(err)
	}
	b, _ := json.Marshal(res.Outputs["two"])
	if string(b) != `{"failed":true,"why":"nope"}` || !res.Steps[0].IsError {
		t.Fatalf("outputs %s steps %+v", b, res.Steps)
	}
}

type hostErr struct{}

func (hostErr) Error() string    { return "E512: tools/call deadline (60s) exceeded" }
func (hostErr) Code() fault.Code { return "E512" }

func TestRunCallFailureIsE607WithTheHostCode(t *testing.T) {
	w := loadOne(t, "d", "id: d\nside_effect: read\nsteps: [{id: one, tool: mcp_s_slow, timeout_ms: 1500}]\n")
	h := newFakeHost()
	h.add("s", "slow", func(context.Context, json.RawMessage, engine.CallOptions) (*engine.ToolResult, error) {
		return nil, hostErr{}
	})
	rec := &recorder{}
	_, err := Run(context.Background(), w, nil, RunOptions{Host: h, Emitter: rec})
	codeIs(t, err, engine.CodeStepCallFailed)
	if !errors.Is(err, hostErr{}) {
		t.Fatal("the host's error is not the cause")
	}
	if h.recorded()[0].Opts.Timeout != 1500*time.Millisecond {
		t.Fatalf("timeout_ms not passed: %v", h.recorded()[0].Opts.Timeout)
	}
	for _, e := range rec.all() {
		if e.Type == engine.EventToolResult && e.Data.(engine.ToolResultData).ErrorCode != "E512" {
			t.Fatalf("tool_result lost the host's code: %+v", e.Data)
		}
	}
}

func TestRunGateRefusedIsACancellation(t *testing.T) {
	w := loadOne(t, "close", closeStale)
	h := ghHost()
	rec := &recorder{}
	_, err := Run(context.Background(), w, map[string]any{"repo": "a/b"}, RunOptions{Host: h, Emitter: rec, Gate: refuse})
	codeIs(t, err, CodeGateRefused)
	if !IsCancellation(err) || ExitOf(err) != 1 {
		t.Fatalf("refusal %v", err)
	}
	if len(h.recorded()) != 1 {
		t.Fatal("a step after a refused gate ran")
	}
	types := rec.types()
	if types[len(types)-1] != engine.EventRunCancelled || types[len(types)-2] != engine.EventGateResolved {
		t.Fatalf("events %v", types)
	}
	if d := rec.all()[len(types)-1].Data.(engine.RunCancelledData); d.Reason != "gate refused" || d.ErrorCode != CodeGateRefused || d.Step != "approve" {
		t.Fatalf("cancelled %+v", d)
	}
}

func TestRunGateErrors(t *testing.T) {
	w := loadOne(t, "close", closeStale)
	// No answerer at all: E611 before anything happens.
	rec := &recorder{}
	h := ghHost()
	_, err := Run(context.Background(), w, map[string]any{"repo": "a/b"}, RunOptions{Host: h, Emitter: rec})
	codeIs(t, err, CodeGateUnanswerable)
	if ExitOf(err) != 2 || !strings.Contains(err.Error(), "gate approve") || len(rec.all()) != 0 || len(h.recorded()) != 0 {
		t.Fatalf("E611: %v, %d events, %d calls", err, len(rec.all()), len(h.recorded()))
	}
	// A coded error from the answerer comes back as it is.
	coded := &engine.Error{Base: fault.Base{ErrCode: "E999", Msg: "x", Exit: 2}}
	_, err = Run(context.Background(), w, map[string]any{"repo": "a/b"}, RunOptions{Host: ghHost(),
		Gate: func(context.Context, GateRequest) (bool, error) { return false, coded }})
	codeIs(t, err, "E999")
	// An uncoded one is E613.
	_, err = Run(context.Background(), w, map[string]any{"repo": "a/b"}, RunOptions{Host: ghHost(),
		Gate: func(context.Context, GateRequest) (bool, error) { return false, errors.New("tty gone") }})
	codeIs(t, err, CodeGateFailed)
}

func TestRunCancelledMidStep(t *testing.T) {
	w := loadOne(t, "long", "id: long\nside_effect: read\nsteps:\n  - {id: wait, tool: mcp_s_wait}\n  - {id: after, tool: mcp_s_wait}\n")
	h := newFakeHost()
	started := make(chan struct{})
	h.add("s", "wait", func(ctx context.Context, _ json.RawMessage, _ engine.CallOptions) (*engine.ToolResult, error) {
		close(started)
		<-ctx.Done()
		return nil, ctx.Err()
	})
	ctx, cancel := context.WithCancelCause(context.Background())
	rec := &recorder{}
	done := make(chan error, 1)
	go func() {
		_, err := Run(ctx, w, nil, RunOptions{Host: h, Emitter: rec})
		done <- err
	}()
	<-started
	cancel(errors.New("interrupt"))
	var err error
	select {
	case err = <-done:
	case <-time.After(10 * time.Second):
		t.Fatal("Run did not return after cancellation")
	}
	codeIs(t, err, engine.CodeRunCancelled)
	if !IsCancellation(err) || !strings.Contains(err.Error(), "interrupt") {
		t.Fatalf("cancel: %v", err)
	}
	if len(h.recorded()) != 1 {
		t.Fatal("a step started after cancellation")
	}
	evs := rec.all()
	res := evs[len(evs)-2]
	if res.Type != engine.EventToolResult || res.Data.(engine.ToolResultData).ErrorCode != engine.CodeRunCancelled {
		t.Fatalf("the cancelled call has no closing result: %+v", res)
	}
	if last := evs[len(evs)-1]; last.Type != engine.EventRunCancelled || last.Data.(engine.RunCancelledData).ErrorCode != engine.CodeRunCancelled {
		t.Fatalf("terminal %+v", last)
	}
}

func TestRunCancelledWhileAskingAGate(t *testing.T) {
	w := loadOne(t, "close", closeStale)
	ctx, cancel := context.WithCancel(context.Background())
	_, err := Run(ctx, w, map[string]any{"repo": "a/b"}, RunOptions{Host: ghHost(),
		Gate: func(ctx context.Context, _ GateRequest) (bool, error) {
			cancel()
			<-ctx.Done()
			return false, ctx.Err()
		}})
	codeIs(t, err, engine.CodeRunCancelled)
}

func TestRunProgressIsRoutedAndNeverFollowsTheResult(t *testing.T) {
	w := loadOne(t, "p", "id: p\nside_effect: read\nsteps: [{id: op, tool: mcp_s_op}]\n")
	h := newFakeHost()
	var late func(engine.Progress)
	h.add("s", "op", func(_ context.Context, _ json.RawMessage, o engine.CallOptions) (*engine.ToolResult, error) {
		for i := 1; i <= 3; i++ {
			o.OnProgress(engine.Progress{Progress: float64(i), Total: 3, Message: "step\x1b[2J"})
		}
		late = o.OnProgress
		return textResult("done"), nil
	})
	rec := &recorder{}
	if _, err := Run(context.Background(), w, nil, RunOptions{Host: h, Emitter: rec, RunID: "r"}); err != nil {
		t.Fatal(err)
	}
	late(engine.Progress{Progress: 99})
	var seen []string
	for _, e := range rec.all() {
		switch d := e.Data.(type) {
		case engine.ToolProgressData:
			if d.CallID != "r/op" || strings.Contains(d.Message, "\x1b") {
				t.Fatalf("progress %+v", d)
			}
			seen = append(seen, fmt.Sprint(d.Progress.Progress))
		case engine.ToolResultData:
			seen = append(seen, "result")
		}
	}
	if fmt.Sprint(seen) != "[1 2 3 result]" {
		t.Fatalf("progress/result order %v", seen)
	}
}

func TestRunPreflightRefusesAMissingToolBeforeAnyCall(t *testing.T) {
	w := loadOne(t, "m", "id: m\nside_effect: read\nsteps:\n  - {id: a, tool: mcp_s_ok}\n  - {id: b, tool: mcp_s_missing}\n  - {id: c, tool: mcp_call, args: {server: s, tool: gone}}\n")
	h := newFakeHost()
	h.add("s", "ok", echoArgs)
	rec := &recorder{}
	_, err := Run(context.Background(), w, nil, RunOptions{Host: h, Emitter: rec})
	codeIs(t, err, engine.CodeToolUnknown)
	if len(h.recorded()) != 0 {
		t.Fatal("a step ran before the preflight failed")
	}
	if types := rec.types(); fmt.Sprint(types) != fmt.Sprint([]string{engine.EventRunStarted, engine.EventRunFailed}) {
		t.Fatalf("events %v", types)
	}
}

func TestRunMCPCallStep(t *testing.T) {
	w := loadOne(t, "mc", `id: mc
side_effect: read
inputs: [{name: n, type: integer, required: true}]
steps:
  - id: a
    tool: mcp_call
    args: {server: s, tool: add, arguments: {x: "{{inputs.n}}", y: 2}}
outputs:
  sum: "{{steps.a.text}}"
`)
	h := newFakeHost()
	id := h.add("s", "add", echoArgs)
	rec := &recorder{}
	res, err := Run(context.Background(), w, map[string]any{"n": int64(5)}, RunOptions{Host: h, Emitter: rec})
	if err != nil {
		t.Fatal(err)
	}
	c := h.recorded()
	if len(c) != 1 || c[0].ID != id || c[0].Args != `{"x":5,"y":2}` || res.Outputs["sum"] != `{"x":5,"y":2}` {
		t.Fatalf("calls %+v outputs %v", c, res.Outputs)
	}
	for _, e := range rec.all() {
		if d, ok := e.Data.(engine.ToolCallData); ok && (d.Tool != "mcp_s_add" || d.Server != "s" || d.Step != "a") {
			t.Fatalf("tool_call names %+v", d)
		}
	}
}

func TestRunEventsCarrySanitizedArgs(t *testing.T) {
	w := loadOne(t, "san", "id: san\nside_effect: read\ninputs: [{name: s, type: string, required: true}]\nsteps: [{id: a, tool: mcp_s_e, args: {v: \"{{inputs.s}}\"}}]\n")
	h := newFakeHost()
	h.add("s", "e", echoArgs)
	rec := &recorder{}
	evil := "ok\x1b]8;;http://x\x07link\u202e"
	if _, err := Run(context.Background(), w, map[string]any{"s": evil}, RunOptions{Host: h, Emitter: rec}); err != nil {
		t.Fatal(err)
	}
	var raw map[string]string
	_ = json.Unmarshal([]byte(h.recorded()[0].Args), &raw)
	if raw["v"] != evil {
		t.Fatal("the tool must receive the value unchanged")
	}
	for _, e := range rec.all() {
		b, _ := json.Marshal(e)
		var tree any
		if err := json.Unmarshal(b, &tree); err != nil {
			t.Fatal(err)
		}
		walkStrings(tree, func(s string) {
			if strings.ContainsAny(s, "\x1b\x07\u202e") {
				t.Fatalf("event carries control characters: %s", b)
			}
		})
	}
}

func walkStrings(v any, f func(string)) {
	switch x := v.(type) {
	case string:
		f(x)
	case map[string]any:
		for k, e := range x {
			f(k)
			walkStrings(e, f)
		}
	case []any:
		for _, e := range x {
			walkStrings(e, f)
		}
	}
}

func TestRunRefusesBadInputsAndMissingHost(t *testing.T) {
	w := loadOne(t, "close", closeStale)
	rec := &recorder{}
	_, err := Run(context.Background(), w, map[string]any{"days": "x"}, RunOptions{Host: ghHost(), Emitter: rec, Gate: approve})
	codeIs(t, err, CodeInputsInvalid)
	if len(rec.all()) != 0 {
		t.Fatal("events emitted for a run that never started")
	}
	_, err = Run(context.Background(), w, map[string]any{"repo": "a/b"}, RunOptions{Gate: approve})
	codeIs(t, err, engine.CodeRunOptions)
	_, err = Run(context.Background(), nil, nil, RunOptions{})
	codeIs(t, err, engine.CodeRunOptions)
}

func TestRunMissingStructuredValueIsE608(t *testing.T) {
	w := loadOne(t, "v", "id: v\nside_effect: read\nsteps:\n  - {id: a, tool: mcp_s_text}\n  - {id: b, tool: mcp_s_text, args: {x: \"{{steps.a.structured.k}}\"}}\n")
	h := newFakeHost()
	h.add("s", "text", func(context.Context, json.RawMessage, engine.CallOptions) (*engine.ToolResult, error) {
		return textResult("plain"), nil
	})
	_, err := Run(context.Background(), w, nil, RunOptions{Host: h})
	codeIs(t, err, CodeTemplateValue)
	if len(h.recorded()) != 1 {
		t.Fatal("step b called without its argument")
	}
}
