package header

import (
	"io"
	"strings"
	"testing"

	"github.com/charmbracelet/lipgloss"
	"github.com/muesli/termenv"

	"github.com/relavium/relavium/themes"
	"github.com/relavium/relavium/tui/render"
)

// The line is exactly the width; wide it counts servers, tools and calls
// (running first), narrow it keeps the glyphs and the tools.
func TestLineFitsAndCounts(t *testing.T) {
	r := lipgloss.NewRenderer(io.Discard)
	r.SetColorProfile(termenv.Ascii)
	p, _ := themes.ByName(themes.Mono)
	st := themes.NewStyles(r, p)
	s := Summary{Project: "proj", Ready: 2, Pending: 1, Servers: 3, Tools: 1, Skipped: 4, Calls: 5, Running: 2}
	wide := Line(st, s, 140)
	if render.Width(wide) != 140 {
		t.Fatalf("wide line is %d cells, want 140", render.Width(wide))
	}
	for _, want := range []string{"relavium · proj · agent default", "● 2 ⚠ 1 of 3 servers", "1 tool · 4 skipped", "2 running · 5 calls", "1 pending"} {
		if !strings.Contains(wide, want) {
			t.Fatalf("wide line lacks %q: %q", want, wide)
		}
	}
	narrow := Line(st, Summary{Demo: true, Ready: 1, Tools: 2}, 60)
	if render.Width(narrow) != 60 || !strings.Contains(narrow, "relavium · demo") || !strings.Contains(narrow, "2 tools · 0 skip") {
		t.Fatalf("narrow line %q (%d cells)", narrow, render.Width(narrow))
	}
}
