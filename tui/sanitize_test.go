package tui

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/relavium/relavium/engine"
	"github.com/relavium/relavium/engine/sanitize"
)

// TestServerTextInTheFrame: a result whose text holds TABs (a TSV table),
// an OSC 52 clipboard write, an 8-bit CSI, bidi overrides and Unicode tags
// renders with every frame line exactly the pane's width and none of those
// characters in the frame. A TAB is one space (its width would be the
// terminal's tab stops, which the frame arithmetic cannot know).
func TestServerTextInTheFrame(t *testing.T) {
	h := ready(t, 100, 40)
	h.f.call = func(context.Context, string, engine.ToolDef, json.RawMessage, func(engine.Progress)) (*engine.ToolResult, error) {
		return &engine.ToolResult{Content: []engine.Content{{Type: "text", Text: "name\tsize\tmode\nalpha\t12\t0644\n" +
			"x\x1b]52;c;Y3VybA==\x07 \u009b2J \u202eevil\u202c hi\U000e0069\U000e0067 \t\ttabs end"}}}, nil
	}
	h.key("tab", "enter")
	h.typeText("x")
	h.key("ctrl+s")
	h.until("the result", func() bool { j := h.m.call.shownJob(); return j != nil && j.finished() })
	frame := h.view()
	checkFrame(t, frame, 100, 40)
	for _, want := range []string{"name    size    mode", "alpha   12      0644", "tabs end"} {
		if !strings.Contains(frame, want) {
			t.Fatalf("the frame lacks %q:\n%s", want, frame)
		}
	}
	for i, r := range frame {
		if r != '\n' && sanitize.Check(string(r)) != nil {
			t.Fatalf("the frame holds U+%04X at byte %d:\n%q", r, i, frame)
		}
	}
}
