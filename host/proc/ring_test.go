package proc

import (
	"strconv"
	"strings"
	"testing"

	"github.com/relavium/relavium/redact"
)

// A stdio server's stderr is shown to a person (mcp ls, the TUI, failures):
// its terminal control sequences are removed, never replayed.
func TestStderrTailHasNoTerminalControls(t *testing.T) {
	r := &StderrRing{}
	_, _ = r.Write([]byte("evil \x1b]0;pwned\x07 \x1b[2J\x1b[31mred\x9b1m\u202eabc\rover\n"))
	tail := r.Tail(nil)
	for _, bad := range []string{"\x1b", "\x07", "\u202e", "\r", "\u009b"} {
		if strings.Contains(tail, bad) {
			t.Errorf("tail %q holds %q", tail, bad)
		}
	}
	if !strings.Contains(tail, "evil") || !strings.Contains(tail, "red") {
		t.Errorf("tail lost its text: %q", tail)
	}
}

func TestStderrTailRedactsSecrets(t *testing.T) {
	r := &StderrRing{}
	_, _ = r.Write([]byte("starting\ntoken is hunter2-long\nbye\n"))
	set := redact.New()
	set.Add("tok", "hunter2-long")
	tail := r.Tail(set)
	if strings.Contains(tail, "hunter2") || !strings.Contains(tail, "token is {{secrets.tok}}") {
		t.Errorf("tail = %q", tail)
	}
	// Overflow keeps the end and never shows half a line.
	r = &StderrRing{}
	for i := 0; i < 10000; i++ {
		_, _ = r.Write([]byte("line " + strconv.Itoa(i) + " hunter2-long\n"))
	}
	tail = r.Tail(set)
	lines := strings.Split(tail, "\n")
	if len(lines) != tailLines || lines[len(lines)-1] != "line 9999 {{secrets.tok}}" || strings.Contains(tail, "hunter2") {
		t.Errorf("tail after overflow = %q", tail)
	}
}
