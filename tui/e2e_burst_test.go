package tui

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/relavium/relavium/internal/testbin"
	"github.com/relavium/relavium/tui/dialog"
)

// A person typing into the wrong window: a burst of letters (a shell
// command line, then the dialog's own keys) keeps arriving while the
// workbench starts and its consent dialog appears. Nothing is approved,
// remembered or written; the dialog waits for a deliberate answer.
func TestE2ETmuxBurstWhileConsentAppears(t *testing.T) {
	requireTmux(t)
	bin := testbin.Relavium(t)
	dir := t.TempDir()
	home := filepath.Join(dir, "home")
	script := fmt.Sprintf(`env -u CI -u NO_COLOR RELAVIUM_HOME=%s TERM=xterm-256color %s demo; sleep 600`, home, bin)
	tm := startTmux(t, "burst", 120, 32, dir, script)

	// A burst of typing, again and again, from before the program is up
	// until well after the dialog is on screen: every key the dialog
	// answers to is in it. Each burst is one write, so its keys arrive
	// together as a person's typing does; sent a key at a time, a loaded
	// machine spread them out until one read as deliberate (a q that quit
	// before the dialog appeared).
	burst := "clear\rls -la\rAaoOyYeEsSq\rexport\rApprove\r"
	seen := false
	for i := 0; i < 3 || !seen; i++ {
		tm.run("send-keys", "-t", "e2e", "-l", burst)
		time.Sleep(200 * time.Millisecond)
		seen = strings.Contains(tm.pane(), "Start a local program?")
		if i > 20 {
			t.Fatalf("the consent dialog never appeared; screen:\n%s", tm.pane())
		}
	}
	screen := tm.waitFor("the consent dialog still open", "Start a local program?", "[A] Approve & remember", "the dialog had just opened")
	for _, f := range []string{"mcp-consent.ndjson", "tool-approvals.ndjson", "sessions"} {
		if _, err := os.Stat(filepath.Join(home, f)); err == nil {
			t.Fatalf("the burst wrote %s; screen:\n%s", f, screen)
		}
	}
	// Then a deliberate answer: a pause, A.
	tm.answer("A")
	tm.waitFor("the demo server ready", "● demo", " tools · ")
	if _, err := os.Stat(filepath.Join(home, "mcp-consent.ndjson")); err != nil {
		t.Fatalf("A after a pause remembered nothing: %v", err)
	}
}

// ctrl+s asks "this call?": y typed in the same run as ctrl+s goes nowhere
// (not into the form behind the question, not into the question) and the
// status line says so; a y after a 100 ms pause, once the question is on
// screen, is an answer (a person's natural ctrl+s … y is never eaten).
func TestE2ETmuxSubmitBurstAndNaturalPause(t *testing.T) {
	requireTmux(t)
	bin := testbin.Relavium(t)
	dir := t.TempDir()
	home := filepath.Join(dir, "home")
	script := fmt.Sprintf(`env -u CI -u NO_COLOR RELAVIUM_HOME=%s TERM=xterm-256color %s demo; sleep 600`, home, bin)
	tm := startTmux(t, "submit", 120, 32, dir, script)
	tm.waitFor("the consent dialog", "Start a local program?")
	tm.answer("o")
	tm.waitFor("the demo server ready", "● demo", " tools · ")
	tm.keys("Tab", "/")
	tm.text("echo")
	tm.keys("Enter", "Enter")
	tm.waitFor("the echo form", "CALL · mcp_demo_echo", "message")
	time.Sleep(dialog.BurstGap) // the filter's keys are a run of their own
	tm.keys("Enter")
	tm.text("burst")
	// ctrl+s and two y in one write: one run, no pause.
	tm.run("send-keys", "-t", "e2e", "C-s", "y", "y")
	screen := tm.waitFor("the question, the burst said ignored", "Call mcp_demo_echo?", "ignored 'y'")
	if strings.Contains(screen, "bursty") {
		t.Fatalf("the burst landed in the form behind the question:\n%s", screen)
	}
	tm.keys("n") // no: back to the form as it was (n after a pause)
	screen = tm.waitFor("the form again", "burst")
	if strings.Contains(screen, "bursty") || strings.Contains(screen, "done in") {
		t.Fatalf("after no:\n%s", screen)
	}
	time.Sleep(dialog.BurstGap)
	// ctrl+s, a 100 ms pause with the question on screen, y: answered.
	tm.run("send-keys", "-t", "e2e", "C-s")
	start := time.Now()
	tm.waitFor("the question", "Call mcp_demo_echo?")
	time.Sleep(max(0, 100*time.Millisecond-time.Since(start)))
	tm.run("send-keys", "-t", "e2e", "y")
	tm.waitFor("the call answered", `args {"message":"burst"}`, "done in")
}
