package tui

import (
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/relavium/relavium/engine"
	"github.com/relavium/relavium/tui/dialog"
)

// Keys typed faster than the program reads them (key repeat, a busy
// machine, ssh) arrive as one message holding several runes. Each rune is
// still a key: "jj" moves two rows, "/note" opens the filter and types
// "note".
func TestRunesTypedInOneBurstAreEachAKey(t *testing.T) {
	f := newFake(t)
	for _, n := range []string{"a", "b", "c"} {
		f.addHTTP(n)
	}
	h := newHarness(t, f, 120, 30)
	h.until("every server ready", func() bool {
		for _, r := range h.m.servers.rows {
			if r.state != engine.StateReady {
				return false
			}
		}
		return true
	})
	h.send(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("jj")})
	if h.m.servers.sel != 2 {
		t.Fatalf(`"jj" in one message moved the selection to %d, want 2`, h.m.servers.sel)
	}
	h.send(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("k")})
	if h.m.servers.sel != 1 {
		t.Fatalf("k moved the selection to %d, want 1", h.m.servers.sel)
	}
}

func TestFilterTypedInOneBurst(t *testing.T) {
	h := ready(t, 120, 30)
	h.key("tab")
	h.send(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("/note")})
	if !h.m.browse.filtering || h.m.browse.filter.Value() != "note" {
		t.Fatalf(`"/note" in one message: filtering=%v filter=%q, want the filter open holding "note"`, h.m.browse.filtering, h.m.browse.filter.Value())
	}
}

// A paste stays one message: it is text, never a run of commands.
func TestPasteIsNeverKeys(t *testing.T) {
	h := ready(t, 120, 30)
	h.send(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("qx"), Paste: true})
	if h.m.quitting {
		t.Fatal("a pasted q quit the workbench")
	}
}

// The short help keeps "? help" and "q quit" (and "c cancel call" while a
// call runs) however narrow the terminal: the keys that lead to every
// other key are the last to go.
func TestShortHelpKeepsHelpQuitAndCancelWhenNarrow(t *testing.T) {
	h := ready(t, 60, 16)
	for _, focus := range []pane{paneServers, paneTools, paneCall} {
		h.m.focus = focus
		lines := strings.Split(h.view(), "\n")
		footer := lines[len(lines)-1]
		for _, want := range []string{"? help", "q quit"} {
			if !strings.Contains(footer, want) {
				t.Errorf("pane %s at 60 columns: the footer %q lacks %q", focus.title(), footer, want)
			}
		}
	}
	h.m.call.jobs = append(h.m.call.jobs, &job{id: "t1", kind: jobTool, title: "long_operation"})
	h.m.focus = paneServers
	lines := strings.Split(h.view(), "\n")
	if footer := lines[len(lines)-1]; !strings.Contains(footer, "c cancel call") || !strings.Contains(footer, "? help") {
		t.Errorf("a call runs: the footer %q lacks the cancel or the help key", footer)
	}
}

// A prompt's required argument and a resource template's variable are
// checked in the form before anything is sent: nothing goes to the server
// with a hole in it (a template read would otherwise ask for the wrong URI).
func TestRequiredPromptAndTemplateFieldsCheckedBeforeSending(t *testing.T) {
	h := ready(t, 120, 30)
	h.key("tab", "]")
	h.until("resources", func() bool { return len(h.m.browse.listRows()) == 2 })
	h.key("down", "enter")
	jobs := len(h.m.call.jobs)
	h.key("ctrl+s")
	if len(h.m.call.jobs) != jobs {
		t.Fatalf("an empty template variable was read: %q", h.m.call.jobs[len(h.m.call.jobs)-1].title)
	}
	if h.m.call.form == nil || h.m.call.form.Fields[0].Err != "required" || !strings.Contains(h.view(), "fill the required fields") {
		t.Fatalf("the empty template variable is not marked:\n%s", h.view())
	}
	h.key("esc", "esc", "shift+tab", "]")
	h.until("prompts", func() bool { r := h.m.browse.listRows(); return len(r) == 1 && r[0].kind == rowPrompt })
	h.key("enter")
	h.key("ctrl+s")
	if len(h.m.call.jobs) != jobs {
		t.Fatalf("a prompt was fetched without its required argument")
	}
	if h.m.call.form == nil || h.m.call.form.Fields[0].Err != "required" {
		t.Fatalf("the empty required prompt argument is not marked:\n%s", h.view())
	}
	h.typeText("x := 1")
	h.key("ctrl+s")
	h.until("the prompt", func() bool { j := h.m.call.shownJob(); return j != nil && j.prompt != nil })
	// the prompt's form (and its marks) leaves with the get: the pane shows
	// the prompt, under its own title
	if h.m.call.form != nil || !strings.Contains(h.view(), "PROMPT · review_code") || strings.Contains(h.view(), "required") {
		t.Fatalf("the prompt's form stayed after the get:\n%s", h.view())
	}
}

