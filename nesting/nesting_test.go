package nesting

import (
	"os/exec"
	"runtime"
	"strings"
	"testing"

	"github.com/goccy/go-yaml/parser"
)

// hostile builds the nesting forms the issue names, each depth levels deep
// (the indented block forms at most 1000: their size grows with the square).
func hostile(depth int) map[string]string {
	var block strings.Builder
	for i := 0; i < min(depth, 1000); i++ {
		block.WriteString(strings.Repeat(" ", i))
		block.WriteString("a:\n")
	}
	var mixed strings.Builder
	mixed.WriteString("mcp_servers:\n")
	for i := 0; i < depth/3; i++ {
		mixed.WriteString("- a: [ {b: ")
	}
	var seqBlock strings.Builder
	for i := 0; i < min(depth, 1000); i++ {
		seqBlock.WriteString(strings.Repeat(" ", i))
		seqBlock.WriteString("-\n")
	}
	return map[string]string{
		"flow sequence": "mcp_servers: " + strings.Repeat("[", depth) + strings.Repeat("]", depth) + "\n",
		"flow mapping":  "steps: " + strings.Repeat("{a: ", depth) + "1" + strings.Repeat("}", depth) + "\n",
		"block mapping": block.String(),
		"block seq":     seqBlock.String(),
		"compact seq":   strings.Repeat("- ", depth) + "a\n",
		"complex keys":  strings.Repeat("? ", depth) + "a\n",
		"mixed":         mixed.String(),
		"flow lines":    "a:\n" + strings.Repeat("  [\n", depth),
		"anchored":      strings.Repeat("- &x ", depth) + "a\n",
	}
}

func TestYAMLRefusesEveryNestingForm(t *testing.T) {
	for name, doc := range hostile(30000) {
		st, over := YAML([]byte(doc), Limits{MaxDepth: FileDepth, MaxNodes: FileNodes})
		if over == nil {
			t.Errorf("%s: not refused (measured %+v)", name, st)
			continue
		}
		if over.What != WhatDepth || over.Limit != FileDepth || st.Depth != FileDepth+1 {
			t.Errorf("%s: refused as %+v after %+v, want depth %d", name, over, st, FileDepth)
		}
		if over.Offset <= 0 || over.Offset >= len(doc) || over.Line < 1 || over.Col < 1 {
			t.Errorf("%s: refusal at %+v", name, over)
		}
		if !strings.Contains(over.Error(), "nesting deeper than 64 levels") {
			t.Errorf("%s: %v", name, over)
		}
	}
}

func TestYAMLRefusalPosition(t *testing.T) {
	doc := "id: x\nmcp_servers: " + strings.Repeat("[", 100000) + "\n"
	_, over := YAML([]byte(doc), Limits{MaxDepth: 64})
	// The mapping is level 1, so the 64th '[' passes the cap; column 14
	// is the first.
	if over == nil || over.Line != 2 || over.Col != 14+63 || over.Offset != 6+13+63 {
		t.Fatalf("refusal at %+v, want line 2 column 77 offset 82", over)
	}
}

func TestYAMLIgnoresBracketsInText(t *testing.T) {
	deep := strings.Repeat("[", 500)
	for _, doc := range []string{
		"a: \"" + deep + "\"\n",
		"a: '" + deep + "'\n",
		"a: x" + deep + "\n",
		"a: b # " + deep + "\n",
		"# " + deep + "\n",
		"a: |\n  " + deep + "\n  more\nb: c\n",
		"a: >-\n    " + deep + "\nb: c\n",
		"- key: |\n    " + deep + "\n",
		"a: \"x\\\"" + deep + "\"\n",
		"a: 'it''s " + deep + "'\n",
		"a: \"line\n  " + deep + "\"\n",
	} {
		st, over := YAML([]byte(doc), Limits{MaxDepth: FileDepth})
		if over != nil || st.Depth > 2 {
			t.Errorf("%q: measured %+v, refusal %v", doc[:min(len(doc), 30)], st, over)
		}
	}
}

