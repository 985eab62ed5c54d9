package tui

import (
	"strings"
	"testing"
	"time"

	"github.com/relavium/relavium/engine"
	"github.com/relavium/relavium/tui/dialog"
)

// A burst of letters typed while the consent dialog appears answers
// nothing: no grant, no approval, no export, the dialog still open.
func TestBurstWhileConsentOpensAnswersNothing(t *testing.T) {
	f := newFake(t)
	f.addStdio("demo", "demo-server")
	f.setTools("demo", demoTools(), demoSkipped())
	h := newHarness(t, f, 120, 30)
	h.burst = true // no pause between any two keys from here
	h.until("the consent dialog", func() bool { _, ok := h.m.topDialog().(*dialog.Consent); return ok })
	h.typeText("Aaoe\r")
	h.key("A", "enter", "o", "e", "y")
	h.pump(30 * time.Millisecond)
	if _, ok := h.m.topDialog().(*dialog.Consent); !ok {
		t.Fatalf("the burst closed the consent dialog:\n%s", h.view())
	}
	grants, err := f.store.Fold()
	if err != nil || grants.Len() != 0 || len(f.answers) != 0 || len(f.exported) != 0 {
		t.Fatalf("the burst acted: grants %v (%v), answers %v, exported %d events", grants, err, f.answers, len(f.exported))
	}
	if !strings.Contains(h.view(), "the dialog had just opened") {
		t.Fatalf("dropped keys are not said to be dropped:\n%s", h.view())
	}
	// A pause, then a lowercase a: still nothing (remembering takes A).
	h.burst = false
	h.key("a")
	if _, ok := h.m.topDialog().(*dialog.Consent); !ok || len(f.answers) != 0 {
		t.Fatal("a lowercase a answered the consent dialog")
	}
	// ? lists the dialog's keys; esc closes the list, A approves.
	h.key("?")
	for _, want := range []string{"Keys of this dialog", "approve & remember", "approve once", "deny", "quit relavium"} {
		if !strings.Contains(h.view(), want) {
			t.Fatalf("? over the consent dialog lacks %q:\n%s", want, h.view())
		}
	}
	h.key("esc", "A")
	h.until("demo ready", func() bool { return h.m.server("demo").state == engine.StateReady })
	if grants, _ := f.store.Fold(); grants.Len() != 1 {
		t.Fatalf("A did not remember the grant: %v", grants)
	}
}

// enter on a server drills into its tools, esc goes back; enter, enter,
// ctrl+s is the first call.
func TestEnterDrillsDownToTheFirstCall(t *testing.T) {
	f := newFake(t)
	f.addStdio("demo", "demo-server")
	f.setTools("demo", demoTools(), demoSkipped())
	f.autoApprove["demo"] = []string{"echo"}
	h := newHarness(t, f, 120, 30)
	h.until("the consent dialog", func() bool { _, ok := h.m.topDialog().(*dialog.Consent); return ok })
	h.key("o")
	h.until("demo ready", func() bool { return h.m.server("demo").state == engine.StateReady && len(h.m.browse.tools) == 4 })
	if h.m.focus != paneServers {
		t.Fatalf("focus %v after consent, want the servers pane", h.m.focus)
	}
	h.key("enter")
	if h.m.focus != paneTools || h.m.browse.tab != tabTools {
		t.Fatalf("enter on a server: focus %v tab %v, want its tools", h.m.focus, h.m.browse.tab)
	}
	h.key("esc")
	if h.m.focus != paneServers {
		t.Fatalf("esc in the tools pane: focus %v, want back on the servers", h.m.focus)
	}
	h.key("enter", "enter", "ctrl+s")
	h.until("the first call's result", func() bool { j := h.m.call.shownJob(); return j != nil && j.finished() })
	if j := h.m.call.shownJob(); j.tool.Tool != "echo" {
		t.Fatalf("the first call went to %q", j.tool.Tool)
	}
}

// / starts a fresh filter: a second / never appends to the first.
func TestSlashStartsAFreshFilter(t *testing.T) {
	h := readyAsking(t)
	h.key("tab", "/")
	h.typeText("note")
	h.key("enter", "/")
	h.typeText("echo")
	if got := h.m.browse.filter.Value(); got != "echo" {
		t.Fatalf("the second filter reads %q, want echo", got)
	}
}

// The palette is the person's own: the query typed right after : is
// taken, as a search box takes it.
func TestPaletteTakesTheBurstThatOpenedIt(t *testing.T) {
	h := ready(t, 120, 30)
	h.burst = true
	h.typeText(":echo")
	if p, ok := h.m.topDialog().(*dialog.Palette); !ok || p.Query() != "echo" {
		t.Fatalf("the palette's query after a burst:\n%s", h.view())
	}
}

// A burst after ctrl+s goes nowhere: not into the form behind the question,
// not into the question; the status line says so, and a pause then y calls.
func TestBurstAfterSubmitGoesNowhere(t *testing.T) {
	h := readyAsking(t)
	h.key("tab", "enter")
	h.typeText("burst")
	h.burst = true
	h.key("ctrl+s", "y", "y")
	h.burst = false
	d := h.confirmOpen()
	if got := string(h.m.call.form.Fields[0].Input.Value()); got != "burst" {
		t.Fatalf("the form behind the question reads %q", got)
	}
	if len(h.m.call.jobs) != 0 || d == nil {
		t.Fatal("the burst answered the question")
	}
	if !strings.Contains(h.m.status.text, "ignored 'y'") {
		t.Fatalf("the dropped keys are not said: %q\n%s", h.m.status.text, h.view())
	}
	h.key("y")
	h.until("the call's result", func() bool { return len(h.m.call.jobs) == 1 && h.m.call.jobs[0].finished() })
}

// Text typed on with no pause after a palette action, where no field is
// there to take it (a url meant for a dialog that did not open), fires no
// shortcut: h, p, q go nowhere and the status line says so; after a
// pause, keys act again.
func TestBurstAfterAPaletteActionFiresNoShortcut(t *testing.T) {
	h := ready(t, 120, 30)
	h.key(":")
	h.burst = true // typed on with no pause from the palette's first letter
	h.typeText("reconnect demo")
	h.key("enter")
	h.typeText("hpq")
	h.pump(30 * time.Millisecond)
	if h.m.quitting || h.m.topDialog() != nil {
		t.Fatalf("the burst after the palette action acted (quitting %v):\n%s", h.m.quitting, h.view())
	}
	if !strings.Contains(h.m.status.text, "ignored 'q'") {
		t.Fatalf("the dropped keys are not said: %q", h.m.status.text)
	}
	h.burst = false
	h.key("?")
	if _, ok := h.m.topDialog().(*dialog.Text); !ok {
		t.Fatalf("a key after a pause did not act:\n%s", h.view())
	}
}
