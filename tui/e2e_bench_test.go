package tui

import (
	"fmt"
	"path/filepath"
	"testing"

	"github.com/relavium/relavium/internal/testbin"
)

// In a real terminal, b on the demo server's echo loads it: its form, the
// call's question, the rate and duration dialog, then the figures and the
// braille latency chart drawn in the call pane as the run goes, and its end.
func TestE2ETmuxBench(t *testing.T) {
	requireTmux(t)
	bin := testbin.Relavium(t)
	dir := t.TempDir()
	script := fmt.Sprintf(`env -u CI -u NO_COLOR RELAVIUM_HOME=%s TERM=xterm-256color %s demo; sleep 600`, filepath.Join(dir, "home"), bin)
	tm := startTmux(t, "e2e", 120, 40, dir, script)
	tm.waitFor("the consent dialog", "Start a local program?")
	tm.answer("A")
	tm.waitFor("the demo server ready", "● demo")
	tm.keys("Tab", "/")
	tm.text("echo")
	tm.keys("Enter")
	tm.keys("b")
	tm.waitFor("the load form", "LOAD · mcp_demo_echo")
	tm.text("hi")
	tm.keys("C-s")
	tm.waitFor("the call question", "Call mcp_demo_echo?")
	tm.answer("y")
	tm.waitFor("the rate and duration dialog", "RATE DURATION")
	tm.answer("C-u")
	tm.text("50/s 3s")
	tm.keys("Enter")
	tm.waitFor("the live figures", "running", "latency over time")
	tm.waitFor("the end of the load", "150 ended", "latency histogram", "p99")
}
