package dialog

import (
	tea "github.com/charmbracelet/bubbletea"

	"github.com/relavium/relavium/themes"
	"github.com/relavium/relavium/tui/render"
)

// Pick is a list to choose one item from (resource links to open): ↑/↓
// move, enter chooses, esc closes. Items are server text: drawn through
// render.ServerLine.
type Pick struct {
	Title string
	Items []string
	Sel   int
	// Chosen is the Action returned for item i.
	Chosen func(i int) Action
	box    box
}

// Handle takes a key (Dialog).
func (d *Pick) Handle(msg tea.KeyMsg) (Action, tea.Cmd) {
	switch msg.String() {
	case "esc", "q":
		return Close{}, nil
	case "enter":
		if len(d.Items) == 0 {
			return Close{}, nil
		}
		return d.Chosen(d.Sel), nil
	case "up", "k":
		d.Sel = max(0, d.Sel-1)
	case "down", "j":
		d.Sel = min(len(d.Items)-1, d.Sel+1)
	}
	return nil, nil
}

// View draws the dialog within the w×h screen (Dialog).
func (d *Pick) View(st *themes.Styles, w, h int) string {
	dw := Width(w, 90)
	iw := InnerWidth(dw)
	d.box.title = d.Title
	d.box.body = d.box.body[:0]
	for i, it := range d.Items {
		line := "  " + render.ServerLine(it)
		if i == d.Sel {
			line = st.Selected.Render("▸ " + render.ServerLine(it))
		}
		d.box.body = append(d.box.body, render.Cut(line, iw))
	}
	// keep the choice in sight: the box scrolls to it
	d.box.scroll = max(0, d.Sel-(h-10))
	d.box.actions = st.Muted.Render("↑/↓ choose · enter open · esc close")
	return d.box.render(st, dw, h)
}
