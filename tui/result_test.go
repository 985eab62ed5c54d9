package tui

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"strings"
	"testing"

	"github.com/relavium/relavium/engine"
	"github.com/relavium/relavium/tui/dialog"
	"github.com/relavium/relavium/tui/shellcmd"
)

// callEcho calls the demo echo tool with message and waits for its result.
func callEcho(h *harness, message string) *job {
	h.t.Helper()
	h.key("tab", "enter")
	h.typeText(message)
	h.key("ctrl+s")
	h.until("the echo result", func() bool { j := h.m.call.shownJob(); return j != nil && j.finished() && j.result != nil })
	return h.m.call.shownJob()
}

// / in the result view searches it: matches highlighted, n and N move,
// esc ends the search.
func TestSearchInsideAResult(t *testing.T) {
	h := ready(t, 120, 30)
	h.f.call = func(_ context.Context, _ string, _ engine.ToolDef, _ json.RawMessage, _ func(engine.Progress)) (*engine.ToolResult, error) {
		var b strings.Builder
		for i := 0; i < 80; i++ {
			if i%20 == 7 {
				b.WriteString("needle here\n")
			} else {
				b.WriteString("hay\n")
			}
		}
		return &engine.ToolResult{Content: []engine.Content{{Type: engine.ContentText, Text: b.String()}}}, nil
	}
	callEcho(h, "x")
	h.key("esc", "/") // stop editing the form, then search
	h.typeText("needle")
	h.key("enter")
	if got := len(h.m.call.search.Hits); got != 4 {
		t.Fatalf("%d lines hold the needle, want 4", got)
	}
	first := h.m.call.vp.YOffset
	if !strings.Contains(h.view(), "1 of 4 lines") || !strings.Contains(h.view(), "needle here") {
		t.Fatalf("the search line or the match is not in view:\n%s", h.view())
	}
	h.key("n")
	if h.m.call.vp.YOffset <= first || !strings.Contains(h.view(), "2 of 4") {
		t.Fatalf("n did not move to the next match:\n%s", h.view())
	}
	h.golden("result_search_120x30")
	h.key("N", "N")
	if !strings.Contains(h.view(), "4 of 4") {
		t.Fatalf("N did not wrap to the last match:\n%s", h.view())
	}
	// a second / starts a fresh query
	h.key("/")
	if h.m.call.search.Input.Value() != "" {
		t.Fatal("a second / kept the old query")
	}
	h.key("esc")
	if h.m.call.search.Query != "" || strings.Contains(h.view(), "of 4 lines") {
		t.Fatalf("esc did not end the search:\n%s", h.view())
	}
}

// y copies the result (an OSC 52 sequence in the frame, sanitized, and a
// dialog with the text); Y copies the mcp call command, quoted for a shell;
// s saves the result.
func TestYankCommandAndSave(t *testing.T) {
	h := ready(t, 120, 30)
	h.f.call = func(_ context.Context, _ string, _ engine.ToolDef, _ json.RawMessage, _ func(engine.Progress)) (*engine.ToolResult, error) {
		return &engine.ToolResult{Content: []engine.Content{{Type: engine.ContentText, Text: "it's \x1b]52;c;ZXZpbA==\x07 done"}}}, nil
	}
	callEcho(h, "it's")
	h.key("esc", "y")
	d, ok := h.m.topDialog().(*dialog.Text)
	if !ok || !strings.HasPrefix(d.Title, "Copied") {
		t.Fatalf("y opened no copy dialog:\n%s", h.view())
	}
	frame := h.view()
	start := strings.Index(frame, "\x1b]52;c;")
	if start < 0 {
		t.Fatal("no OSC 52 sequence in the frame")
	}
	end := strings.IndexByte(frame[start:], '\x07')
	payload, err := base64.StdEncoding.DecodeString(frame[start+7 : start+end])
	if err != nil || strings.ContainsAny(string(payload), "\x1b\x07") || !strings.Contains(string(payload), "it's") || !strings.Contains(string(payload), "done") {
		t.Fatalf("the clipboard payload %q (%v) is not the sanitized result", payload, err)
	}
	h.until("the sequence gone", func() bool { return !strings.Contains(h.view(), "\x1b]52;") })
	h.key("esc", "Y")
	// It runs headless as it stands: echo is in tools_auto_approve (no
	// --yes: the headless call would not ask), and the stdio server was
	// approved once (its digest: no remembered grant approves it).
	want := `relavium mcp call mcp_demo_echo --args '{"message":"it'\''s"}' --allow-mcp-stdio ` + h.m.server("demo").digest
	if got := h.copied(); got != want || h.m.server("demo").digest == "" {
		t.Fatalf("Y copies %s\nwant     %s", got, want)
	}
	// Shown for a manual copy on lines narrower than the command, a flag keeps its value on
	// its line and every line but the last continues the command.
	lines := shellcmd.Lines([]string{"relavium", "mcp", "call", "mcp_demo_echo", "--args", `{"message":"it's"}`, "--allow-mcp-stdio", h.m.server("demo").digest}, 100)
	for i, l := range lines {
		if i < len(lines)-1 && !strings.HasSuffix(l, " \\") {
			t.Fatalf("line %d does not continue: %q", i, l)
		}
		if strings.HasSuffix(strings.TrimSuffix(l, " \\"), "--allow-mcp-stdio") || strings.HasSuffix(strings.TrimSuffix(l, " \\"), "--args") {
			t.Fatalf("a flag is parted from its value: %q", lines)
		}
	}
	if joined := strings.ReplaceAll(strings.Join(lines, "\n"), " \\\n  ", " "); joined != want {
		t.Fatalf("the lines shown are not the command:\n%s", strings.Join(lines, "\n"))
	}
	if !strings.Contains(h.view(), "Copied · the command") {
		t.Fatalf("Y opened no dialog:\n%s", h.view())
	}
	h.key("esc", "s")
	h.until("saved", func() bool { return strings.Contains(h.m.status.text, "result saved to") })
	var doc map[string]any
	if len(h.f.saved) != 1 || json.Unmarshal(h.f.saved[0], &doc) != nil || doc["result"] == nil || doc["title"] != "mcp_demo_echo" {
		t.Fatalf("saved %s", h.f.saved)
	}
	if !strings.Contains(h.view(), "/data/home/results/") {
		t.Fatalf("the saved path is not shown:\n%s", h.view())
	}
}

// The export holds the reads and prompt gets the session showed.
func TestExportHoldsReadsAndPromptGets(t *testing.T) {
	h := ready(t, 120, 30)
	h.key("tab", "]")
	h.until("resources", func() bool { return len(h.m.browse.listRows()) == 2 })
	h.key("enter")
	h.until("the read", func() bool { j := h.m.call.shownJob(); return j != nil && j.finished() && j.contents != nil })
	h.key("shift+tab", "]")
	h.until("prompts", func() bool { r := h.m.browse.listRows(); return len(r) == 1 && r[0].kind == rowPrompt })
	h.key("enter")
	h.typeText("x")
	h.key("ctrl+s")
	h.until("the prompt", func() bool { j := h.m.call.shownJob(); return j != nil && j.prompt != nil })
	h.key("e")
	h.until("the export", func() bool { return strings.Contains(h.m.status.text, "exported") })
	b, _ := json.Marshal(h.f.exported)
	for _, want := range []string{`"type":"tui:resource_read"`, `"uri":"test://static-text"`, `contents of test://static-text`, `"type":"tui:prompt_get"`, `Review: x`} {
		if !strings.Contains(string(b), want) {
			t.Fatalf("the export lacks %s:\n%s", want, b)
		}
	}
}
