package workflow

import (
	"encoding/json"
	"fmt"
	"math"
	"sort"
	"strconv"
	"strings"

	"github.com/google/jsonschema-go/jsonschema"

	"github.com/relavium/relavium/consent/canonjson"
	"github.com/relavium/relavium/nesting"

	"github.com/relavium/relavium/engine"

	"github.com/relavium/relavium/authored"
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

// ParseInputArgs turns --input KEY=VALUE words into typed values, each
// parsed by its declared type: string as written; integer and number as
// decimal numbers; boolean true/false; array and object as JSON. Every
// problem is reported at once (E603, exit 2).
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
		val, err := parseTyped(in.Type, v)
		if err != nil {
			bad(field, "%v", err)
			continue
		}
		out[k] = val
	}
	if len(problems) > 0 {
		return nil, &ProblemsError{ErrCode: engine.CodeInputsInvalid, Summary: "invalid inputs for workflow " + w.ID, Problems: problems}
	}
	return out, nil
}

func parseTyped(typ, s string) (any, error) {
	switch typ {
	case "string":
		return s, nil
	case "integer":
		lit := strings.TrimSpace(s)
		n, err := strconv.ParseInt(lit, 10, 64)
		if err != nil {
			return nil, fmt.Errorf("%q is not an integer", s)
		}
		// int64 holds it, but a plan (JSON, float64 numbers) could not.
		if err := canonjson.CheckInteger(lit); err != nil {
			return nil, err
		}
		return n, nil
	case "number":
		lit := strings.TrimSpace(s)
		f, err := strconv.ParseFloat(lit, 64)
		if err != nil || math.IsInf(f, 0) || math.IsNaN(f) {
			return nil, fmt.Errorf("%q is not a number", s)
		}
		if err := canonjson.CheckInteger(lit); err != nil {
			return nil, err
		}
		return f, nil
	case "boolean":
		switch strings.ToLower(strings.TrimSpace(s)) {
		case "true":
			return true, nil
		case "false":
			return false, nil
		}
		return nil, fmt.Errorf("%q is not a boolean: write true or false", s)
	case "array", "object":
		if _, over := nesting.JSON([]byte(s), nesting.Limits{MaxDepth: nesting.JSONDepth}); over != nil {
			return nil, fmt.Errorf("the JSON %s is refused before it is parsed: %s (column %d)", typ, over.Describe(), over.Col)
		}
		var v any
		if err := json.Unmarshal([]byte(s), &v); err != nil {
			return nil, fmt.Errorf("%q is not a JSON %s: %v", s, typ, err)
		}
		// Again with the literals kept, so no integer is rounded unseen.
		dec := json.NewDecoder(strings.NewReader(s))
		dec.UseNumber()
		if err := dec.Decode(&v); err != nil {
			return nil, fmt.Errorf("%q is not a JSON %s: %v", s, typ, err)
		}
		var err error
		if v, err = floatsOf(v); err != nil {
			return nil, err
		}
		if _, isArr := v.([]any); typ == "array" && !isArr {
			return nil, fmt.Errorf("%q is not a JSON array", s)
		}
		if _, isObj := v.(map[string]any); typ == "object" && !isObj {
			return nil, fmt.Errorf("%q is not a JSON object", s)
		}
		return v, nil
	}
	return nil, fmt.Errorf("unknown input type %q", typ)
}

// ResolveInputs validates given inputs against the workflow's schema and
// fills defaults: unknown names, missing required inputs and values of the
// wrong type or outside an enum are all reported at once (E603, exit 2).
// The returned map is new; given is not modified.
func (w *Workflow) ResolveInputs(given map[string]any) (map[string]any, error) {
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
			if in.Required {
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
		return nil, &ProblemsError{ErrCode: engine.CodeInputsInvalid, Summary: "invalid inputs for workflow " + w.ID, Problems: problems}
	}
	if err := w.root.ApplyDefaults(&out); err != nil {
		return nil, &engine.Error{ErrCode: engine.CodeInputsInvalid, Msg: "cannot apply input defaults", Cause: err, Exit: exitUsage}
	}
	return out, nil
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
