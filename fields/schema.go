package fields

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"
)

const (
	// MaxRefHops bounds a chain of local $refs (a cycle ends here too).
	MaxRefHops = 8
	// MaxNest bounds how deep items and nested properties are read.
	MaxNest = 4
)

// prop is the part of a property schema a field reads.
type prop struct {
	Ref         string            `json:"$ref"`
	Type        json.RawMessage   `json:"type"`
	Title       string            `json:"title"`
	Description string            `json:"description"`
	Format      string            `json:"format"`
	Enum        []any             `json:"enum"`
	EnumNames   []string          `json:"enumNames"`
	OneOf       []json.RawMessage `json:"oneOf"`
	AnyOf       []json.RawMessage `json:"anyOf"`
	Default     json.RawMessage   `json:"default"`
	Items       json.RawMessage   `json:"items"`
	Properties  json.RawMessage   `json:"properties"`
	Required    []string          `json:"required"`
}

// reader reads property schemas against one root document (for $refs).
// Each container a pointer walks through is decoded once, so a schema of
// many properties referring to the same $defs costs its size once, not
// once per reference.
type reader struct {
	root json.RawMessage
	objs map[string]map[string]json.RawMessage // pointer prefix -> members
	arrs map[string][]json.RawMessage          // pointer prefix -> elements
}

// Of lists an object schema's top-level properties as Fields, in the order
// the schema declares them. An empty schema has none.
func Of(schema json.RawMessage) ([]Field, error) {
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
	r := &reader{root: schema, objs: map[string]map[string]json.RawMessage{}, arrs: map[string][]json.RawMessage{}}
	return r.object(root.Properties, root.Required, 0)
}

func (r *reader) object(props json.RawMessage, required []string, depth int) ([]Field, error) {
	names, raws, err := orderedMembers(props)
	if err != nil {
		return nil, err
	}
	req := map[string]bool{}
	for _, n := range required {
		req[n] = true
	}
	out := make([]Field, 0, len(names))
	for i, name := range names {
		f := r.field(raws[i], depth)
		f.Name, f.Required = name, req[name]
		out = append(out, f)
	}
	return out, nil
}

// field reads one property schema. A schema that is not an object (true:
// any value) is an untyped field.
func (r *reader) field(raw json.RawMessage, depth int) Field {
	var p prop
	if json.Unmarshal(raw, &p) != nil {
		return Field{}
	}
	var f Field
	if p.Ref != "" {
		f.Ref = p.Ref
		if target, ok := r.resolve(p.Ref); ok {
			f = r.field(target, depth)
			f.Ref = p.Ref
		}
	}
	// The property's own keywords stand beside (and over) the target's.
	if p.Title != "" {
		f.Title = p.Title
	}
	if p.Description != "" {
		f.Description = p.Description
	}
	if p.Format != "" {
		f.Format = p.Format
	}
	if ts := typeSet(p.Type); len(ts) > 0 {
		f.Types = ts
	} else if len(f.Types) == 0 {
		f.Types = r.branchTypes(append(p.AnyOf, p.OneOf...))
	}
	if len(p.Enum) > 0 {
		f.Enum, f.EnumTitles = p.Enum, p.EnumNames
	} else if vals, titles := consts(append(p.OneOf, p.AnyOf...)); len(vals) > 0 {
		f.Enum, f.EnumTitles = vals, titles
	}
	if len(f.EnumTitles) != len(f.Enum) {
		f.EnumTitles = nil
	}
	if len(p.Default) > 0 {
		var d any
		if json.Unmarshal(p.Default, &d) == nil {
			f.Default, f.HasDefault = d, true
		}
	}
	if depth < MaxNest {
		if len(p.Items) > 0 && p.Items[0] == '{' {
			it := r.field(p.Items, depth+1)
			f.Items = &it
		}
		if len(p.Properties) > 0 {
			if sub, err := r.object(p.Properties, p.Required, depth+1); err == nil {
				f.Properties = sub
			}
		}
	}
	return f
}

