package tui

import (
	"bytes"
	"encoding/base64"
	"os/exec"
	"strings"
	"testing"

	"github.com/relavium/relavium/tui/dialog"
	"github.com/relavium/relavium/tui/render"
)

// copied waits for Y's copy dialog and returns what went to the clipboard
// (the OSC 52 payload of the frame).
func (h *harness) copied() string {
	h.t.Helper()
	h.until("the copy dialog", func() bool {
		d, ok := h.m.topDialog().(*dialog.Text)
		return ok && strings.HasPrefix(d.Title, "Copied · the command") && h.m.clip.osc52 != ""
	})
	p := strings.TrimSuffix(strings.TrimPrefix(h.m.clip.osc52, "\x1b]52;c;"), "\x07")
	b, err := base64.StdEncoding.DecodeString(p)
	if err != nil {
		h.t.Fatalf("the clipboard sequence %q: %v", h.m.clip.osc52, err)
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

// The copy fallback never breaks inside a flag: at any width, every line
// fits, a flag starts its value's line, and the lines a person selects
// are, to a real shell, the very words of the command — a value longer
// than a line included (cut with a backslash outside the quotes).
func TestShellLinesAreTheCommandAtEveryWidth(t *testing.T) {
	words := []string{"relavium", "--agent", "ops", "mcp", "call", "mcp_demo_echo",
		"--args", `{"message":"a long message with spaces, it's quoted, and ünïcode — ` + strings.Repeat("x", 90) + `"}`,
		"--yes", "--allow-mcp-stdio", "v1:" + strings.Repeat("0123456789abcdef", 4)}
	for _, w := range []int{24, 40, 52, 74, 104} {
		lines := shellLines(words, w)
		for _, l := range lines {
			if render.Width(l) > w {
				t.Fatalf("width %d: a line is %d cells: %q", w, render.Width(l), l)
			}
			if f := strings.Fields(strings.TrimSuffix(l, " \\")); len(f) > 0 && strings.HasPrefix(f[len(f)-1], "--") && f[len(f)-1] != "--yes" {
				t.Fatalf("width %d: a flag is parted from its value: %q", w, lines)
			}
		}
		script := "set -- " + strings.Join(lines, "\n") + "\nfor a; do printf '%s\\0' \"$a\"; done\n"
		out, err := exec.Command("sh", "-c", script).Output()
		if err != nil {
			t.Fatalf("width %d: sh: %v\n%s", w, err, strings.Join(lines, "\n"))
		}
		if got := strings.Split(strings.TrimSuffix(string(out), "\x00"), "\x00"); strings.Join(got, "\x00") != strings.Join(words, "\x00") {
			t.Fatalf("width %d: the shell reads %q\nfrom\n%s", w, got, strings.Join(lines, "\n"))
		}
		if one := shellCommand(words); !bytes.Equal([]byte(strings.Join(lines, "")), []byte(one)) && len(lines) == 1 {
			t.Fatalf("width %d: one line differs from the command: %q", w, lines[0])
		}
	}
}
