package tui

import (
	"strings"
	"testing"

	"github.com/relavium/relavium/engine"
	"github.com/relavium/relavium/tui/dialog"
	"github.com/relavium/relavium/tui/render"
)

// At 120 columns the panes are sized from what they hold: a server's name
// is shown whole, the browse pane takes what its rows need while nothing
// is in the call pane, and once a form (or a result) is there the call
// pane gets at least callShare of the width — 50 columns, where a fixed
// split gave it 45 and cut the name (server-everyt…).
func TestColumnsAreSizedFromTheirContent(t *testing.T) {
	f := newFake(t)
	f.addStdio("server-everything", "demo-server")
	f.setTools("server-everything", demoTools(), demoSkipped())
	h := newHarness(t, f, 120, 30)
	h.until("the consent dialog", func() bool { _, ok := h.m.topDialog().(*dialog.Consent); return ok })
	h.key("o")
	h.until("ready", func() bool {
		return h.m.server("server-everything").state == engine.StateReady && len(h.m.browse.tools) == 4
	})

	g := h.m.geometry()
	rowsNeed := h.m.browse.rowsNeed
	if g.toolW != rowsNeed+1 || rowsNeed < 30 {
		t.Fatalf("browsing, the tools pane is %d wide for rows that need %d", g.toolW, rowsNeed)
	}
	if !strings.Contains(h.view(), "✓ delete_file ⚑ changed ⚠ destructive") {
		t.Fatalf("a tool row is cut while the pane could hold it:\n%s", h.view())
	}

	h.key("tab", "enter") // the echo form opens in the call pane
	if h.m.call.form == nil {
		t.Fatal("no form")
	}
	g = h.m.geometry()
	if g.callW < 120*callShare/100 || g.callW <= 45 {
		t.Fatalf("the call pane is %d wide at 120 columns (a fixed split gave 45)", g.callW)
	}
	if g.srvW+g.toolW+g.callW+2 != 120 {
		t.Fatalf("the panes do not fill the width: %d + %d + %d + 2", g.srvW, g.toolW, g.callW)
	}
	lines := strings.Split(h.view(), "\n")
	row := render.StripANSI(lines[2])
	if !strings.Contains(row, "server-everything ") {
		t.Fatalf("the server's name is cut in its row: %q", row)
	}
	checkFrame(t, h.view(), 120, 30)
}
