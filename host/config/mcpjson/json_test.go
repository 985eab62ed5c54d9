package mcpjson

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/relavium/relavium/nesting"
)

func TestParsePositions(t *testing.T) {
	src := "{\n  // a comment\n  \"a\": [1, \"x\", {\"é\": true},],\n\t\"b\": null, /* block */ \"c\": \"\\u00e9\\ud83d\\ude00\"\n}\n"
	v, p := Parse("f.json", []byte(src), FileLimits())
	if p != nil {
		t.Fatal(p)
	}
	a := v.Get("a")
	if a.KeyPos.Line != 3 || a.KeyPos.Col != 3 || a.Value.Pos.Col != 8 {
		t.Errorf("a at %v value %v", a.KeyPos, a.Value.Pos)
	}
	inner := a.Value.Items[2]
	if k := inner.Members[0]; k.Key != "é" || k.KeyPos.Col != 18 || k.Value.Pos.Col != 23 {
		t.Errorf("inner key %q at %v, value at %v", k.Key, k.KeyPos, k.Value.Pos)
	}
	if c := v.Get("c"); c.Value.Str != "é😀" || c.KeyPos.Line != 4 || c.KeyPos.Col != 25 {
		t.Errorf("c = %q at %v", c.Value.Str, c.KeyPos)
	}
	if b := v.Get("b"); b.Value.Kind != Null || b.KeyPos.Col != 2 {
		t.Errorf("b %v at %v", b.Value.Kind, b.KeyPos)
	}
}

func TestParseRefusals(t *testing.T) {
	for _, tc := range []struct {
		name, src string
		code      string
		line, col int
		msg       string
	}{
		{"duplicate key", "{\"a\": 1,\n \"a\": 2}", "E233", 2, 2, "appears twice"},
		{"lone surrogate", `{"a": "\udc00"}`, "E233", 1, 8, "surrogate"},
		{"high surrogate alone", `{"a": "\ud83dx"}`, "E233", 1, 8, "surrogate"},
		{"not utf-8", "{\"a\": \"\xff\"}", "E233", 1, 8, "not UTF-8"},
		{"raw control", "{\"a\": \"\x01\"}", "E233", 1, 8, "control"},
		{"trailing text", `{} {}`, "E233", 1, 4, "after the end"},
		{"bad number", `{"a": 01}`, "E233", 1, 7, "not a JSON number"},
		{"unclosed comment", "{ /* x", "E233", 1, 3, "never closed"},
		{"single quotes", `{'a': 1}`, "E233", 1, 2, "key in double quotes"},
		{"empty", ``, "E233", 1, 1, "end of file"},
		{"deep", strings.Repeat("[", 65) + strings.Repeat("]", 65), "E243", 1, 65, "deeper than 64"},
		// A comment hides brackets from the pre-scan, never from the parser.
		{"deep behind a comment", "// \"\n" + strings.Repeat("[", 65) + strings.Repeat("]", 65), "E243", 2, 65, "deeper than 64"},
		{"too many values", "[" + strings.Repeat("1,", nesting.FileNodes) + "1]", "E243", 1, 2 * nesting.FileNodes, "more than 20000 values"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, p := Parse("f.json", []byte(tc.src), FileLimits())
			if p == nil {
				t.Fatal("accepted")
			}
			if string(p.Code) != tc.code || p.Line != tc.line || p.Col != tc.col || !strings.Contains(p.Message, tc.msg) {
				t.Errorf("got %s %d:%d %q; want %s %d:%d ~%q", p.Code, p.Line, p.Col, p.Message, tc.code, tc.line, tc.col, tc.msg)
			}
		})
	}
}

func TestParseSizeCap(t *testing.T) {
	big := append([]byte(`{"a":"`), bytes.Repeat([]byte("x"), MaxFileBytes)...)
	big = append(big, `"}`...)
	if _, p := Parse("f.json", big, FileLimits()); p == nil || p.Code != CodeNesting {
		t.Fatalf("a file over %d bytes: %v", MaxFileBytes, p)
	}
}

// plain converts a Value to what encoding/json decodes (numbers as text).
func plain(v *Value) any {
	switch v.Kind {
	case String:
		return v.Str
	case Number:
		return json.Number(v.Str)
	case Bool:
		return v.Bool
	case Array:
		out := []any{}
		for _, it := range v.Items {
			out = append(out, plain(it))
		}
		return out
	case Object:
		out := map[string]any{}
		for _, m := range v.Members {
			out[m.Key] = plain(m.Value)
		}
		return out
	}
	return nil
}

// FuzzParse holds the reader to encoding/json on strict JSON: what it
// accepts decodes to the same value, and it refuses only what JSON
// refuses or what it refuses on purpose (a duplicate key, a lone
// surrogate, a cap). It never panics, whatever the bytes.
func FuzzParse(f *testing.F) {
	for _, s := range []string{`{"mcpServers":{"a":{"command":"x","args":["1"]}}}`, `[1, 2.5e3, -0, true, null]`,
		`{"a":"\u00e9\ud83d\ude00\n"}`, `{"a":1,"a":2}`, "{\"a\": // c\n 1,}", `"\udc00"`, `{"a":[[[[]]]]}`, ``} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		v, p := Parse("f.json", data, FileLimits())
		var want any
		d := json.NewDecoder(bytes.NewReader(data))
		d.UseNumber()
		stdErr := d.Decode(&want)
		if !json.Valid(data) {
			stdErr = errString("not JSON")
		}
		if p == nil {
			if stdErr == nil {
				got, _ := json.Marshal(plain(v))
				exp, _ := json.Marshal(want)
				if !bytes.Equal(got, exp) {
					t.Fatalf("value differs from encoding/json:\n got %s\nwant %s", got, exp)
				}
			}
			return
		}
		if p.Line < 1 || p.Col < 1 {
			t.Fatalf("refusal without a position: %+v", p)
		}
		if stdErr == nil && p.Code != CodeNesting && !strings.Contains(p.Message, "twice") &&
			!strings.Contains(p.Message, "surrogate") && !strings.Contains(p.Message, "UTF-8") {
			t.Fatalf("refused what encoding/json accepts, for no reason of its own: %s", p.Message)
		}
	})
}

type errString string

func (e errString) Error() string { return string(e) }

// Brackets written in a comment are no nesting: a valid VS Code file whose
// comments draw with brackets (or comment out a deep example) is read, and
// the values are those of the file; a comment marker inside a string is
// string text; real nesting past the bound is still refused.
func TestCommentBracketsDoNotCount(t *testing.T) {
	deep := strings.Repeat("[", 200) + strings.Repeat("]", 200)
	doc := "// " + deep + "\r{\n  /* " + deep + " {{{{ */\n  \"servers\": { // [[[[[[\n    \"a\": {\"url\": \"https://x.example/[[[//*\", \"type\": \"http\"}\n  }\n}\n"
	v, p := Parse("mcp.json", []byte(doc), FileLimits())
	if p != nil {
		t.Fatalf("a valid file with brackets in its comments: %v", p)
	}
	if got := v.Get("servers").Value.Get("a").Value.Get("url").Value.Str; got != "https://x.example/[[[//*" {
		t.Fatalf("url %q", got)
	}
	if _, p := Parse("mcp.json", []byte(`{"a": `+deep+` // `+deep+"\n}"), FileLimits()); p == nil || p.Code != CodeNesting {
		t.Fatalf("real nesting beside a comment: %v", p)
	}
}
