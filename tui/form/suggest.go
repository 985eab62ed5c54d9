package form

import (
	"fmt"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/relavium/relavium/tui/render"
)

// A text field's pick list: values a server suggested for what is typed
// (completion/complete), shown under the field. While it is open, ↑/↓
// choose, enter puts the choice in the field and esc closes the list;
// typing closes it until the next answer arrives.

// maxShownSuggestions is how many rows of the pick list are drawn.
const maxShownSuggestions = 6

// suggestions is one field's open pick list.
type suggestions struct {
	typed string // the value they were asked for
	vals  []string
	sel   int
	more  bool // the server has more than it sent
}

// Suggest opens field name's pick list with vals, if its value is still
// typed (an answer to an older value is dropped) and it is focused. No
// values close it.
func (f *Form) Suggest(name, typed string, vals []string, more bool) {
	if f.Raw || len(f.Fields) == 0 {
		return
	}
	fld := f.Fields[f.Focus]
	if fld.Spec.Name != name || fld.Kind != KindText || fld.Input.Value() != typed {
		return
	}
	fld.sugg = nil
	if len(vals) > 0 && !(len(vals) == 1 && vals[0] == typed) {
		fld.sugg = &suggestions{typed: typed, vals: vals, more: more}
	}
}

// Typed is the focused text field's name and value (ok false when the
// focus is not on a text field).
func (f *Form) Typed() (name, value string, ok bool) {
	if f.Raw || len(f.Fields) == 0 || f.Fields[f.Focus].Kind != KindText {
		return "", "", false
	}
	fld := f.Fields[f.Focus]
	return fld.Spec.Name, fld.Input.Value(), true
}

// Picking reports whether the focused field's pick list is open.
func (f *Form) Picking() bool {
	return !f.Raw && len(f.Fields) > 0 && f.Fields[f.Focus].sugg != nil
}

// updateSuggest handles the keys of an open pick list.
func (f *Form) updateSuggest(fld *Field, msg tea.KeyMsg) bool {
	s := fld.sugg
	if s == nil {
		return false
	}
	switch msg.String() {
	case "up":
		s.sel = (s.sel + len(s.vals) - 1) % len(s.vals)
	case "down":
		s.sel = (s.sel + 1) % len(s.vals)
	case "enter":
		fld.Input.SetValue(s.vals[s.sel])
		fld.Input.CursorEnd()
		fld.Err, fld.sugg = "", nil
	case "esc":
		fld.sugg = nil
	default:
		return false
	}
	return true
}

// suggestLines draws the focused field's pick list.
func (f *Form) suggestLines(fld *Field, focused bool, w int) []string {
	s := fld.sugg
	if s == nil || !focused {
		return nil
	}
	st := f.st
	first := max(0, min(s.sel-maxShownSuggestions/2, len(s.vals)-maxShownSuggestions))
	end := min(len(s.vals), first+maxShownSuggestions)
	var out []string
	for i := first; i < end; i++ {
		row := "      " + render.ServerLine(s.vals[i])
		if i == s.sel {
			row = "    " + st.Selected.Render("▸ "+render.ServerLine(s.vals[i]))
		}
		out = append(out, render.Cut(row, w))
	}
	note := fmt.Sprintf("      %d of %d", s.sel+1, len(s.vals))
	if s.more {
		note += " (the server has more: type to narrow)"
	}
	out = append(out, render.Cut(st.Muted.Render(note+" · ↑↓ choose · enter pick · esc close"), w))
	return out
}
