package tui

import (
	"fmt"
	"path/filepath"
	"testing"

	"github.com/relavium/relavium/internal/testbin"
)

// The workbench's moving and finding, in a real terminal: enter drills
// into a server's tools and esc comes back; the palette finds a tool by a
// fuzzy query; the call's result is searched (/, n), its CLI command
// copied (Y) and the result saved (s, the file written); ctrl+a lists
// every server's tools.
func TestE2ETmuxDrillPaletteSearchYankSave(t *testing.T) {
	requireTmux(t)
	bin := testbin.Relavium(t)
	dir := t.TempDir()
	home := filepath.Join(dir, "home")
	script := fmt.Sprintf(`env -u CI -u NO_COLOR RELAVIUM_HOME=%s TERM=xterm-256color %s demo; sleep 600`, home, bin)
	tm := startTmux(t, "ux", 120, 32, dir, script)

	tm.waitFor("the consent dialog", "Start a local program?")
	tm.answer("o")
	tm.waitFor("the demo server ready", "● demo", "ready in")
	tm.keys("Enter")
	tm.waitFor("the drill-down into demo's tools", "TOOLS of demo", "▸ ✓")
	tm.keys("Escape")
	tm.waitFor("back on the servers", " SERVERS 1 ", "enter its tools")

	tm.keys(":")
	tm.waitFor("the palette", "Command palette", "Export the session")
	tm.text("mcpecho") // letters in order, not a substring: mcp_demo_echo
	tm.waitFor("the fuzzy match", "▸ tool")
	tm.keys("Enter")
	tm.waitFor("the echo form", "CALL · mcp_demo_echo", "message")
	tm.text("hello needle world")
	tm.keys("C-s")
	tm.waitFor("the call confirmation", "Call mcp_demo_echo?")
	tm.answer("y")
	tm.waitFor("the result", "◂ result", "hello needle world")

	tm.keys("Escape", "/")
	tm.text("needle")
	tm.keys("Enter")
	tm.waitFor("the search", "search: needle", "1 of 2 lines") // the args line and the result
	tm.keys("Y")
	tm.waitFor("the copied command", "Copied · the command", "relavium mcp call echo --args", "needle world", "--stdio")
	tm.answer("Escape")
	tm.keys("s")
	tm.waitFor("the saved result", "result saved to")
	saved, _ := filepath.Glob(filepath.Join(home, "results", "call-*.json"))
	if len(saved) != 1 {
		t.Fatalf("want one saved result in %s, found %v", filepath.Join(home, "results"), saved)
	}
	tm.keys("C-a")
	tm.waitFor("every server's tools", "TOOLS of all servers", "· demo")
	tm.keys("q")
}
