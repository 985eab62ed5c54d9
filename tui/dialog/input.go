package dialog

import (
	"github.com/charmbracelet/bubbles/textinput"
	tea "github.com/charmbracelet/bubbletea"

	"github.com/relavium/relavium/themes"
	"github.com/relavium/relavium/tui/render"
)

// Input asks for one line of text (a setting): enter submits it through
// Submit, esc closes without a change.
type Input struct {
	Title, Help string
	// OK names what enter does ("" = Set).
	OK     string
	Submit func(string) Action
	input  textinput.Model
	box    box
}

// NewInput builds the dialog with value prefilled.
func NewInput(title, help, value string, submit func(string) Action) (*Input, tea.Cmd) {
	in := textinput.New()
	in.Prompt = "› "
	in.CharLimit = 256
	in.SetValue(value)
	d := &Input{Title: title, Help: help, Submit: submit, input: in}
	return d, d.input.Focus()
}

// TakesText reports that the line takes text (Typing): q and ? typed into
// it are a url's or a command's letters, never quit or help.
func (d *Input) TakesText() bool { return true }

// SetCharLimit lets the line hold n characters (256 by default).
func (d *Input) SetCharLimit(n int) { d.input.CharLimit = n }

// Handle takes a key (Dialog).
func (d *Input) Handle(msg tea.KeyMsg) (Action, tea.Cmd) {
	switch msg.String() {
	case "esc":
		return Close{}, nil
	case "enter":
		return d.Submit(d.input.Value()), nil
	}
	var cmd tea.Cmd
	d.input, cmd = d.input.Update(msg)
	return nil, cmd
}

// View draws the dialog within the w×h screen (Dialog).
func (d *Input) View(st *themes.Styles, w, h int) string {
	dw := Width(w, 70)
	iw := InnerWidth(dw)
	d.input.Width = max(10, iw-4)
	body := render.Wrap(st.Muted.Render(d.Help), iw)
	body = append(body, "", d.input.View())
	d.box.title = d.Title
	d.box.body = body
	ok := d.OK
	if ok == "" {
		ok = "Set"
	}
	d.box.actions = buttons(st, []string{"[enter] " + ok, "[esc] Close"}, -1)
	return d.box.render(st, dw, h)
}