// The header counts in words a person reads: "1 server", not "1 servers".
func TestHeaderCountsAreSingularForOne(t *testing.T) {
	h := ready(t, 120, 30)
	header := strings.Split(h.view(), "\n")[0]
	if !strings.Contains(header, "1 server ·") || strings.Contains(header, "1 servers") {
		t.Fatalf("header %q: want \"1 server\"", header)
	}
}

// Selecting a server with the mouse (wheel or click) is selecting it: the
// middle pane starts at its top and loads what its tab lists for that
// server, as the keys do — never a "loading resources…" that nothing loads.
func TestMouseSelectionLoadsTheServersLists(t *testing.T) {
	for _, how := range []string{"wheeldown", "click"} {
		t.Run(how, func(t *testing.T) {
			f := newFake(t)
			f.addHTTP("a")
			f.addHTTP("b")
			h := newHarness(t, f, 120, 30)
			h.until("both ready", func() bool {
				return h.m.server("a").state == engine.StateReady && h.m.server("b").state == engine.StateReady
			})
			h.key("tab", "]")
			h.until("a's resources", func() bool { return h.m.browse.resources["a"] != nil })
			h.key("down")
			g := h.m.geometry()
			if how == "click" {
				h.send(teaMouse(2, g.bodyY+2, "left")) // the second server's row
			} else {
				h.send(teaMouse(2, g.bodyY+2, how))
			}
			if h.m.servers.sel != 1 {
				t.Fatalf("the mouse selected server %d, want 1", h.m.servers.sel)
			}
			if h.m.browse.cursor != 0 {
				t.Fatalf("the list cursor stayed at %d from the other server", h.m.browse.cursor)
			}
			h.until("b's resources", func() bool { return h.m.browse.resources["b"] != nil })
		})
	}
}

// Catalogue snapshots run in their own goroutines and may answer out of
// order: an older snapshot arriving last never replaces a newer one (a
// ready server would show no tools until something else changed).
func TestAnOlderCatalogueNeverReplacesANewerOne(t *testing.T) {
	h := ready(t, 120, 30)
	older := h.m.catalogueCmd()() // taken before the change
	h.f.setTools("demo", demoTools()[:2], nil)
	newer := h.m.catalogueCmd()()
	h.send(newer)
	h.send(older)
	if len(h.m.browse.tools) != 2 {
		t.Fatalf("the older catalogue (4 tools) replaced the newer one (2 tools): %d tools shown", len(h.m.browse.tools))
	}
}

// A skipped tool's row names the tool first: when the row is too narrow
// for name, code and detail, the reason is what gets cut, never the name
// down to a few letters (the demo's control_char_property showed as "con…").
func TestSkippedRowKeepsTheToolName(t *testing.T) {
	f := newFake(t)
	f.addStdio("demo", "demo-server")
	f.setTools("demo", demoTools(), []engine.SkippedTool{{Tool: "control_char_property", Code: "control_char_in_semantic_field", Detail: "a control character"}})
	h := newHarness(t, f, 120, 30)
	h.until("the consent dialog", func() bool { _, ok := h.m.topDialog().(*dialog.Consent); return ok })
	h.key("o")
	h.until("demo ready", func() bool { return len(h.m.browse.skipped) == 1 })
	if !strings.Contains(h.view(), "✗ control_char_property ") {
		t.Fatalf("the skipped tool's name is cut:\n%s", h.view())
	}
}

// Approve, reconnect and disconnect act on the selected server only from
// the servers pane, where the footer lists them: an x pressed in the call
// pane or the tools pane never drops the server and its calls.
func TestServerKeysActOnlyInTheServersPane(t *testing.T) {
	h := ready(t, 120, 30)
	for _, focus := range []pane{paneTools, paneCall} {
		h.m.focus = focus
		h.key("x")
		if st := h.m.server("demo").state; st != engine.StateReady {
			t.Fatalf("x in pane %d changed the server to %s", focus, st)
		}
	}
	h.m.focus = paneServers
	h.key("x")
	h.until("demo disconnected", func() bool { return h.m.server("demo").state == engine.StateClosed })
}
