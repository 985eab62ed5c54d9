package dialog

import (
	"strings"
	"unicode"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/relavium/relavium/engine/sanitize"
	"github.com/relavium/relavium/themes"
	"github.com/relavium/relavium/tui/render"
)

// SecretField is one value a Secret dialog asks for.
type SecretField struct {
	ID    string // the secret's name
	Label string // what the file that declared it says it is
}

// Secret asks for secrets a server needs and nothing holds (a VS Code
// input an imported server names): each typed value is shown only as
// dots, kept for this session, and never written anywhere.
type Secret struct {
	Title  string
	Server string // the server whose inputs it asks for
	Fields []SecretField
	// Answer turns the typed values (by ID) into the dialog's Action.
	Answer func(values map[string]string) Action
	values []string
	focus  int
	box    box
}

// TakesText: every printable key types.
func (d *Secret) TakesText() bool { return true }

// Handle takes a key (Dialog).
func (d *Secret) Handle(msg tea.KeyMsg) (Action, tea.Cmd) {
	if d.values == nil {
		d.values = make([]string, len(d.Fields))
	}
	switch msg.Type {
	case tea.KeyEsc:
		return Close{}, nil
	case tea.KeyTab, tea.KeyDown:
		d.focus = (d.focus + 1) % len(d.Fields)
	case tea.KeyShiftTab, tea.KeyUp:
		d.focus = (d.focus + len(d.Fields) - 1) % len(d.Fields)
	case tea.KeyBackspace:
		if v := []rune(d.values[d.focus]); len(v) > 0 {
			d.values[d.focus] = string(v[:len(v)-1])
		}
	case tea.KeyEnter:
		for i, v := range d.values {
			if v == "" {
				d.focus = i // every value is needed: go to the first empty one
				return nil, nil
			}
		}
		out := make(map[string]string, len(d.Fields))
		for i, f := range d.Fields {
			out[f.ID] = d.values[i]
		}
		return d.Answer(out), nil
	case tea.KeyRunes, tea.KeySpace:
		for _, r := range msg.Runes {
			if unicode.IsPrint(r) {
				d.values[d.focus] += string(r)
			}
		}
		if msg.Type == tea.KeySpace && len(msg.Runes) == 0 {
			d.values[d.focus] += " "
		}
	}
	return nil, nil
}

// View draws the dialog within the w×h screen (Dialog).
func (d *Secret) View(st *themes.Styles, w, h int) string {
	if d.values == nil {
		d.values = make([]string, len(d.Fields))
	}
	dw := Width(w, 80)
	iw := InnerWidth(dw)
	d.box.title = d.Title
	var body []string
	first, last := 0, 0 // the lines of the field being typed in
	for i, f := range d.Fields {
		mark := "  "
		if i == d.focus {
			mark, first = st.Accent.Render("› "), len(body)
		}
		dots := strings.Repeat("•", len([]rune(d.values[i])))
		line := mark + st.Bold.Render(sanitize.Line(f.ID))
		if f.Label != "" {
			line += "  " + st.Muted.Render(sanitize.Line(f.Label))
		}
		body = append(append(body, render.Wrap(line, iw)...), "    "+st.Bold.Render("["+dots+"]"))
		if i == d.focus {
			last = len(body) - 1
		}
	}
	body = append(body, "", st.Muted.Render("Kept in memory for this session only: never written, never shown. Set RELAVIUM_SECRET_<ID> or secrets.toml to keep it."))
	d.box.body = body
	d.box.actions = st.Muted.Render("enter connect · tab next · esc cancel")
	// More fields than the screen holds (a file may name many inputs): the
	// body scrolls to keep the field being typed in view.
	room := max(1, h-4-1-len(render.Wrap(d.box.actions, iw))) // border, title and its gap, the foot
	switch {
	case first < d.box.scroll:
		d.box.scroll = first
	case last >= d.box.scroll+room:
		d.box.scroll = min(first, last-room+1)
	}
	return d.box.render(st, dw, h)
}
