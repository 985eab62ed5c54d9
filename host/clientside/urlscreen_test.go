package clientside

import (
	"strings"
	"testing"
	"unicode/utf8"
)

func TestScreenURL(t *testing.T) {
	for _, c := range []struct {
		url, origin string
		open        bool
		warn        string // a substring of the warnings, or of the refusal when !open
	}{
		{"https://example.com/a?b=c", "https://example.com", true, ""},
		{"http://127.0.0.1:8080/cb", "http://127.0.0.1:8080", true, "bare IP"},
		{"http://localhost:3000/x", "http://localhost:3000", true, ""},
		{"http://[::1]/x", "http://[::1]", true, "bare IP"},
		{"http://example.com/", "http://example.com", false, "plain http"},
		{"javascript:alert(1)", "", false, "does not parse"},
		{"file:///etc/passwd", "", false, "does not parse"},
		{"ftp://example.com/", "ftp://example.com", false, "scheme ftp"},
		{"https://google.com@evil.example/", "https://evil.example", false, "evil.example"},
		{"https://xn--80ak6aa92e.com/", "https://xn--80ak6aa92e.com", true, "аррӏе.com"},
		{"https://xn--pple-43d.com/", "https://xn--pple-43d.com", true, "mixes scripts (Cyrillic and Latin)"},
		{"https://раypal.com/", "https://раypal.com", true, "non-ASCII"},
		{"https://a.com/\x1b[31m", "", false, "control"},
		{"https://a.com/\u202e", "", false, "control"},
		{"https://a.com/" + strings.Repeat("x", 9000), "", false, "bytes long"},
	} {
		s := ScreenURL(c.url)
		if s.Openable != c.open || s.Origin != c.origin {
			t.Errorf("%.60q: openable %v origin %q (refusal %q), want %v %q", c.url, s.Openable, s.Origin, s.Refusal, c.open, c.origin)
			continue
		}
		hay := strings.Join(s.Warnings, "|")
		if !c.open {
			hay = s.Refusal
		}
		if c.warn != "" && !strings.Contains(hay, c.warn) {
			t.Errorf("%.60q: %q lacks %q", c.url, hay, c.warn)
		}
		if c.warn == "" && c.open && len(s.Warnings) > 0 {
			t.Errorf("%q: unexpected warnings %v", c.url, s.Warnings)
		}
	}
}

func TestPunyDecode(t *testing.T) {
	for in, want := range map[string]string{"80ak6aa92e": "аррӏе", "mnchen-3ya": "münchen", "bcher-kva": "bücher"} {
		if got, ok := punyDecode(in); !ok || got != want {
			t.Errorf("punyDecode(%q) = %q %v, want %q", in, got, ok, want)
		}
	}
	for _, bad := range []string{"!!", "zzzzzzzzzzzzzzzzzzzz", "a-ü"} {
		if got, ok := punyDecode(bad); ok && !utf8.ValidString(got) {
			t.Errorf("punyDecode(%q) = %q: invalid UTF-8 accepted", bad, got)
		}
	}
}

func FuzzScreenURL(f *testing.F) {
	for _, s := range []string{"https://example.com/", "http://127.0.0.1/", "https://xn--80ak6aa92e.com/", "https://a@b/", "https://xn--", "https://xn--zzzz-zzzzzzzz.com"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, raw string) {
		s := ScreenURL(raw)
		if s.Openable && s.Refusal != "" {
			t.Fatalf("openable with a refusal: %+v", s)
		}
		if s.Openable && !strings.HasPrefix(strings.ToLower(raw), "https://") && !strings.HasPrefix(strings.ToLower(raw), "http://") {
			t.Fatalf("opened a non-http(s) url %q", raw)
		}
		for _, w := range append(s.Warnings, s.URL, s.Origin) {
			if !utf8.ValidString(w) {
				t.Fatalf("invalid UTF-8 in %q", w)
			}
		}
	})
}
