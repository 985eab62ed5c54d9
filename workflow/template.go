package workflow

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
)

// Template is an authored string with {{…}} lookups, parsed at load. The
// only lookups are inputs.NAME[.path], steps.ID.text, steps.ID.is_error and
// steps.ID.structured[.path]; {{secrets.*}} is refused at load, so a secret
// can never reach tool arguments. There is no escape for a literal "{{".
//
// Rendering is typed: a template that is exactly one {{x}} yields the
// referenced JSON value with its type; a lookup embedded in other text is
// stringified (strings as they are, anything else as compact JSON).
// A Template marshals to JSON as its authored source.
type Template struct {
	Source string
	parts  []tpart
}

type tpart struct {
	lit string
	ref *Ref
}

// Ref is one {{…}} lookup.
type Ref struct {
	Root   string   // "inputs" or "steps"
	Name   string   // the input name or step id
	Field  string   // steps: text | structured | is_error
	Path   []string // into an object/array input, or into structured content
	Source string   // the lookup as written, without braces
}

// MarshalJSON writes the authored source.
func (t *Template) MarshalJSON() ([]byte, error) { return json.Marshal(t.Source) }

// Refs lists the template's lookups in order.
func (t *Template) Refs() []Ref {
	var out []Ref
	for _, p := range t.parts {
		if p.ref != nil {
			out = append(out, *p.ref)
		}
	}
	return out
}

// whole reports whether the template is exactly one lookup.
func (t *Template) whole() bool { return len(t.parts) == 1 && t.parts[0].ref != nil }

// hasTemplate reports whether s contains template syntax at all.
func hasTemplate(s string) bool { return strings.Contains(s, "{{") }

// parseTemplate parses s. It checks syntax and the lookup grammar; whether a
// lookup names something real is checkRef's job.
func parseTemplate(s string) (*Template, error) {
	t := &Template{Source: s}
	rest := s
	for {
		i := strings.Index(rest, "{{")
		if i < 0 {
			if rest != "" {
				t.parts = append(t.parts, tpart{lit: rest})
			}
			return t, nil
		}
		if i > 0 {
			t.parts = append(t.parts, tpart{lit: rest[:i]})
		}
		rest = rest[i+2:]
		j := strings.Index(rest, "}}")
		if j < 0 {
			return nil, fmt.Errorf("unclosed {{ in %q", s)
		}
		inner := strings.TrimSpace(rest[:j])
		if strings.Contains(inner, "{{") {
			return nil, fmt.Errorf("nested {{ in %q", s)
		}
		r, err := parseRef(inner)
		if err != nil {
			return nil, err
		}
		t.parts = append(t.parts, tpart{ref: r})
		rest = rest[j+2:]
	}
}

func parseRef(inner string) (*Ref, error) {
	if inner == "" {
		return nil, fmt.Errorf("empty {{}}: write {{inputs.NAME}} or {{steps.ID.text}}")
	}
	segs := strings.Split(inner, ".")
	for _, s := range segs {
		if !isPathSegment(s) {
			return nil, fmt.Errorf("{{%s}} is not a lookup: templates are {{inputs.NAME}} or {{steps.ID.text|structured.PATH|is_error}} (segments of letters, digits, _ and -), never expressions", inner)
		}
	}
	r := &Ref{Root: segs[0], Source: inner}
	switch r.Root {
	case "secrets":
		return nil, fmt.Errorf("{{%s}}: secrets are never interpolated into workflow arguments; declare the secret in the server's env in config.toml instead", inner)
	case "inputs":
		if len(segs) < 2 {
			return nil, fmt.Errorf("{{inputs}} needs a name: {{inputs.NAME}}")
		}
		r.Name, r.Path = segs[1], segs[2:]
	case "steps":
		if len(segs) < 3 {
			return nil, fmt.Errorf("{{%s}} needs a field: {{steps.ID.text}}, {{steps.ID.structured.PATH}} or {{steps.ID.is_error}}", inner)
		}
		r.Name, r.Field, r.Path = segs[1], segs[2], segs[3:]
		switch r.Field {
		case "text", "is_error":
			if len(r.Path) > 0 {
				return nil, fmt.Errorf("{{%s}}: .%s takes no path (only .structured does)", inner, r.Field)
			}
		case "structured":
		default:
			return nil, fmt.Errorf("{{%s}}: a step offers .text, .structured[.PATH] and .is_error, not .%s", inner, r.Field)
		}
	default:
		return nil, fmt.Errorf("{{%s}}: unknown root %q; lookups start with inputs. or steps.", inner, r.Root)
	}
	return r, nil
}

func isPathSegment(s string) bool {
	if s == "" {
		return false
	}
	for _, c := range s {
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == '-') {
			return false
		}
	}
	return true
}

// scope is what lookups read during a run.
type scope struct {
	inputs map[string]any
	steps  map[string]*stepValue
}

