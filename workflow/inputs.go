package workflow

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"sort"
	"strconv"
	"strings"

	"github.com/google/jsonschema-go/jsonschema"

	"github.com/relavium/relavium/authored"
	"github.com/relavium/relavium/consent/canonjson"
	"github.com/relavium/relavium/engine"
	"github.com/relavium/relavium/fault"
	"github.com/relavium/relavium/fields"
)

const draft202012 = "https://json-schema.org/draft/2020-12/schema"

// propertySchema is the JSON Schema of one input.
func propertySchema(in *Input) (*jsonschema.Schema, error) {
	s := &jsonschema.Schema{Type: in.Type, Description: in.Description}
	if in.HasDefault {
		b, err := json.Marshal(in.Default)
		if err != nil {
			return nil, err
		}
		s.Default = b
	}
	if len(in.Enum) > 0 {
		s.Enum = append([]any(nil), in.Enum...)
	}
	return s, nil
}

// checkInputSchema checks every enum value against the type, then resolves
// the input's schema with its default validated. It returns the offending
// key ("enum" or "default") and a message, or "", "".
func checkInputSchema(in *Input) (key, msg string) {
	for _, v := range in.Enum {
		ts := &jsonschema.Schema{Schema: draft202012, Type: in.Type}
		rs, err := ts.Resolve(nil)
		if err == nil {
			err = rs.Validate(v)
		}
		if err != nil {
			return "enum", fmt.Sprintf("enum value %s is not %s", compact(v), article(in.Type))
		}
	}
	s, err := propertySchema(in)
	if err != nil {
		return "default", err.Error()
	}
	s.Schema = draft202012
	if _, err := s.Resolve(&jsonschema.ResolveOptions{ValidateDefaults: true}); err != nil {
		return "default", fmt.Sprintf("default %s does not fit input %s (%s%s)", compact(in.Default), in.Name, in.Type, enumNote(in))
	}
	return "", ""
}

func article(typ string) string {
	switch typ {
	case "integer", "array", "object":
		return "an " + typ
	}
	return "a " + typ
}

func enumNote(in *Input) string {
	if len(in.Enum) == 0 {
		return ""
	}
	parts := make([]string, len(in.Enum))
	for i, v := range in.Enum {
		parts[i] = compact(v)
	}
	return ", one of " + strings.Join(parts, ", ")
}

// compact renders v as one line of JSON for messages (no HTML escaping).
func compact(v any) string {
	var b strings.Builder
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return fmt.Sprint(v)
	}
	return strings.TrimSuffix(b.String(), "\n")
}

// compileSchemas builds the published input schema and the per-input
// validators. Load has already checked every input, so an error here is a
// bug; it is still reported, never ignored.
func (w *Workflow) compileSchemas() error {
	root := &jsonschema.Schema{
		Schema:               draft202012,
		Type:                 "object",
		Properties:           map[string]*jsonschema.Schema{},
		AdditionalProperties: &jsonschema.Schema{Not: &jsonschema.Schema{}},
	}
	if w.Description != "" {
		root.Description = w.Description
	}
	w.props = map[string]*jsonschema.Resolved{}
	for i := range w.Inputs {
		in := &w.Inputs[i]
		ps, err := propertySchema(in)
		if err != nil {
			return err
		}
		root.Properties[in.Name] = ps
		root.PropertyOrder = append(root.PropertyOrder, in.Name)
		if in.Required {
			root.Required = append(root.Required, in.Name)
		}
		own, err := propertySchema(in)
		if err != nil {
			return err
		}
		own.Schema = draft202012
		rs, err := own.Resolve(&jsonschema.ResolveOptions{ValidateDefaults: true})
		if err != nil {
			return fmt.Errorf("input %s: %w", in.Name, err)
		}
		w.props[in.Name] = rs
	}
	b, err := json.Marshal(root)
	if err != nil {
		return err
	}
	rs, err := root.Resolve(&jsonschema.ResolveOptions{ValidateDefaults: true})
	if err != nil {
		return err
	}
	w.inputSchema, w.root = b, rs
	return nil
}

// Field is the input as a fields.Field: one declared type, its enum,
// default and description, in the form every typing surface reads.
func (in *Input) Field() fields.Field {
	f := fields.Field{Name: in.Name, Types: []string{in.Type}, Required: in.Required, Description: in.Description,
		Default: in.Default, HasDefault: in.HasDefault}
	if len(in.Enum) > 0 {
		f.Enum = append([]any(nil), in.Enum...)
	}
	return f
}

// Fields are the workflow's inputs as fields.Fields, in declared order.
func (w *Workflow) Fields() []fields.Field {
	out := make([]fields.Field, len(w.Inputs))
	for i := range w.Inputs {
		out[i] = w.Inputs[i].Field()
	}
	return out
}

// ParseInputArgs turns --input KEY=VALUE words into typed values by the
// one typing rule every surface uses (fields.Field.Value): string as
// written; integer and number as decimal numbers; boolean true/false;
// array and object as JSON. A value a plan could not hold (an integer
// beyond float64's exact range) is refused, not rounded. Every problem is
// reported at once (E603, exit 2).
func ParseInputArgs(w *Workflow, args []string) (map[string]any, error) {
	out := map[string]any{}
	var problems []authored.Problem
	bad := func(field, format string, a ...any) {
		problems = append(problems, authored.Problem{Field: field, Message: fmt.Sprintf(format, a...)})
	}
	for _, a := range args {
		k, v, ok := strings.Cut(a, "=")
		if !ok || k == "" {
			bad("--input", "%q is not KEY=VALUE", a)
			continue
		}
		field := "--input " + k
		in := w.Input(k)
		if in == nil {
			bad(field, "workflow %s has no input %q%s", w.ID, k, declared(w))
			continue
		}
		if _, dup := out[k]; dup {
			bad(field, "input %s is given twice", k)
			continue
		}
		val, err := parseTyped(in, v)
		if err != nil {
			bad(field, "%v", err)
			continue
		}
		out[k] = val
	}
	if len(problems) > 0 {
		return nil, problemsError(CodeInputsInvalid, "invalid inputs for workflow "+w.ID, problems)
	}
	return out, nil
}

