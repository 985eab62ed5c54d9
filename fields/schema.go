package fields

import (
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
	// indexFrom is the member count from which an object looked up by a
	// $ref is indexed once instead of scanned on each lookup.
	indexFrom = 16
)

// Of lists an object schema's top-level properties as Fields, in the order
// the schema declares them. An empty schema has none.
func Of(schema json.RawMessage) ([]Field, error) {
	if len(strings.TrimSpace(string(schema))) == 0 {
		return nil, nil
	}
	t, err := parse(schema)
	if err != nil {
		return nil, fmt.Errorf("the schema is not a JSON object: %w", err)
	}
	return Read(t)
}

// Read is Of over a schema already parsed.
func Read(root Tree) ([]Field, error) {
	if root == nil || !root.IsObject() {
		return nil, errors.New("the schema is not a JSON object")
	}
	r := &reader{root: root, index: map[string]map[string]Tree{}}
	props := get(root, "properties")
	if props != nil && !props.IsObject() {
		return nil, errors.New("properties is not a JSON object")
	}
	return r.object(props, get(root, "required"), 0), nil
}

// reader reads property schemas against one root document (for $refs).
type reader struct {
	root  Tree
	index map[string]map[string]Tree // pointer prefix -> members of a large object
}

func (r *reader) object(props, required Tree, depth int) []Field {
	if props == nil || !props.IsObject() {
		return nil
	}
	req := map[string]bool{}
	for _, s := range stringList(required) {
		req[s] = true
	}
	out := make([]Field, 0, props.Len())
	for i := range props.Len() {
		name, v := props.Member(i)
		f := r.field(v, depth)
		f.Name, f.Required = name, req[name]
		out = append(out, f)
	}
	return out
}

// field reads one property schema. A schema that is not an object (true:
// any value) is an untyped field.
func (r *reader) field(t Tree, depth int) Field {
	var f Field
	if t == nil || !t.IsObject() {
		return f
	}
	if ref, ok := str(get(t, "$ref")); ok {
		if target := r.resolve(ref); target != nil {
			f = r.field(target, depth)
		}
		f.Ref = ref
	}
	// The property's own keywords stand beside (and over) the target's.
	if s, ok := str(get(t, "title")); ok {
		f.Title = s
	}
	if s, ok := str(get(t, "description")); ok {
		f.Description = s
	}
	if s, ok := str(get(t, "format")); ok {
		f.Format = s
	}
	branches := append(list(get(t, "anyOf")), list(get(t, "oneOf"))...)
	if ts := typeSet(get(t, "type")); len(ts) > 0 {
		f.Types = ts
	} else if len(f.Types) == 0 {
		f.Types = r.branchTypes(branches)
	}
	if e := get(t, "enum"); e != nil && e.IsArray() && e.Len() > 0 {
		f.Enum, f.EnumTitles = values(e), stringList(get(t, "enumNames"))
	} else if vals, titles := consts(append(list(get(t, "oneOf")), list(get(t, "anyOf"))...)); len(vals) > 0 {
		f.Enum, f.EnumTitles = vals, titles
	}
	if len(f.EnumTitles) != len(f.Enum) {
		f.EnumTitles = nil
	}
	if d := get(t, "default"); d != nil {
		if v, ok := d.Value(); ok {
			f.Default, f.HasDefault = v, true
		}
	}
	if depth < MaxNest {
		if it := get(t, "items"); it != nil && it.IsObject() {
			item := r.field(it, depth+1)
			f.Items = &item
		}
		if p := get(t, "properties"); p != nil && p.IsObject() {
			f.Properties = r.object(p, get(t, "required"), depth+1)
		}
	}
	return f
}

