package redact

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"strings"
	"sync"
	"testing"
)

func TestTextReplacesEverySpelling(t *testing.T) {
	s := New()
	s.Add("gh", `tok"en<&>é-1234`)
	s.Add("", "Bearer abcdef123456")
	s.AddShown("{{env.HOME_TOKEN}}", "envvalue-99")
	raw := `tok"en<&>é-1234`
	esc, _ := json.Marshal(raw)
	for _, in := range []string{
		raw,
		string(esc[1 : len(esc)-1]), // Go's encoder (HTML-escaped)
		`tok\"en<&>é-1234`,          // HTML left alone
		`tok\"en\u003c\u0026\u003e\u00e9-1234`,
		base64.StdEncoding.EncodeToString([]byte(raw)),
		base64.RawURLEncoding.EncodeToString([]byte(raw)),
	} {
		out := s.Text("a " + in + " b")
		if out != "a {{secrets.gh}} b" {
			t.Errorf("%q → %q", in, out)
		}
	}
	if out := s.Text("auth=Bearer abcdef123456 key=envvalue-99"); out != "auth=[REDACTED] key={{env.HOME_TOKEN}}" {
		t.Errorf("got %q", out)
	}
}

// A value holding another is replaced whole (longest first), and a short
// value (under MinLen) is left in free text.
func TestLongestFirstAndShortValues(t *testing.T) {
	s := New()
	s.Add("inner", "abcd")
	s.Add("outer", "xxabcdyy")
	s.Add("short", "abc")
	if out := s.Text("xxabcdyy abcd abc"); out != "{{secrets.outer}} {{secrets.inner}} abc" {
		t.Errorf("got %q", out)
	}
}

// A JSON document stays valid and loses every value, escaped or not.
func TestJSONStaysValid(t *testing.T) {
	s := New()
	s.Add("k", `se"cr\et-1`)
	doc, _ := json.Marshal(map[string]any{"a": `x se"cr\et-1 y`, "b": []string{`se"cr\et-1`}})
	out := s.JSON(doc)
	if !json.Valid(out) || bytes.Contains(out, []byte(`cr\\et`)) || !bytes.Contains(out, []byte("{{secrets.k}}")) {
		t.Errorf("got %s", out)
	}
	// A value that spans JSON syntax cannot break the document: the
	// redacted text comes back as a JSON string.
	s.Add("", `":1,"`)
	s.Add("", `1,"b`)
	out = s.JSON(json.RawMessage(`{"a":1,"b":2}`))
	if !json.Valid(out) {
		t.Errorf("invalid: %s", out)
	}
}

func TestNilAndEmptySetRedactNothing(t *testing.T) {
	var s *Set
	s.Add("x", "value-1234")
	if s.Text("value-1234") != "value-1234" || s.Len() != 0 {
		t.Error("a nil set redacted")
	}
	var buf bytes.Buffer
	if w := s.Writer(&buf); w != &buf {
		t.Error("a nil set wrapped the writer")
	}
	if New().Text("value-1234") != "value-1234" {
		t.Error("an empty set redacted")
	}
}

func TestWriterRedactsEachWrite(t *testing.T) {
	s := New()
	var buf bytes.Buffer
	w := s.Writer(&buf)
	s.Add("t", "late-added-secret") // added after the writer was made
	n, err := w.Write([]byte("x late-added-secret y\n"))
	if err != nil || n != len("x late-added-secret y\n") || buf.String() != "x {{secrets.t}} y\n" {
		t.Errorf("%d %v %q", n, err, buf.String())
	}
	if s.Writer(w) != w {
		t.Error("a redacting writer was wrapped twice")
	}
}

func TestConcurrentAddAndText(t *testing.T) {
	s := New()
	var wg sync.WaitGroup
	for i := range 8 {
		wg.Add(2)
		go func() {
			defer wg.Done()
			s.Add("", strings.Repeat(string(rune('a'+i)), 6))
		}()
		go func() {
			defer wg.Done()
			_ = s.Text("aaaaaa bbbbbb")
		}()
	}
	wg.Wait()
	if out := s.Text("aaaaaa hhhhhh"); out != "[REDACTED] [REDACTED]" {
		t.Errorf("got %q", out)
	}
}

// digits maps fuzz input onto digits, and text onto everything else: the
// text around a secret (and every replacement) then holds no digit, so
// a digit run in the output can only be what is left of a secret.
func digits(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		b.WriteByte('0' + s[i]%10)
	}
	return b.String()
}

func noDigits(s string) string {
	return strings.Map(func(r rune) rune {
		if r >= '0' && r <= '9' {
			return 'x'
		}
		return r
	}, s)
}

// FuzzRedact: whatever the secrets and the text around them, no secret of
// MinLen or more survives in the text, nor in a JSON document holding it
// (which stays valid JSON whatever the values), and redacting again
// changes nothing.
func FuzzRedact(f *testing.F) {
	f.Add("0123456789", "55555", "before ", " after", true)
	f.Add("1212", "2121", `q"uo\te<>&é`, "}", false)
	f.Add("abcd", "abcdabcd", "abc", "dabc", true)
	f.Fuzz(func(t *testing.T, ra, rb, rpre, rpost string, named bool) {
		a, b, pre, post := digits(ra), digits(rb), noDigits(rpre), noDigits(rpost)
		s := New()
		name := ""
		if named {
			name = "n"
		}
		s.Add(name, a)
		s.Add("", b)
		text := pre + a + post + b + pre
		out := s.Text(text)
		for _, v := range []string{a, b} {
			if len(v) >= MinLen && strings.Contains(out, v) {
				t.Errorf("%q survives in %q", v, out)
			}
		}
		if s.Text(out) != out {
			t.Errorf("not idempotent on %q", out)
		}
		doc, err := json.Marshal(map[string]string{"k": text, "b64": base64.StdEncoding.EncodeToString([]byte(a))})
		if err != nil {
			return
		}
		r := s.JSON(doc)
		if !json.Valid(r) {
			t.Errorf("invalid JSON from %s: %s", doc, r)
		}
		var back map[string]string
		if json.Unmarshal(r, &back) == nil && len(a) >= MinLen && (strings.Contains(back["k"], a) || back["b64"] == base64.StdEncoding.EncodeToString([]byte(a))) {
			t.Errorf("%q survives in %s", a, r)
		}
		// Arbitrary secrets (not only digits) still leave a valid document.
		s.Add("", ra)
		s.Add("", rpre)
		if j := s.JSON(doc); !json.Valid(j) {
			t.Errorf("invalid JSON from %s: %s", doc, j)
		}
	})
}