type stepValue struct {
	text          string
	structured    any // decoded with UseNumber
	hasStructured bool
	isError       bool
}

// absent marks an optional input that was not given and has no default: a
// whole-template object member that reads it is left out.
type absentValue struct{}

var absent = absentValue{}

func (sc *scope) lookup(r *Ref) (any, error) {
	switch r.Root {
	case "inputs":
		v, ok := sc.inputs[r.Name]
		if !ok {
			if len(r.Path) == 0 {
				return absent, nil
			}
			return nil, fmt.Errorf("{{%s}}: input %s was not given", r.Source, r.Name)
		}
		return walkPath(v, r.Path, r.Source)
	case "steps":
		sv, ok := sc.steps[r.Name]
		if !ok {
			return nil, fmt.Errorf("{{%s}}: step %s has no result", r.Source, r.Name)
		}
		switch r.Field {
		case "text":
			return sv.text, nil
		case "is_error":
			return sv.isError, nil
		case "structured":
			if !sv.hasStructured {
				return nil, fmt.Errorf("{{%s}}: step %s returned no structured content", r.Source, r.Name)
			}
			return walkPath(sv.structured, r.Path, r.Source)
		}
	}
	return nil, fmt.Errorf("{{%s}}: not a lookup", r.Source)
}

func walkPath(v any, path []string, src string) (any, error) {
	for i, seg := range path {
		switch c := v.(type) {
		case map[string]any:
			next, ok := c[seg]
			if !ok {
				return nil, fmt.Errorf("{{%s}}: no member %q at %s", src, seg, strings.Join(path[:i], "."))
			}
			v = next
		case []any:
			n, err := strconv.Atoi(seg)
			if err != nil || n < 0 || n >= len(c) {
				return nil, fmt.Errorf("{{%s}}: %q is not an index of a list of %d", src, seg, len(c))
			}
			v = c[n]
		default:
			return nil, fmt.Errorf("{{%s}}: cannot look up %q in a %s", src, seg, jsonKind(v))
		}
	}
	return v, nil
}

func jsonKind(v any) string {
	switch v.(type) {
	case nil:
		return "null"
	case string:
		return "string"
	case bool:
		return "boolean"
	case map[string]any:
		return "object"
	case []any:
		return "list"
	}
	return "number"
}

// render evaluates the template.
func (t *Template) render(sc *scope) (any, error) {
	if t.whole() {
		return sc.lookup(t.parts[0].ref)
	}
	var b strings.Builder
	for _, p := range t.parts {
		if p.ref == nil {
			b.WriteString(p.lit)
			continue
		}
		v, err := sc.lookup(p.ref)
		if err != nil {
			return nil, err
		}
		s, err := stringify(v)
		if err != nil {
			return nil, fmt.Errorf("{{%s}}: %w", p.ref.Source, err)
		}
		b.WriteString(s)
	}
	return b.String(), nil
}

func stringify(v any) (string, error) {
	switch x := v.(type) {
	case absentValue:
		return "", nil
	case string:
		return x, nil
	case json.Number:
		return x.String(), nil
	}
	b, err := json.Marshal(v)
	return string(b), err
}

// renderValue evaluates a template tree (maps, lists, scalars, *Template).
func renderValue(v any, sc *scope) (any, error) {
	switch x := v.(type) {
	case *Template:
		return x.render(sc)
	case map[string]any:
		out := make(map[string]any, len(x))
		for k, e := range x {
			r, err := renderValue(e, sc)
			if err != nil {
				return nil, err
			}
			if r == absent {
				continue
			}
			out[k] = r
		}
		return out, nil
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			r, err := renderValue(e, sc)
			if err != nil {
				return nil, err
			}
			if r == absent {
				r = nil
			}
			out[i] = r
		}
		return out, nil
	}
	return v, nil
}

// Preview renders what is known before a run: with the run's resolved
// inputs, each inputs lookup renders as the run will render it; a step
// lookup (known only once that step ran), an input that cannot be read and,
// with nil inputs, every lookup stay as written. A gate asked before the
// run (the machine surface asks a client before anything starts) shows it.
func (t *Template) Preview(inputs map[string]any) string {
	sc := &scope{inputs: inputs}
	var b strings.Builder
	for _, p := range t.parts {
		if p.ref == nil {
			b.WriteString(p.lit)
			continue
		}
		if p.ref.Root == "inputs" && inputs != nil {
			if v, err := sc.lookup(p.ref); err == nil {
				if s, err := stringify(v); err == nil {
					b.WriteString(s)
					continue
				}
			}
		}
		b.WriteString("{{" + p.ref.Source + "}}")
	}
	return b.String()
}

// renderString renders a template to text (gate messages).
func renderString(t *Template, sc *scope) (string, error) {
	v, err := t.render(sc)
	if err != nil {
		return "", err
	}
	return stringify(v)
}