// resolve follows a local $ref (a JSON pointer into the root document) to
// a schema that is not itself a bare $ref, at most MaxRefHops times. A
// remote reference or an anchor is not resolved: nothing is fetched.
func (r *reader) resolve(ref string) Tree {
	for range MaxRefHops {
		target := r.pointer(ref)
		if target == nil {
			return nil
		}
		next, ok := str(get(target, "$ref"))
		if !ok {
			return target
		}
		ref = next
	}
	return nil
}

func (r *reader) pointer(ref string) Tree {
	rest, ok := strings.CutPrefix(ref, "#")
	if !ok || (rest != "" && !strings.HasPrefix(rest, "/")) {
		return nil
	}
	cur, prefix := r.root, "#"
	if rest == "" {
		return cur
	}
	for _, tok := range strings.Split(rest[1:], "/") {
		key := strings.ReplaceAll(strings.ReplaceAll(tok, "~1", "/"), "~0", "~")
		switch {
		case cur.IsObject() && cur.Len() >= indexFrom:
			idx, ok := r.index[prefix]
			if !ok {
				idx = make(map[string]Tree, cur.Len())
				for i := range cur.Len() {
					if k, v := cur.Member(i); idx[k] == nil {
						idx[k] = v
					}
				}
				r.index[prefix] = idx
			}
			cur = idx[key]
		case cur.IsObject():
			cur = get(cur, key)
		case cur.IsArray():
			i, err := strconv.Atoi(key)
			if err != nil || i < 0 || i >= cur.Len() || key != strconv.Itoa(i) {
				return nil
			}
			cur = cur.Elem(i)
		default:
			return nil
		}
		if cur == nil {
			return nil
		}
		prefix += "/" + tok
	}
	return cur
}

// branchTypes is the type set of an anyOf/oneOf whose every branch is a
// plain type (or a $ref to one): Optional[str] as a generator writes it.
// Any other branch (a const, a constraint-only schema) gives nil.
func (r *reader) branchTypes(branches []Tree) []string {
	var out []string
	for _, b := range branches {
		if b == nil || !b.IsObject() || get(b, "const") != nil {
			return nil
		}
		if ref, ok := str(get(b, "$ref")); ok {
			if b = r.resolve(ref); b == nil {
				return nil
			}
		}
		ts := typeSet(get(b, "type"))
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

// consts reads a oneOf/anyOf whose every branch is a const (a titled enum).
func consts(opts []Tree) ([]any, []string) {
	var vals []any
	var titles []string
	for _, o := range opts {
		c := get(o, "const")
		if c == nil {
			return nil, nil // not an enum of consts
		}
		v, ok := c.Value()
		if !ok || v == nil {
			return nil, nil
		}
		title, _ := str(get(o, "title"))
		vals = append(vals, v)
		titles = append(titles, title)
	}
	return vals, titles
}

// get is an object's first member named key, or nil.
func get(t Tree, key string) Tree {
	if t == nil || !t.IsObject() {
		return nil
	}
	for i := range t.Len() {
		if k, v := t.Member(i); k == key {
			return v
		}
	}
	return nil
}

func str(t Tree) (string, bool) {
	if t == nil {
		return "", false
	}
	return t.Str()
}

func list(t Tree) []Tree {
	if t == nil || !t.IsArray() {
		return nil
	}
	out := make([]Tree, t.Len())
	for i := range out {
		out[i] = t.Elem(i)
	}
	return out
}

// stringList is an array of strings (nil when any element is not one).
func stringList(t Tree) []string {
	var out []string
	for _, e := range list(t) {
		s, ok := e.Str()
		if !ok {
			return nil
		}
		out = append(out, s)
	}
	return out
}

func values(t Tree) []any {
	var out []any
	for _, e := range list(t) {
		v, ok := e.Value()
		if !ok {
			return nil
		}
		out = append(out, v)
	}
	return out
}

// typeSet reads "type": a string, or an array of strings.
func typeSet(t Tree) []string {
	if s, ok := str(t); ok && s != "" {
		return []string{s}
	}
	return stringList(t)
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}
