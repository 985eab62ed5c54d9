package canonjson

import (
	"encoding/json"
	"errors"
	"math"
	"strings"
	"testing"
	"time"
	"unicode/utf8"
)

// TestRefusals: values with no faithful JSON form are refused with an
// *Error (E307) naming the path and the reason.
func TestRefusals(t *testing.T) {
	for _, tc := range []struct {
		name string
		v    any
		msg  string // Path + ": " + the start of Reason
	}{
		{"lone high surrogate", "a\xed\xa0\x80b", "$: lone surrogate U+D800 at byte 1"},
		{"lone low surrogate", "\xed\xbf\xbf", "$: lone surrogate U+DFFF at byte 0"},
		{"surrogate pair encoded as WTF-8 (CESU)", "\xed\xa0\xbd\xed\xb8\x80", "$: lone surrogate U+D83D"},
		{"invalid byte", "ok\xff", "$: invalid UTF-8 byte 0xff at byte 2"},
		{"truncated sequence", "\xe2\x98", "$: invalid UTF-8 byte 0xe2"},
		{"overlong encoding", "\xc0\xaf", "$: invalid UTF-8 byte 0xc0"},
		{"bad key", map[string]any{"k\xed\xa0\x80": 1}, "$ key: lone surrogate"},
		{"bad nested key", map[string]any{"a": map[string]string{"\xff": ""}}, "$.a key: invalid UTF-8"},
		{"bad nested value", map[string]any{"a": []any{"x", "\xff"}}, "$.a[1]: invalid UTF-8"},
		{"bad string in []string", map[string]any{"args": []string{"ok", "ok", "\xff"}}, "$.args[2]: invalid UTF-8"},
		{"bad map[string]string value", map[string]any{"env": map[string]string{"A": "\xff"}}, "$.env.A: invalid UTF-8"},
		{"NaN", math.NaN(), "$: the non-finite number NaN"},
		{"+Inf", math.Inf(1), "$: the non-finite"},
		{"-Inf in array", []any{1.0, math.Inf(-1)}, "$[1]: the non-finite"},
		{"float32 Inf", float32(math.Inf(1)), "$: the non-finite"},
		{"unsafe integer", int64(1 << 53), "$: the integer 9007199254740992 is beyond ±2^53−1"},
		{"unsafe negative integer", -(1 << 53), "beyond ±2^53−1"},
		{"unsafe unsigned", uint64(math.MaxUint64), "beyond 2^53−1"},
		{"literal an integer no float64 holds", json.Number("9007199254740993"), "$: the integer 9007199254740993 is written 9007199254740992 by JavaScript"},
		{"literal beyond float64", json.Number("1e400"), "beyond the float64 range"},
		{"literal that is no number", json.Number("0x10"), `"0x10" is not a JSON number`},
		{"literal with spaces", json.Number(" 1"), "is not a JSON number"},
		{"empty literal", json.Number(""), "is not a JSON number"},
		{"literal NaN", json.Number("NaN"), "is not a JSON number"},
		{"struct", struct{ A int }{1}, "has no faithful JSON form"},
		{"time", time.Unix(0, 0), "$: a time.Time has no faithful JSON form"},
		{"map with int keys", map[int]string{1: "a"}, "has no faithful JSON form"},
		{"pointer", new(string), "has no faithful JSON form"},
		{"bytes", []byte("x"), "a []uint8 has no faithful JSON form"},
		{"named integer", time.Second, "a time.Duration has no faithful JSON form"},
	} {
		out, err := Marshal(tc.v)
		var ce *Error
		if !errors.As(err, &ce) || ce.Code() != "E307" || out != nil {
			t.Errorf("%s: (%q, %v), want nil and an E307 *Error", tc.name, out, err)
			continue
		}
		if !strings.Contains(err.Error(), tc.msg) {
			t.Errorf("%s: %q does not say %q", tc.name, err, tc.msg)
		}
	}
}

// TestAccepted: every accepted Go type, and json.Number literals written as
// JSON.stringify(JSON.parse(literal)) writes them.
func TestAccepted(t *testing.T) {
	for _, tc := range []struct {
		v    any
		want string
	}{
		{nil, "null"},
		{[]any{true, false, nil}, "[true,false,null]"},
		{[]any{int8(-8), int16(16), int32(-32), int64(1<<53 - 1), -(1<<53 - 1), uint(1), uint8(8), uint16(16), uint32(32), uint64(1<<53 - 1)},
			"[-8,16,-32,9007199254740991,-9007199254740991,1,8,16,32,9007199254740991]"},
		{[]any{float32(0.1), 0.1, -0.0, 1e21, 1e-7}, "[0.10000000149011612,0.1,0,1e+21,1e-7]"},
		{[]string{}, "[]"},
		{map[string]string{}, "{}"},
		{map[string]any{"b": map[string]string{"y": "1", "x": "2"}, "a": []string{"s"}}, `{"a":["s"],"b":{"x":"2","y":"1"}}`},
		{[]any{json.Number("-0"), json.Number("1.0"), json.Number("1E+2"), json.Number("0.0000001"), json.Number("-1.50e-10")},
			"[0,1,100,1e-7,-1.5e-10]"},
		// Long integer literals that name their float64 exactly, or are
		// the very text JavaScript writes for it, are faithful.
		{[]any{json.Number("9007199254740992"), json.Number("1000000000000000000000"), json.Number("123456789012345680000"),
			json.Number("-123456789012345680000"), json.Number("100000000000000000000")},
			"[9007199254740992,1e+21,123456789012345680000,-123456789012345680000,100000000000000000000]"},
	} {
		got, err := Marshal(tc.v)
		if err != nil {
			t.Errorf("Marshal(%#v): %v", tc.v, err)
			continue
		}
		if string(got) != tc.want {
			t.Errorf("Marshal(%#v) = %s, want %s", tc.v, got, tc.want)
		}
	}
}

