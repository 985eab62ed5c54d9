package tui

import (
	"encoding/json"
	"strconv"
	"strings"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/relavium/relavium/fields"
	"github.com/relavium/relavium/tui/dialog"
	"github.com/relavium/relavium/tui/form"
	"github.com/relavium/relavium/tui/render"
)

// ctrl+o on a form field of type object or array opens it in a larger
// editor (dialog.Editor): an array of scalars one item per line, each
// typed by the one rule of package fields; anything else as one JSON value
// on many lines, judged as it is typed (line and column of a syntax
// error). Keeping the value writes it back into the field, compact.

// editorKeep is the editor's answer: the field's new text.
type editorKeep struct {
	formSeq int
	field   string
	text    string
}

// openFieldEditor opens the editor on the focused field.
func (m *Model) openFieldEditor() tea.Cmd {
	f := m.call.form
	if f == nil || f.Raw || f.Focus < 0 || f.Focus >= len(f.Fields) {
		return nil
	}
	fld := f.Fields[f.Focus]
	spec := fld.Spec
	if fld.Kind != form.KindText || (spec.Type() != "object" && spec.Type() != "array") {
		m.status.set("ctrl+o opens objects and arrays in a larger editor; this field is typed in place", false)
		return nil
	}
	seq, name := m.call.formSeq, spec.Name
	keep := func(v json.RawMessage) dialog.Action { return editorKeep{formSeq: seq, field: name, text: string(v)} }
	current := fld.Input.Value()
	title := "Edit " + render.ServerLine(spec.Name) + " (" + spec.TypeLabel() + ")"
	if item := spec.Items; spec.Type() == "array" && item != nil && scalar(item.Type()) && len(item.Enum) == 0 {
		m.pushDialog(dialog.NewEditor(m.st, title, "one item per line, each a "+item.TypeLabel()+" (an empty line is no item)",
			itemLines(current), func(text string) (json.RawMessage, string) { return itemsValue(*item, text) }, keep))
		return nil
	}
	pretty, ok := render.PrettyJSON(json.RawMessage(current))
	if !ok {
		pretty = current
	}
	m.pushDialog(dialog.NewEditor(m.st, title, "one JSON "+spec.TypeLabel()+" on as many lines as you like", pretty,
		func(text string) (json.RawMessage, string) { return jsonValue(spec, text) }, keep))
	return nil
}

func scalar(t string) bool {
	return t == "string" || t == "integer" || t == "number" || t == "boolean"
}

// itemLines is an array's text as one item per line (strings as typed).
func itemLines(current string) string {
	var items []json.RawMessage
	if json.Unmarshal([]byte(current), &items) != nil {
		return ""
	}
	lines := make([]string, 0, len(items))
	for _, it := range items {
		var s string
		if json.Unmarshal(it, &s) == nil {
			lines = append(lines, s)
		} else {
			lines = append(lines, string(it))
		}
	}
	return strings.Join(lines, "\n")
}

// itemsValue types each non-empty line as one item.
func itemsValue(item fields.Field, text string) (json.RawMessage, string) {
	var out []json.RawMessage
	for i, l := range strings.Split(text, "\n") {
		if strings.TrimSpace(l) == "" {
			continue
		}
		v, err := item.Value(l)
		if err != nil {
			return nil, "line " + strconv.Itoa(i+1) + ": " + err.Error()
		}
		out = append(out, v)
	}
	if out == nil {
		out = []json.RawMessage{}
	}
	b, _ := json.Marshal(out)
	return b, ""
}

// jsonValue types the text as the field's value (package fields' rule:
// its declared type, bounded depth), naming where a syntax error is.
func jsonValue(spec fields.Field, text string) (json.RawMessage, string) {
	v, err := spec.Value(text)
	if err != nil {
		return nil, form.SyntaxWhere(text, err)
	}
	return v, ""
}

// onEditorKeep writes a kept value into its field (the form it came from
// only).
func (m *Model) onEditorKeep(a editorKeep) {
	if m.call.form == nil || a.formSeq != m.call.formSeq {
		return
	}
	if fld := m.call.form.Field(a.field); fld != nil {
		fld.Input.SetValue(a.text)
		fld.Err = ""
	}
}
