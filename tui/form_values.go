package tui

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
func (fld *formField) set(v any) {
	switch fld.kind {
	case kindPicker:
		for i, o := range fld.opts {
			if i > 0 && jsonEqual(o, v) {
				fld.choice = i
			}
		}
	case kindMulti:
		list, _ := v.([]any)
		for i, o := range fld.opts {
			fld.picked[i] = false
			for _, x := range list {
				if jsonEqual(o, x) {
					fld.picked[i] = true
				}
			}
		}
	default:
		if s, ok := v.(string); ok && (fld.spec.Type() == "string" || fld.spec.Type() == "") {
			fld.input.SetValue(s)
			return
		}
		b, _ := json.Marshal(v)
		fld.input.SetValue(string(b))
	}
}

// reset empties the field.
func (fld *formField) reset() {
	fld.choice = 0
	for i := range fld.picked {
		fld.picked[i] = false
	}
	if fld.kind == kindText {
		fld.input.SetValue("")
	}
	fld.err = ""
}

func jsonEqual(a, b any) bool {
	x, _ := json.Marshal(a)
	y, _ := json.Marshal(b)
	return bytes.Equal(x, y)
}

// setValues replaces every field's value with values (a replayed call).
// atLast reports whether the last field has the focus.
func (f *form) atLast() bool { return f.raw || f.focus >= len(f.fields)-1 }

// args builds the arguments object (members in field order). Fields that do
// not parse get an inline error and ok is false.
func (f *form) args() (json.RawMessage, bool) { return f.build(true) }

func (f *form) build(mark bool) (json.RawMessage, bool) {
	if f.raw {
		text := strings.TrimSpace(f.rawIn.Value())
		if text == "" {
			text = "{}"
		}
		if err := jsonTooDeep(text); err != nil {
			if mark {
				f.err = "raw JSON: " + err.Error()
			}
			return nil, false
		}
		var obj map[string]json.RawMessage
		if err := json.Unmarshal([]byte(text), &obj); err != nil || obj == nil {
			if mark {
				f.err = "raw JSON must be one JSON object"
				if err != nil {
					f.err += ": " + err.Error()
				}
			}
			return nil, false
		}
		if mark {
			f.err = ""
		}
		return json.RawMessage(text), true
	}
	var b bytes.Buffer
	b.WriteByte('{')
	ok := true
	n := 0
	for _, fld := range f.fields {
		v, present, err := fld.value()
		if mark {
			fld.err = ""
			if err != nil {
				fld.err = err.Error()
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
		name, _ := json.Marshal(fld.spec.Name)
		b.Write(name)
		b.WriteByte(':')
		b.Write(enc)
		n++
	}
	b.WriteByte('}')
	if mark && ok {
		f.err = ""
	}
	return b.Bytes(), ok
}

// value is the field's JSON value; present is false for an empty field.
func (fld *formField) value() (any, bool, error) {
	switch fld.kind {
	case kindPicker:
		if fld.choice == 0 {
			return nil, false, nil
		}
		return fld.opts[fld.choice], true, nil
	case kindMulti:
		var out []any
		for i, p := range fld.picked {
			if p {
				out = append(out, fld.opts[i])
			}
		}
		if out == nil {
			if !fld.spec.Required {
				return nil, false, nil
			}
			out = []any{}
		}
		return out, true, nil
	}
	s := fld.input.Value()
	if s == "" {
		return nil, false, nil
	}
	// The one typing rule every surface uses (mcp call KEY=VALUE, run
	// --input, this form, an elicitation form).
	v, err := fld.spec.Value(s)
	if err != nil {
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

// requireFilled marks every required field left empty, focusing the first,
// and reports whether all are filled. In raw JSON mode the object is taken
// as typed: whoever receives it judges it.
func (f *form) requireFilled(content map[string]any) bool {
	if f.raw {
		return true
	}
	first := -1
	for i, fld := range f.fields {
		if _, ok := content[fld.spec.Name]; fld.spec.Required && !ok {
			fld.err = "required"
			if first < 0 {
				first = i
			}
		}
	}
	if first < 0 {
		return true
	}
	f.err = "fill the required fields (marked *)"
	f.focusField(first)
	return false
}