// TestYAMLCountsBracketsGoccyReads: the same characters, where goccy's
// tokenizer reads them as structure, are counted.
func TestYAMLCountsBracketsGoccyReads(t *testing.T) {
	deep := strings.Repeat("[", 100)
	for _, doc := range []string{
		"a: |\n  text\n" + deep + "\n",        // the block scalar ended
		"- key: |\n  " + deep + "\n",          // not indented past the key
		"a: x #" + deep + "\n" + "b: " + deep, // '#' after a non-blank is text, the next line is not
		"a: \"x\ty\"#" + deep + "\n",          // goccy skips the '#' after a quoted tab
		"a: b\n" + deep + "\n",                // a new line at the key's column
		"[a, \"b\" " + deep + "\n",            // flow text after a quote
		"{a: x" + deep + "}\n",                // in flow mode '[' always opens
	} {
		st, _ := YAML([]byte(doc), Limits{})
		if st.Depth < 100 {
			t.Errorf("%q: measured %+v, want at least 100 levels", doc[:min(len(doc), 30)], st)
		}
	}
}

func TestYAMLRealShapesPass(t *testing.T) {
	doc := `id: demo
description: |
  Lists things [see docs]
side_effect: read
mcp_servers:
- ref: fs
  tools_allowlist: [read_file, "list_[dir]"]
inputs:
  - name: path
    type: string
steps:
  - id: s1
    tool: fs.read_file
    args: {path: "{{inputs.path}}", opts: {deep: [1, [2]]}}
outputs:
  result: "{{steps.s1.result}}"
`
	st, over := YAML([]byte(doc), Limits{MaxDepth: FileDepth, MaxNodes: FileNodes})
	// top > steps [ > step { > args { > opts { > [ > [
	if over != nil || st.Depth != 7 {
		t.Fatalf("measured %+v, refusal %v; want depth 7", st, over)
	}
	f, err := parser.ParseBytes([]byte(doc), 0)
	if err != nil || astDepth(f.Docs[0]) != 7 {
		t.Fatalf("goccy: %v", err)
	}
}

func TestYAMLNodeCap(t *testing.T) {
	doc := "a: [" + strings.Repeat("1,", 30000) + "1]\n"
	st, over := YAML([]byte(doc), Limits{MaxDepth: FileDepth, MaxNodes: FileNodes})
	if over == nil || over.What != WhatNodes || st.Nodes != FileNodes+1 {
		t.Fatalf("measured %+v, refusal %+v", st, over)
	}
	if !strings.Contains(over.Error(), "more than 20000 values") {
		t.Fatal(over.Error())
	}
	doc = strings.Repeat("- a\n", 30000)
	if _, over := YAML([]byte(doc), Limits{MaxNodes: FileNodes}); over == nil || over.What != WhatNodes {
		t.Fatalf("block items: %+v", over)
	}
}

func TestJSONDepthAndStrings(t *testing.T) {
	_, over := JSON([]byte(strings.Repeat("[", 100000)), Limits{MaxDepth: JSONDepth})
	if over == nil || over.Offset != JSONDepth || over.Col != JSONDepth+1 {
		t.Fatalf("refusal %+v", over)
	}
	_, over = JSON([]byte(strings.Repeat(`{"a":`, 50000)), Limits{MaxDepth: JSONDepth})
	if over == nil || over.What != WhatDepth {
		t.Fatalf("objects: %+v", over)
	}
	st, over := JSON([]byte(`{"a":"[[[[\"[[[[", "b":[1,[2]]}`), Limits{MaxDepth: 3})
	if over != nil || st.Depth != 3 {
		t.Fatalf("measured %+v, refusal %v", st, over)
	}
}

func TestTOMLNesting(t *testing.T) {
	cases := map[string]string{
		"arrays":         "a = " + strings.Repeat("[", 100000),
		"inline tables":  "a = " + strings.Repeat("{b = ", 50000),
		"dotted key":     strings.Repeat("a.", 50000) + "b = 1\n",
		"dotted header":  "[" + strings.Repeat("a.", 50000) + "b]\n",
		"array of table": "[[" + strings.Repeat("a.", 50000) + "b]]\n",
		"mixed":          "[x.y]\nz = " + strings.Repeat("[{q.r = ", 20000),
	}
	for name, doc := range cases {
		_, over := TOML([]byte(doc), Limits{MaxDepth: FileDepth})
		if over == nil || over.What != WhatDepth {
			t.Errorf("%s: refusal %+v", name, over)
		}
	}
	st, over := TOML([]byte("theme = \"dark\"\n[[mcp_servers]]\nname = \"a\"\nargs = [\"[[\", '{{']\nenv = { A = \"1\" } # [[[\n"), Limits{MaxDepth: FileDepth})
	// document > mcp_servers > its table > args
	if over != nil || st.Depth != 4 {
		t.Fatalf("config measured %+v, refusal %v", st, over)
	}
}

