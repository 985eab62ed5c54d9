package tui

import (
	"fmt"
	"time"

	"github.com/relavium/relavium/themes"
	"github.com/relavium/relavium/tui/keymap"
	"github.com/relavium/relavium/tui/render"
)

// ui is what every component reads and none owns (crush's common.Common):
// the theme's styles, the keys, the clock and the spinner's frame. The
// root model holds the one ui and hands each component a pointer to it, so
// a theme change (applyStyles) or a tick reaches every pane at once; only
// the root writes it.
type ui struct {
	st    *themes.Styles
	keys  keymap.Map
	now   func() time.Time
	frame int // the spinner's frame, moved by the tick
}

// spinFrames turn a quadrant block (block elements are in every terminal
// font; braille spinners and quarter circles are not).
var spinFrames = [...]string{"▖", "▘", "▝", "▗"}

func (u *ui) spinFrame() string { return spinFrames[u.frame%len(spinFrames)] }

// markRow puts the cursor marker before a row of content and highlights a
// selected row: the selection colours when the pane has the focus, bold
// otherwise. The marker keeps the cursor visible without colour.
func (u *ui) markRow(content string, w int, selected, focused bool) string {
	if !selected {
		return "  " + render.Fit(content, w-2)
	}
	plain := "▸ " + render.Fit(render.StripANSI(content), w-2)
	if focused {
		return u.st.Selected.Render(plain)
	}
	return u.st.SelectedBlurred.Render(plain)
}

// waited is how long a wait begun at since has lasted, in whole seconds,
// for a state that can wait ("needs consent 12s"); "" in its first second
// (a wait just begun says nothing of its length) or with no start. The
// tick (animating) keeps it moving; it reads the clock, never the wall.
func (u *ui) waited(since time.Time) string {
	d := u.now().Sub(since)
	if since.IsZero() || d < time.Second {
		return ""
	}
	d = d.Truncate(time.Second)
	if d < time.Minute {
		return fmt.Sprintf("%ds", int(d.Seconds()))
	}
	return fmt.Sprintf("%dm%02ds", int(d.Minutes()), int(d.Seconds())%60)
}

// after joins a text and a wait's length with sep ("" when no wait shows).
func after(text, sep, waited string) string {
	if waited == "" {
		return text
	}
	return text + sep + waited
}
