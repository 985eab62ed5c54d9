package tui

import (
	"io"
	"strings"
	"testing"

	"github.com/charmbracelet/lipgloss"
	"github.com/muesli/termenv"

	"github.com/relavium/relavium/engine"
	"github.com/relavium/relavium/themes"
	"github.com/relavium/relavium/tui/dialog"
)

// themedStyles are a theme's styles in true colour, on the background the
// theme is for.
func themedStyles(name string) *themes.Styles {
	r := lipgloss.NewRenderer(io.Discard)
	r.SetColorProfile(termenv.TrueColor)
	r.SetHasDarkBackground(name != themes.Light)
	p, _ := themes.ByName(name)
	return themes.NewStyles(r, p)
}

// One screen (the tools pane focused after a call, the events strip under
// it) in every theme, colours included: a golden frame per theme.
func TestGoldenFramePerTheme(t *testing.T) {
	for _, name := range themes.Names() {
		t.Run(name, func(t *testing.T) {
			f := newFake(t)
			f.addStdio("demo", "demo-server")
			f.autoApprove["demo"] = []string{"echo"}
			f.setTools("demo", demoTools(), demoSkipped())
			h := newHarnessStyled(t, f, 120, 30, themedStyles(name))
			h.until("the consent dialog", func() bool { _, ok := h.m.topDialog().(*dialog.Consent); return ok })
			h.key("o")
			h.until("demo ready", func() bool { return h.m.servers.ready("demo") && len(h.m.browse.tools) == 4 })
			h.key("enter", "enter")
			h.typeText("hello")
			h.key("ctrl+s")
			h.until("the result", func() bool { j := h.m.call.shownJob(); return j != nil && j.finished() })
			h.key("esc", "shift+tab")
			frame := h.view()
			if name != themes.Mono && !strings.Contains(frame, "\x1b[38;") && !strings.Contains(frame, "\x1b[9") {
				t.Fatalf("the %s theme drew no colour", name)
			}
			h.golden("theme_" + name + "_120x30")
		})
	}
}

// 80x24 is usable: one pane at a time with the pane strip, the header's
// summary, the footer's keys; each pane in turn.
func TestGolden80x24(t *testing.T) {
	h := ready(t, 80, 24)
	h.key("enter")
	h.golden("tools_80x24")
	h.key("enter")
	h.typeText("hi")
	h.key("ctrl+s")
	h.until("the result", func() bool { j := h.m.call.shownJob(); return j != nil && j.finished() && j.state == jobDone })
	h.golden("call_80x24")
	h.key("esc", "tab")
	if h.m.focus != paneServers {
		t.Fatalf("focus %v", h.m.focus)
	}
	h.golden("servers_80x24")
	if h.m.server("demo").state != engine.StateReady {
		t.Fatal("demo not ready")
	}
}
