package tui

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/charmbracelet/bubbles/cursor"
	"github.com/charmbracelet/bubbles/key"
	"github.com/charmbracelet/bubbles/textarea"
	"github.com/charmbracelet/bubbles/textinput"
	tea "github.com/charmbracelet/bubbletea"

	"github.com/relavium/relavium/fields"
	"github.com/relavium/relavium/host/discovery"
	"github.com/relavium/relavium/themes"
	"github.com/relavium/relavium/tui/render"
)

// form is a schema-generated form: a field per property in schema order,
// typed inputs, required marks, enums and booleans as pickers, arrays of
// enums as multi-selects, defaults prefilled, and a raw JSON toggle. It
// builds the arguments object; the tool's own Validate decides whether
// they are valid, and its errors come back inline.
type form struct {
	st     *themes.Styles
	fields []*formField
	focus  int
	raw    bool
	rawIn  textarea.Model
	err    string // a form-level error (raw JSON, or one without a field)
}

type fieldKind int

const (
	kindText fieldKind = iota
	kindPicker
	kindMulti
)

type formField struct {
	spec   fields.Field
	kind   fieldKind
	input  textinput.Model
	opts   []any // picker / multi options; a picker's index 0 is "unset"
	labels []string
	choice int
	picked []bool
	sub    int
	err    string
}

func newForm(st *themes.Styles, specs []fields.Field, values map[string]any) *form {
	f := &form{st: st}
	for _, s := range specs {
		f.fields = append(f.fields, newField(st, s))
	}
	ta := textarea.New()
	ta.ShowLineNumbers = false
	ta.Prompt = "│ "
	ta.CharLimit = 1 << 20
	ta.MaxHeight = 0
	focused := textarea.Style{Base: st.Renderer.NewStyle(), Text: st.Text, Prompt: st.Accent,
		Placeholder: st.Muted, CursorLine: st.Text, CursorLineNumber: st.Muted, EndOfBuffer: st.Muted, LineNumber: st.Muted}
	ta.FocusedStyle, ta.BlurredStyle = focused, focused
	ta.Cursor.Style = st.Renderer.NewStyle().Reverse(true)
	ta.Cursor.TextStyle = st.Text
	ta.Cursor.SetMode(cursor.CursorStatic)
	f.rawIn = ta
	if values != nil {
		f.setValues(values)
	}
	f.focusField(0)
	return f
}

func newField(st *themes.Styles, s fields.Field) *formField {
	fld := &formField{spec: s}
	itemsEnum, itemsTitles := s.ItemsEnum()
	switch {
	case len(s.Enum) > 0:
		fld.kind = kindPicker
		fld.opts = append([]any{nil}, s.Enum...)
		fld.labels = append([]string{"(unset)"}, optionLabels(s.Enum, s.EnumTitles)...)
	case s.Type() == "boolean":
		fld.kind = kindPicker
		fld.opts = []any{nil, true, false}
		fld.labels = []string{"(unset)", "true", "false"}
	case s.Type() == "array" && len(itemsEnum) > 0:
		fld.kind = kindMulti
		fld.opts = itemsEnum
		fld.labels = optionLabels(itemsEnum, itemsTitles)
		fld.picked = make([]bool, len(itemsEnum))
	default:
		ti := textinput.New()
		ti.Prompt = ""
		ti.Placeholder = placeholder(s)
		ti.CharLimit = 1 << 20
		ti.PromptStyle, ti.TextStyle, ti.PlaceholderStyle, ti.CompletionStyle = st.Muted, st.Text, st.Faint, st.Muted
		ti.Cursor.Style = st.Renderer.NewStyle().Reverse(true)
		ti.Cursor.TextStyle = st.Text
		ti.Cursor.SetMode(cursor.CursorStatic)
		fld.input = ti
	}
	if s.HasDefault {
		fld.set(s.Default)
	}
	return fld
}

func optionLabels(vals []any, titles []string) []string {
	out := make([]string, len(vals))
	for i, v := range vals {
		if i < len(titles) && titles[i] != "" {
			out[i] = render.ServerLine(titles[i])
			continue
		}
		if s, ok := v.(string); ok {
			out[i] = render.ServerLine(s)
			continue
		}
		b, _ := json.Marshal(v)
		out[i] = render.ServerLine(string(b))
	}
	return out
}

// placeholder hints at a value's syntax where the label's type does not
// say enough; scalar fields start empty.
func placeholder(s fields.Field) string {
	switch t := s.Type(); t {
	case "":
		return "any JSON value"
	case "array", "object":
		return "JSON " + t
	}
	return ""
}

func (f *form) setValues(values map[string]any) {
	for _, fld := range f.fields {
		fld.reset()
		if v, ok := values[fld.spec.Name]; ok {
			fld.set(v)
		}
	}
}

