package form

import (
	"encoding/json"
	"strings"

	"github.com/charmbracelet/bubbles/cursor"
	"github.com/charmbracelet/bubbles/key"
	"github.com/charmbracelet/bubbles/textarea"
	"github.com/charmbracelet/bubbles/textinput"
	tea "github.com/charmbracelet/bubbletea"

	"github.com/relavium/relavium/fields"
	"github.com/relavium/relavium/themes"
	"github.com/relavium/relavium/tui/render"
)

// Form is a schema-generated form: a field per property in schema order,
// typed inputs, required marks, enums and booleans as pickers, arrays of
// enums as multi-selects, defaults prefilled, and a raw JSON toggle. It
// builds the arguments object; the tool's own Validate decides whether
// they are valid, and its errors come back inline.
type Form struct {
	st *themes.Styles

	// The state below is read by the workbench and its tests; it changes
	// through the methods (a test may set it to reach a corner).
	Fields []*Field
	Focus  int
	Raw    bool
	RawIn  textarea.Model
	Err    string // a form-level error (raw JSON, or one without a field)
}

// Kind is how a field is edited: typed text, a picker (an enum or a
// boolean) or a multi-select (an array of enum members).
type Kind int

const (
	KindText Kind = iota
	KindPicker
	KindMulti
)

// Field is one property's input: its spec (fields.Field, whose Value is
// the one typing rule), how it is edited, and its inline error.
type Field struct {
	Spec   fields.Field
	Kind   Kind
	Input  textinput.Model
	Opts   []any // picker / multi options; a picker's index 0 is "unset"
	labels []string
	Choice int
	// noUnset: the picker never goes back to "unset" (a required boolean)
	noUnset bool
	picked  []bool
	sub     int
	seek    string // the letters typed on a picker or multi-select so far (seek)
	Err     string
	sugg    *suggestions // the open pick list (suggest.go)
}

// New builds a form over specs (in schema order), prefilled with each
// field's default and then with values (a replayed call), the first field
// focused.
func New(st *themes.Styles, specs []fields.Field, values map[string]any) *Form {
	f := &Form{st: st}
	for _, s := range specs {
		f.Fields = append(f.Fields, newField(st, s))
	}
	ta := textarea.New()
	ta.ShowLineNumbers = false
	ta.Prompt = "│ "
	ta.CharLimit = 1 << 20
	ta.MaxHeight = 0
	styleArea(st, &ta)
	f.RawIn = ta
	if values != nil {
		f.SetValues(values)
	}
	f.FocusField(0)
	return f
}

// Restyled draws the form with st from now on; what it holds stays.
func (f *Form) Restyled(st *themes.Styles) *Form {
	f.st = st
	for _, fld := range f.Fields {
		if fld.Kind == KindText {
			styleInput(st, &fld.Input)
		}
	}
	styleArea(st, &f.RawIn)
	return f
}

func styleInput(st *themes.Styles, ti *textinput.Model) {
	ti.PromptStyle, ti.TextStyle, ti.PlaceholderStyle, ti.CompletionStyle = st.Muted, st.Text, st.Faint, st.Muted
	ti.Cursor.Style = st.Renderer.NewStyle().Reverse(true)
	ti.Cursor.TextStyle = st.Text
	ti.Cursor.SetMode(cursor.CursorStatic)
}

func styleArea(st *themes.Styles, ta *textarea.Model) {
	focused := textarea.Style{Base: st.Renderer.NewStyle(), Text: st.Text, Prompt: st.Accent,
		Placeholder: st.Muted, CursorLine: st.Text, CursorLineNumber: st.Muted, EndOfBuffer: st.Muted, LineNumber: st.Muted}
	ta.FocusedStyle, ta.BlurredStyle = focused, focused
	ta.Cursor.Style = st.Renderer.NewStyle().Reverse(true)
	ta.Cursor.TextStyle = st.Text
	ta.Cursor.SetMode(cursor.CursorStatic)
}

