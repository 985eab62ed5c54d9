package workflow

import (
	"encoding/json"
	"strings"
	"testing"
)

func TestTemplateRenderingIsTyped(t *testing.T) {
	sc := &scope{
		inputs: map[string]any{"n": int64(7), "s": "acme/app", "obj": map[string]any{"a": []any{"x", "y"}}, "b": false, "z": nil},
		steps: map[string]*stepValue{
			"find": {text: "found 3", structured: map[string]any{"total": json.Number("3"), "ids": []any{json.Number("1"), json.Number("2")}, "o": map[string]any{"k": "v"}}, hasStructured: true},
			"bad":  {text: "boom", isError: true},
		},
	}
	cases := []struct {
		src  string
		want string // JSON of the rendered value
	}{
		{"{{inputs.n}}", `7`},
		{"{{ inputs.n }}", `7`},
		{"{{inputs.b}}", `false`},
		{"{{inputs.z}}", `null`},
		{"{{inputs.obj}}", `{"a":["x","y"]}`},
		{"{{inputs.obj.a.1}}", `"y"`},
		{"{{steps.find.structured.ids}}", `[1,2]`},
		{"{{steps.find.structured.total}}", `3`},
		{"{{steps.find.structured}}", `{"ids":[1,2],"o":{"k":"v"},"total":3}`},
		{"{{steps.find.text}}", `"found 3"`},
		{"{{steps.bad.is_error}}", `true`},
		{"n={{inputs.n}}", `"n=7"`},
		{"repo:{{inputs.s}} is:open updated:<{{inputs.n}}d", `"repo:acme/app is:open updated:\u003c7d"`},
		{"ids {{steps.find.structured.ids}} / {{steps.find.structured.o}}", `"ids [1,2] / {\"k\":\"v\"}"`},
		{"b={{inputs.b}} z={{inputs.z}}", `"b=false z=null"`},
		{" {{inputs.n}}", `" 7"`}, // not exactly one lookup: text
	}
	for _, c := range cases {
		tp, err := parseTemplate(c.src)
		if err != nil {
			t.Fatalf("%s: %v", c.src, err)
		}
		v, err := tp.render(sc)
		if err != nil {
			t.Fatalf("%s: %v", c.src, err)
		}
		b, _ := json.Marshal(v)
		if string(b) != c.want {
			t.Errorf("%s → %s, want %s", c.src, b, c.want)
		}
	}
}

func TestTemplateAbsentOptionalInput(t *testing.T) {
	sc := &scope{inputs: map[string]any{"a": "x"}, steps: map[string]*stepValue{}}
	ta, _ := parseTemplate("{{inputs.limit}}")
	tb, _ := parseTemplate("limit={{inputs.limit}}")
	tree := map[string]any{"limit": ta, "text": tb, "list": []any{ta}, "keep": "{{not parsed}}"}
	v, err := renderValue(tree, sc)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := json.Marshal(v)
	if string(b) != `{"keep":"{{not parsed}}","list":[null],"text":"limit="}` {
		t.Fatalf("absent optional input rendered %s", b)
	}
}

func TestTemplateMissingValuesAreErrors(t *testing.T) {
	sc := &scope{
		inputs: map[string]any{"obj": map[string]any{"a": 1}},
		steps:  map[string]*stepValue{"plain": {text: "t"}, "s": {structured: map[string]any{"list": []any{1}}, hasStructured: true}},
	}
	for _, src := range []string{
		"{{steps.plain.structured}}",      // no structured content
		"{{steps.s.structured.nope}}",     // no member
		"{{steps.s.structured.list.5}}",   // index out of range
		"{{steps.s.structured.list.x}}",   // not an index
		"{{steps.s.structured.list.0.k}}", // into a number
		"{{inputs.obj.b}}",                // no member
		"{{inputs.missing.x}}",            // path into an absent input
		"{{steps.never.text}}",            // no such result
	} {
		tp, err := parseTemplate(src)
		if err != nil {
			t.Fatalf("%s: %v", src, err)
		}
		if _, err := tp.render(sc); err == nil {
			t.Errorf("%s rendered without a value", src)
		}
	}
}

func TestTemplateSyntax(t *testing.T) {
	for src, want := range map[string]string{
		"{{":                     "unclosed",
		"a {{inputs.x":           "unclosed",
		"{{}}":                   "empty",
		"{{ {{inputs.x}} }}":     "nested",
		"{{inputs}}":             "needs a name",
		"{{steps.a}}":            "needs a field",
		"{{steps.a.text.b}}":     "takes no path",
		"{{steps.a.result}}":     "not .result",
		"{{secrets.token}}":      "never interpolated",
		"{{ env.HOME }}":         "unknown root",
		"{{inputs.x + 1}}":       "not a lookup",
		"{{inputs..x}}":          "not a lookup",
		"{{inputs.x|default}}":   "not a lookup",
		"{{steps.a.is_error.x}}": "takes no path",
	} {
		_, err := parseTemplate(src)
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%q: got %v, want %q", src, err, want)
		}
	}
	tp, err := parseTemplate("a }} b {{inputs.x}} c")
	if err != nil || len(tp.Refs()) != 1 || tp.Refs()[0].Name != "x" {
		t.Fatalf("stray }} is literal text: %v %+v", err, tp)
	}
	b, _ := json.Marshal(tp)
	if string(b) != `"a }} b {{inputs.x}} c"` {
		t.Fatalf("a template marshals as its source: %s", b)
	}
}

// A gate asked before its run shows what the inputs already say; what only
// an earlier step can say stays as written, as does everything when the
// inputs are not known.
func TestTemplatePreview(t *testing.T) {
	tp, err := parseTemplate("Wipe {{inputs.target}} ({{inputs.opts.mode}}, {{inputs.limit}}) after {{steps.check.text}}?{{inputs.opts.nope}}")
	if err != nil {
		t.Fatal(err)
	}
	in := map[string]any{"target": "prod-db", "opts": map[string]any{"mode": "hard"}, "limit": json.Number("3")}
	if got, want := tp.Preview(in), "Wipe prod-db (hard, 3) after {{steps.check.text}}?{{inputs.opts.nope}}"; got != want {
		t.Errorf("Preview = %q, want %q", got, want)
	}
	if got := tp.Preview(nil); got != tp.Source {
		t.Errorf("Preview(nil) = %q, want the source", got)
	}
}
