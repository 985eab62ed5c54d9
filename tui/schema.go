package tui

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
)

// fieldSpec is one top-level property of an object schema, as a form field.
type fieldSpec struct {
	Name        string
	Title       string
	Description string
	Type        string // string | integer | number | boolean | array | object | "" (any JSON)
	Enum        []any  // allowed values (enum, or oneOf/anyOf consts)
	EnumTitles  []string
	ItemsEnum   []any // an array of enum values: a multi-select
	ItemsTitles []string
	Default     any
	HasDefault  bool
	Required    bool
}

// propSchema is the part of a property schema a form reads.
type propSchema struct {
	Type        json.RawMessage `json:"type"`
	Title       string          `json:"title"`
	Description string          `json:"description"`
	Enum        []any           `json:"enum"`
	EnumNames   []string        `json:"enumNames"`
	OneOf       []constOption   `json:"oneOf"`
	AnyOf       []constOption   `json:"anyOf"`
	Default     json.RawMessage `json:"default"`
	Items       *struct {
		Type  json.RawMessage `json:"type"`
		Enum  []any           `json:"enum"`
		OneOf []constOption   `json:"oneOf"`
		AnyOf []constOption   `json:"anyOf"`
	} `json:"items"`
}

type constOption struct {
	Const any    `json:"const"`
	Title string `json:"title"`
}

// schemaFields lists an object schema's properties in the order the schema
// declares them (discovery keeps the server's member order in
// ToolDef.InputSchema; elicitation and workflow schemas keep theirs).
func schemaFields(schema json.RawMessage) ([]fieldSpec, error) {
	if len(bytes.TrimSpace(schema)) == 0 {
		return nil, nil
	}
	var root struct {
		Properties json.RawMessage `json:"properties"`
		Required   []string        `json:"required"`
	}
	if err := json.Unmarshal(schema, &root); err != nil {
		return nil, fmt.Errorf("the schema is not a JSON object: %w", err)
	}
	required := map[string]bool{}
	for _, r := range root.Required {
		required[r] = true
	}
	names, raws, err := orderedMembers(root.Properties)
	if err != nil {
		return nil, err
	}
	out := make([]fieldSpec, 0, len(names))
	for i, name := range names {
		var p propSchema
		if err := json.Unmarshal(raws[i], &p); err != nil {
			// A property schema may be `true`: any value.
			out = append(out, fieldSpec{Name: name, Required: required[name]})
			continue
		}
		f := fieldSpec{Name: name, Title: p.Title, Description: p.Description, Type: typeOf(p.Type), Required: required[name]}
		f.Enum, f.EnumTitles = p.Enum, p.EnumNames
		if len(f.Enum) == 0 {
			f.Enum, f.EnumTitles = consts(append(p.OneOf, p.AnyOf...))
		}
		if len(f.EnumTitles) != len(f.Enum) {
			f.EnumTitles = nil
		}
		if p.Items != nil {
			f.ItemsEnum = p.Items.Enum
			if len(f.ItemsEnum) == 0 {
				f.ItemsEnum, f.ItemsTitles = consts(append(p.Items.OneOf, p.Items.AnyOf...))
			}
		}
		if len(p.Default) > 0 {
			var d any
			if json.Unmarshal(p.Default, &d) == nil {
				f.Default, f.HasDefault = d, true
			}
		}
		out = append(out, f)
	}
	return out, nil
}

func consts(opts []constOption) ([]any, []string) {
	var vals []any
	var titles []string
	for _, o := range opts {
		if o.Const == nil {
			return nil, nil // not an enum of consts
		}
		vals = append(vals, o.Const)
		titles = append(titles, o.Title)
	}
	return vals, titles
}

// typeOf reads "type": a string, or the first non-null of an array.
func typeOf(raw json.RawMessage) string {
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s
	}
	var list []string
	if json.Unmarshal(raw, &list) == nil {
		for _, t := range list {
			if t != "null" {
				return t
			}
		}
	}
	return ""
}

// orderedMembers returns an object's member names and raw values in
// document order.
func orderedMembers(raw json.RawMessage) ([]string, []json.RawMessage, error) {
	if len(bytes.TrimSpace(raw)) == 0 {
		return nil, nil, nil
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	tok, err := dec.Token()
	if err != nil {
		return nil, nil, err
	}
	if d, ok := tok.(json.Delim); !ok || d != '{' {
		return nil, nil, errors.New("properties is not a JSON object")
	}
	var names []string
	var vals []json.RawMessage
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return nil, nil, err
		}
		name, _ := tok.(string)
		var v json.RawMessage
		if err := dec.Decode(&v); err != nil {
			return nil, nil, err
		}
		names = append(names, name)
		vals = append(vals, v)
	}
	return names, vals, nil
}
