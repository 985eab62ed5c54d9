package form

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/relavium/relavium/nesting"
)

// A form's values: defaults and replayed arguments in, the arguments
// object out (members in field order), typed per the schema.

// set puts a value into the field (a default, a replayed argument).
func (fld *Field) set(v any) {
	switch fld.Kind {
	case KindPicker:
		for i, o := range fld.Opts {
			if i > 0 && jsonEqual(o, v) {
				fld.Choice = i
			}
		}
	case KindMulti:
		list, _ := v.([]any)
		for i, o := range fld.Opts {
			fld.picked[i] = false
			for _, x := range list {
				if jsonEqual(o, x) {
					fld.picked[i] = true
				}
			}
		}
	default:
		if s, ok := v.(string); ok && (fld.Spec.Type() == "string" || fld.Spec.Type() == "") {
			fld.Input.SetValue(s)
			return
		}
		b, _ := json.Marshal(v)
		fld.Input.SetValue(string(b))
	}
}

// reset empties the field (a required boolean goes back to false).
func (fld *Field) reset() {
	fld.Choice = 0
	if fld.noUnset {
		fld.Choice = 1
	}
	for i := range fld.picked {
		fld.picked[i] = false
	}
	if fld.Kind == KindText {
		fld.Input.SetValue("")
	}
	fld.Err = ""
}

func jsonEqual(a, b any) bool {
	x, _ := json.Marshal(a)
	y, _ := json.Marshal(b)
	return bytes.Equal(x, y)
}

// AtLast reports whether the last field has the focus.
func (f *Form) AtLast() bool { return f.Raw || f.Focus >= len(f.Fields)-1 }

// Args builds the arguments object (members in field order). Fields that do
// not parse get an inline error and ok is false.
func (f *Form) Args() (json.RawMessage, bool) { return f.build(true) }

func (f *Form) build(mark bool) (json.RawMessage, bool) {
	if f.Raw {
		text := strings.TrimSpace(f.RawIn.Value())
		if text == "" {
			text = "{}"
		}
		if err := jsonTooDeep(text); err != nil {
			if mark {
				f.Err = "raw JSON: " + err.Error()
			}
			return nil, false
		}
		var obj map[string]json.RawMessage
		if err := json.Unmarshal([]byte(text), &obj); err != nil || obj == nil {
			if mark {
				f.Err = "raw JSON must be one JSON object"
				if err != nil {
					f.Err += ": " + SyntaxWhere(text, err)
				}
			}
			return nil, false
		}
		if mark {
			f.Err = ""
		}
		return json.RawMessage(text), true
	}
	var b bytes.Buffer
	b.WriteByte('{')
	ok := true
	n := 0
	for _, fld := range f.Fields {
		v, present, err := fld.Value()
		if mark {
			fld.Err = ""
			if err != nil {
				fld.Err = err.Error()
			}
		}
		if err != nil {
			ok = false
			continue
		}
		if !present {
			continue
		}
		enc, err := json.Marshal(v)
		if err != nil {
			ok = false
			continue
		}
		if n > 0 {
			b.WriteByte(',')
		}
		name, _ := json.Marshal(fld.Spec.Name)
		b.Write(name)
		b.WriteByte(':')
		b.Write(enc)
		n++
	}
	b.WriteByte('}')
	if mark && ok {
		f.Err = ""
	}
	return b.Bytes(), ok
}

// Value is the field's JSON value; present is false for an empty field.
func (fld *Field) Value() (any, bool, error) {
	switch fld.Kind {
	case KindPicker:
		if fld.Choice == 0 {
			return nil, false, nil
		}
		return fld.Opts[fld.Choice], true, nil
	case KindMulti:
		var out []any
		for i, p := range fld.picked {
			if p {
				out = append(out, fld.Opts[i])
			}
		}
		if out == nil {
			if !fld.Spec.Required {
				return nil, false, nil
			}
			out = []any{}
		}
		return out, true, nil
	}
	s := fld.Input.Value()
	if s == "" {
		return nil, false, nil
	}
	// The one typing rule every surface uses (mcp call KEY=VALUE, run
	// --input, this form, an elicitation form).
	v, err := fld.Spec.Value(s)
	if err != nil {
		return nil, false, err
	}
	if err := checkFormat(fld.Spec.Format, v); err != nil {
		return nil, false, err
	}
	return v, true, nil
}

// jsonTooDeep refuses typed JSON nested deeper than nesting.JSONDepth (the
// depth discovery accepts in a schema) before it is decoded.
func jsonTooDeep(s string) error {
	if _, over := nesting.JSON([]byte(s), nesting.Limits{MaxDepth: nesting.JSONDepth}); over != nil {
		return fmt.Errorf("%s at line %d, column %d: refused before it is parsed", over.Describe(), over.Line, over.Col)
	}
	return nil
}

// RequireFilled marks every required field left empty, focusing the first,
// and reports whether all are filled. In raw JSON mode the object is taken
// as typed: whoever receives it judges it.
func (f *Form) RequireFilled(content map[string]any) bool {
	if f.Raw {
		return true
	}
	first := -1
	for i, fld := range f.Fields {
		if _, ok := content[fld.Spec.Name]; fld.Spec.Required && !ok {
			fld.Err = "required"
			if first < 0 {
				first = i
			}
		}
	}
	if first < 0 {
		return true
	}
	f.Err = "fill the required fields (marked *)"
	f.FocusField(first)
	return false
}
