package dialog

import (
	"github.com/charmbracelet/bubbles/textinput"
	tea "github.com/charmbracelet/bubbletea"

	"github.com/relavium/relavium/themes"
	"github.com/relavium/relavium/tui/render"
)

// Roots lists the directories offered to servers as roots and edits the
// list: a adds a directory (typed as a path, enter to add), d removes the
// selected one, esc closes. A change comes back as Set's Action with the
// whole new list; the owner resolves and checks it.
type Roots struct {
	Dirs   []string // the roots offered now (resolved paths)
	Sel    int
	Set    func(dirs []string) Action
	Note   string // the last change's outcome, shown under the list
	adding bool
	input  textinput.Model
	box    box
}

// NewRoots builds the dialog over dirs.
func NewRoots(dirs []string, note string, set func([]string) Action) *Roots {
	in := textinput.New()
	in.Prompt = "add › "
	in.Placeholder = "/absolute/path/to/a/directory"
	in.CharLimit = 4096
	return &Roots{Dirs: dirs, Note: note, Set: set, input: in}
}

// Handle takes a key (Dialog).
func (d *Roots) Handle(msg tea.KeyMsg) (Action, tea.Cmd) {
	if d.adding {
		switch msg.String() {
		case "esc":
			d.adding = false
			d.input.Blur()
			return nil, nil
		case "enter":
			v := d.input.Value()
			if v == "" {
				return nil, nil
			}
			return d.Set(append(append([]string{}, d.Dirs...), v)), nil
		}
		var cmd tea.Cmd
		d.input, cmd = d.input.Update(msg)
		return nil, cmd
	}
	switch msg.String() {
	case "esc", "q", "R":
		return Close{}, nil
	case "a":
		d.adding = true
		d.input.SetValue("")
		return nil, d.input.Focus()
	case "d", "delete":
		if len(d.Dirs) == 0 {
			return nil, nil
		}
		rest := append(append([]string{}, d.Dirs[:d.Sel]...), d.Dirs[d.Sel+1:]...)
		return d.Set(rest), nil
	case "up", "k":
		d.Sel = max(0, d.Sel-1)
	case "down", "j":
		d.Sel = min(max(0, len(d.Dirs)-1), d.Sel+1)
	}
	return nil, nil
}

// View draws the dialog within the w×h screen (Dialog).
func (d *Roots) View(st *themes.Styles, w, h int) string {
	dw := Width(w, 90)
	iw := InnerWidth(dw)
	body := render.Wrap(st.Muted.Render("The directories servers are offered as roots (roots/list). A change is sent as notifications/roots/list_changed."), iw)
	body = append(body, "")
	if len(d.Dirs) == 0 {
		body = append(body, st.Muted.Render("(no roots: servers are offered none)"))
	}
	for i, dir := range d.Dirs {
		line := "  " + render.ServerLine(dir)
		if i == d.Sel {
			line = st.Selected.Render("▸ " + render.ServerLine(dir))
		}
		body = append(body, render.Cut(line, iw))
	}
	if d.adding {
		d.input.Width = max(10, iw-8)
		body = append(body, "", d.input.View())
	}
	if d.Note != "" {
		body = append(body, "")
		body = append(body, render.Wrap(st.Text.Render(render.ServerLine(d.Note)), iw)...)
	}
	d.box.title = "Roots"
	d.box.body = body
	labels := []string{"[a] Add a directory", "[d] Remove", "[esc] Close"}
	if d.adding {
		labels = []string{"[enter] Add", "[esc] Back"}
	}
	d.box.actions = buttons(st, labels, -1)
	return d.box.render(st, dw, h)
}
