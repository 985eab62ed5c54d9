package eventstrip

import (
	"io"
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/lipgloss"
	"github.com/muesli/termenv"

	"github.com/relavium/relavium/engine"
	"github.com/relavium/relavium/themes"
	"github.com/relavium/relavium/tui/render"
)

func monoStyles() *themes.Styles {
	r := lipgloss.NewRenderer(io.Discard)
	r.SetColorProfile(termenv.Ascii)
	p, _ := themes.ByName(themes.Mono)
	return themes.NewStyles(r, p)
}

// The same news twice in a row is one line (logs excepted), the text is
// sanitized, and the strip stays bounded.
func TestAddDedupsSanitizesAndBounds(t *testing.T) {
	var s Strip
	at := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	s.Add(at, "●", "ok", "a ready")
	s.Add(at, "●", "ok", "a ready")
	if s.Len() != 1 {
		t.Fatalf("a state announced twice made %d lines, want 1", s.Len())
	}
	s.Add(at, "·", "log:info", "same")
	s.Add(at, "·", "log:info", "same")
	if s.Len() != 3 {
		t.Fatalf("two equal logs made %d lines in all, want 3", s.Len())
	}
	s.Add(at, "✗", "error", "bad\x1b[2Jthing")
	if got := strings.Join(s.Lines(monoStyles(), 60, 10, func(string) bool { return true }), "\n"); strings.Contains(got, "\x1b[2J") || !strings.Contains(got, "03:04:05") {
		t.Fatalf("strip drew %q: want sanitized text with the time", got)
	}
	for i := range 3 * MaxLines {
		s.Add(at, "→", "accent", "call "+string(rune('a'+i%26))+strings.Repeat("x", i))
	}
	if s.Len() > MaxLines {
		t.Fatalf("strip kept %d lines, bound %d", s.Len(), MaxLines)
	}
}

// Lines draws the newest that fit under a rule, leaves out logs the floor
// hides, and draws nothing when fewer than 3 lines are free.
func TestLinesNewestFirstFitAndFloor(t *testing.T) {
	var s Strip
	at := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	for _, txt := range []string{"one", "two", "three"} {
		s.Add(at, "→", "accent", txt)
	}
	s.Add(at, "·", "log:debug", "noise")
	st := monoStyles()
	if got := s.Lines(st, 40, 2, func(string) bool { return true }); got != nil {
		t.Fatalf("2 free lines drew %q, want nothing", got)
	}
	got := s.Lines(st, 40, 3, func(level string) bool { return level != "debug" })
	if len(got) != 3 || !strings.Contains(got[0], "EVENTS") || !strings.HasSuffix(got[1], "two") || !strings.HasSuffix(got[2], "three") {
		t.Fatalf("Lines = %q, want the rule then two, three (debug hidden)", got)
	}
	for _, l := range got {
		if render.Width(l) > 40 {
			t.Fatalf("line wider than 40: %q", l)
		}
	}
}

// Event says what an event adds: a server's state, a call's result with
// its duration, a log at its level; progress adds nothing.
func TestEventAddsItsLine(t *testing.T) {
	var s Strip
	at := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	s.Event(engine.Event{Time: at, Data: engine.ServerData{Server: "fs", State: engine.StateFailed, ErrorCode: "E1", Error: "boom\nsecond line"}})
	s.Event(engine.Event{Time: at, Data: engine.ToolResultData{Tool: "fs.read", DurationMS: 1500}})
	s.Event(engine.Event{Time: at, Data: engine.ToolLogData{LogEntry: engine.LogEntry{Server: "fs", Level: "info", Data: []byte(`"hello"`)}}})
	s.Event(engine.Event{Time: at, Type: engine.EventToolProgress, Data: engine.ToolProgressData{}})
	got := s.Lines(monoStyles(), 80, 10, func(string) bool { return true })
	want := []string{"✗ fs failed E1 boom", "✓ fs.read · ", "· fs info: hello"}
	if len(got) != 1+len(want) {
		t.Fatalf("Lines = %q, want a rule and %d lines", got, len(want))
	}
	for i, w := range want {
		if !strings.Contains(got[i+1], w) {
			t.Fatalf("line %d = %q, want it to hold %q", i+1, got[i+1], w)
		}
	}
	if strings.Contains(got[1], "\n") {
		t.Fatalf("a failure's message broke the strip's line: %q", got[1])
	}
}
