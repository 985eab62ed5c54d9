package dialog

import (
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/relavium/relavium/consent"
)

// A consent dialog without Remember (an ad-hoc server) offers approve once
// and deny only: A does nothing, and moving the choice never lands on the
// missing button.
func TestConsentWithoutRemember(t *testing.T) {
	dec := consent.Decision{Server: &consent.Resolved{Name: "adhoc", Command: "/bin/prog", Cwd: "/tmp", Digest: "v1:abc"}}
	d := NewConsent(dec, nil, "once", "deny")
	if act, _ := d.Handle(keyOf("A")); act != nil {
		t.Fatalf("A without Remember = %v", act)
	}
	for _, k := range []string{"tab", "tab", "tab", "shift+tab", "shift+tab", "shift+tab", "left", "right"} {
		d.Handle(keyOf(k))
		if d.focus == 0 {
			t.Fatalf("after %s the focus is on the missing remember button", k)
		}
	}
	d.focus = 2
	d.Handle(keyOf("tab"))
	if act, _ := d.Handle(keyOf("enter")); act != "once" {
		t.Fatalf("tab from deny, enter = %v, want once", act)
	}
	view := d.View(monoStyles(), 100, 40)
	if strings.Contains(view, "Approve & remember") || !strings.Contains(view, "[o] Approve once") || !strings.Contains(view, "nothing is remembered") {
		t.Fatalf("view:\n%s", view)
	}
	if act, _ := NewConsent(dec, "remember", "once", "deny").Handle(keyOf("A")); act != "remember" {
		t.Fatalf("A with Remember = %v", act)
	}
}

func keyOf(k string) tea.KeyMsg {
	switch k {
	case "tab":
		return tea.KeyMsg{Type: tea.KeyTab}
	case "shift+tab":
		return tea.KeyMsg{Type: tea.KeyShiftTab}
	case "left":
		return tea.KeyMsg{Type: tea.KeyLeft}
	case "right":
		return tea.KeyMsg{Type: tea.KeyRight}
	case "enter":
		return tea.KeyMsg{Type: tea.KeyEnter}
	}
	return tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune(k)}
}
