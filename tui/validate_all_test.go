package tui

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/relavium/relavium/engine"
	"github.com/relavium/relavium/host/discovery"
)

type oneTool string

func (l oneTool) ListToolsRaw(_ context.Context, _ string) (json.RawMessage, error) {
	return json.RawMessage(`{"tools":[{"name":"limits","inputSchema":` + string(l) + `}]}`), nil
}

// Every property the schema refuses is marked at once, each on its field
// (the real validator of discovery, not a scripted error).
func TestEveryValidationErrorAtOnce(t *testing.T) {
	schema := `{"type":"object","properties":{"a":{"type":"integer","maximum":5},"b":{"type":"string","maxLength":2},"c":{"type":"string"}},"required":["c"]}`
	cat, err := discovery.Discover(context.Background(), "demo", oneTool(schema), discovery.Options{})
	if err != nil || len(cat.Tools) != 1 {
		t.Fatalf("discover: %v", err)
	}
	tool := cat.Tools[0]
	f := newFake(t)
	f.addHTTP("demo")
	f.setTools("demo", []engine.ToolDef{{Tool: "limits", InputSchema: json.RawMessage(schema)}}, nil)
	f.validate = func(_ engine.ToolID, args json.RawMessage) error { return tool.Validate(args) }
	h := newHarness(t, f, 120, 30)
	h.until("demo ready", func() bool { return h.m.servers.ready("demo") && len(h.m.browse.tools) == 1 })
	h.key("enter", "enter")
	h.typeText("9")
	h.key("down")
	h.typeText("long")
	h.key("down")
	h.typeText("ok")
	h.key("ctrl+s")
	h.until("the marks", func() bool { return h.m.call.form.Fields[0].Err != "" && h.m.call.form.Fields[1].Err != "" })
	if h.m.call.form.Fields[2].Err != "" || len(h.m.call.jobs) != 0 {
		t.Fatalf("c marked (%q) or a call sent", h.m.call.form.Fields[2].Err)
	}
	if !strings.Contains(h.m.call.form.Fields[0].Err, "maximum") || !strings.Contains(h.m.call.form.Fields[1].Err, "maxLength") {
		t.Fatalf("marks: a %q, b %q", h.m.call.form.Fields[0].Err, h.m.call.form.Fields[1].Err)
	}
	if !strings.Contains(h.m.status.text, "2 values") {
		t.Fatalf("status %q", h.m.status.text)
	}
	// Raw JSON that does not parse says where: line and column.
	h.key("ctrl+t")
	h.m.call.form.RawIn.SetValue("{\n  \"a\": 1,\n  \"b\": x\n}")
	h.key("ctrl+s")
	if !strings.Contains(h.m.call.form.Err, "line 3, column 8") {
		t.Fatalf("raw JSON error %q", h.m.call.form.Err)
	}
}
