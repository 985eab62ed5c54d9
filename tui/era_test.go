package tui

import (
	"strings"
	"testing"

	"github.com/relavium/relavium/tui/dialog"
)

// The server dialog (i on a server row; enter drills into its tools) says which protocol era the
// connection runs and what that means for elicitation, logs and sampling.
func TestServerDialogShowsTheEra(t *testing.T) {
	h := ready(t, 120, 40)
	h.key("i")
	if _, ok := h.m.topDialog().(*dialog.Text); !ok {
		t.Fatal("i on the server row opened no dialog")
	}
	frame := h.view()
	for _, want := range []string{"protocol 2025-11-25 · legacy era", "elicitation: the server asks mid-call", "logs: streamed live", "sampling: the server asks mid-call"} {
		if !strings.Contains(strings.Join(strings.Fields(frame), " "), want) {
			t.Fatalf("the server dialog lacks %q:\n%s", want, frame)
		}
	}
}
