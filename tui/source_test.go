package tui

import (
	"strings"
	"testing"

	"github.com/relavium/relavium/engine"
	"github.com/relavium/relavium/host/config"
	"github.com/relavium/relavium/tui/dialog"
	"github.com/relavium/relavium/tui/live"
)

// A server imported from another client's file says where it is written in
// its details (i on its row); a server of relavium's own config says
// nothing of the kind.
func TestServerDialogShowsWhereAnImportedServerIsWritten(t *testing.T) {
	f := newFake(t)
	f.addStdio("demo", "demo-server")
	f.specs[0].Source = live.Source("/data/app", config.Server{Name: "demo", Pos: config.Pos{File: "/data/app/.mcp.json", Line: 3, Col: 5},
		Import: &config.Import{Shape: "mcpServers", Written: "Demo"}})
	f.setTools("demo", demoTools(), demoSkipped())
	h := newHarness(t, f, 120, 30)
	h.until("the consent dialog", func() bool { _, ok := h.m.topDialog().(*dialog.Consent); return ok })
	h.key("o")
	h.until("demo ready", func() bool { return h.m.server("demo").state == engine.StateReady })
	h.key("i")
	if _, ok := h.m.topDialog().(*dialog.Text); !ok {
		t.Fatal("i on the server row opened no dialog")
	}
	frame := strings.Join(strings.Fields(h.view()), " ")
	if !strings.Contains(frame, `imported from .mcp.json:3:5 (written "Demo" there)`) {
		t.Fatalf("the server dialog does not say where the server is written:\n%s", h.view())
	}
	if live.Source("/data/app", config.Server{Name: "own"}) != "" {
		t.Error("a server of relavium's own config has a source line")
	}
}
