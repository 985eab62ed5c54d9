package nesting

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/goccy/go-yaml/ast"
	"github.com/goccy/go-yaml/parser"
	"github.com/pelletier/go-toml/v2"
)

// astDepth is the nesting of collections in goccy/go-yaml's tree, counted
// as the scan counts it (a top-level mapping is 1). The walk is bounded by
// the scan's own figure in the tests, so the recursion stays shallow.
func astDepth(n ast.Node) int {
	switch v := n.(type) {
	case *ast.DocumentNode:
		return astDepth(v.Body)
	case *ast.MappingNode:
		m := 0
		for _, mv := range v.Values {
			m = max(m, astDepth(mv.Key), astDepth(mv.Value))
		}
		return 1 + m
	case *ast.MappingValueNode:
		return 1 + max(astDepth(v.Key), astDepth(v.Value))
	case *ast.MappingKeyNode:
		return astDepth(v.Value)
	case *ast.SequenceNode:
		m := 0
		for _, it := range v.Values {
			m = max(m, astDepth(it))
		}
		return 1 + m
	case *ast.AnchorNode:
		return astDepth(v.Value)
	case *ast.TagNode:
		return astDepth(v.Value)
	}
	return 0
}

// jsonDepth is the nesting of a decoded JSON value.
func jsonDepth(v any) int {
	switch x := v.(type) {
	case map[string]any:
		m := 0
		for _, e := range x {
			m = max(m, jsonDepth(e))
		}
		return 1 + m
	case []any:
		m := 0
		for _, e := range x {
			m = max(m, jsonDepth(e))
		}
		return 1 + m
	}
	return 0
}

var yamlSeeds = []string{
	"a: [1, [2, {b: c}]]\n",
	"- - - - a\n",
	"a:\n  b:\n    c: [d]\n",
	"key:\n- a\n- b\nother: c\n",
	"? a\n: b\n",
	"? - a\n  - b\n: c\n",
	"a: |\n  [[[[\n  text\nb: [c]\n",
	"a: >-\n   {{{\nb: 1\n",
	"a: \"[[[\\\"\" \nb: '[[['' ]'\n",
	"a: x # [[[[\nb: [ # ]]]\n  c]\n",
	"- a: - b\n",
	"mcp_servers: [[[[a]]]]\n",
	"steps: {a: {a: {a: 1}}}\n",
	"a:\n  - b:\n    - c: [ {d: e}, f ]\n",
	"a: b\n  [c\n",
	"- x\n  - y\n",
	"&a [*a, !t {b: c}]\n",
	"--- [a]\n--- {b: c}\n",
	"a: \"x\ty\" [[\n",
	"a\n  - b\n  [c]\n",
	"[a: b, c: [d: e]]\n",
	"\t- a\n",
	"a:\n\t- b\n",
	"<<: {a: b}\n",
	"%YAML 1.2\n---\n[a]\n",
}

func FuzzYAMLDepth(f *testing.F) {
	for _, s := range yamlSeeds {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) > 4096 {
			return
		}
		st, over := YAML(data, Limits{})
		if over != nil {
			t.Fatalf("no caps, yet refused: %v", over)
		}
		capped, over := YAML(data, Limits{MaxDepth: 8})
		if (over == nil) != (st.Depth <= 8) {
			t.Fatalf("cap 8: depth %d, refusal %v", st.Depth, over)
		}
		if over == nil && capped != st {
			t.Fatalf("capped scan measured %+v, uncapped %+v", capped, st)
		}
		if st.Depth > 200 {
			return // deeper than the walk below should recurse
		}
		f, err := parser.ParseBytes(data, 0)
		if err != nil {
			return
		}
		for _, d := range f.Docs {
			if got := astDepth(d); got > st.Depth {
				t.Fatalf("goccy built depth %d, the scan measured %d, for %q", got, st.Depth, data)
			}
		}
	})
}

func FuzzJSONDepth(f *testing.F) {
	for _, s := range []string{`{"a":[1,{"b":"]]"}]}`, `[[[["\"["]]]]`, `"x"`, `{"a\\":[]}`, `[1, 2.5e3, true, null]`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		st, over := JSON(data, Limits{})
		if over != nil {
			t.Fatalf("no caps, yet refused: %v", over)
		}
		var v any
		if json.Unmarshal(data, &v) != nil {
			return
		}
		if got := jsonDepth(v); got > st.Depth {
			t.Fatalf("encoding/json built depth %d, the scan measured %d, for %q", got, st.Depth, data)
		}
		dec := json.NewDecoder(bytes.NewReader(data))
		dec.UseNumber()
		var w any
		if dec.Decode(&w) == nil && jsonDepth(w) > st.Depth {
			t.Fatalf("Decoder built depth %d, the scan measured %d", jsonDepth(w), st.Depth)
		}
	})
}

func TestYAMLSeedsBoundGoccy(t *testing.T) {
	for _, s := range yamlSeeds {
		st, _ := YAML([]byte(s), Limits{})
		f, err := parser.ParseBytes([]byte(s), 0)
		if err != nil {
			continue
		}
		got := 0
		for _, d := range f.Docs {
			got = max(got, astDepth(d))
		}
		if got > st.Depth {
			t.Errorf("%q: goccy depth %d > scanned %d", s, got, st.Depth)
		}
		if st.Depth > got+2 {
			t.Logf("%q: scanned %d, goccy %d (over-estimate)", s, st.Depth, got)
		}
	}
	_ = strings.Repeat
}

func tomlDepth(v any) int {
	switch x := v.(type) {
	case map[string]any:
		m := 0
		for _, e := range x {
			m = max(m, tomlDepth(e))
		}
		return 1 + m
	case []any:
		m := 0
		for _, e := range x {
			m = max(m, tomlDepth(e))
		}
		return 1 + m
	case []map[string]any:
		m := 0
		for _, e := range x {
			m = max(m, tomlDepth(e))
		}
		return 1 + m
	}
	return 0
}

func FuzzTOMLDepth(f *testing.F) {
	for _, s := range []string{
		"a = [[1], [2, [3]]]\n", "[a.b.c]\nd = {e = {f = 1}}\n", "[[x.y]]\nz = 1\n", "a.b.c = \"]]\"\n",
		"s = '''\n[[[\n'''\nt = \"\"\"\\\"[\"\"\"\n", "# [[[\n[\"a.b\".c]\nk = [ # ]\n 1]\n", "a = { b.c = [ {d = 1} ] }\n",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		st, over := TOML(data, Limits{})
		if over != nil {
			t.Fatalf("no caps, yet refused: %v", over)
		}
		if st.Depth > 200 {
			return
		}
		var v map[string]any
		if toml.Unmarshal(data, &v) != nil {
			return
		}
		if got := tomlDepth(v); got > st.Depth {
			t.Fatalf("go-toml built depth %d, the scan measured %d, for %q", got, st.Depth, data)
		}
	})
}
