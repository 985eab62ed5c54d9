package eventstrip

import (
	"slices"
	"strings"
	"time"

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
