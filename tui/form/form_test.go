package form

import (
	"encoding/json"
	"io"
	"strings"
	"testing"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"
	"github.com/muesli/termenv"

	"github.com/relavium/relavium/fields"
	"github.com/relavium/relavium/themes"
	"github.com/relavium/relavium/tui/render"
)

// testStyles are the mono theme's styles without colour, as the
// workbench's own tests draw.
func testStyles() *themes.Styles {
	r := lipgloss.NewRenderer(io.Discard)
	r.SetColorProfile(termenv.Ascii)
	r.SetHasDarkBackground(true)
	p, _ := themes.ByName(themes.Mono)
	return themes.NewStyles(r, p)
}

// A form taller than its room scrolls with the focused field and says how
// many fields are out of view, above and below.
func TestClippedFormSaysWhatIsOutOfView(t *testing.T) {
	specs, err := fields.Of(json.RawMessage(`{"type":"object","properties":{
		"a":{"type":"string"},"b":{"type":"string"},"c":{"type":"string"},"d":{"type":"string"},"e":{"type":"string"}}}`))
	if err != nil {
		t.Fatal(err)
	}
	f := New(testStyles(), specs, nil)
	view := strings.Join(f.View(50, 5, true), "\n")
	if !strings.Contains(view, "↓ 3 more below") || strings.Contains(view, "above") {
		t.Fatalf("first field focused, 5 lines of room: want a line saying 3 fields are below:\n%s", view)
	}
	f.FocusField(4)
	view = strings.Join(f.View(50, 5, true), "\n")
	if !strings.Contains(view, "↑ 3 more above") || strings.Contains(view, "below") {
		t.Fatalf("last field focused: want a line saying 3 fields are above:\n%s", view)
	}
	if got := len(f.View(50, 5, true)); got > 5 {
		t.Fatalf("the clipped form takes %d lines, room is 5", got)
	}
	f.FocusField(0)
	if view := strings.Join(f.View(50, 20, true), "\n"); strings.Contains(view, "more") {
		t.Fatalf("a form that fits says something is out of view:\n%s", view)
	}
}

// A form cuts nothing a person needs to answer: every choice of a
// multi-select is on screen (wrapped), and the focused field shows its
// whole description (an elicitation has no other view of it).
func TestFormShowsEveryChoiceAndTheFocusedDescription(t *testing.T) {
	specs, err := fields.Of(json.RawMessage(`{"type":"object","properties":{
		"instruments":{"type":"array","items":{"enum":["Guitar","Piano","Violin","Drums","Bass","Flute","Cello","Harp"]}},
		"email":{"type":"string","description":"Your email address (will be verified, and never shared with anyone else)"}}}`))
	if err != nil {
		t.Fatal(err)
	}
	f := New(testStyles(), specs, nil)
	view := strings.Join(f.View(40, 30, true), "\n")
	for _, opt := range []string{"Guitar", "Piano", "Violin", "Drums", "Bass", "Flute", "Cello", "Harp"} {
		if !strings.Contains(view, "[ ] "+opt) {
			t.Fatalf("choice %s is not on screen at 40 columns:\n%s", opt, view)
		}
	}
	f.FocusField(1)
	lines := f.View(40, 30, true)
	view = strings.Join(lines, " ")
	for _, word := range []string{"verified,", "shared", "else)"} {
		if !strings.Contains(view, word) {
			t.Fatalf("the focused field's description is cut (%q missing):\n%s", word, strings.Join(lines, "\n"))
		}
	}
	for i, l := range lines {
		if render.Width(l) > 40 {
			t.Fatalf("line %d is %d cells wide, room is 40: %q", i, render.Width(l), l)
		}
	}
}

// Typing into an enum jumps to the matching choice: a first letter, the
// same letter again for the next one, more letters to narrow; a letter no
// choice starts with moves nothing. A multi-select's cursor moves alike.
func TestTypingIntoAnEnumJumps(t *testing.T) {
	specs, err := fields.Of(json.RawMessage(`{"type":"object","properties":{
		"size":{"enum":["small","medium","mega","large"]},
		"tags":{"type":"array","items":{"enum":["work","home","hobby"]}}}}`))
	if err != nil {
		t.Fatal(err)
	}
	f := New(testStyles(), specs, nil)
	typeKeys := func(s string) {
		for _, r := range s {
			f.Update(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune{r}}, key.NewBinding(key.WithKeys("ctrl+t")))
		}
	}
	label := func() string { return f.Fields[0].labels[f.Fields[0].Choice] }
	typeKeys("l")
	if label() != "large" {
		t.Fatalf("l chose %q", label())
	}
	typeKeys("m")
	if label() != "medium" {
		t.Fatalf("m chose %q", label())
	}
	typeKeys("m")
	if label() != "mega" {
		t.Fatalf("m again chose %q", label())
	}
	f.Update(tea.KeyMsg{Type: tea.KeyLeft}, key.NewBinding(key.WithKeys("ctrl+t"))) // a key that is not a letter ends the word
	typeKeys("med")
	if label() != "medium" {
		t.Fatalf("med chose %q", label())
	}
	typeKeys("z")
	if label() != "medium" {
		t.Fatalf("z moved the choice to %q", label())
	}
	f.FocusField(1)
	typeKeys("ho")
	if got := f.Fields[1].labels[f.Fields[1].sub]; got != "home" {
		t.Fatalf("ho in the multi-select is on %q", got)
	}
	typeKeys("b")
	if got := f.Fields[1].labels[f.Fields[1].sub]; got != "hobby" {
		t.Fatalf("hob is on %q", got)
	}
}
