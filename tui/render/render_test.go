package render

import (
	"io"
	"strings"
	"testing"

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
