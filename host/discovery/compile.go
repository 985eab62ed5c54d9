package discovery

import (
	"encoding/json"
	"net/url"
	"regexp"
	"strconv"
	"strings"

	"github.com/google/jsonschema-go/jsonschema"
)

// Keywords that apply their subschemas to the SAME instance location. A
// cycle through only these (and $ref) never consumes the instance, so
// jsonschema-go would recurse until the Go stack overflows — a crash no
// recover() can catch. Cycles through properties/items/... are ordinary
// recursive schemas (a linked list) and are fine.
var inPlaceSingle = []string{"not", "if", "then", "else"}
var inPlaceArrays = []string{"allOf", "anyOf", "oneOf"}
var inPlaceMaps = []string{"dependentSchemas", "dependencies"}

// refCycle reports a schema loop that never consumes the instance.
func (w *schemaWalk) refCycle(root *node) *skip {
	isSchema := make(map[*node]bool, len(w.schemas))
	for _, s := range w.schemas {
		isSchema[s] = true
	}
	edges := func(s *node) []*node {
		var out []*node
		if ref, ok := w.refs[s]; ok {
			if t := resolveLocalRef(root, w.anchors, ref); t != nil && isSchema[t] {
				out = append(out, t)
			}
		}
		for _, k := range inPlaceSingle {
			if v := s.get(k); v != nil && isSchema[v] {
				out = append(out, v)
			}
		}
		for _, k := range inPlaceArrays {
			if v := s.get(k); v != nil && v.kind == kArray {
				for _, e := range v.arr {
					if isSchema[e] {
						out = append(out, e)
					}
				}
			}
		}
		for _, k := range inPlaceMaps {
			if v := s.get(k); v != nil && v.kind == kObject {
				for _, m := range v.obj {
					if isSchema[m.val] {
						out = append(out, m.val)
					}
				}
			}
		}
		return out
	}
	const (
		white = iota
		grey
		black
	)
	color := make(map[*node]int, len(w.schemas))
	type frame struct {
		n     *node
		next  []*node
		index int
	}
	for _, start := range w.schemas {
		if color[start] != white {
			continue
		}
		stack := []frame{{n: start, next: edges(start)}}
		color[start] = grey
		for len(stack) > 0 {
			top := &stack[len(stack)-1]
			if top.index == len(top.next) {
				color[top.n] = black
				stack = stack[:len(stack)-1]
				continue
			}
			t := top.next[top.index]
			top.index++
			switch color[t] {
			case grey:
				return skipf(ReasonSchemaRefCycle, "%s: a $ref/allOf/anyOf/oneOf/not/if loop never reaches a keyword that consumes the instance", w.field)
			case white:
				color[t] = grey
				stack = append(stack, frame{n: t, next: edges(t)})
			}
		}
	}
	return nil
}

// resolveLocalRef resolves "#", "#/json/pointer" or "#anchor" in root.
func resolveLocalRef(root *node, anchors map[string]*node, ref string) *node {
	frag := strings.TrimPrefix(ref, "#")
	if f, err := url.PathUnescape(frag); err == nil {
		frag = f
	}
	if frag == "" {
		return root
	}
	if !strings.HasPrefix(frag, "/") {
		return anchors[frag]
	}
	cur := root
	for _, tok := range strings.Split(frag[1:], "/") {
		tok = strings.ReplaceAll(strings.ReplaceAll(tok, "~1", "/"), "~0", "~")
		switch cur.kind {
		case kObject:
			cur = cur.get(tok)
		case kArray:
			i, err := strconv.Atoi(tok)
			if err != nil || i < 0 || i >= len(cur.arr) {
				return nil
			}
			cur = cur.arr[i]
		default:
			return nil
		}
		if cur == nil {
			return nil
		}
	}
	return cur
}

// compileSchema compiles a checked schema with jsonschema-go. No loader is
// passed, so nothing is ever fetched. The root $id is left out: with only
// local references it changes nothing, and without it every error names
// schema locations as JSON pointers.
func compileSchema(root *node, field string) (*jsonschema.Resolved, []byte, *skip) {
	return compileFrom(root, compileSource(root), field)
}

