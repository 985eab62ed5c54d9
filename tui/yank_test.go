package tui

import (
	"encoding/base64"
	"strings"
	"testing"

	"github.com/relavium/relavium/tui/dialog"
)

// copied waits for Y's copy dialog and returns what went to the clipboard
// (the OSC 52 payload of the frame).
func (h *harness) copied() string {
	h.t.Helper()
	h.until("the copy dialog", func() bool {
		d, ok := h.m.topDialog().(*dialog.Text)
		return ok && strings.HasPrefix(d.Title, "Copied · the command") && h.m.clip.OSC52 != ""
	})
	p := strings.TrimSuffix(strings.TrimPrefix(h.m.clip.OSC52, "\x1b]52;c;"), "\x07")
	b, err := base64.StdEncoding.DecodeString(p)
	if err != nil {
		h.t.Fatalf("the clipboard sequence %q: %v", h.m.clip.OSC52, err)
	}
	return string(b)
}

// Y adds --yes only where the headless call would stop to ask, and a
// stdio server's digest only where no remembered grant approves it: with
// the server's consent remembered, a call asked about copies --yes and no
// digest; once the definition's approval is remembered, neither.
func TestYankCommandAddsYesOnlyWhereNeeded(t *testing.T) {
	f := newFake(t)
	f.addStdio("demo", "demo-server")
	f.setTools("demo", demoTools(), demoSkipped())
	h := newHarness(t, f, 120, 30)
	h.until("the consent dialog", func() bool { _, ok := h.m.topDialog().(*dialog.Consent); return ok })
	h.key("A") // approve and remember: a grant in the store
	h.until("demo ready", func() bool { return h.m.server("demo").state == "ready" && len(h.m.browse.tools) == 4 })

	h.key("tab", "enter")
	h.typeText("hi")
	h.key("ctrl+s")
	h.confirmOpen()
	h.key("y") // this call only
	h.until("the result", func() bool { j := h.m.call.shownJob(); return j != nil && j.finished() })
	h.key("esc", "Y")
	if got, want := h.copied(), `relavium mcp call mcp_demo_echo --args '{"message":"hi"}' --yes`; got != want {
		t.Fatalf("Y copies %s\nwant     %s", got, want)
	}

	h.key("esc", "shift+tab", "enter", "ctrl+s")
	h.confirmOpen()
	h.key("A") // always for this definition
	h.until("the second result", func() bool { return len(h.m.call.jobs) == 2 && h.m.call.jobs[1].finished() })
	h.key("esc", "Y")
	if got := h.copied(); !strings.HasPrefix(got, "relavium mcp call mcp_demo_echo") || strings.Contains(got, "--yes") || strings.Contains(got, "--allow-mcp-stdio") {
		t.Fatalf("Y copies %s\nwant     neither --yes nor a digest", got)
	}
}
