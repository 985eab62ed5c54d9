package engine

import (
	"context"
	"encoding/json"
	"errors"
	"slices"
	"strings"
	"testing"
)

// TestTraceEmitsOneEventPerNotification checks the one place calls become
// events: tool_call, each progress once under the caller's call id, the
// result; sanitized display copies; nothing after the result.
func TestTraceEmitsOneEventPerNotification(t *testing.T) {
	h := newFakeHost()
	var late func(Progress)
	h.add("s", "t", func(_ context.Context, _ json.RawMessage, opts CallOptions) (*ToolResult, error) {
		opts.OnProgress(Progress{Progress: 1, Total: 2, Message: "half\x1b[31m way"})
		opts.OnProgress(Progress{Progress: 2, Total: 2})
		late = opts.OnProgress
		return &ToolResult{Content: []Content{{Type: "text", Text: "ok\x1b]0;title\x07"}}}, nil
	})
	rec := &recorder{}
	def := h.Tools()[0]
	res, _, err := Trace(context.Background(), h, rec, TracedCall{CallID: "c1", RunID: "r1", Step: "st", Tool: def,
		Args: json.RawMessage(`{"q":"a\u202eb"}`)})
	if err != nil || res.Text() != "ok\x1b]0;title\x07" {
		t.Fatalf("Trace = %v, %v; the caller must get the host's own result", res, err)
	}
	late(Progress{Progress: 3}) // after the call returned: dropped
	want := []string{EventToolCall, EventToolProgress, EventToolProgress, EventToolResult}
	if got := rec.types(); !slices.Equal(got, want) {
		t.Fatalf("events %v, want %v", got, want)
	}
	for _, e := range rec.all() {
		if e.RunID != "r1" {
			t.Errorf("%s has run id %q", e.Type, e.RunID)
		}
		b, _ := json.Marshal(e)
		if strings.ContainsAny(string(b), "\x1b\u202e") || strings.Contains(string(b), `\u001b`) || strings.Contains(string(b), `\u202e`) {
			t.Errorf("event not sanitized: %s", b)
		}
	}
	if p := rec.all()[1].Data.(ToolProgressData); p.CallID != "c1" || p.Message != "half way" {
		t.Errorf("progress = %+v", p)
	}
	if d := rec.all()[3].Data.(ToolResultData); d.Step != "st" || d.Result == nil || d.Result.Text() != "ok" {
		t.Errorf("result = %+v", d)
	}
}

func TestTraceClassifiesCancellation(t *testing.T) {
	h := newFakeHost()
	h.add("s", "t", func(ctx context.Context, _ json.RawMessage, _ CallOptions) (*ToolResult, error) {
		<-ctx.Done()
		return nil, errors.New("host: cancelled")
	})
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	rec := &recorder{}
	_, _, err := Trace(ctx, h, rec, TracedCall{CallID: "c", Tool: h.Tools()[0]})
	if err == nil {
		t.Fatal("want the host's error")
	}
	d := rec.all()[1].Data.(ToolResultData)
	if d.ErrorCode != CodeRunCancelled || d.Error != "cancelled" {
		t.Errorf("result event %+v, want cancelled", d)
	}
}

// redactingHost is a fake host that injected the secret "hunter2" into
// server s.
type redactingHost struct{ *fakeHost }

func (redactingHost) Redact(server, s string) string {
	if server != "s" {
		return s
	}
	return strings.ReplaceAll(s, "hunter2", "{{secrets.pw}}")
}

func TestTraceRedactsSecretsFromEventsNotFromTheResult(t *testing.T) {
	h := redactingHost{newFakeHost()}
	h.add("s", "t", func(_ context.Context, _ json.RawMessage, opts CallOptions) (*ToolResult, error) {
		opts.OnProgress(Progress{Progress: 1, Message: "using hunter2"})
		return &ToolResult{Content: []Content{{Type: "text", Text: "pw=hunter2"}}, Structured: json.RawMessage(`{"pw":"hunter2"}`)}, nil
	})
	rec := &recorder{}
	res, _, err := Trace(context.Background(), h, rec, TracedCall{CallID: "c", Tool: h.Tools()[0], Args: json.RawMessage(`{"echo":"hunter2"}`)})
	if err != nil || res.Text() != "pw=hunter2" {
		t.Fatalf("the caller gets the host's own result: %v %v", res, err)
	}
	for _, e := range rec.all() {
		b, _ := json.Marshal(e)
		if strings.Contains(string(b), "hunter2") {
			t.Errorf("%s carries the secret: %s", e.Type, b)
		}
	}
	if d := rec.all()[2].Data.(ToolResultData); d.Result.Text() != "pw={{secrets.pw}}" {
		t.Errorf("result event text %q", d.Result.Text())
	}
}
