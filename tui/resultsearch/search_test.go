package resultsearch

import (
	"io"
	"slices"
	"testing"

	"github.com/charmbracelet/lipgloss"
	"github.com/muesli/termenv"

	"github.com/relavium/relavium/themes"
	"github.com/relavium/relavium/tui/render"
)

// Hits are found case folded on the text without its colours, and Jump
// walks them round from the view's top.
func TestHitsAndJump(t *testing.T) {
	body := []string{"alpha", "\x1b[31mBeta\x1b[0m", "gamma", "beta again"}
	if got := FindHits(body, "BETA"); !slices.Equal(got, []int{1, 3}) {
		t.Fatalf("FindHits = %v, want [1 3]", got)
	}
	s := Search{Query: "beta", Hits: FindHits(body, "beta")}
	if off, moved, ok := s.Jump(2, 1, true); !ok || !moved || off != 2 {
		t.Fatalf("first at or below line 2: offset %d moved %t ok %t, want 2 true true", off, moved, ok)
	}
	if off, _, _ := s.Jump(0, 1, false); off != 0 {
		t.Fatalf("next after the last wraps to line 1 (offset 0), got %d", off)
	}
	s.Hits = nil
	if _, moved, ok := s.Jump(0, 1, false); moved || ok {
		t.Fatalf("no hit: moved %t ok %t, want false false", moved, ok)
	}
	s.End()
	if _, moved, ok := s.Jump(0, 1, false); moved || !ok {
		t.Fatalf("no query: moved %t ok %t, want false true", moved, ok)
	}
}

// Highlight marks a line with matches, keeping its text, and leaves lines
// without one as they were.
func TestHighlightKeepsText(t *testing.T) {
	r := lipgloss.NewRenderer(io.Discard)
	r.SetColorProfile(termenv.TrueColor)
	p, _ := themes.ByName(themes.Dark)
	st := themes.NewStyles(r, p)
	body := []string{"one Two two", "none here"}
	out := Highlight(st, body, "two")
	if render.StripANSI(out[0]) != body[0] || out[0] == body[0] || out[1] != body[1] {
		t.Fatalf("Highlight changed the text: %q", out)
	}
}
