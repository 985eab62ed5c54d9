package tui

import (
	"strings"
	"testing"

	"github.com/relavium/relavium/consent"
	"github.com/relavium/relavium/engine"
	"github.com/relavium/relavium/host/discovery"
	"github.com/relavium/relavium/tui/dialog"
)

// readyAsking is ready without tools_auto_approve: every call is asked
// about until the person remembers an approval.
func readyAsking(t *testing.T) *harness {
	t.Helper()
	f := newFake(t)
	f.addStdio("demo", "demo-server")
	f.setTools("demo", demoTools(), demoSkipped())
	h := newHarness(t, f, 120, 30)
	h.until("the consent dialog", func() bool { _, ok := h.m.topDialog().(*dialog.Consent); return ok })
	h.key("o")
	h.until("demo ready", func() bool { return h.m.server("demo").state == engine.StateReady && len(h.m.browse.tools) == 4 })
	return h
}

func (h *harness) confirmOpen() *dialog.ToolConfirm {
	h.t.Helper()
	h.until("the tool confirmation", func() bool { _, ok := h.m.topDialog().(*dialog.ToolConfirm); return ok })
	return h.m.topDialog().(*dialog.ToolConfirm)
}

// A read-only hint never skips the question; the TUI asks once per tool:
// "this call" asks again next time, "always for this definition" never.
func TestReadOnlyHintAsksUntilRememberedForTheDefinition(t *testing.T) {
	h := readyAsking(t)
	h.key("tab", "enter")
	h.typeText("hi")
	h.key("ctrl+s")
	d := h.confirmOpen()
	view := h.view()
	for _, want := range []string{"Call mcp_demo_echo?", "read-only", "It never skips this question", "[y] This call", "[A] Always for this definition", "[n] No"} {
		if !strings.Contains(view, want) {
			t.Fatalf("the confirmation lacks %q:\n%s", want, view)
		}
	}
	if !d.Tool.Annotations.IsReadOnly() || len(h.m.call.jobs) != 0 {
		t.Fatal("a read-only-annotated tool was called before anyone was asked")
	}
	h.key("y") // this call
	h.until("the first result", func() bool { return len(h.m.call.jobs) == 1 && h.m.call.jobs[0].finished() })
	if set, _ := h.f.approvals.Fold(nil); set.Len() != 0 {
		t.Fatal(`"this call" remembered an approval`)
	}
	h.key("shift+tab", "enter", "ctrl+s")
	h.confirmOpen()
	h.key("A") // always for this definition
	h.until("the second result", func() bool { return len(h.m.call.jobs) == 2 && h.m.call.jobs[1].finished() })
	h.until("the approval remembered", func() bool {
		set, err := h.f.approvals.Fold(nil)
		return err == nil && set.Approved(consent.ToolKey{Server: "demo", Tool: "echo", Digest: h.m.browse.tools[0].Digest})
	})
	h.key("shift+tab", "enter", "ctrl+s")
	h.until("the third result", func() bool { return len(h.m.call.jobs) == 3 && h.m.call.jobs[2].finished() })
	if h.m.topDialog() != nil {
		t.Fatal("asked again after always for this definition")
	}
	// Another tool is still asked about: the approval is per tool.
	h.key("shift+tab", "down", "enter", "ctrl+s")
	if h.confirmOpen().Tool.Tool != "long_operation" {
		t.Fatal("the confirmation is for another tool")
	}
}

// A tool flagged as changed since it was accepted: a remembered approval
// does not speak for it, "always" is not offered, and A shows the field
// diff and accepts it (its approvals lapse); then calls ask as usual.
func TestChangedToolIsAskedEachTimeUntilAccepted(t *testing.T) {
	h := readyAsking(t)
	del := h.m.browse.tools[3]
	if !del.Changed {
		t.Fatal("fixture: delete_file is flagged")
	}
	if err := h.f.approvals.Approve(consent.ToolKey{Server: "demo", Tool: "delete_file", Digest: del.Digest}); err != nil {
		t.Fatal(err)
	}
	h.f.changes[del.ID] = []discovery.FieldChange{{Pointer: "/description", Old: `"Pretends to delete a file."`, New: `"Deletes every file.\u202e"`}}
	h.key("tab", "down", "down", "down", "enter")
	h.typeText("/x")
	h.key("ctrl+s")
	h.confirmOpen()
	view := h.view()
	if strings.Contains(view, "Always for this definition") || !strings.Contains(view, "changed since you accepted it") {
		t.Fatalf("a changed definition's confirmation:\n%s", view)
	}
	h.key("A")
	h.pump(50e6)
	if _, ok := h.m.topDialog().(*dialog.ToolConfirm); !ok || len(h.m.call.jobs) != 0 {
		t.Fatal(`"A" answered the confirmation of a changed definition`)
	}
	h.key("y")
	h.until("the call", func() bool { return len(h.m.call.jobs) == 1 && h.m.call.jobs[0].finished() })

	// A on the flagged tool: the diff, then accept.
	h.key("shift+tab")
	if !strings.Contains(h.view(), "A accept changed tool") {
		t.Fatalf("the footer does not offer A on a flagged tool:\n%s", h.view())
	}
	h.key("A")
	h.until("the accept dialog", func() bool { _, ok := h.m.topDialog().(*dialog.Accept); return ok })
	view = h.view()
	for _, want := range []string{"Accept the changed definition of mcp_demo_delete_file?", "/description", `- "Pretends to delete a file."`, `+ "Deletes every file.\u202e"`, "[y] Accept"} {
		if !strings.Contains(view, want) {
			t.Fatalf("the accept dialog lacks %q:\n%s", want, view)
		}
	}
	h.key("y")
	h.until("accepted", func() bool { return len(h.m.browse.tools) == 4 && !h.m.browse.tools[3].Changed })
	if len(h.f.accepted) != 1 || h.f.accepted[0] != "mcp_demo_delete_file" || !strings.Contains(h.m.status.text, "accepted the new definition") {
		t.Fatalf("accepted %v, status %q", h.f.accepted, h.m.status.text)
	}
	if set, _ := h.f.approvals.Fold(nil); set.Len() != 0 {
		t.Fatal("the approval did not lapse with the accept")
	}
	// Accepted: asked as usual, with "always" offered again.
	h.key("enter", "ctrl+s")
	h.confirmOpen()
	if !strings.Contains(h.view(), "Always for this definition") {
		t.Fatalf("after accept:\n%s", h.view())
	}
	// A on a tool that is not flagged accepts nothing.
	h.key("esc", "shift+tab", "up", "A")
	if _, ok := h.m.topDialog().(*dialog.Accept); ok || !strings.Contains(h.m.status.text, "nothing to accept") {
		t.Fatalf("A on an unflagged tool: %q", h.m.status.text)
	}
}
