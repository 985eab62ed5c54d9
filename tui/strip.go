package tui

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

// The events strip: the session's latest events, one line each, in the
// room the call pane has under what it shows (servers changing state,
// calls going out and coming back, logs, skipped tools, gates). Lines are
// built as events arrive (Update); View only draws the newest that fit.

// eventLog is the session's events: those kept for export (bounded, the
// oldest going first; dropped counts what went), and the strip's lines.
type eventLog struct {
	*ui
	cr           *clientState // reads: the log floor (v)
	events       []engine.Event
	strip        []stripLine
	dropped      int
	progressKept int
	closed       bool // the event stream ended
}

// maxStrip bounds the lines the strip keeps.
const maxStrip = 200

// stripLine is one event as the strip draws it.
type stripLine struct {
	at    time.Time
	glyph string // the role decides its colour
	role  string // ok, warn, error, accent, muted
	text  string // sanitized
}

// add puts a line on the strip (text sanitized here).
func (l *eventLog) add(at time.Time, glyph, role, text string) {
	text = render.ServerLine(text)
	if n := len(l.strip); n > 0 && l.strip[n-1].text == text && l.strip[n-1].role == role && !strings.HasPrefix(role, "log:") {
		return // the same news twice in a row (a state announced again)
	}
	if len(l.strip) >= maxStrip {
		l.strip = append(l.strip[:0], l.strip[len(l.strip)-maxStrip/2:]...)
	}
	l.strip = append(l.strip, stripLine{at: at, glyph: glyph, role: role, text: text})
}

// stripEvent notes an event in the strip (progress is left to the call
// pane's bar).
func (m *Model) stripEvent(e engine.Event) {
	switch d := e.Data.(type) {
	case engine.ServerData:
		switch d.State {
		case engine.StateReady:
			m.log.add(e.Time, "●", "ok", fmt.Sprintf("%s ready · %d tools · %s", d.Server, d.Tools, render.HumanDuration(msDur(d.ConnectMS))))
		case engine.StateFailed:
			m.log.add(e.Time, "✗", "error", strings.TrimSpace(d.Server+" failed "+string(d.ErrorCode)+" "+firstLine(d.Error)))
		case engine.StateConnecting:
			m.log.add(e.Time, "◌", "accent", d.Server+" connecting")
		case engine.StateClosed:
			m.log.add(e.Time, "○", "muted", d.Server+" closed")
		case engine.StateNeedsConsent:
			m.log.add(e.Time, "⚠", "warn", d.Server+" needs consent")
		}
	case host.SandboxNoteData:
		m.log.add(e.Time, "🔒", "warn", d.Server+" "+render.ServerLine(d.Note))
	case engine.SkippedTool:
		m.log.add(e.Time, "✗", "warn", "skipped "+d.Server+"/"+d.Tool+": "+d.Code)
	case engine.ToolCallData:
		m.log.add(e.Time, "→", "accent", "call "+d.Tool)
	case engine.ToolResultData:
		switch {
		case d.ErrorCode != "":
			m.log.add(e.Time, "✗", "error", d.Tool+" "+string(d.ErrorCode)+" · "+render.HumanDuration(msDur(d.DurationMS)))
		case d.Result != nil && d.Result.IsError:
			m.log.add(e.Time, "✗", "error", d.Tool+" tool error · "+render.HumanDuration(msDur(d.DurationMS)))
		default:
			m.log.add(e.Time, "✓", "ok", d.Tool+" · "+render.HumanDuration(msDur(d.DurationMS)))
		}
	case engine.ToolLogData:
		m.log.add(e.Time, "·", "log:"+d.Level, d.Server+" "+d.Level+": "+logText(d.Data))
	case engine.GateRequestedData:
		m.log.add(e.Time, "⏸", "warn", "gate "+d.Step+": "+d.Message)
	case engine.GateResolvedData:
		m.log.add(e.Time, "⏵", "muted", fmt.Sprintf("gate %s answered (approved: %t)", d.Step, d.Approved))
	}
}

func stripStyle(st *themes.Styles, role string) func(...string) string {
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

// stripLines draws the newest events that fit in h lines of w cells, under
// a titled rule (nothing when fewer than 3 lines are free).
func (l *eventLog) stripLines(w, h int) []string {
	if h < 3 || len(l.strip) == 0 {
		return nil
	}
	st := l.st
	title := " EVENTS "
	out := []string{st.PaneTitle.Render(title) + st.Separator.Render(strings.Repeat("─", max(0, w-render.Width(title))))}
	var shown []stripLine // logs below the v floor stay out, as everywhere
	for i := len(l.strip) - 1; i >= 0 && len(shown) < h-1; i-- {
		if sl := l.strip[i]; !strings.HasPrefix(sl.role, "log:") || l.cr.shows(strings.TrimPrefix(sl.role, "log:")) {
			shown = append(shown, sl)
		}
	}
	slices.Reverse(shown)
	for _, sl := range shown {
		line := st.Faint.Render(sl.at.Format("15:04:05")) + " " + stripStyle(st, sl.role)(sl.glyph) + " " + sl.text
		out = append(out, render.Cut(line, w))
	}
	return out
}

// record keeps an event for the session export (progress too, up to
// maxExportProgress; everything bounded, the oldest going first).
func (l *eventLog) record(e engine.Event) {
	if e.Type == engine.EventToolProgress {
		if l.progressKept >= maxExportProgress {
			l.dropped++
			return
		}
		l.progressKept++
	}
	if len(l.events) >= maxExportEvents {
		n := len(l.events) / 10
		l.events = append(l.events[:0], l.events[n:]...)
		l.dropped += n
	}
	l.events = append(l.events, e)
}
