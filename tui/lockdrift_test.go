package tui

import (
	"context"
	"strings"
	"testing"

	"github.com/relavium/relavium/engine"
	"github.com/relavium/relavium/tui/backend"
)

// LockDrift is the fake's lock comparison: none unless set.
func (f *fakeBackend) LockDrift(_ context.Context, server string) (backend.LockDrift, bool) {
	f.mu.Lock()
	defer f.mu.Unlock()
	d, ok := f.drift[server]
	return d, ok
}

// A ready server that differs from the lock says so on its row, and its
// details name the first difference; a server without drift shows none.
func TestLockDriftOnTheServerRow(t *testing.T) {
	f := newFake(t)
	f.addStdio("demo", "demo-server")
	f.addStdio("docs", "docs-server")
	f.setTools("demo", demoTools(), demoSkipped())
	f.drift = map[string]backend.LockDrift{
		"demo": {Differences: 2, First: "server demo: tool delete_file now claims read-only (readOnlyHint true; it did not before)"},
		"docs": {},
	}
	_, _ = f.decider.Decide(nil)
	h := newHarness(t, f, 120, 30)
	h.until("the consent dialog", func() bool { return h.m.topDialog() != nil })
	h.key("A")
	h.until("demo ready", func() bool { return h.m.server("demo").state == engine.StateReady })
	h.until("docs' consent dialog", func() bool { return h.m.topDialog() != nil })
	h.key("A")
	h.until("both ready", func() bool {
		return h.m.server("demo").state == engine.StateReady && h.m.server("docs").state == engine.StateReady
	})
	h.until("the drift mark", func() bool { return strings.Contains(h.view(), "⚠ drift 2") })
	view := h.view()
	if strings.Count(view, "⚠ drift") != 1 {
		t.Fatalf("only demo drifts:\n%s", view)
	}
	// the servers pane's text, however the pane's width wrapped it
	if servers := h.column(0, h.m.geometry().srvW); !strings.Contains(servers, "lock drift: server demo:") || !strings.Contains(servers, "claims read-only") {
		t.Fatalf("the details lack the first difference:\n%s", view)
	}
}
