package tui

import (
	"strings"
	"testing"

	"github.com/relavium/relavium/fields"
	"github.com/relavium/relavium/themes"
	"github.com/relavium/relavium/tui/dialog"
	"github.com/relavium/relavium/tui/form"
	"github.com/relavium/relavium/tui/keymap"
)

func (h *harness) palette() *dialog.Palette {
	h.t.Helper()
	p, ok := h.m.topDialog().(*dialog.Palette)
	if !ok {
		h.t.Fatalf("no palette on top:\n%s", h.view())
	}
	return p
}

// : opens the palette; a fuzzy query finds a tool; enter opens its form.
func TestPaletteFindsAToolAndOpensItsForm(t *testing.T) {
	h := ready(t, 120, 30)
	h.key(":")
	h.palette()
	for _, want := range []string{"Command palette", "Export the session", "Show all servers' tools"} {
		if !strings.Contains(h.view(), want) {
			t.Fatalf("the palette lacks %q:\n%s", want, h.view())
		}
	}
	h.golden("palette_120x30")
	h.typeText("lngop") // fuzzy: long_operation
	if !strings.Contains(h.view(), "▸ tool") || !strings.Contains(h.view(), "mcp_demo_long_operation") {
		t.Fatalf("the fuzzy query did not put the tool first:\n%s", h.view())
	}
	h.key("enter")
	if h.m.call.form == nil || h.m.call.formFor.tool.Tool != "long_operation" || h.m.focus != paneCall {
		t.Fatalf("enter on the tool did not open its form:\n%s", h.view())
	}
	// ctrl+p opens it too, and q is a letter there, not quit.
	h.key("esc", "ctrl+p")
	h.typeText("q")
	if h.quit || h.m.quitting || h.palette().Query() != "q" {
		t.Fatal("q in the palette's query quit")
	}
	h.key("esc")
}

// The palette loads resources and prompts of ready servers and lists them
// as they arrive; a theme entry restyles the workbench.
func TestPaletteListsResourcesAndSwitchesTheme(t *testing.T) {
	h := ready(t, 120, 30)
	h.key("ctrl+p")
	h.until("the resources in the palette", func() bool {
		for _, it := range h.palette().Items {
			if it.Kind == "resource" && it.Title == "test://static-text" {
				return true
			}
		}
		return false
	})
	h.typeText("review")
	if !strings.Contains(h.view(), "review_code") {
		t.Fatalf("the prompt is not in the palette:\n%s", h.view())
	}
	h.key("esc", ":")
	h.typeText("theme high")
	h.key("enter")
	if h.m.st.Palette.Name != themes.HighContrast || h.m.info.Theme.Name != themes.HighContrast {
		t.Fatalf("theme is %q after choosing high-contrast", h.m.st.Palette.Name)
	}
}

// ctrl+a lists every server's tools, each with its server; the pane's
// title says whose tools it lists.
func TestAllServersToolsAndTheTitleSaysWhose(t *testing.T) {
	f := newFake(t)
	f.addHTTP("one")
	f.addHTTP("two")
	f.setTools("one", demoTools()[:1], nil)
	f.setTools("two", demoTools()[1:2], nil)
	h := newHarness(t, f, 120, 30)
	h.until("both ready", func() bool { return h.m.servers.ready("one") && h.m.servers.ready("two") && len(h.m.browse.tools) == 2 })
	h.key("enter")
	if !strings.Contains(h.view(), "TOOLS of one") || len(h.m.browse.listRows()) != 1 {
		t.Fatalf("the tools pane of one:\n%s", h.view())
	}
	h.key("ctrl+a")
	if !strings.Contains(h.view(), "TOOLS of all servers") || len(h.m.browse.listRows()) != 2 || !strings.Contains(h.view(), "long_operation · two") {
		t.Fatalf("ctrl+a did not list every server's tools:\n%s", h.view())
	}
	h.key("ctrl+a")
	if len(h.m.browse.listRows()) != 1 {
		t.Fatal("a second ctrl+a did not go back to the selected server's tools")
	}
}

// i shows a resource's, a prompt's and a workflow's details (not an
// empty box).
func TestDetailsOfResourcesAndPrompts(t *testing.T) {
	h := ready(t, 120, 30)
	h.key("tab", "]")
	h.until("resources", func() bool { return len(h.m.browse.listRows()) == 2 })
	h.key("i")
	for _, want := range []string{"Resource · static-text", "test://static-text", "text/plain", "enter reads it"} {
		if !strings.Contains(h.view(), want) {
			t.Fatalf("resource details lack %q:\n%s", want, h.view())
		}
	}
	h.key("esc", "down", "i")
	if !strings.Contains(h.view(), "Resource template · template-data") || !strings.Contains(h.view(), "fills") {
		t.Fatalf("template details:\n%s", h.view())
	}
	h.key("esc", "]")
	h.until("prompts", func() bool { rows := h.m.browse.listRows(); return len(rows) == 1 && rows[0].kind == rowPrompt })
	h.key("i")
	if !strings.Contains(h.view(), "Prompt · review_code") || !strings.Contains(h.view(), "arguments (1)") || !strings.Contains(h.view(), "code*") {
		t.Fatalf("prompt details:\n%s", h.view())
	}
}

// A boolean picks false then true, in that order; "unset" (not sent) is a
// choice only of an optional field.
func TestBooleanCycleIsPredictable(t *testing.T) {
	st := testStyles(0, themes.Mono)
	opt := form.New(st, []fields.Field{{Name: "b", Types: []string{"boolean"}}}, nil)
	req := form.New(st, []fields.Field{{Name: "b", Types: []string{"boolean"}, Required: true}}, nil)
	seq := func(f *form.Form) string {
		var got []string
		for i := 0; i < 4; i++ {
			v, present, _ := f.Fields[0].Value()
			if !present {
				got = append(got, "unset")
			} else {
				got = append(got, map[bool]string{true: "true", false: "false"}[v.(bool)])
			}
			f.Update(keyMsg("right"), keymap.New().RawJSON)
		}
		return strings.Join(got, " ")
	}
	if got := seq(opt); got != "unset false true unset" {
		t.Fatalf("optional boolean cycles %s", got)
	}
	if got := seq(req); got != "false true false true" {
		t.Fatalf("required boolean cycles %s", got)
	}
}

// The palette sets a ready server's log level.
func TestPaletteSetsALogLevel(t *testing.T) {
	h := ready(t, 120, 30)
	h.key(":")
	h.typeText("log level warning demo")
	h.key("enter")
	h.until("level asked", func() bool { return h.f.answered("level demo warning") })
}

// The connect dialog (a palette action) takes every letter typed into it:
// q and ? are part of the url or command line, never quit or help.
func TestConnectDialogTakesQAndQuestionMark(t *testing.T) {
	h := ready(t, 120, 30)
	h.exec(h.m.openAdhoc())
	h.pump(dialog.ModalGrace + dialog.BurstGap)
	h.typeText("https://x.example/mcp?q=1")
	if h.m.quitting {
		t.Fatal("q typed into the connect dialog quit the workbench")
	}
	if _, ok := h.m.topDialog().(*dialog.Input); !ok || !strings.Contains(h.view(), "› https://x.example/mcp?q=1") {
		t.Fatalf("the typed line is not in the dialog:\n%s", h.view())
	}
}
