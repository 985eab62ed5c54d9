package fields

import "strings"

// Field is one top-level property of an object schema, as a person fills
// it in.
type Field struct {
	Name        string
	Title       string
	Description string
	// Types is the declared type set in the schema's order ("null"
	// included); empty means any JSON value.
	Types      []string
	Required   bool
	Enum       []any // allowed values (enum, or oneOf/anyOf consts)
	EnumTitles []string
	Default    any
	HasDefault bool
	Format     string
	// Items is an array's item schema (nil when it declares none).
	Items *Field
	// Properties are an object's own properties, in declared order.
	Properties []Field
	// Ref is the local "$ref" followed to read the field ("" when none).
	Ref string
}

// Type is the first declared type that is not "null": what a form shows
// and edits. "" means any JSON value (or only null).
func (f Field) Type() string {
	for _, t := range f.Types {
		if t != "null" {
			return t
		}
	}
	return ""
}

// Has reports whether t is among the declared types.
func (f Field) Has(t string) bool {
	for _, x := range f.Types {
		if x == t {
			return true
		}
	}
	return false
}

// TypeLabel is the declared type set as a person reads it: "string",
// "string|null", or "" for any JSON value.
func (f Field) TypeLabel() string { return strings.Join(f.Types, "|") }

// ItemsEnum is the enum of an array's items (a multi-select), with titles.
func (f Field) ItemsEnum() ([]any, []string) {
	if f.Items == nil {
		return nil, nil
	}
	return f.Items.Enum, f.Items.EnumTitles
}

// Defaults returns the default of every field that declares one. ok is
// false when a required field has none: there is no honest answer to give.
func Defaults(fs []Field) (map[string]any, bool) {
	out := map[string]any{}
	ok := true
	for _, f := range fs {
		if f.HasDefault {
			out[f.Name] = f.Default
		} else if f.Required {
			ok = false
		}
	}
	return out, ok
}
