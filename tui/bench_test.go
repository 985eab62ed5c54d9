package tui

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/relavium/relavium/engine"
)

// largeSession is a session with 256 tools on one server and a finished
// call whose result is 10 000 lines of text, shown in the call pane.
func largeSession(tb testing.TB) *harness {
	f := newFake(tb)
	f.addHTTP("big")
	var tools []engine.ToolDef
	for i := 0; i < 256; i++ {
		tools = append(tools, engine.ToolDef{Tool: fmt.Sprintf("tool_%03d", i), Description: "a tool",
			Annotations: engine.Annotations{ReadOnly: boolp(i%3 == 0)}, InputSchema: json.RawMessage(`{"type":"object"}`)})
	}
	f.autoApprove["big"] = []string{"tool_000"} // the person's own word: the call below is not asked about
	f.setTools("big", tools, nil)
	var text strings.Builder
	for i := 0; i < 10_000; i++ {
		fmt.Fprintf(&text, "line %05d: the quick brown fox jumps over the lazy dog, again and again\n", i)
	}
	f.call = func(context.Context, string, engine.ToolDef, json.RawMessage, func(engine.Progress)) (*engine.ToolResult, error) {
		return &engine.ToolResult{Content: []engine.Content{{Type: "text", Text: text.String()}}}, nil
	}
	return f.session(tb)
}

func (f *fakeBackend) session(tb testing.TB) *harness {
	h := newHarness(tb, f, 160, 50)
	h.until("ready", func() bool { return len(h.m.browse.tools) == 256 })
	h.key("tab", "enter", "ctrl+s")
	h.until("the result", func() bool { j := h.m.call.shownJob(); return j != nil && j.finished() })
	h.m.focus = paneTools
	return h
}

// BenchmarkRatioViewLarge measures one frame (View) with 256 tools listed
// and a 10 000-line result on show, the cursor moving each frame. Target:
// < 5 ms. cold-ms is the first frame after a resize that changes the call
// pane's width (the 10 000 lines are wrapped again, once per width).
func BenchmarkRatioViewLarge(b *testing.B) {
	h := largeSession(b)
	defer h.close()
	if n := h.m.call.vp.TotalLineCount(); n < 10_000 {
		b.Fatalf("the viewport holds %d lines", n)
	}
	_ = h.m.View()
	before := h.m.call.vpKey
	coldStart := time.Now()
	h.send(teaSize(140, 50)) // another call-pane width: the result is wrapped again
	_ = h.m.View()
	cold := time.Since(coldStart)
	if h.m.call.vpKey == before {
		b.Fatal("the resize did not re-wrap the result")
	}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		h.m.browse.cursor = i % 256
		_ = h.m.View()
	}
	b.StopTimer()
	per := b.Elapsed() / time.Duration(max(1, b.N))
	b.ReportMetric(float64(per.Microseconds())/1000, "ms")
	b.ReportMetric(5, "target-ms")
	b.ReportMetric(float64(cold.Microseconds())/1000, "cold-ms")
}

// BenchmarkRatioProgressBurst sends a burst of 10 000 progress
// notifications for one running call and measures how long the program
// takes to show the last one (ms) and in how many Updates (batches): the
// bus coalesces progress per call while the model is busy, so a burst
// never queues behind itself. Target: within one 60 fps frame (16.7 ms).
func BenchmarkRatioProgressBurst(b *testing.B) {
	f := newFake(b)
	f.addHTTP("big")
	f.autoApprove["big"] = []string{"slow"} // the person's own word: calls of slow are not asked about
	f.setTools("big", []engine.ToolDef{{Tool: "slow", Annotations: engine.Annotations{ReadOnly: boolp(true)}, InputSchema: json.RawMessage(`{"type":"object"}`)}}, nil)
	started, release := make(chan string, 1), make(chan struct{})
	f.call = func(ctx context.Context, id string, _ engine.ToolDef, _ json.RawMessage, _ func(engine.Progress)) (*engine.ToolResult, error) {
		started <- id
		select {
		case <-release:
		case <-ctx.Done():
		}
		return &engine.ToolResult{}, nil
	}
	h := newHarness(b, f, 120, 30)
	defer h.close()
	defer close(release)
	h.until("ready", func() bool { return len(h.m.browse.tools) == 1 })
	h.key("tab", "enter", "ctrl+s")
	id := <-started
	j := h.m.job(id)
	var total time.Duration
	batches := 0
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		base := float64(i * 10_000)
		before := h.batches
		t0 := time.Now()
		for k := 1; k <= 10_000; k++ {
			f.emit(engine.EventToolProgress, engine.ToolProgressData{CallID: id, Progress: engine.Progress{Progress: base + float64(k), Total: 1e12}})
		}
		h.until("the last progress", func() bool { return j.progress.Progress == base+10_000 })
		total += time.Since(t0)
		batches += h.batches - before
	}
	b.ReportMetric(float64(total.Microseconds())/1000/float64(b.N), "ms")
	b.ReportMetric(1000.0/60, "target-ms")
	b.ReportMetric(float64(batches)/float64(b.N), "batches")
}

// TestProgressBurstIsCoalesced: 10 000 progress notifications reach the
// model in a handful of batches and the last one wins.
func TestProgressBurstIsCoalesced(t *testing.T) {
	f := newFake(t)
	f.addHTTP("big")
	f.autoApprove["big"] = []string{"slow"} // the person's own word: calls of slow are not asked about
	f.setTools("big", []engine.ToolDef{{Tool: "slow", Annotations: engine.Annotations{ReadOnly: boolp(true)}, InputSchema: json.RawMessage(`{"type":"object"}`)}}, nil)
	started, release := make(chan string, 1), make(chan struct{})
	f.call = func(ctx context.Context, id string, _ engine.ToolDef, _ json.RawMessage, _ func(engine.Progress)) (*engine.ToolResult, error) {
		started <- id
		<-release
		return &engine.ToolResult{}, nil
	}
	h := newHarness(t, f, 120, 30)
	defer close(release)
	h.until("ready", func() bool { return len(h.m.browse.tools) == 1 })
	h.key("tab", "enter", "ctrl+s")
	id := <-started
	before := h.batches
	for k := 1; k <= 10_000; k++ {
		f.emit(engine.EventToolProgress, engine.ToolProgressData{CallID: id, Progress: engine.Progress{Progress: float64(k), Total: 10_000}})
	}
	h.until("the last progress", func() bool { return h.m.job(id).progress.Progress == 10_000 })
	n := h.batches - before
	if n > 100 {
		t.Fatalf("10 000 progress notifications took %d batches: not coalesced", n)
	}
	t.Logf("10 000 progress notifications arrived in %d batch(es); %d progress updates applied", n, h.m.job(id).progressN)
}