func (f *form) focusField(i int) {
	if len(f.fields) == 0 {
		return
	}
	i = max(0, min(i, len(f.fields)-1))
	for j, fld := range f.fields {
		if fld.kind == kindText {
			if j == i {
				fld.input.Focus()
			} else {
				fld.input.Blur()
			}
		}
	}
	f.focus = i
}

// toggleRaw switches between the fields and raw JSON. Leaving raw mode
// needs a JSON object; keys the schema does not know keep it in raw mode.
func (f *form) toggleRaw() {
	if !f.raw {
		args, _ := f.build(false)
		pretty, ok := render.PrettyJSON(args)
		if !ok {
			pretty = string(args)
		}
		f.rawIn.SetValue(pretty)
		f.rawIn.Focus()
		f.raw, f.err = true, ""
		return
	}
	if err := jsonTooDeep(f.rawIn.Value()); err != nil {
		f.err = "raw JSON: " + err.Error()
		return
	}
	var obj map[string]any
	if err := json.Unmarshal([]byte(f.rawIn.Value()), &obj); err != nil || obj == nil {
		f.err = "raw JSON must be one JSON object to go back to the fields"
		return
	}
	var unknown []string
	for k := range obj {
		if f.field(k) == nil {
			unknown = append(unknown, k)
		}
	}
	if len(unknown) > 0 {
		f.err = "the schema has no field for " + strings.Join(unknown, ", ") + "; staying in raw JSON"
		return
	}
	for _, fld := range f.fields {
		fld.reset()
		if v, ok := obj[fld.spec.Name]; ok {
			fld.set(v)
		}
	}
	f.rawIn.Blur()
	f.raw, f.err = false, ""
}

func (f *form) field(name string) *formField {
	for _, fld := range f.fields {
		if fld.spec.Name == name {
			return fld
		}
	}
	return nil
}

// update handles a key inside the form. Keys it does not use are left to
// the caller (ok false).
func (f *form) update(msg tea.KeyMsg, k keyMap) (tea.Cmd, bool) {
	if key.Matches(msg, k.RawJSON) {
		f.toggleRaw()
		return nil, true
	}
	if f.raw {
		var cmd tea.Cmd
		f.rawIn, cmd = f.rawIn.Update(msg)
		return cmd, true
	}
	if len(f.fields) == 0 {
		return nil, false
	}
	fld := f.fields[f.focus]
	switch {
	case msg.String() == "up":
		f.focusField(f.focus - 1)
		return nil, true
	case msg.String() == "down":
		f.focusField(f.focus + 1)
		return nil, true
	}
	switch fld.kind {
	case kindPicker:
		switch msg.String() {
		case "left":
			fld.choice = (fld.choice + len(fld.opts) - 1) % len(fld.opts)
			return nil, true
		case "right", " ":
			fld.choice = (fld.choice + 1) % len(fld.opts)
			return nil, true
		}
		return nil, false
	case kindMulti:
		switch msg.String() {
		case "left":
			fld.sub = max(0, fld.sub-1)
			return nil, true
		case "right":
			fld.sub = min(len(fld.opts)-1, fld.sub+1)
			return nil, true
		case " ":
			fld.picked[fld.sub] = !fld.picked[fld.sub]
			return nil, true
		}
		return nil, false
	}
	if msg.Type == tea.KeyRunes || msg.Type == tea.KeySpace || msg.Type == tea.KeyBackspace || msg.Type == tea.KeyDelete ||
		msg.Type == tea.KeyLeft || msg.Type == tea.KeyRight || msg.Type == tea.KeyHome || msg.Type == tea.KeyEnd ||
		msg.Type == tea.KeyCtrlA || msg.Type == tea.KeyCtrlE || msg.Type == tea.KeyCtrlW || msg.Type == tea.KeyCtrlK ||
		msg.Type == tea.KeyCtrlU || msg.Type == tea.KeyCtrlV {
		var cmd tea.Cmd
		fld.input, cmd = fld.input.Update(msg)
		fld.err = ""
		return cmd, true
	}
	return nil, false
}

// setError shows a validation error: on the field its JSON pointer names,
// else on the form.
func (f *form) setError(err error) {
	if err == nil {
		return
	}
	var de *discovery.Error
	if errors.As(err, &de) && de.Pointer != "" && !f.raw {
		name := strings.SplitN(strings.TrimPrefix(de.Pointer, "/"), "/", 2)[0]
		name = strings.ReplaceAll(strings.ReplaceAll(name, "~1", "/"), "~0", "~")
		if fld := f.field(name); fld != nil {
			fld.err = render.ServerLine(de.Msg)
			if de.Rule != "" {
				fld.err += " (" + de.Rule + ")"
			}
			return
		}
	}
	f.err = render.ServerLine(err.Error())
}

