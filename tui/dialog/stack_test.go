package dialog

import (
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/relavium/relavium/themes"
)

// The stack's top takes keys; closing a dialog shows the one below, and a
// dialog withdrawn from under the top leaves the top in place.
func TestStackTopRemoveAndWithdraw(t *testing.T) {
	var s Stack
	if s.Top() != nil {
		t.Fatal("an empty stack has a top")
	}
	a := &Confirm{Title: "a", Yes: "yes-a", No: "no-a"}
	b := &Text{Title: "b", Max: 40, Lines: func(*themes.Styles, int) []string { return nil }}
	c := &Confirm{Title: "c", Yes: "yes-c", No: "no-c"}
	s.Push(a)
	s.Push(b)
	s.Push(c)
	if s.Top() != c {
		t.Fatalf("top = %v, want c", s.Top())
	}
	if act, _ := s.Top().Handle(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("y")}); act != "yes-c" {
		t.Fatalf("y on c = %v, want c's Yes", act)
	}
	s.Remove(c)
	if s.Top() != b {
		t.Fatalf("after closing c, top = %v, want b", s.Top())
	}
	if n := s.RemoveIf(func(d Dialog) bool { x, ok := d.(*Confirm); return ok && x.Title == "a" }); n != 1 || len(s) != 1 || s.Top() != b {
		t.Fatalf("withdrawing a: removed %d, %d left, top %v", n, len(s), s.Top())
	}
	if !s.Any(func(d Dialog) bool { return d == b }) || s.Any(func(d Dialog) bool { return d == a }) {
		t.Fatal("Any does not see what is open")
	}
}

// Overlay draws the box centred and keeps every frame line exactly w cells.
func TestOverlayKeepsTheFrameSize(t *testing.T) {
	bg := []string{strings.Repeat(".", 20), strings.Repeat(".", 20), strings.Repeat(".", 20)}
	out := Overlay(bg, "ab\ncd", 20, 3)
	if len(out) != 3 {
		t.Fatalf("%d lines, want 3", len(out))
	}
	if out[0] != strings.Repeat(".", 9)+"ab"+strings.Repeat(".", 9) || out[1] != strings.Repeat(".", 9)+"cd"+strings.Repeat(".", 9) || out[2] != bg[2] {
		t.Fatalf("overlay not centred:\n%s", strings.Join(out, "\n"))
	}
}
