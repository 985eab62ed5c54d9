package eventstrip

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/relavium/relavium/engine"
	"github.com/relavium/relavium/host"
	"github.com/relavium/relavium/themes"
	"github.com/relavium/relavium/tui/render"
)

// MaxLines bounds the lines the strip keeps.
const MaxLines = 200

// line is one event as the strip draws it.
type line struct {
	at    time.Time
	glyph string // the role decides its colour
	role  string // ok, warn, error, accent, muted, log:LEVEL
	text  string // sanitized
}

// Strip is the strip's lines, oldest first.
type Strip struct {
	lines []line
}

// Add puts a line on the strip (text sanitized here).
func (s *Strip) Add(at time.Time, glyph, role, text string) {
	text = render.ServerLine(text)
	if n := len(s.lines); n > 0 && s.lines[n-1].text == text && s.lines[n-1].role == role && !strings.HasPrefix(role, "log:") {
		return // the same news twice in a row (a state announced again)
	}
	if len(s.lines) >= MaxLines {
		s.lines = append(s.lines[:0], s.lines[len(s.lines)-MaxLines/2:]...)
	}
	s.lines = append(s.lines, line{at: at, glyph: glyph, role: role, text: text})
}

// Len is the number of lines kept.
func (s *Strip) Len() int { return len(s.lines) }

func style(st *themes.Styles, role string) func(...string) string {
	switch {
	case role == "ok":
		return st.OK.Render
	case role == "warn":
		return st.Warn.Render
	case role == "error":
		return st.Error.Render
	case role == "accent":
		return st.Accent.Render
	case strings.HasPrefix(role, "log:"):
		return st.LogLevel(strings.TrimPrefix(role, "log:")).Render
	}
	return st.Muted.Render
}

// Lines draws the newest events that fit in h lines of w cells, under a
// titled rule (nothing when fewer than 3 lines are free); a log line only
// when shows says its level is shown.
func (s *Strip) Lines(st *themes.Styles, w, h int, shows func(level string) bool) []string {
	if h < 3 || len(s.lines) == 0 {
		return nil
	}
	title := " EVENTS "
	out := []string{st.PaneTitle.Render(title) + st.Separator.Render(strings.Repeat("─", max(0, w-render.Width(title))))}
	var shown []line // logs below the floor stay out, as everywhere
	for i := len(s.lines) - 1; i >= 0 && len(shown) < h-1; i-- {
		if sl := s.lines[i]; !strings.HasPrefix(sl.role, "log:") || shows(strings.TrimPrefix(sl.role, "log:")) {
			shown = append(shown, sl)
		}
	}
	slices.Reverse(shown)
	for _, sl := range shown {
		l := st.Faint.Render(sl.at.Format("15:04:05")) + " " + style(st, sl.role)(sl.glyph) + " " + sl.text
		out = append(out, render.Cut(l, w))
	}
	return out
}

// Event notes an event on the strip: a server's state, a sandbox note, a
// skipped tool, a call and its result, a log, a gate (progress is left to
// the call pane's bar).
func (s *Strip) Event(e engine.Event) {
	switch d := e.Data.(type) {
	case engine.ServerData:
		switch d.State {
		case engine.StateReady:
			s.Add(e.Time, "●", "ok", fmt.Sprintf("%s ready · %d tools · %s", d.Server, d.Tools, render.HumanDuration(ms(d.ConnectMS))))
		case engine.StateFailed:
			s.Add(e.Time, "✗", "error", strings.TrimSpace(d.Server+" failed "+string(d.ErrorCode)+" "+render.FirstLine(d.Error)))
		case engine.StateConnecting:
			s.Add(e.Time, "◌", "accent", d.Server+" connecting")
		case engine.StateClosed:
			s.Add(e.Time, "○", "muted", d.Server+" closed")
		case engine.StateNeedsConsent:
			s.Add(e.Time, "⚠", "warn", d.Server+" needs consent")
		}
	case host.SandboxNoteData:
		s.Add(e.Time, "🔒", "warn", d.Server+" "+render.ServerLine(d.Note))
	case engine.SkippedTool:
		s.Add(e.Time, "✗", "warn", "skipped "+d.Server+"/"+d.Tool+": "+d.Code)
	case engine.ToolCallData:
		s.Add(e.Time, "→", "accent", "call "+d.Tool)
	case engine.ToolResultData:
		switch {
		case d.ErrorCode != "":
			s.Add(e.Time, "✗", "error", d.Tool+" "+string(d.ErrorCode)+" · "+render.HumanDuration(ms(d.DurationMS)))
		case d.Result != nil && d.Result.IsError:
			s.Add(e.Time, "✗", "error", d.Tool+" tool error · "+render.HumanDuration(ms(d.DurationMS)))
		default:
			s.Add(e.Time, "✓", "ok", d.Tool+" · "+render.HumanDuration(ms(d.DurationMS)))
		}
	case engine.ToolLogData:
		s.Add(e.Time, "·", "log:"+d.Level, d.Server+" "+d.Level+": "+render.LogData(d.Data))
	case engine.GateRequestedData:
		s.Add(e.Time, "⏸", "warn", "gate "+d.Step+": "+d.Message)
	case engine.GateResolvedData:
		s.Add(e.Time, "⏵", "muted", fmt.Sprintf("gate %s answered (approved: %t)", d.Step, d.Approved))
	}
}

func ms(v int64) time.Duration { return time.Duration(v) * time.Millisecond }
