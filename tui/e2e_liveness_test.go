package tui

import (
	"fmt"
	"path/filepath"
	"testing"

	"github.com/relavium/relavium/internal/testbin"
)

// Ping and the protocol era in a real terminal, on the demo server: p on
// the servers pane puts the round trip on the status line; i shows the
// era the connection runs and what it means.
func TestE2ETmuxPingAndEra(t *testing.T) {
	requireTmux(t)
	bin := testbin.Relavium(t)
	dir := t.TempDir()
	home := filepath.Join(dir, "home")
	script := fmt.Sprintf(`env -u CI -u NO_COLOR RELAVIUM_HOME=%s TERM=xterm-256color %s demo; sleep 600`, home, bin)
	tm := startTmux(t, "e2e-ping", 120, 32, dir, script)

	tm.waitFor("the consent dialog", "Start a local program?", "[o] Approve once")
	tm.answer("o")
	tm.waitFor("the demo server ready", "● demo", "tools admitted")
	tm.keys("p")
	tm.waitFor("the round trip", "ping demo: ", " ms")
	tm.keys("i")
	tm.waitFor("the era", "protocol 2025-11-25 · legacy era", "elicitation: the server asks mid-call")
	tm.keys("Escape", "q")
}
