package tui

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/relavium/relavium/tui/asker"

	"github.com/relavium/relavium/engine"
)

// How a sampling request was answered goes to the log of the call that
// was running when the server asked, even when that call's result came
// back before the answer's event (the two race on a real session).
func TestSamplingAnswerLandsWithTheCallThatAsked(t *testing.T) {
	h := readyAsking(t)
	release := make(chan struct{})
	h.f.call = func(ctx context.Context, _ string, _ engine.ToolDef, args json.RawMessage, _ func(engine.Progress)) (*engine.ToolResult, error) {
		<-release
		return &engine.ToolResult{Content: []engine.Content{{Type: "text", Text: "LLM response: Paris"}}}, nil
	}
	h.key("tab", "enter")
	h.typeText("hi")
	h.key("ctrl+s")
	h.confirmOpen()
	h.key("y")
	h.until("the call running", func() bool { j := h.m.call.shownJob(); return j != nil && !j.finished() })
	asked := h.m.call.shownJob()
	req := &asker.Request{Ctx: h.ctx, Sample: &engine.SampleRequest{ID: "sampling-1", Server: "demo", MaxTokens: 10,
		Messages: []engine.SampleMessage{{Role: "user", Content: []engine.Content{{Type: "text", Text: "Capital of France?"}}}}}}
	h.send(asker.Msg{Req: req})
	close(release)
	h.until("the call done", func() bool { return asked.finished() })
	h.send(eventsMsg{events: []engine.Event{{Type: engine.EventSamplingResolved, Data: engine.SamplingResolvedData{ID: "sampling-1", Server: "demo",
		SampleResponse: engine.SampleResponse{Action: engine.SampleAccept, Role: "assistant", Text: "Paris", StopReason: "endTurn"}}}}})
	var logs []string
	for _, l := range asked.logs {
		logs = append(logs, l.Text)
	}
	if !strings.Contains(strings.Join(logs, "\n"), "sampling sampling-1 answered: accept (assistant, endTurn, 5 bytes)") {
		t.Fatalf("the answer is not in the log of the call that asked: %q", logs)
	}
	for _, l := range h.m.server("demo").logs {
		if strings.Contains(l.Text, "answered") {
			t.Fatalf("the answer went to the server's log: %q", l.Text)
		}
	}
}