// parseTyped types s by the one rule, then holds the value as a plan does:
// an integer as int64, a number as float64, arrays and objects decoded
// with every number checked to survive float64.
func parseTyped(in *Input, s string) (any, error) {
	raw, err := in.Field().Value(s)
	var deep *fields.DepthError
	if errors.As(err, &deep) {
		return nil, fmt.Errorf("the JSON %s is refused before it is parsed: %s (column %d)", in.Type, deep.Over.Describe(), deep.Over.Col)
	}
	if err != nil {
		return nil, err
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, err // the rule gives JSON; a failure here is a bug, still reported
	}
	n, isNum := v.(json.Number)
	switch {
	case isNum && in.Type == "integer":
		// The rule keeps every digit; int64, and a plan (JSON, float64
		// numbers), may not hold them all.
		if err := canonjson.CheckInteger(string(n)); err != nil {
			return nil, err
		}
		i, err := strconv.ParseInt(string(n), 10, 64)
		if err != nil {
			return nil, fmt.Errorf("%q is not an integer", s)
		}
		return i, nil
	case isNum:
		if err := canonjson.CheckInteger(string(n)); err != nil {
			return nil, err
		}
		f, err := strconv.ParseFloat(string(n), 64)
		if err != nil {
			return nil, fmt.Errorf("%q is not a number", s)
		}
		return f, nil
	}
	return floatsOf(v)
}

// ResolveInputs validates given inputs against the workflow's schema and
// fills defaults: unknown names, missing required inputs and values of the
// wrong type or outside an enum are all reported at once (E603, exit 2).
// The returned map is new; given is not modified.
func (w *Workflow) ResolveInputs(given map[string]any) (map[string]any, error) {
	out, _, err := w.resolveInputs(given, false)
	return out, err
}

// ResolvePlanInputs is ResolveInputs for a plan a person reads before
// deciding what to pass (`run --plan`): a required input that was not
// given is returned in missing, not refused. Everything else (unknown
// names, values that do not fit) is refused as ResolveInputs refuses it.
func (w *Workflow) ResolvePlanInputs(given map[string]any) (inputs map[string]any, missing []string, err error) {
	return w.resolveInputs(given, true)
}

func (w *Workflow) resolveInputs(given map[string]any, allowMissing bool) (map[string]any, []string, error) {
	var missing []string
	out := make(map[string]any, len(w.Inputs))
	var problems []authored.Problem
	names := make([]string, 0, len(given))
	for k := range given {
		names = append(names, k)
	}
	sort.Strings(names)
	for _, k := range names {
		if w.Input(k) == nil {
			problems = append(problems, authored.Problem{Field: "inputs." + k, Message: fmt.Sprintf("workflow %s has no input %q%s", w.ID, k, declared(w))})
		}
	}
	for i := range w.Inputs {
		in := &w.Inputs[i]
		v, ok := given[in.Name]
		if !ok {
			if in.Required && allowMissing {
				missing = append(missing, in.Name)
			} else if in.Required {
				problems = append(problems, authored.Problem{Field: "inputs." + in.Name, Message: fmt.Sprintf("input %s (%s) is required%s", in.Name, in.Type, describeInput(in))})
			}
			continue
		}
		if err := w.props[in.Name].Validate(v); err != nil {
			problems = append(problems, authored.Problem{Field: "inputs." + in.Name, Message: fmt.Sprintf("%s does not fit input %s (%s%s)", compact(v), in.Name, in.Type, enumNote(in))})
			continue
		}
		// A value the plan could not spell faithfully (an integer beyond
		// float64) is the person's input mistake, refused here with the
		// others rather than later as a plan that cannot be encoded.
		if _, err := canonicalValue(v); err != nil {
			problems = append(problems, authored.Problem{Field: "inputs." + in.Name, Message: fmt.Sprintf("input %s: %v", in.Name, err)})
			continue
		}
		out[in.Name] = v
	}
	if len(problems) > 0 {
		return nil, nil, problemsError(CodeInputsInvalid, "invalid inputs for workflow "+w.ID, problems)
	}
	if err := w.root.ApplyDefaults(&out); err != nil {
		return nil, nil, &engine.Error{Base: fault.Base{ErrCode: CodeInputsInvalid, Msg: "cannot apply input defaults", Cause: err, Exit: fault.ExitUsage}}
	}
	return out, missing, nil
}

func describeInput(in *Input) string {
	if in.Description == "" {
		return ""
	}
	return ": " + in.Description
}

// floatsOf turns the json.Numbers of a decoded value into the float64s
// encoding/json would give, refusing an integer that would be rounded.
func floatsOf(v any) (any, error) {
	switch x := v.(type) {
	case json.Number:
		f, err := strconv.ParseFloat(string(x), 64)
		if err != nil {
			return nil, fmt.Errorf("%s is not a float64 number: %v", x, err)
		}
		return f, canonjson.CheckInteger(string(x))
	case []any:
		for i := range x {
			e, err := floatsOf(x[i])
			if err != nil {
				return nil, err
			}
			x[i] = e
		}
	case map[string]any:
		for k := range x {
			e, err := floatsOf(x[k])
			if err != nil {
				return nil, err
			}
			x[k] = e
		}
	}
	return v, nil
}