// TestEscapingIsNotEncodingJSON: the traps encoding/json would fall into.
func TestEscapingIsNotEncodingJSON(t *testing.T) {
	got, err := Marshal("<>&\u2028\u2029\x7f\x00\x1f")
	if err != nil {
		t.Fatal(err)
	}
	if want := "\"<>&\u2028\u2029\x7f\\u0000\\u001f\""; string(got) != want {
		t.Fatalf("got %s, want %s", got, want)
	}
	std, _ := json.Marshal("<>&\u2028")
	if string(std) == string(got[:len(std)]) {
		t.Fatal("test is vacuous: encoding/json produced the same bytes")
	}
	if !utf8.Valid(got) {
		t.Fatal("output is not UTF-8")
	}
}

// TestAppendStringReportsInvalid: AppendString keeps its output well-formed
// on invalid UTF-8 (U+FFFD per bad byte) and says so; StringLen measures
// exactly what it writes, escapes and replacements included.
func TestAppendStringReportsInvalid(t *testing.T) {
	for _, tc := range []struct {
		in, want string
		valid    bool
	}{
		{"", `""`, true},
		{"plain é 😀", `"plain é 😀"`, true},
		{"\"\\/\b\f\n\r\t\x01\x1f\x7f", `"\"\\/\b\f\n\r\t\u0001\u001f` + "\x7f\"", true},
		{"a\xffb", "\"a\ufffdb\"", false},
		{"\xed\xa0\x80\n", "\"\ufffd\ufffd\ufffd\\n\"", false},
		{"\xe2\x98", "\"\ufffd\ufffd\"", false},
	} {
		prefix := []byte("x")
		got, valid := AppendString(prefix, tc.in)
		if string(got) != "x"+tc.want || valid != tc.valid {
			t.Errorf("AppendString(%+q) = %+q, %v; want %+q, %v", tc.in, got, valid, "x"+tc.want, tc.valid)
		}
		if !json.Valid(got[1:]) {
			t.Errorf("AppendString(%+q) wrote invalid JSON %+q", tc.in, got[1:])
		}
		if n := StringLen(tc.in); n != len(got)-1 {
			t.Errorf("StringLen(%+q) = %d, AppendString wrote %d bytes", tc.in, n, len(got)-1)
		}
	}
}

func FuzzStringLen(f *testing.F) {
	for _, s := range []string{"", "a\"b", "\x00\x1f\x7f", "é😀\u2028", "\xed\xa0\x80", "\xff\xfe", "\xe2\x98"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		out, valid := AppendString(nil, s)
		if StringLen(s) != len(out) {
			t.Fatalf("StringLen(%+q) = %d, wrote %d", s, StringLen(s), len(out))
		}
		if valid != utf8.ValidString(s) || !json.Valid(out) {
			t.Fatalf("AppendString(%+q) = %+q, valid %v", s, out, valid)
		}
		if valid {
			var back string
			if err := json.Unmarshal(out, &back); err != nil || back != s {
				t.Fatalf("AppendString(%+q) = %+q reads back as %+q (%v)", s, out, back, err)
			}
		}
	})
}

func TestAppendNumber(t *testing.T) {
	for f, want := range map[float64]string{
		0: "0", math.Copysign(0, -1): "0", 1: "1", -1.5e-10: "-1.5e-10", 1e21: "1e+21", 1e20: "100000000000000000000",
		1e-6: "0.000001", 1e-7: "1e-7", 5e-324: "5e-324", math.MaxFloat64: "1.7976931348623157e+308", 1e100: "1e+100",
		4.35: "4.35", 0.002: "0.002", 123456789012345680000: "123456789012345680000",
	} {
		got, err := AppendNumber([]byte("x"), f)
		if err != nil || string(got) != "x"+want {
			t.Errorf("AppendNumber(%v) = %q, %v; want x%s", f, got, err, want)
		}
	}
	if out, err := AppendNumber(nil, math.NaN()); out != nil || err == nil || err.Error() != "the non-finite number NaN has no JSON form" {
		t.Errorf("AppendNumber(NaN) = %q, %v", out, err)
	}
}