// resolve follows a local $ref (a JSON pointer into the root document) to
// a schema that is not itself a bare $ref, at most MaxRefHops times.
func (r *reader) resolve(ref string) (json.RawMessage, bool) {
	for range MaxRefHops {
		target, ok := r.pointer(ref)
		if !ok {
			return nil, false
		}
		var next struct {
			Ref string `json:"$ref"`
		}
		if json.Unmarshal(target, &next) != nil || next.Ref == "" {
			return target, true
		}
		ref = next.Ref
	}
	return nil, false
}

// pointer reads a "#/a/b" JSON pointer in the root document. Anything else
// (a remote reference, an anchor) is not resolved: nothing is fetched.
func (r *reader) pointer(ref string) (json.RawMessage, bool) {
	rest, ok := strings.CutPrefix(ref, "#")
	if !ok || (rest != "" && !strings.HasPrefix(rest, "/")) {
		return nil, false
	}
	cur, prefix := r.root, "#"
	if rest == "" {
		return cur, true
	}
	for _, tok := range strings.Split(rest[1:], "/") {
		key := strings.ReplaceAll(strings.ReplaceAll(tok, "~1", "/"), "~0", "~")
		next, ok := r.member(prefix, cur, key)
		if !ok {
			return nil, false
		}
		cur, prefix = next, prefix+"/"+tok
	}
	return cur, true
}

// member is key of the container at prefix (decoded once, then cached).
func (r *reader) member(prefix string, cur json.RawMessage, key string) (json.RawMessage, bool) {
	if obj, ok := r.objs[prefix]; ok {
		v, ok := obj[key]
		return v, ok
	}
	if arr, ok := r.arrs[prefix]; ok {
		return index(arr, key)
	}
	var obj map[string]json.RawMessage
	if json.Unmarshal(cur, &obj) == nil && obj != nil {
		r.objs[prefix] = obj
		v, ok := obj[key]
		return v, ok
	}
	var arr []json.RawMessage
	if json.Unmarshal(cur, &arr) != nil {
		return nil, false
	}
	r.arrs[prefix] = arr
	return index(arr, key)
}

func index(arr []json.RawMessage, key string) (json.RawMessage, bool) {
	i, err := strconv.Atoi(key)
	if err != nil || i < 0 || i >= len(arr) || key != strconv.Itoa(i) {
		return nil, false
	}
	return arr[i], true
}

// typeSet reads "type": a string, or an array of strings.
func typeSet(raw json.RawMessage) []string {
	var s string
	if json.Unmarshal(raw, &s) == nil && s != "" {
		return []string{s}
	}
	var list []string
	if json.Unmarshal(raw, &list) == nil && len(list) > 0 {
		return list
	}
	return nil
}

// branchTypes is the type set of an anyOf/oneOf whose every branch is a
// plain type (or a $ref to one): Optional[str] as a generator writes it.
// Any other branch (a const, a constraint-only schema) gives nil.
func (r *reader) branchTypes(branches []json.RawMessage) []string {
	var out []string
	for _, b := range branches {
		var p struct {
			Ref   string          `json:"$ref"`
			Type  json.RawMessage `json:"type"`
			Const json.RawMessage `json:"const"`
		}
		if json.Unmarshal(b, &p) != nil || len(p.Const) > 0 {
			return nil
		}
		if p.Ref != "" {
			target, ok := r.resolve(p.Ref)
			if !ok || json.Unmarshal(target, &p) != nil {
				return nil
			}
		}
		ts := typeSet(p.Type)
		if len(ts) == 0 {
			return nil
		}
		for _, t := range ts {
			if !contains(out, t) {
				out = append(out, t)
			}
		}
	}
	return out
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// consts reads a oneOf/anyOf whose every branch is a const (a titled enum).
func consts(opts []json.RawMessage) ([]any, []string) {
	var vals []any
	var titles []string
	for _, raw := range opts {
		var o struct {
			Const json.RawMessage `json:"const"`
			Title string          `json:"title"`
		}
		var v any
		if json.Unmarshal(raw, &o) != nil || len(o.Const) == 0 || json.Unmarshal(o.Const, &v) != nil || v == nil {
			return nil, nil // not an enum of consts
		}
		vals = append(vals, v)
		titles = append(titles, o.Title)
	}
	return vals, titles
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
