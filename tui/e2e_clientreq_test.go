package tui

import (
	"fmt"
	"path/filepath"
	"testing"

	"github.com/relavium/relavium/internal/testbin"
)

// The client requests in a real terminal, on the demo server: a
// subscription to test://watched-resource refreshes the open read when the
// server reports an update (every 5 s), and review_code's language argument
// is completed by the server as a pick list.
func TestE2ETmuxSubscriptionAndCompletion(t *testing.T) {
	requireTmux(t)
	bin := testbin.Relavium(t)
	dir := t.TempDir()
	home := filepath.Join(dir, "home")
	script := fmt.Sprintf(`env -u CI -u NO_COLOR RELAVIUM_HOME=%s TERM=xterm-256color %s demo; sleep 600`, home, bin)
	tm := startTmux(t, "e2e-cr", 120, 32, dir, script)

	tm.waitFor("the consent dialog", "Start a local program?", "[o] Approve once")
	tm.answer("o")
	tm.waitFor("the demo server ready", "● demo", "✓ add_numbers")

	// Resources: subscribe to the watched resource, read it, see it refresh.
	tm.keys("Tab", "]", "/")
	tm.text("watched")
	tm.keys("Enter")
	tm.waitFor("the watched resource", "Watched resource", "test://watched-r")
	tm.keys("w")
	tm.waitFor("the subscription", "◉ subscribed", "subscribed to test://watched-resource")
	tm.keys("Enter")
	tm.waitFor("the read", "Watched resource content")
	tm.waitFor("the refresh", "↻ refreshed · 1 update(s), last")

	// Prompts: review_code's language is completed as a pick list.
	tm.keys("Escape", "Tab", "Tab", "Escape", "]", "/")
	tm.text("review")
	tm.keys("Enter", "Enter")
	tm.waitFor("the review_code form", "code*", "language")
	tm.text("x := 1")
	tm.keys("Down")
	tm.waitFor("every language suggested", "1 of 8", "python")
	tm.text("ru")
	tm.waitFor("narrowed to rust", "rust", "1 of 1")
	tm.keys("Enter")
	tm.keys("C-s")
	tm.waitFor("the prompt rendered with the picked value", "written in rust")
	tm.keys("q")
}
