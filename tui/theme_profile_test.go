package tui

import (
	"io"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/charmbracelet/lipgloss"
	"github.com/muesli/termenv"

	"github.com/relavium/relavium/themes"
)

// NO_COLOR takes colour away, never the emphasis mono draws focus and
// selection with: on a terminal that can draw attributes, the mono theme
// keeps bold, underline and reverse, and still writes no colour.
func TestNoColorKeepsMonoEmphasis(t *testing.T) {
	p := drawProfile(themes.Choice{Name: themes.Mono, Source: "NO_COLOR"}, true, termenv.TrueColor) // NO_COLOR on a colour terminal
	if p == termenv.Ascii {
		t.Fatal("under NO_COLOR mono draws with the Ascii profile: no bold, underline or reverse")
	}
	r := lipgloss.NewRenderer(io.Discard)
	r.SetColorProfile(p)
	pal, _ := themes.ByName(themes.Mono)
	st := themes.NewStyles(r, pal)
	sel := st.Selected.Render("row")
	if !strings.Contains(sel, "\x1b[7m") {
		t.Fatalf("the selection is not reverse video under NO_COLOR: %q", sel)
	}
	focused := st.PaneTitleFocused.Render("TOOLS")
	if !strings.Contains(focused, "\x1b[") {
		t.Fatalf("the focused pane title has no emphasis under NO_COLOR: %q", focused)
	}
	sgr := regexp.MustCompile(`\x1b\[([0-9;]*)m`)
	for _, s := range []string{sel, focused, st.ButtonFocused.Render("Deny"), st.Error.Render("x"), st.DiffAdd.Render("+ a")} {
		for _, m := range sgr.FindAllStringSubmatch(s, -1) {
			for _, p := range strings.Split(m[1], ";") {
				if n, err := strconv.Atoi(p); err == nil && (n >= 30 && n <= 49 || n >= 90 && n <= 107) {
					t.Fatalf("mono wrote colour (SGR %d) under NO_COLOR: %q", n, s)
				}
			}
		}
	}
	// A terminal that draws nothing (TERM=dumb) stays plain.
	if got := drawProfile(themes.Choice{Name: themes.Mono, Source: "NO_COLOR"}, true, termenv.Ascii); got != termenv.Ascii {
		t.Fatalf("a terminal without attributes got profile %v", got)
	}
}

// An explicit theme overrides NO_COLOR (themes.Choose's contract,
// no-color.org): it draws in the terminal's colours. The default theme
// under NO_COLOR is mono's business, never colour.
func TestExplicitThemeOverridesNoColor(t *testing.T) {
	for _, src := range []string{"--theme", "RELAVIUM_THEME", "config"} {
		if got := drawProfile(themes.Choice{Name: themes.Dark, Source: src}, false, termenv.ANSI256); got != termenv.ANSI256 {
			t.Errorf("dark chosen by %s under NO_COLOR draws with profile %v, want the terminal's (ANSI256)", src, got)
		}
	}
	if got := drawProfile(themes.Choice{Name: themes.Auto, Source: "default"}, false, termenv.TrueColor); got != termenv.Ascii {
		t.Errorf("the default theme on a terminal termenv called Ascii got profile %v", got)
	}
	if got := drawProfile(themes.Choice{Name: themes.Light, Source: "--theme"}, false, termenv.Ascii); got != termenv.Ascii {
		t.Errorf("a terminal that draws nothing got profile %v", got)
	}
}
