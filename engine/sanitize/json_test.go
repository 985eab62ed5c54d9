package sanitize

import (
	"bytes"
	"encoding/json"
	"reflect"
	"strings"
	"testing"
	"unicode/utf8"
)

func TestEscapeJSON(t *testing.T) {
	cases := []struct{ name, in, want string }{
		{"clean", `{"a":"héllo ☃ 日本","n":1}`, `{"a":"héllo ☃ 日本","n":1}`},
		{"C0 already escaped by encoding/json", `{"a":"\u001b[2J"}`, `{"a":"\u001b[2J"}`},
		{"DEL", "{\"a\":\"x\x7fy\"}", `{"a":"x\u007fy"}`},
		{"C1 CSI", "{\"a\":\"\u009b2J\"}", `{"a":"\u009b2J"}`},
		{"C1 OSC and ST", "[\"\u009d52;c;eA==\u009c\"]", `["\u009d52;c;eA==\u009c"]`},
		{"bidi override", "\"ab\u202ecd\u2066\"", `"ab\u202ecd\u2066"`},
		{"zero width and BOM", "\"a\u200bb\ufeff\"", `"a\u200bb\ufeff"`},
		{"line separators", "\"a\u2028b\u2029\"", `"a\u2028b\u2029"`},
		{"Unicode tags: surrogate pairs", "\"hi\U000e0049\U000e007f\"", `"hi\udb40\udc49\udb40\udc7f"`},
		{"variation selector beyond the BMP", "\"a\U000e0100\"", `"a\udb40\udd00"`},
		{"invalid UTF-8 becomes U+FFFD", "\"a\xffb\x9b\"", `"a\ufffdb\ufffd"`},
		{"key escaped too", "{\"k\u202e\":1}", `{"k\u202e":1}`},
		{"whitespace between tokens kept", "{\n\t\"a\": \"\u0085\"\r\n}\n", "{\n\t\"a\": \"\\u0085\"\r\n}\n"},
		{"NDJSON", "{\"a\":\"\u200f\"}\n{\"b\":2}\n", "{\"a\":\"\\u200f\"}\n{\"b\":2}\n"},
		{"escapes left as they are", `"\\\u202e\"\n"`, `"\\\u202e\"\n"`},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got := string(EscapeJSON([]byte(tc.in)))
			if got != tc.want {
				t.Fatalf("EscapeJSON(%q) = %q, want %q", tc.in, got, tc.want)
			}
			assertJSONEscaped(t, []byte(tc.in), []byte(got))
		})
	}
}

// TestEscapeJSONCleanIsNotCopied: the common case costs no allocation.
func TestEscapeJSONCleanIsNotCopied(t *testing.T) {
	in := []byte(`{"ok":true,"data":{"text":"plain é ☃"}}`)
	if out := EscapeJSON(in); &out[0] != &in[0] {
		t.Fatal("clean input was copied")
	}
	if n := testing.AllocsPerRun(100, func() { _ = EscapeJSON(in) }); n != 0 {
		t.Fatalf("%v allocations on clean input", n)
	}
}

// TestEscapeJSONEveryRemovedCodePoint walks every code point: each one the
// display sanitizer removes is escaped when encoding/json has written it,
// every other one is left as encoding/json wrote it, and decoding gives
// the original string back.
func TestEscapeJSONEveryRemovedCodePoint(t *testing.T) {
	for r := rune(0); r <= utf8.MaxRune; r++ {
		if r >= 0xd800 && r <= 0xdfff {
			continue // not encodable in UTF-8
		}
		s := "x" + string(r) + "y"
		enc, err := json.Marshal(s)
		if err != nil {
			t.Fatal(err)
		}
		out := EscapeJSON(enc)
		removed := classify(r) != ""
		if r != '\t' && r != '\n' && r != '\r' && removed != (Text(s) != s) {
			t.Fatalf("U+%04X: classify says removed=%v, Text disagrees", r, removed)
		}
		if !removed && !bytes.Equal(out, enc) {
			t.Fatalf("U+%04X: kept by Text but rewritten: %q -> %q", r, enc, out)
		}
		if removed && bytes.ContainsRune(out, r) {
			t.Fatalf("U+%04X is still raw in %q", r, out)
		}
		var back string
		if err := json.Unmarshal(out, &back); err != nil || back != s {
			t.Fatalf("U+%04X: %q decodes to %q (%v)", r, out, back, err)
		}
	}
}