func newField(st *themes.Styles, s fields.Field) *Field {
	fld := &Field{Spec: s}
	itemsEnum, itemsTitles := s.ItemsEnum()
	switch {
	case len(s.Enum) > 0:
		fld.Kind = KindPicker
		fld.Opts = append([]any{nil}, s.Enum...)
		fld.labels = append([]string{"(unset)"}, optionLabels(s.Enum, s.EnumTitles)...)
	case s.Type() == "boolean":
		// false then true, always in that order; "unset" (not sent) only
		// for an optional field: a required one starts at false
		fld.Kind = KindPicker
		fld.Opts = []any{nil, false, true}
		fld.labels = []string{"(unset: not sent)", "false", "true"}
		if s.Required {
			fld.noUnset, fld.Choice = true, 1
		}
	case s.Type() == "array" && len(itemsEnum) > 0:
		fld.Kind = KindMulti
		fld.Opts = itemsEnum
		fld.labels = optionLabels(itemsEnum, itemsTitles)
		fld.picked = make([]bool, len(itemsEnum))
	default:
		ti := textinput.New()
		ti.Prompt = ""
		ti.Placeholder = placeholder(s)
		ti.CharLimit = 1 << 20
		styleInput(st, &ti)
		fld.Input = ti
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

// SetValues replaces every field's value with values (a replayed call).
func (f *Form) SetValues(values map[string]any) {
	for _, fld := range f.Fields {
		fld.reset()
		if v, ok := values[fld.Spec.Name]; ok {
			fld.set(v)
		}
	}
}

// FocusField moves the focus to field i (clamped to the fields).
func (f *Form) FocusField(i int) {
	if len(f.Fields) == 0 {
		return
	}
	i = max(0, min(i, len(f.Fields)-1))
	for j, fld := range f.Fields {
		if fld.Kind == KindText {
			if j == i {
				fld.Input.Focus()
			} else {
				fld.Input.Blur()
			}
		}
	}
	f.Focus = i
}

// ToggleRaw switches between the fields and raw JSON. Leaving raw mode
// needs a JSON object; keys the schema does not know keep it in raw mode.
func (f *Form) ToggleRaw() {
	if !f.Raw {
		args, _ := f.build(false)
		pretty, ok := render.PrettyJSON(args)
		if !ok {
			pretty = string(args)
		}
		f.RawIn.SetValue(pretty)
		f.RawIn.Focus()
		f.Raw, f.Err = true, ""
		return
	}
	if err := jsonTooDeep(f.RawIn.Value()); err != nil {
		f.Err = "raw JSON: " + err.Error()
		return
	}
	var obj map[string]any
	if err := json.Unmarshal([]byte(f.RawIn.Value()), &obj); err != nil || obj == nil {
		f.Err = "raw JSON must be one JSON object to go back to the fields"
		if err != nil {
			f.Err += ": " + SyntaxWhere(f.RawIn.Value(), err)
		}
		return
	}
	var unknown []string
	for k := range obj {
		if f.Field(k) == nil {
			unknown = append(unknown, k)
		}
	}
	if len(unknown) > 0 {
		f.Err = "the schema has no field for " + strings.Join(unknown, ", ") + "; staying in raw JSON"
		return
	}
	for _, fld := range f.Fields {
		fld.reset()
		if v, ok := obj[fld.Spec.Name]; ok {
			fld.set(v)
		}
	}
	f.RawIn.Blur()
	f.Raw, f.Err = false, ""
}

// Field is the field named name, or nil.
func (f *Form) Field(name string) *Field {
	for _, fld := range f.Fields {
		if fld.Spec.Name == name {
			return fld
		}
	}
	return nil
}

// Update handles a key inside the form; rawJSON is the binding that
// toggles raw JSON. Keys it does not use are left to the caller (ok false).
func (f *Form) Update(msg tea.KeyMsg, rawJSON key.Binding) (tea.Cmd, bool) {
	if key.Matches(msg, rawJSON) {
		f.ToggleRaw()
		return nil, true
	}
	if f.Raw {
		var cmd tea.Cmd
		f.RawIn, cmd = f.RawIn.Update(msg)
		return cmd, true
	}
	if len(f.Fields) == 0 {
		return nil, false
	}
	fld := f.Fields[f.Focus]
	if f.updateSuggest(fld, msg) {
		return nil, true
	}
	switch {
	case msg.String() == "up":
		f.FocusField(f.Focus - 1)
		return nil, true
	case msg.String() == "down":
		f.FocusField(f.Focus + 1)
		return nil, true
	}
	if fld.Kind != KindText {
		if msg.Type == tea.KeyRunes && len(msg.Runes) > 0 && fld.seekTo(string(msg.Runes)) {
			return nil, true
		}
		if msg.Type != tea.KeyRunes {
			fld.seek = ""
		}
	}
	switch fld.Kind {
	case KindPicker:
		switch msg.String() {
		case "left":
			fld.Choice = (fld.Choice + len(fld.Opts) - 1) % len(fld.Opts)
			if fld.noUnset && fld.Choice == 0 {
				fld.Choice = len(fld.Opts) - 1
			}
			return nil, true
		case "right", " ":
			fld.Choice = (fld.Choice + 1) % len(fld.Opts)
			if fld.noUnset && fld.Choice == 0 {
				fld.Choice = 1
			}
			return nil, true
		}
		return nil, false
	case KindMulti:
		switch msg.String() {
		case "left":
			fld.sub = max(0, fld.sub-1)
			return nil, true
		case "right":
			fld.sub = min(len(fld.Opts)-1, fld.sub+1)
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
		before := fld.Input.Value()
		fld.Input, cmd = fld.Input.Update(msg)
		fld.Err = ""
		if fld.Input.Value() != before {
			fld.sugg = nil // asked again for the new value
		}
		return cmd, true
	}
	return nil, false
}

// seekTo moves a picker's choice (a multi-select's cursor) to the option
// whose label starts with the letters typed so far plus typed, case folded:
// typing an enum member's first letters jumps to it. A letter that
// continues no label starts afresh, and the same letter again goes to the
// next label it starts; false when no label starts with it (nothing moves).
func (fld *Field) seekTo(typed string) bool {
	if strings.TrimSpace(typed) == "" {
		return false
	}
	cur := fld.Choice
	if fld.Kind == KindMulti {
		cur = fld.sub
	}
	find := func(prefix string, from int) int {
		prefix = strings.ToLower(prefix)
		for k := 0; k < len(fld.labels); k++ {
			i := (from + k) % len(fld.labels)
			if fld.Kind == KindPicker && i == 0 && fld.noUnset {
				continue
			}
			if strings.HasPrefix(strings.ToLower(fld.labels[i]), prefix) {
				return i
			}
		}
		return -1
	}
	i := -1
	if fld.seek != "" && !(len(fld.seek) == len(typed) && strings.EqualFold(fld.seek, typed)) {
		i = find(fld.seek+typed, cur) // the word typed so far, continued
		if i >= 0 {
			fld.seek += typed
		}
	}
	if i < 0 {
		from := cur
		if strings.EqualFold(fld.seek, typed) {
			from = cur + 1 // the same letter again: the next one
		}
		if i = find(typed, from); i < 0 {
			fld.seek = ""
			return false
		}
		fld.seek = typed
	}
	if fld.Kind == KindMulti {
		fld.sub = i
	} else {
		fld.Choice = i
	}
	return true
}
