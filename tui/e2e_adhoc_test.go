package tui

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/relavium/relavium/internal/testbin"
	"github.com/relavium/relavium/tui/dialog"
)

// An ad-hoc server connected from inside the workbench, in a real
// terminal: the palette's "Connect a server by URL or command…", a command
// line typed into its dialog, the consent dialog (approve once or deny:
// nothing is remembered), then the server in the servers pane, its tools
// listed and one called; a url the guard refuses fails on its row.
func TestE2ETmuxConnectAdhocServer(t *testing.T) {
	requireTmux(t)
	bin := testbin.Relavium(t)
	dir := t.TempDir()
	home := filepath.Join(dir, "home")
	script := fmt.Sprintf(`env -u CI -u NO_COLOR RELAVIUM_HOME=%s TERM=xterm-256color %s demo; sleep 600`, home, bin)
	tm := startTmux(t, "adhoc", 120, 36, dir, script)

	tm.waitFor("the consent dialog", "Start a local program?")
	tm.answer("o")
	tm.waitFor("the demo server ready", "● demo", "ready in")

	tm.keys(":")
	tm.waitFor("the palette", "Command palette")
	tm.text("connect a server")
	tm.waitFor("the palette entry", "Connect a server by URL or command…")
	tm.keys("Enter")
	tm.waitFor("the connect dialog", "Connect a server", "network guard", "[enter] Connect")
	time.Sleep(dialog.ModalGrace + dialog.BurstGap) // read before typed into, as a person does
	tm.text(bin + " demo-server")
	tm.keys("Enter")

	screen := tm.waitFor("the ad-hoc consent dialog", "Start a local program? (stdio server adhoc)", "demo-server", "digest",
		"nothing is remembered", "[o] Approve once")
	if strings.Contains(screen, "Approve & remember") {
		t.Fatalf("an ad-hoc server offers approve & remember:\n%s", screen)
	}
	tm.answer("A") // not offered: does nothing
	tm.waitFor("the dialog still open", "(stdio server adhoc)")
	tm.answer("o")
	tm.waitFor("the ad-hoc server ready", "● adhoc", "● demo")
	tm.keys("Enter")
	tm.waitFor("the ad-hoc server's tools", "TOOLS of adhoc", "echo")

	tm.keys(":")
	tm.waitFor("the palette", "Command palette")
	tm.text("adhocecho")
	tm.waitFor("the fuzzy match", "mcp_adhoc_echo")
	tm.keys("Enter")
	tm.waitFor("the echo form", "CALL · mcp_adhoc_echo", "message")
	tm.text("from the ad-hoc server")
	tm.keys("C-s")
	tm.waitFor("the call confirmation", "Call mcp_adhoc_echo?")
	tm.answer("y")
	tm.waitFor("the result", "◂ result", "from the ad-hoc server")
	tm.keys("Y") // the CLI command reaches the server ad hoc, as the palette did
	tm.waitFor("the copied command", "Copied · the command", "relavium mcp call echo --args", "--stdio")
	tm.answer("Escape")

	if b, err := os.ReadFile(filepath.Join(home, "mcp-consent.ndjson")); err == nil && bytes.Contains(b, []byte("adhoc")) {
		t.Fatalf("the ad-hoc server's approval was remembered: %s", b)
	}

	// A loopback url without the opt-in: refused by the guard (E560) on
	// the new server's row, never dialled.
	tm.keys("Escape", ":")
	tm.waitFor("the palette", "Command palette")
	tm.text("connect a server")
	tm.waitFor("the palette entry", "Connect a server by URL or command…")
	tm.keys("Enter")
	tm.waitFor("the connect dialog", "[enter] Connect")
	time.Sleep(dialog.ModalGrace + dialog.BurstGap)
	tm.text("http://127.0.0.1:9/mcp")
	tm.keys("Enter")
	tm.waitFor("the refused url", "adhoc-2", "E560")
	tm.keys("q")
}