// TestEscapeJSONRoundTrip: values of every kind decode to exactly what was
// encoded, through encoding/json and EscapeJSON.
func TestEscapeJSONRoundTrip(t *testing.T) {
	hostile := "\x1b]52;c;Y3VybA==\x07\x1b[2J\u009b31m\u009d8;;https://e\u009c\x1bPq\x1b\\\u202eevil\u202c\U000e0041\u200b\ufeff\x7f\u0085 日本"
	v := map[string]any{
		"text":   hostile,
		hostile:  []any{hostile, 1.5, true, nil, map[string]any{"k": hostile}},
		"number": json.Number("12345678901234567890"),
	}
	enc, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	assertJSONEscaped(t, enc, EscapeJSON(enc))
}

// assertJSONEscaped checks the two properties of EscapeJSON on valid JSON
// in: out decodes to exactly what in decodes to, and out holds no code
// point the display sanitizer removes (TAB, LF, CR only as whitespace
// between tokens, which encoding/json never leaves inside a string).
func assertJSONEscaped(t *testing.T, in, out []byte) {
	t.Helper()
	if !json.Valid(out) && json.Valid(in) {
		t.Fatalf("EscapeJSON made valid %q invalid: %q", in, out)
	}
	want, werr := decodeAll(in)
	got, gerr := decodeAll(out)
	if (werr == nil) != (gerr == nil) || !reflect.DeepEqual(want, got) {
		t.Fatalf("round trip: %q decodes to %#v (%v), escaped %q to %#v (%v)", in, want, werr, out, got, gerr)
	}
	if !utf8.Valid(out) {
		t.Fatalf("output is not UTF-8: %q", out)
	}
	for _, r := range string(out) {
		if r == '\t' || r == '\n' || r == '\r' {
			continue
		}
		if classify(r) != "" {
			t.Fatalf("output holds U+%04X: %q", r, out)
		}
	}
	if again := EscapeJSON(out); !bytes.Equal(again, out) {
		t.Fatalf("not idempotent: %q -> %q", out, again)
	}
}

// decodeAll decodes every whitespace-separated document (numbers kept
// exact).
func decodeAll(b []byte) ([]any, error) {
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	var out []any
	for {
		var v any
		err := dec.Decode(&v)
		if err != nil {
			if err.Error() == "EOF" {
				return out, nil
			}
			return out, err
		}
		out = append(out, v)
	}
}

// FuzzEscapeJSON: on any valid JSON (the encoder's output or a raw
// message that holds raw C1, bidi, tags or invalid UTF-8 inside strings)
// the escaped bytes decode to the same value, hold no code point the
// display sanitizer removes, and escaping again changes nothing. On
// anything else it does not panic.
func FuzzEscapeJSON(f *testing.F) {
	for _, s := range fuzzSeeds {
		b, _ := json.Marshal(map[string]string{s: s})
		f.Add(b)
		f.Add([]byte(`"` + strings.NewReplacer(`"`, ``, `\`, ``).Replace(s) + `"`))
	}
	f.Add([]byte("{\"a\":[\"\u009b\",\"\U000e0041\"],\n\"b\":\"\xff\\u202e\"}\n{}"))
	f.Add([]byte(`"\ud800\udc00\\"`))
	f.Fuzz(func(t *testing.T, b []byte) {
		out := EscapeJSON(b)
		if _, err := decodeAll(b); err != nil {
			return
		}
		assertJSONEscaped(t, b, out)
	})
}

// BenchmarkEscapeJSONClean is the pass over a clean envelope (the common
// case: no copy).
func BenchmarkEscapeJSONClean(b *testing.B) {
	in, _ := json.Marshal(map[string]string{"text": strings.Repeat("clean text é ☃ 日本語 ", 500)})
	b.SetBytes(int64(len(in)))
	b.ReportAllocs()
	for b.Loop() {
		_ = EscapeJSON(in)
	}
}

// BenchmarkEscapeJSONHostile is the pass over an envelope dense with code
// points to escape.
func BenchmarkEscapeJSONHostile(b *testing.B) {
	in, _ := json.Marshal(map[string]string{"text": strings.Repeat("a\u009b2J\u202eevil\u202c\U000e0041\u200b é ", 500)})
	b.SetBytes(int64(len(in)))
	b.ReportAllocs()
	for b.Loop() {
		_ = EscapeJSON(in)
	}
}
