package tui

import (
	"strings"
	"testing"

	"github.com/muesli/termenv"

	"github.com/relavium/relavium/engine"
	"github.com/relavium/relavium/themes"
	"github.com/relavium/relavium/tui/dialog"
	"github.com/relavium/relavium/tui/render"
)

// The full help (?) lists every key at any width: columns that do not fit
// side by side go below, never behind an ellipsis; and no dialog body line
// is cut (a long line wraps inside the box).
func TestHelpAndDialogsLoseNothingWhenNarrow(t *testing.T) {
	h := ready(t, 60, 16)
	st := testStyles(termenv.Ascii, themes.Mono)
	for _, w := range []int{60, 80, 120} {
		d := dialog.NewHelp(h.m.keys.FullHelp(), h.m.help)
		iw := dialog.InnerWidth(dialog.Width(w, d.Max))
		text := strings.Join(d.Lines(st, iw), "\n")
		for _, col := range h.m.keys.FullHelp() {
			for _, b := range col {
				if !strings.Contains(text, b.Help().Desc) {
					t.Fatalf("width %d: the full help lacks %q:\n%s", w, b.Help().Desc, text)
				}
			}
		}
		for _, l := range strings.Split(text, "\n") {
			if render.Width(l) > iw {
				t.Fatalf("width %d: help line %q is wider than %d", w, l, iw)
			}
		}
	}
	// A skipped tool's details at 60×16: scrolled to the end, the closing
	// sentence is whole.
	d := h.m.detailsDialog(listRow{kind: rowSkipped, skip: engine.SkippedTool{Server: "demo", Tool: "t", Code: "schema_remote_ref", Detail: "x"}})
	seen := ""
	for range 10 {
		seen += render.StripANSI(d.View(st, 60, 16))
		d.Handle(keyMsg("down"))
	}
	if !strings.Contains(strings.Join(strings.Fields(strings.NewReplacer("│", " ").Replace(seen)), " "), "it cannot be called.") {
		t.Fatalf("the skipped tool's note was cut:\n%s", seen)
	}
}

// A filter that hides every row says so on every tab; it never claims the
// server offers nothing.
func TestFilterThatMatchesNothingSaysSo(t *testing.T) {
	h := ready(t, 120, 30)
	h.key("tab", "/")
	h.typeText("zzz")
	h.key("enter")
	for _, tab := range []string{"tools", "resources", "prompts"} {
		h.until(tab+" listed", func() bool {
			r := h.m.browse.listRows()
			return len(r) == 1 && r[0].kind == rowNote && !strings.HasPrefix(r[0].note, "loading")
		})
		if note := h.m.browse.listRows()[0].note; !strings.Contains(note, `matches "zzz"`) {
			t.Fatalf("%s tab with a filter matching nothing says %q", tab, note)
		}
		h.key("]")
	}
}

// A workflow's step lines (a gate's question above all) wrap in a narrow
// call pane; nothing is cut.
func TestRunStepLinesWrap(t *testing.T) {
	st := testStyles(termenv.Ascii, themes.Mono)
	j := &job{kind: jobRun, steps: []stepLine{{step: "approve", tool: "Close 12 stale issues in owner/a-long-repository-name?", state: "gate"}}}
	lines := j.body(st, 30)
	joined := strings.Join(strings.Fields(strings.Join(lines, "")), "")
	if !strings.Contains(joined, "Close12staleissuesinowner/a-long-repository-name?") {
		t.Fatalf("the gate's question was cut:\n%s", strings.Join(lines, "\n"))
	}
	for _, l := range lines {
		if render.Width(l) > 30 {
			t.Fatalf("line %q is wider than the pane", l)
		}
	}
}
