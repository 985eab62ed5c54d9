package tui

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/relavium/relavium/engine"
	"github.com/relavium/relavium/tui/render"
)

// b on a tool opens its form as a load; ctrl+s (the call cleared: echo is
// auto-approved in ready()) asks the rate and the duration; the job draws
// the figures and the chart, and ends with the run's count.
func TestBenchKeyLoadsATool(t *testing.T) {
	h := ready(t, 120, 40)
	h.key("tab", "b")
	h.until("the load form", func() bool { return strings.Contains(h.view(), "LOAD · mcp_demo_echo") })
	h.typeText("hi")
	h.key("ctrl+s")
	h.until("the rate and duration dialog", func() bool { return strings.Contains(h.view(), "RATE DURATION") })
	for range len(benchDefaults) {
		h.key("backspace")
	}
	h.typeText("40/s 1s")
	h.key("enter")
	h.until("the load's end", func() bool {
		j := h.m.call.shownJob()
		return j != nil && j.kind == jobBench && j.finished()
	})
	j := h.m.call.shownJob()
	if j.state != jobDone || j.bench == nil || j.bench.Count != 40 || j.bench.Rate != 40 {
		t.Fatalf("job %v, report %+v", j.state, j.bench)
	}
	if !h.f.answered(`bench mcp_demo_echo {"message":"hi"}`) {
		t.Errorf("the load did not send the form's arguments: %v", h.f.answers)
	}
	if v := h.view(); !strings.Contains(v, "mcp bench mcp_demo_echo on demo") {
		t.Errorf("the call pane does not show the load:\n%s", v)
	}
	body := strings.Join(j.body(h.m.st, 44), "\n")
	for _, want := range []string{"latency histogram", "latency over time", "40 ended", "p99"} {
		if !strings.Contains(body, want) {
			t.Errorf("the job's body at 44 columns lacks %q:\n%s", want, body)
		}
	}
	for _, l := range j.body(h.m.st, 44) {
		if w := render.Width(l); w > 44 {
			t.Errorf("a line of %d columns in a 44-column pane: %q", w, l)
		}
	}
}

// c cancels a load: the job ends with what was measured, marked
// interrupted; a plan out of bounds is refused on the status line.
func TestBenchCancelAndRefusal(t *testing.T) {
	h := ready(t, 120, 40)
	h.f.call = func(ctx context.Context, _ string, _ engine.ToolDef, _ json.RawMessage, _ func(engine.Progress)) (*engine.ToolResult, error) {
		return &engine.ToolResult{}, nil
	}
	h.key("tab", "b")
	h.typeText("hi")
	h.key("ctrl+s")
	h.until("the dialog", func() bool { return strings.Contains(h.view(), "RATE DURATION") })
	for range len(benchDefaults) {
		h.key("backspace")
	}
	h.typeText("20/s 1h")
	h.key("enter")
	h.until("refused", func() bool { return strings.Contains(h.m.status.text, "at most 10m0s") })

	h.key("ctrl+s") // the form stays: send it again
	h.until("the dialog", func() bool { return strings.Contains(h.view(), "RATE DURATION") })
	for range len(benchDefaults) {
		h.key("backspace")
	}
	h.typeText("50/s 5m")
	h.key("enter")
	h.until("running", func() bool { j := h.m.call.shownJob(); return j != nil && j.kind == jobBench && j.bench != nil })
	h.key("c")
	h.until("ended", func() bool { return h.m.call.shownJob().finished() })
	if j := h.m.call.shownJob(); j.bench == nil || !j.bench.Interrupted {
		t.Fatalf("the cancelled load: %+v", j.bench)
	}
}
