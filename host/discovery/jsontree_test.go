package discovery

import (
	"bytes"
	"encoding/json"
	"reflect"
	"strings"
	"testing"
)

// toAny converts a parsed tree to what encoding/json produces (the last
// duplicate key wins there too).
func toAny(n *node) any {
	switch n.kind {
	case kNull:
		return nil
	case kBool:
		return n.b
	case kString:
		return n.str
	case kNumber:
		return json.Number(n.str)
	case kArray:
		out := make([]any, len(n.arr))
		for i, e := range n.arr {
			out[i] = toAny(e)
		}
		return out
	case kObject:
		out := map[string]any{}
		for _, m := range n.obj {
			out[m.key] = toAny(m.val)
		}
		return out
	}
	return "TOO DEEP"
}

func decodeStd(data []byte) (any, error) {
	if !json.Valid(data) {
		return nil, errNotObject
	}
	d := json.NewDecoder(bytes.NewReader(data))
	d.UseNumber()
	var v any
	err := d.Decode(&v)
	return v, err
}

// FuzzParseJSON: the parser accepts exactly what encoding/json accepts
// (below the nesting cap) and yields the same value.
func FuzzParseJSON(f *testing.F) {
	for _, s := range []string{`{}`, `[1,-0.5e+3,"a\u00e9\ud83d\ude00",true,null]`, `{"a":{"a":1},"a":2}`, `"\ud800"`, "\"\xff\"", `{"k":"\n"}`, ` 1 `, `01`, `1.`, `[1,]`, `{"a" 1}`, `"\x"`, `null]`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		n, err := parseJSON(data)
		want, stdErr := decodeStd(data)
		if (err == nil) != (stdErr == nil) {
			if stdErr != nil && strings.Contains(stdErr.Error(), "depth") {
				return
			}
			t.Fatalf("parse(%q): ours %v, encoding/json %v", data, err, stdErr)
		}
		if err != nil {
			return
		}
		if got := toAny(n); !reflect.DeepEqual(got, want) {
			t.Fatalf("parse(%q) = %#v, encoding/json %#v", data, got, want)
		}
		// Canonical output is valid JSON holding the same value.
		canon := appendCanonical(nil, n)
		back, err := parseJSON(canon)
		if err != nil {
			t.Fatalf("canonical %q does not parse: %v", canon, err)
		}
		if c := canonicalLen(n); c != len(canon) {
			t.Fatalf("canonicalLen %d, len %d for %q", c, len(canon), canon)
		}
		if again := appendCanonical(nil, back); !bytes.Equal(again, canon) {
			t.Fatalf("canonical form is not stable: %q then %q", canon, again)
		}
	})
}

func TestParseFlagsBadStrings(t *testing.T) {
	for _, tc := range []struct {
		in  string
		bad bool
		out string
	}{
		{`"ok é"`, false, "ok é"},
		{"\"a\xffb\"", true, "a\ufffdb"},
		{`"\ud800"`, true, "\ufffd"},
		{`"\udc00x"`, true, "\ufffdx"},
		{`"\ud800\u0041"`, true, "\ufffdA"},
		{`"\ud83d\ude00"`, false, "😀"},
		{`"\ufffd"`, false, "\ufffd"},
	} {
		n, err := parseJSON([]byte(tc.in))
		if err != nil || n.bad != tc.bad || n.str != tc.out {
			t.Errorf("%s: %+v %v", tc.in, n, err)
		}
	}
}

func TestParseDepthIsBounded(t *testing.T) {
	deep := strings.Repeat("[", 100000) + strings.Repeat("]", 100000)
	n, err := parseJSON([]byte(`{"a":` + deep + `}`))
	if err != nil {
		t.Fatal(err)
	}
	cur := n.get("a")
	for cur.kind == kArray {
		cur = cur.arr[0]
	}
	if cur.kind != kTooDeep {
		t.Fatalf("deepest value %v", cur.kind)
	}
	if _, err := parseJSON([]byte(strings.Repeat("[", 300) + "]")); err == nil {
		t.Fatal("unbalanced deep value accepted")
	}
}

// ECMAScript Number::toString vectors (RFC 8785 appendix B style).
func TestCanonicalNumbers(t *testing.T) {
	for in, want := range map[string]string{
		"0": "0", "-0": "0", "1.0": "1", "1e2": "100", "1E+2": "100", "0.000001": "0.000001",
		"1e-7": "1e-7", "123456789012345680000": "123456789012345680000", "1e21": "1e+21",
		"-1.5e-10": "-1.5e-10", "0.1": "0.1", "9007199254740993": "9007199254740992",
		"4.35": "4.35", "2e-3": "0.002", "1.7976931348623157e308": "1.7976931348623157e+308",
		"5e-324": "5e-324", "1e400": "1e400",
	} {
		if got := string(appendNumber([]byte("x"), in)); got != "x"+want {
			t.Errorf("appendNumber(%s) = %s, want x%s", in, got, want)
		}
		if n := canonicalLen(&node{kind: kNumber, str: in}); n != len(want) {
			t.Errorf("canonicalLen(%s) = %d, want %d", in, n, len(want))
		}
	}
}

// TestCanonicalLenDoesNotAllocate: the 1 MiB bound is measured on every
// schema without building its canonical form, numbers (re-formatted) and
// escaped strings included.
func TestCanonicalLenDoesNotAllocate(t *testing.T) {
	n, err := parseJSON([]byte(`{"type":"object","properties":{"a\n\u0001":{"type":"number","minimum":-1.5e-10,"maximum":1e300,"default":9007199254740993},` +
		`"😀é":{"enum":["x\"y",true,false,null,[1,2.50,"\ud800"]]}},"required":["a\n\u0001"]}`))
	if err != nil {
		t.Fatal(err)
	}
	want := len(appendCanonical(nil, n))
	var got int
	if allocs := testing.AllocsPerRun(100, func() { got = canonicalLen(n) }); allocs != 0 || got != want {
		t.Fatalf("canonicalLen = %d (want %d) with %v allocations per run", got, want, allocs)
	}
}

func TestCanonicalOrderIsUTF16(t *testing.T) {
	n, err := parseJSON([]byte(`{"b":1,"a":2,"\ud83d\ude00":3,"\ufb01":4,"é":5,"":6}`))
	if err != nil {
		t.Fatal(err)
	}
	// UTF-16 order puts the surrogate pair (0xD83D) before U+FB01.
	want := `{"":6,"a":2,"b":1,"é":5,"😀":3,"ﬁ":4}`
	if got := string(appendCanonical(nil, n)); got != want {
		t.Fatalf("canonical = %s, want %s", got, want)
	}
	if got := string(appendOrdered(nil, n)); got != `{"b":1,"a":2,"😀":3,"ﬁ":4,"é":5,"":6}` {
		t.Fatalf("ordered = %s", got)
	}
}