// compileFrom is compileSchema with root's compile source already built.
func compileFrom(root *node, src []byte, field string) (*jsonschema.Resolved, []byte, *skip) {
	s, ok := buildSchema(withoutID(root))
	if !ok {
		s = &jsonschema.Schema{}
		if err := json.Unmarshal(src, s); err != nil {
			return nil, nil, skipf(ReasonSchemaInvalid, "%s does not compile: %s", field, show(err.Error()))
		}
	}
	rs, err := s.Resolve(&jsonschema.ResolveOptions{})
	if err != nil {
		msg := err.Error()
		code := ReasonSchemaInvalid
		switch {
		case strings.Contains(msg, "regexp"):
			if sk := badPattern(root, field); sk != nil {
				return nil, nil, sk
			}
			code = ReasonSchemaBadPattern
		case strings.Contains(msg, "remote"):
			code = ReasonSchemaRemoteRef
		}
		return nil, nil, skipf(code, "%s does not compile: %s", field, show(msg))
	}
	return rs, src, nil
}

// compileSource is the canonical JSON the validator is built from.
func compileSource(root *node) []byte {
	return appendCanonical(nil, withoutID(root))
}

// withoutID is root without its top-level $id member.
func withoutID(root *node) *node {
	if root.kind != kObject || root.get("$id") == nil {
		return root
	}
	cp := *root
	cp.obj = make([]member, 0, len(root.obj))
	for _, m := range root.obj {
		if m.key != "$id" {
			cp.obj = append(cp.obj, m)
		}
	}
	return &cp
}

// rootIsObjectType reports whether the root schema declares type "object"
// (or ["object"]), as MCP requires of an inputSchema.
func rootIsObjectType(root *node) bool {
	t := root.get("type")
	if t == nil {
		return false
	}
	switch t.kind {
	case kString:
		return t.str == "object"
	case kArray:
		return len(t.arr) == 1 && t.arr[0].kind == kString && t.arr[0].str == "object"
	}
	return false
}

// badPattern finds the first pattern or patternProperties key (in
// declaration order, schema positions only) that RE2 cannot compile and
// names it by its JSON pointer. It runs only after the compiler refused a
// regular expression, so a good schema never pays for it.
func badPattern(n *node, field string) *skip {
	var walk func(n *node, ptr string) *skip
	walk = func(n *node, ptr string) *skip {
		if n.kind != kObject {
			return nil
		}
		for _, m := range n.obj {
			kp := ptr + "/" + pointerToken(m.key)
			v := m.val
			switch k := m.key; {
			case k == "pattern" && v.kind == kString:
				if _, err := regexp.Compile(v.str); err != nil {
					return skipf(ReasonSchemaBadPattern, "%s%s %s does not compile as an RE2 regular expression: %s", field, kp, show(v.str), show(err.Error()))
				}
			case schemaMapKeywords[k] || k == "dependencies":
				if v.kind != kObject {
					continue
				}
				for _, sub := range v.obj {
					if k == "patternProperties" {
						if _, err := regexp.Compile(sub.key); err != nil {
							return skipf(ReasonSchemaBadPattern, "%s%s key %s does not compile as an RE2 regular expression: %s", field, kp, show(sub.key), show(err.Error()))
						}
					}
					if sk := walk(sub.val, kp+"/"+pointerToken(sub.key)); sk != nil {
						return sk
					}
				}
			case schemaArrayKeywords[k] || k == "items" && v.kind == kArray:
				if v.kind != kArray {
					continue
				}
				for j, e := range v.arr {
					if sk := walk(e, kp+"/"+strconv.Itoa(j)); sk != nil {
						return sk
					}
				}
			case singleSchemaKeywords[k] || k == "items":
				if sk := walk(v, kp); sk != nil {
					return sk
				}
			}
		}
		return nil
	}
	return walk(n, "")
}
