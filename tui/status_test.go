package tui

import (
	"strings"
	"testing"
)

// A status line says what just happened, then goes: it is not left on
// screen until something else replaces it. A newer status keeps its own
// time; the timer of an older one never clears it.
func TestStatusLineExpires(t *testing.T) {
	h := ready(t, 120, 30)
	h.m.status.set("demo: approved once", false)
	first := h.m.status.seq
	if cmd := h.m.expireStatus(); cmd == nil {
		t.Fatal("no expiry scheduled for a new status")
	}
	if cmd := h.m.expireStatus(); cmd != nil {
		t.Fatal("a second expiry scheduled for the same status")
	}
	h.m.status.set("session exported to /x", false)
	h.send(statusExpiredMsg{seq: first})
	if !strings.Contains(h.view(), "session exported to /x") {
		t.Fatalf("an older status's timer cleared a newer status:\n%s", h.view())
	}
	h.send(statusExpiredMsg{seq: h.m.status.seq})
	if h.m.status.text != "" || strings.Contains(h.view(), "session exported") {
		t.Fatalf("the status outlived its time:\n%s", h.view())
	}
}
