package dialog

import (
	"strings"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"

	"github.com/relavium/relavium/themes"
	"github.com/relavium/relavium/tui/render"
)

// Dialog is one modal on the overlay stack. It only changes its own state:
// what it decided comes back as an Action that the root model carries out
// (with a Cmd where IO is needed). Sizing rules (crush's): content is sized
// to the inner width; padding, never margin; every segment is styled on its
// own; everything is clamped to the drawable area, and a body that does not
// fit scrolls while the title and the action line stay in view.
type Dialog interface {
	// Handle takes a key; a non-nil Action closes the dialog.
	Handle(msg tea.KeyMsg) (Action, tea.Cmd)
	// View renders the dialog within w×h cells (the whole screen).
	View(st *themes.Styles, w, h int) string
}

// Action is what a closed dialog decided: one of this package's, or
// whatever value its owner gave it to return (Confirm's Yes and No).
type Action interface{}

// Close just closes the dialog.
type Close struct{}

// box lays out a dialog: title, scrolled body, actions.
type box struct {
	title   string
	body    []string // already styled; a line wider than the box wraps
	actions string
	scroll  int
}

// Width is the outer width for a dialog that wants up to maxW cells.
func Width(screenW, maxW int) int {
	return max(20, min(maxW, screenW-2))
}

// InnerWidth is the content width of a dialog of outer width w (rounded
// border and one cell of padding on each side).
func InnerWidth(w int) int { return max(1, w-4) }

// render draws the box at outer width w and at most h lines, clamping the
// scroll offset (the caller keeps it) to what can scroll.
func (b *box) render(st *themes.Styles, w, h int) string {
	iw := InnerWidth(w)
	head := []string{st.DialogTitle.Render(render.Cut(b.title, iw)), ""}
	foot := []string{""}
	for _, l := range render.Wrap(b.actions, iw) {
		foot = append(foot, l)
	}
	room := max(1, h-2-len(head)-len(foot)) // 2: the border
	var body []string
	for _, l := range b.body { // a line too wide wraps: a dialog cuts nothing
		if render.Width(l) > iw {
			body = append(body, render.Wrap(l, iw)...)
		} else {
			body = append(body, l)
		}
	}
	maxScroll := max(0, len(body)-room)
	b.scroll = max(0, min(b.scroll, maxScroll))
	if len(body) > room {
		body = body[b.scroll : b.scroll+room]
		more := ""
		if b.scroll > 0 {
			more += "↑ "
		}
		if b.scroll < maxScroll {
			more += "↓ more"
		}
		foot[0] = st.Muted.Render(strings.TrimSpace(more) + " (↑/↓ scroll)")
	}
	lines := make([]string, 0, len(head)+len(body)+len(foot))
	for _, l := range append(append(head, body...), foot...) {
		lines = append(lines, render.Fit(l, iw))
	}
	return st.Dialog.Render(strings.Join(lines, "\n"))
}

// scrollKey moves a dialog body; it reports whether msg was a scroll key.
func scrollKey(msg tea.KeyMsg, scroll *int) bool {
	switch msg.String() {
	case "up", "k":
		*scroll--
	case "down", "j":
		*scroll++
	case "pgup":
		*scroll -= 10
	case "pgdown":
		*scroll += 10
	case "home", "g":
		*scroll = 0
	case "end", "G":
		*scroll = 1 << 30
	default:
		return false
	}
	return true
}

// Labelled renders "label  value" with value wrapped under a hanging indent.
func Labelled(st *themes.Styles, label, value string, iw int) []string {
	const lw = 9
	pad := strings.Repeat(" ", lw)
	lab := st.Muted.Render(render.Fit(label, lw))
	var out []string
	for i, l := range render.Wrap(value, max(1, iw-lw)) {
		if i == 0 {
			out = append(out, lab+l)
		} else {
			out = append(out, pad+l)
		}
	}
	return out
}

// LabelledPath is Labelled for a path or command line: the value breaks
// only after a '/' or a space (never at a hyphen or a dot), so the exact
// path reads whole.
func LabelledPath(st *themes.Styles, label, value string, iw int) []string {
	const lw = 9
	pad := strings.Repeat(" ", lw)
	lab := st.Muted.Render(render.Fit(label, lw))
	var out []string
	for i, l := range render.WrapPath(value, max(1, iw-lw)) {
		if i == 0 {
			out = append(out, lab+l)
		} else {
			out = append(out, pad+l)
		}
	}
	return out
}

// buttons renders a row of buttons, the focused one highlighted.
func buttons(st *themes.Styles, labels []string, focus int) string {
	parts := make([]string, len(labels))
	for i, l := range labels {
		if i == focus {
			parts[i] = st.ButtonFocused.Render(l)
		} else {
			parts[i] = st.Button.Render(l)
		}
	}
	return strings.Join(parts, " ")
}

// Overlay draws the dialog fg centred over the frame lines bg (each exactly
// w cells wide) and returns the composed frame.
func Overlay(bg []string, fg string, w, h int) []string {
	fl := strings.Split(fg, "\n")
	fw := 0
	for _, l := range fl {
		fw = max(fw, render.Width(l))
	}
	fw = min(fw, w)
	if len(fl) > h {
		fl = fl[:h]
	}
	x := max(0, (w-fw)/2)
	y := max(0, (h-len(fl))/2)
	out := append([]string(nil), bg...)
	for i, l := range fl {
		row := y + i
		if row >= len(out) {
			break
		}
		left := render.Fit(ansi.Truncate(out[row], x, ""), x)
		right := ansi.TruncateLeft(out[row], x+fw, "")
		if strings.Contains(left, "\x1b") {
			left += "\x1b[0m"
		}
		out[row] = left + render.Fit(l, fw) + right
	}
	return out
}

// scroller is a dialog whose body the mouse wheel scrolls.
type scroller interface{ ScrollBy(n int) }

// ScrollBy scrolls the body n lines (negative: up); the next View clamps it.
func (d *Text) ScrollBy(n int) { d.box.scroll += n }

// ScrollBy scrolls the body n lines (negative: up); the next View clamps it.
func (d *Consent) ScrollBy(n int) { d.box.scroll += n }

// ScrollBy scrolls the body n lines (negative: up); the next View clamps it.
func (d *Confirm) ScrollBy(n int) { d.box.scroll += n }

// yesNoKey is the one key rule of a two-button yes/no dialog: y and n (or
// esc) answer at once, the arrows and tab move the focus between the two
// buttons, enter answers the focused one, and any other key scrolls the
// body. It returns the answer, or nil while the dialog stays open.
func yesNoKey(msg tea.KeyMsg, focus, scroll *int, yes, no Action) Action {
	switch msg.String() {
	case "y":
		return yes
	case "n", "esc":
		return no
	case "left", "right", "tab", "shift+tab":
		*focus = 1 - *focus
	case "enter":
		if *focus == 0 {
			return yes
		}
		return no
	default:
		scrollKey(msg, scroll)
	}
	return nil
}