// view renders the form in w cells and at most h lines, keeping the
// focused field in sight.
func (f *form) view(w, h int, focused bool) []string {
	st := f.st
	if f.raw {
		f.rawIn.SetWidth(max(10, w-2))
		f.rawIn.SetHeight(max(1, h-2))
		lines := []string{st.Muted.Render("raw JSON · ctrl+t back to fields")}
		lines = append(lines, strings.Split(f.rawIn.View(), "\n")...)
		if f.err != "" {
			lines = append(lines, render.WrapIndent(st.FieldError.Render("✗ "+f.err), w, "  ")...)
		}
		return lines
	}
	var lines []string
	focusTop, focusBottom := 0, 0
	if len(f.fields) == 0 {
		lines = append(lines, st.Muted.Render("no arguments"))
	}
	starts := make([]int, len(f.fields)) // each field's first line
	for i, fld := range f.fields {
		starts[i] = len(lines)
		if i == f.focus {
			focusTop = len(lines)
		}
		lines = append(lines, f.fieldLines(fld, i == f.focus && focused, w)...)
		if i == f.focus {
			focusBottom = len(lines)
		}
	}
	var errLines []string // the form's own error stays in view under the fields
	if f.err != "" {
		errLines = render.WrapIndent(st.FieldError.Render("✗ "+f.err), w, "  ")
	}
	if len(lines)+len(errLines) <= h {
		return append(lines, errLines...)
	}
	// Clipped: a line says how many fields are out of view, so that a
	// field below the fold is never a surprise (when there is room for it).
	fh := max(1, h-len(errLines))
	more := fh >= 3
	if more {
		fh--
	}
	top := 0
	if focusBottom > fh {
		top = min(focusTop, focusBottom-fh)
	}
	end := min(len(lines), top+fh)
	out := append([]string(nil), lines[top:end]...)
	if more {
		above, below := 0, 0
		for _, s := range starts {
			switch {
			case s < top:
				above++
			case s >= end:
				below++
			}
		}
		var parts []string
		if above > 0 {
			parts = append(parts, fmt.Sprintf("↑ %d more above", above))
		}
		if below > 0 {
			parts = append(parts, fmt.Sprintf("↓ %d more below", below))
		}
		if len(parts) > 0 {
			out = append(out, render.Cut(st.Muted.Render("  "+strings.Join(parts, " · ")+" (↑/↓ move)"), w))
		}
	}
	return append(out, errLines...)
}

func (f *form) fieldLines(fld *formField, focused bool, w int) []string {
	st := f.st
	marker := "  "
	label := st.Label
	if focused {
		marker = st.InputFocused.Render("▸ ")
		label = st.InputFocused.Bold(true)
	}
	name := fld.spec.Name
	if fld.spec.Title != "" {
		name = render.ServerLine(fld.spec.Title)
	}
	head := marker + label.Render(render.ServerLine(name))
	if fld.spec.Required {
		head += st.Required.Render("*")
	}
	hint := fld.spec.Type()
	if fld.kind == kindPicker && len(fld.spec.Enum) > 0 {
		hint = "enum"
	}
	if fld.kind == kindMulti {
		hint = "choose any"
	}
	if hint == "" {
		hint = "json"
	}
	head += " " + st.Muted.Render(hint)
	if d := render.ServerLine(fld.spec.Description); d != "" {
		head += st.Faint.Render(" · " + d)
	}
	// The focused field shows its whole description (wrapped); the others
	// keep to one line.
	lines := []string{render.Cut(head, w)}
	if focused {
		lines = render.WrapIndent(head, w, "    ")
	}
	var value string
	switch fld.kind {
	case kindPicker:
		lab := fld.labels[fld.choice]
		if fld.choice == 0 {
			lab = st.Faint.Render(lab)
		}
		value = st.Muted.Render("◂ ") + lab + st.Muted.Render(" ▸")
	case kindMulti:
		parts := make([]string, len(fld.opts))
		for i, l := range fld.labels {
			box := "[ ]"
			if fld.picked[i] {
				box = "[x]"
			}
			p := box + " " + l
			if focused && i == fld.sub {
				p = st.Selected.Render(p)
			}
			parts[i] = p
		}
		// every choice stays on screen: they wrap, one never split
		row := ""
		for _, p := range parts {
			if row != "" && 4+render.Width(row)+2+render.Width(p) > w {
				lines = append(lines, render.Cut("    "+row, w))
				row = ""
			}
			if row != "" {
				row += "  "
			}
			row += p
		}
		value = row
	default:
		fld.input.Width = max(4, w-8)
		value = fld.input.View()
		if focused {
			value = st.InputFocused.Render("[") + value + st.InputFocused.Render("]")
		} else {
			value = st.Muted.Render("[") + value + st.Muted.Render("]")
		}
	}
	lines = append(lines, render.Cut("    "+value, w))
	if fld.err != "" {
		lines = append(lines, render.WrapIndent("    "+st.FieldError.Render("✗ "+fld.err), w, "      ")...)
	}
	return lines
}
