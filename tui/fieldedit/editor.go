package fieldedit

import (
	"encoding/json"
	"strconv"
	"strings"

	"github.com/relavium/relavium/fields"
	"github.com/relavium/relavium/themes"
	"github.com/relavium/relavium/tui/dialog"
	"github.com/relavium/relavium/tui/form"
	"github.com/relavium/relavium/tui/render"
)

// New is the editor for fld, whose kept value keep turns into the
// dialog's Action; ok is false when the field is not an object or an
// array typed as text (it is typed in place).
func New(st *themes.Styles, fld *form.Field, keep func(json.RawMessage) dialog.Action) (d dialog.Dialog, ok bool) {
	spec := fld.Spec
	if fld.Kind != form.KindText || (spec.Type() != "object" && spec.Type() != "array") {
		return nil, false
	}
	current := fld.Input.Value()
	title := "Edit " + render.ServerLine(spec.Name) + " (" + spec.TypeLabel() + ")"
	if item := spec.Items; spec.Type() == "array" && item != nil && scalar(item.Type()) && len(item.Enum) == 0 {
		return dialog.NewEditor(st, title, "one item per line, each a "+item.TypeLabel()+" (an empty line is no item)",
			itemLines(current), func(text string) (json.RawMessage, string) { return itemsValue(*item, text) }, keep), true
	}
	pretty, ok := render.PrettyJSON(json.RawMessage(current))
	if !ok {
		pretty = current
	}
	return dialog.NewEditor(st, title, "one JSON "+spec.TypeLabel()+" on as many lines as you like", pretty,
		func(text string) (json.RawMessage, string) { return jsonValue(spec, text) }, keep), true
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
