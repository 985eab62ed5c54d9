package dialog

import (
	"io"
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"
	"github.com/muesli/termenv"

	"github.com/relavium/relavium/engine"
	"github.com/relavium/relavium/themes"
)

func monoStyles() *themes.Styles {
	r := lipgloss.NewRenderer(io.Discard)
	r.SetColorProfile(termenv.Ascii)
	p, _ := themes.ByName(themes.Mono)
	return themes.NewStyles(r, p)
}

func press(d Dialog, keys ...string) Action {
	var act Action
	for _, k := range keys {
		msg := tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune(k)}
		switch k {
		case "esc":
			msg = tea.KeyMsg{Type: tea.KeyEsc}
		case "ctrl+s":
			msg = tea.KeyMsg{Type: tea.KeyCtrlS}
		case "ctrl+d":
			msg = tea.KeyMsg{Type: tea.KeyCtrlD}
		case "ctrl+r":
			msg = tea.KeyMsg{Type: tea.KeyCtrlR}
		case "ctrl+e":
			msg = tea.KeyMsg{Type: tea.KeyCtrlE}
		case "enter":
			msg = tea.KeyMsg{Type: tea.KeyEnter}
		}
		act, _ = d.Handle(msg)
	}
	return act
}

func TestSamplingDialogShowsTheRequestAndSendsTheReply(t *testing.T) {
	st := monoStyles()
	req := &engine.SampleRequest{ID: "s1", Server: "demo", MaxTokens: 42, SystemPrompt: "Be terse.", StopSequences: []string{"END"},
		ModelPreferences: []byte(`{"hints":[{"name":"claude"}]}`), Tools: []engine.SampleTool{{Name: "search", Description: "finds"}},
		Messages: []engine.SampleMessage{{Role: "user", Content: []engine.Content{{Type: engine.ContentText, Text: "Capital of France?"}}}}}
	var got engine.SampleResponse
	d := NewSampling(st, req, func(r engine.SampleResponse) Action { got = r; return r.Action })
	view := d.View(st, 120, 40)
	for _, want := range []string{"demo asks for a sampling reply", "max tokens 42", `stop at "END"`, "claude", "Be terse.",
		"[user] Capital of France?", "tools offered (1)", "search", "role assistant", "stop reason endTurn"} {
		if !strings.Contains(view, want) {
			t.Fatalf("the dialog lacks %q:\n%s", want, view)
		}
	}
	if act := press(d, "ctrl+s"); act != nil || d.Err == "" {
		t.Fatalf("an empty reply was sent (%v) or not refused inline (%q)", act, d.Err)
	}
	if act := press(d, "P", "a", "r", "i", "s", "ctrl+r", "ctrl+e", "ctrl+e", "ctrl+s"); act != engine.SampleAccept {
		t.Fatalf("send: %v", act)
	}
	if got.Text != "Paris" || got.Role != "user" || got.StopReason != "maxTokens" {
		t.Fatalf("reply %+v", got)
	}
	d2 := NewSampling(st, req, func(r engine.SampleResponse) Action { return r.Action })
	if act := press(d2, "esc"); act != engine.SampleDecline {
		t.Fatalf("esc: %v, want decline", act)
	}
}

func TestURLScreenOpensOnlyOnOAndOnlyWhatIsOpenable(t *testing.T) {
	st := monoStyles()
	answer := func(r engine.ElicitResponse) Action { return r.Action }
	ok := &URLElicit{Request: &engine.ElicitRequest{Server: "demo", Message: "Sign in", URL: &engine.ElicitURL{URL: "https://xn--80ak6aa92e.com/",
		Origin: "https://xn--80ak6aa92e.com", Openable: true, Warnings: []string{"the host is punycode"}}}, Open: "open", Answer: answer}
	if act := press(ok, "y", "enter", "a"); act != nil {
		t.Fatalf("a key other than o answered: %v", act)
	}
	view := ok.View(st, 100, 30)
	for _, want := range []string{"origin", "https://xn--80ak6aa92e.com", "⚠ the host is punycode", "[o] Open in browser"} {
		if !strings.Contains(view, want) {
			t.Fatalf("the screen lacks %q:\n%s", want, view)
		}
	}
	if act := press(ok, "o"); act != "open" {
		t.Fatalf("o: %v", act)
	}
	refused := &URLElicit{Request: &engine.ElicitRequest{Server: "demo", URL: &engine.ElicitURL{URL: "http://example.com/",
		Origin: "http://example.com", Refusal: "plain http"}}, Open: "open", Answer: answer}
	if act := press(refused, "o"); act != nil {
		t.Fatalf("o opened a refused url: %v", act)
	}
	if view := refused.View(st, 100, 30); !strings.Contains(view, "never opened: plain http") || strings.Contains(view, "[o] Open") {
		t.Fatalf("refused screen:\n%s", view)
	}
	if act := press(refused, "ctrl+d"); act != "decline" {
		t.Fatalf("ctrl+d: %v", act)
	}
}

func TestRootsDialogAddsAndRemoves(t *testing.T) {
	var got []string
	d := NewRoots([]string{"/a", "/b"}, "", func(dirs []string) Action { got = dirs; return "set" })
	if act := press(d, "j", "d"); act != "set" || strings.Join(got, " ") != "/a" {
		t.Fatalf("remove the second: %v %v", act, got)
	}
	d = NewRoots([]string{"/a"}, "", func(dirs []string) Action { got = dirs; return "set" })
	press(d, "a")
	d.input.SetValue("/c")
	if act := press(d, "enter"); act != "set" || strings.Join(got, " ") != "/a /c" {
		t.Fatalf("add: %v %v", act, got)
	}
}
