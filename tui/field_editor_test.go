package tui

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/relavium/relavium/engine"
	"github.com/relavium/relavium/tui/dialog"
)

// ctrl+o edits an array of scalars one item per line (each typed by the
// items' type) and an object as JSON on many lines, judged as typed.
func TestLargerEditorForArraysAndObjects(t *testing.T) {
	f := newFake(t)
	f.addHTTP("demo")
	schema := `{"type":"object","properties":{"ids":{"type":"array","items":{"type":"integer"}},"meta":{"type":"object"}}}`
	f.setTools("demo", []engine.ToolDef{{Tool: "shape", InputSchema: json.RawMessage(schema)}}, nil)
	h := newHarness(t, f, 120, 30)
	h.until("demo ready", func() bool { return h.m.servers.ready("demo") && len(h.m.browse.tools) == 1 })
	h.key("enter", "enter")
	if !strings.Contains(h.view(), "ctrl+o") {
		t.Fatalf("the footer does not offer the editor on an array field:\n%s", h.view())
	}
	h.key("ctrl+o")
	if _, ok := h.m.topDialog().(*dialog.Editor); !ok {
		t.Fatalf("ctrl+o opened no editor:\n%s", h.view())
	}
	h.typeText("1")
	h.key("enter")
	h.typeText("x")
	if ed := h.m.topDialog().(*dialog.Editor); !strings.Contains(ed.Err, "line 2") {
		t.Fatalf("a bad item is not named by its line: %q", ed.Err)
	}
	h.key("backspace")
	h.typeText("2")
	h.key("ctrl+s")
	if got := h.m.call.form.Fields[0].Input.Value(); got != "[1,2]" {
		t.Fatalf("the array kept is %q", got)
	}
	h.key("down", "ctrl+o")
	h.typeText(`{"a":`)
	h.key("enter")
	h.typeText(`  [1,}`)
	if ed := h.m.topDialog().(*dialog.Editor); !strings.Contains(ed.Err, "line 2") {
		t.Fatalf("a syntax error is not placed: %q", ed.Err)
	}
	h.key("ctrl+s") // refused: stays open
	if _, ok := h.m.topDialog().(*dialog.Editor); !ok {
		t.Fatal("ctrl+s kept JSON that does not parse")
	}
	h.key("esc")
	if h.m.call.form.Fields[1].Input.Value() != "" {
		t.Fatal("esc changed the field")
	}
}
