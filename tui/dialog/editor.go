package dialog

import (
	"encoding/json"

	"github.com/charmbracelet/bubbles/cursor"
	"github.com/charmbracelet/bubbles/key"
	"github.com/charmbracelet/bubbles/textarea"
	tea "github.com/charmbracelet/bubbletea"

	"github.com/relavium/relavium/themes"
	"github.com/relavium/relavium/tui/render"
)

// Editor edits one form field's value on many lines: a JSON object or
// array, or an array of scalars one item per line. Check judges the text
// as it is typed (the value it makes, or the problem, with its line);
// ctrl+s keeps a value that passes, esc leaves the field as it was.
type Editor struct {
	Title string
	// Hint says what the text is (one JSON value; one item per line).
	Hint  string
	Check func(text string) (json.RawMessage, string)
	// Keep turns the kept value into the dialog's Action.
	Keep func(json.RawMessage) Action
	Area textarea.Model
	Err  string
	box  box
}

// maxLiveCheck is the size up to which the text is judged at every key
// (beyond it, at ctrl+s only).
const maxLiveCheck = 256 << 10

// NewEditor opens an editor over text.
func NewEditor(st *themes.Styles, title, hint, text string, check func(string) (json.RawMessage, string), keep func(json.RawMessage) Action) *Editor {
	ta := textarea.New()
	ta.ShowLineNumbers = true
	ta.Prompt = "│ "
	ta.CharLimit = 1 << 20
	ta.MaxHeight = 0
	s := textarea.Style{Base: st.Renderer.NewStyle(), Text: st.Text, Prompt: st.Accent, Placeholder: st.Muted,
		CursorLine: st.Text, CursorLineNumber: st.Accent, EndOfBuffer: st.Muted, LineNumber: st.Muted}
	ta.FocusedStyle, ta.BlurredStyle = s, s
	ta.Cursor.Style = st.Renderer.NewStyle().Reverse(true)
	ta.Cursor.SetMode(cursor.CursorStatic)
	ta.SetValue(text)
	ta.Focus()
	e := &Editor{Title: title, Hint: hint, Check: check, Keep: keep, Area: ta}
	_, e.Err = check(text)
	return e
}

// TakesText reports that the editor takes text (Typing).
func (e *Editor) TakesText() bool { return true }

// Keys lists the editor's keys (Keyed).
func (e *Editor) Keys() []key.Binding {
	return []key.Binding{bind("ctrl+s", "keep", "ctrl+s"), bind("esc", "cancel", "esc"), bind("enter", "new line", "enter")}
}

// Handle takes a key (Dialog).
func (e *Editor) Handle(msg tea.KeyMsg) (Action, tea.Cmd) {
	switch msg.String() {
	case "esc":
		return Close{}, nil
	case "ctrl+s":
		v, problem := e.Check(e.Area.Value())
		if problem != "" {
			e.Err = problem
			return nil, nil
		}
		return e.Keep(v), nil
	}
	var cmd tea.Cmd
	e.Area, cmd = e.Area.Update(msg)
	if len(e.Area.Value()) <= maxLiveCheck {
		_, e.Err = e.Check(e.Area.Value())
	}
	return nil, cmd
}

// View draws the editor within the w×h screen (Dialog).
func (e *Editor) View(st *themes.Styles, w, h int) string {
	dw := Width(w, 100)
	iw := InnerWidth(dw)
	e.Area.SetWidth(iw)
	e.Area.SetHeight(max(3, min(20, h-10)))
	body := render.Wrap(st.Muted.Render(e.Hint), iw)
	body = append(body, "")
	for _, l := range splitView(e.Area.View()) {
		body = append(body, render.Cut(l, iw))
	}
	body = append(body, "")
	if e.Err != "" {
		body = append(body, render.Wrap(st.FieldError.Render("✗ "+e.Err), iw)...)
	} else {
		body = append(body, st.OK.Render("✓ valid"))
	}
	e.box.title = e.Title
	e.box.body = body
	e.box.actions = buttons(st, []string{"[ctrl+s] Keep", "[esc] Cancel"}, -1)
	return e.box.render(st, dw, h)
}

func splitView(s string) []string {
	var out []string
	start := 0
	for i := 0; i < len(s); i++ {
		if s[i] == '\n' {
			out = append(out, s[start:i])
			start = i + 1
		}
	}
	return append(out, s[start:])
}