// TestRefusalAllocatesLittle: refusing a 100 000-deep text costs the scan
// almost nothing, whatever the form: its state is bounded by the cap.
func TestRefusalAllocatesLittle(t *testing.T) {
	docs := hostile(100000)
	docs["json"] = strings.Repeat("[", 100000)
	docs["toml"] = "a = " + strings.Repeat("[", 100000)
	for name, doc := range docs {
		data := []byte(doc)
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		for range 10 {
			switch name {
			case "json":
				JSON(data, Limits{MaxDepth: JSONDepth})
			case "toml":
				TOML(data, Limits{MaxDepth: FileDepth})
			default:
				YAML(data, Limits{MaxDepth: FileDepth, MaxNodes: FileNodes})
			}
		}
		runtime.ReadMemStats(&after)
		if d := after.TotalAlloc - before.TotalAlloc; d > 1<<20 {
			t.Errorf("%s: 10 refusals allocated %d bytes", name, d)
		}
	}
}

// TestStandardLibraryOnly: nesting is a leaf every reader imports.
func TestStandardLibraryOnly(t *testing.T) {
	out, err := exec.Command("go", "list", "-deps", "github.com/relavium/relavium/nesting").CombinedOutput()
	if err != nil {
		t.Fatalf("go list: %v\n%s", err, out)
	}
	deps := strings.Fields(string(out))
	if len(deps) < 5 {
		t.Fatalf("go list returned too little to judge: %q", deps)
	}
	for _, p := range deps {
		if strings.Contains(strings.Split(p, "/")[0], ".") && p != "github.com/relavium/relavium/nesting" {
			t.Errorf("nesting depends on %s", p)
		}
	}
}

func TestFieldNames(t *testing.T) {
	doc := "name: a\nmcp_servers: [[[[\n  [[\n"
	if k := YAMLTopKey([]byte(doc), len(doc)-2); k != "mcp_servers" {
		t.Fatalf("YAML key %q", k)
	}
	if k := YAMLTopKey([]byte("- [[["), 3); k != "" {
		t.Fatalf("YAML key of a list %q", k)
	}
	if k := YAMLTopKey([]byte("\"steps\": {a: {a:"), 14); k != "steps" {
		t.Fatalf("quoted YAML key %q", k)
	}
	toml := "theme = 'x'\n[[mcp_servers]]\nargs = [[[[\n"
	if k := TOMLKey([]byte(toml), len(toml)-2); k != "mcp_servers.args" {
		t.Fatalf("TOML key %q", k)
	}
	long := strings.Repeat("a.", 10000) + "b = 1"
	if k := TOMLKey([]byte(long), 500); len([]rune(k)) != maxFieldLen+1 {
		t.Fatalf("long key not clipped: %d", len(k))
	}
}

// TestYAMLCountsEveryKeptToken: comments, documents, anchors and tags cost
// goccy a token (and a node) each; a file of nothing else still meets the
// size cap.
func TestYAMLCountsEveryKeptToken(t *testing.T) {
	for name, doc := range map[string]string{
		"comments":  "a: 1\n" + strings.Repeat("#\n", 30000),
		"documents": strings.Repeat("---\n", 30000),
		"anchors":   "a: " + strings.Repeat("&a ", 30000) + "1\n",
		"tags":      "a: " + strings.Repeat("!t ", 30000) + "1\n",
	} {
		if _, over := YAML([]byte(doc), Limits{MaxNodes: FileNodes}); over == nil || over.What != WhatNodes {
			t.Errorf("%s: %+v", name, over)
		}
	}
}

// JSONC skips comments (never nodes, never nesting) and nothing inside a
// string; JSON counts a comment's brackets (strict JSON has none to skip).
func TestJSONCSkipsCommentsOnly(t *testing.T) {
	lim := Limits{MaxDepth: 3, MaxNodes: 20}
	for _, doc := range []string{
		"// [[[[[[\n{\"a\": 1}",
		"/* {{{{{{ */ {\"a\": [1]}",
		"{\"a\": \"/* [[[[[[ */\"}",
		"{\"a\": 1} // [[[[",
		"{\"a\": 1} /* never closed [[[[",
	} {
		if _, over := JSONC([]byte(doc), lim); over != nil {
			t.Errorf("JSONC(%q): %v", doc, over)
		}
	}
	if _, over := JSONC([]byte("{\"a\": \"//\", \"b\": [[[[1]]]]}"), lim); over == nil || over.What != WhatDepth {
		t.Errorf("a // in a string hid real nesting: %v", over)
	}
	if _, over := JSON([]byte("// [[[[[[\n{}"), lim); over == nil {
		t.Error("JSON skipped a comment")
	}
}
