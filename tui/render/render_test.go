package render

import (
	"io"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/charmbracelet/lipgloss"
	"github.com/muesli/termenv"

	"github.com/relavium/relavium/themes"
)

func TestFitIsExactWidth(t *testing.T) {
	for _, c := range []struct {
		in   string
		w    int
		want string
	}{
		{"abc", 5, "abc  "},
		{"abcdef", 4, "abc…"},
		{"漢字漢字", 5, "漢字…"},
		{"x", 0, ""},
	} {
		got := Fit(c.in, c.w)
		if got != c.want || (c.w > 0 && Width(got) != c.w) {
			t.Errorf("Fit(%q, %d) = %q (width %d), want %q", c.in, c.w, got, Width(got), c.want)
		}
	}
	block := PadLines([]string{"a long line that is cut", "b"}, 6, 3)
	if len(block) != 3 {
		t.Fatalf("PadLines height %d, want 3", len(block))
	}
	for _, l := range block {
		if Width(l) != 6 {
			t.Errorf("PadLines line %q is %d cells, want 6", l, Width(l))
		}
	}
}

func TestWrapLosesNothing(t *testing.T) {
	s := "one two three averyveryverylongwordthatmustbebroken four"
	lines := WrapIndent(s, 10, "  ")
	joined := ""
	for i, l := range lines {
		if Width(l) > 10 {
			t.Errorf("line %d %q wider than 10", i, l)
		}
		if i > 0 && !strings.HasPrefix(l, "  ") {
			t.Errorf("line %d %q not indented", i, l)
		}
		joined += strings.ReplaceAll(l, " ", "")
	}
	if joined != strings.ReplaceAll(s, " ", "") {
		t.Fatalf("wrapping lost text: %q", lines)
	}
}

func TestJSONLinesSanitizeAndKeepOrder(t *testing.T) {
	palette, ok := themes.ByName("dark")
	if !ok {
		t.Fatal("no dark theme")
	}
	r := lipgloss.NewRenderer(io.Discard)
	r.SetColorProfile(termenv.TrueColor)
	st := themes.NewStyles(r, palette)
	lines := JSONLines(st, []byte("{\"z\":1,\"a\":\"x\u0085y\u202e\"}"))
	plain := StripANSI(strings.Join(lines, "\n"))
	if strings.Index(plain, `"z"`) > strings.Index(plain, `"a"`) {
		t.Errorf("member order changed:\n%s", plain)
	}
	for _, l := range lines {
		if strings.ContainsRune(l, 0x85) || strings.ContainsRune(l, 0x202e) {
			t.Errorf("raw control or bidi character survived: %q", l)
		}
	}
	if !LooksLikeJSON(" [1, 2] ") || LooksLikeJSON("[1, 2") || LooksLikeJSON(`"s"`) {
		t.Error("LooksLikeJSON misjudged a value")
	}
	if _, ok := PrettyJSON([]byte("{")); ok {
		t.Error("PrettyJSON accepted invalid JSON")
	}
}

func TestWrapPathBreaksOnlyAtSlashes(t *testing.T) {
	got := WrapPath("/home/some-user/go/bin/relavium-demo-server --flag", 16)
	want := []string{"/home/some-user/", "go/bin/", "relavium-demo-se", "rver --flag"}
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Fatalf("WrapPath = %q, want %q", got, want)
	}
	for _, l := range WrapPath("/a/"+strings.Repeat("x", 40), 10) {
		if Width(l) > 10 {
			t.Fatalf("line %q is wider than 10", l)
		}
	}
}

// FuzzWrapPath: no line is wider than asked, and nothing is dropped.
func FuzzWrapPath(f *testing.F) {
	f.Add("/usr/local/bin/relavium demo-server", 12)
	f.Add("a-b-c/d", 1)
	f.Fuzz(func(t *testing.T, s string, w int) {
		if w < 1 || w > 200 || strings.ContainsAny(s, "\x1b\n\r\t") || !utf8.ValidString(s) {
			return
		}
		lines := WrapPath(s, w)
		for _, l := range lines {
			if Width(l) > w && utf8.RuneCountInString(l) > 1 { // a rune wider than the line goes alone
				t.Fatalf("line %q wider than %d", l, w)
			}
		}
		if strings.ReplaceAll(strings.Join(lines, ""), " ", "") != strings.ReplaceAll(s, " ", "") {
			t.Fatalf("WrapPath(%q, %d) dropped text: %q", s, w, lines)
		}
	})
}
