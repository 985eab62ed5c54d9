package sanitize

import (
	"strings"
	"testing"
	"unicode/utf8"
)

var fuzzSeeds = []string{
	"", "plain", "a\x1b[31mb", "\x1b]8;;u\x1b\\l", "\x9b1m", "\u009d0;x\u009c", "\x1bP\x1b\\",
	"\u202e\u2066", "\U000e0041", "\r\n\r", "\xff\xfe", "é\u0085", "\x1b", "\x1b[", "\x1b]", "\x1b(",
	"\u2028\u2029", "\ufeff\u200b", "日本\t\n",
}

// FuzzSanitize: the output of Text and Line is valid UTF-8 with no control,
// bidi or invisible character (Text keeps LF and expands TAB to spaces; Line
// makes TAB one space), Line of Text equals Line up to runs of spaces, cleaning is
// idempotent, and a string that is already clean comes back unchanged.
func FuzzSanitize(f *testing.F) {
	for _, s := range fuzzSeeds {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		text, line := Text(s), Line(s)
		assertDisplaySafe(t, text, false)
		assertDisplaySafe(t, line, true)
		if Text(text) != text {
			t.Fatalf("Text is not idempotent on %q", s)
		}
		if Line(line) != line {
			t.Fatalf("Line is not idempotent on %q", s)
		}
		if squeezeSpaces(Line(text)) != squeezeSpaces(line) {
			t.Fatalf("Line(Text(s)) != Line(s) up to runs of spaces for %q", s)
		}
		if strings.Count(text, " ") > strings.Count(s, " ")+8*strings.Count(s, "\t") {
			t.Fatalf("Text wrote more than 8 spaces a TAB for %q", s)
		}
		if strings.IndexByte(s, 0x1b) < 0 && utf8.ValidString(s) {
			// Without ESC and 8-bit introducers, nothing printable is lost.
			hasC1 := false
			for _, r := range s {
				if isC1(r) {
					hasC1 = true
				}
			}
			if !hasC1 {
				for _, r := range s {
					if classify(r) == "" && r != utf8.RuneError && !strings.ContainsRune(text, r) {
						t.Fatalf("Text dropped printable U+%04X from %q", r, s)
					}
				}
			}
		}
	})
}

// FuzzSemanticField: Check accepts exactly the strings made of valid UTF-8
// with no control, bidi or invisible character, reports the first offender
// at its real offset, and a string it accepts is not changed by Text.
func FuzzSemanticField(f *testing.F) {
	for _, s := range fuzzSeeds {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		v := Check(s)
		first := -1
		for i := 0; i < len(s); {
			r, size := utf8.DecodeRuneInString(s[i:])
			if (r == utf8.RuneError && size == 1) || classify(r) != "" {
				first = i
				break
			}
			i += size
		}
		if v == nil {
			if first >= 0 {
				t.Fatalf("Check(%q) = nil, but byte %d is not allowed", s, first)
			}
			if Text(s) != s {
				t.Fatalf("Check accepted %q but Text changes it to %q", s, Text(s))
			}
			return
		}
		if v.Offset != first {
			t.Fatalf("Check(%q) offset %d, want %d", s, v.Offset, first)
		}
		if v.Class == ClassInvalidUTF8 {
			if utf8.ValidString(s[v.Offset:]) {
				t.Fatalf("Check(%q) reports invalid UTF-8 at %d on valid text", s, v.Offset)
			}
			return
		}
		r, _ := utf8.DecodeRuneInString(s[v.Offset:])
		if r != v.Rune || classify(r) != v.Class {
			t.Fatalf("Check(%q) = %+v, rune there is U+%04X (%s)", s, v, r, classify(r))
		}
	})
}

// squeezeSpaces collapses every run of spaces into one (TAB expansion is
// the one place Text and Line differ in more than line breaks).
func squeezeSpaces(s string) string {
	for strings.Contains(s, "  ") {
		s = strings.ReplaceAll(s, "  ", " ")
	}
	return s
}
