package tui

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/relavium/relavium/tui/asker"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/relavium/relavium/engine"
	"github.com/relavium/relavium/tui/dialog"
	"github.com/relavium/relavium/workflow"
)

// progressCall blocks a long_operation after reporting progress until
// released or cancelled; a cancellation is reported the way host does.
func progressCall(release <-chan struct{}, cancelled chan<- struct{}) func(context.Context, string, engine.ToolDef, json.RawMessage, func(engine.Progress)) (*engine.ToolResult, error) {
	return func(ctx context.Context, callID string, tool engine.ToolDef, args json.RawMessage, progress func(engine.Progress)) (*engine.ToolResult, error) {
		for i := 1; i <= 7; i++ {
			progress(engine.Progress{Progress: float64(i), Total: 10, Message: fmt.Sprintf("step %d of 10", i)})
		}
		select {
		case <-release:
			return &engine.ToolResult{Content: []engine.Content{{Type: "text", Text: "finished"}}}, nil
		case <-ctx.Done():
			close(cancelled)
			return nil, &testErr{code: "E511", msg: "server demo: mcp_demo_long_operation cancelled"}
		}
	}
}

func TestProgressLogsAndCancel(t *testing.T) {
	h := ready(t, 120, 30)
	release, cancelled := make(chan struct{}), make(chan struct{})
	h.f.call = progressCall(release, cancelled)
	h.key("tab", "down", "enter", "ctrl+s")
	h.until("progress", func() bool { j := h.m.call.shownJob(); return j != nil && j.progressN > 0 && j.progress.Progress == 7 })
	// host attributes these logs to the call (the only one in flight):
	// they carry its call id.
	callID := h.m.call.shownJob().id
	for _, lvl := range []string{"debug", "info", "warning", "error"} {
		h.f.emit(engine.EventToolLog, engine.ToolLogData{CallID: callID, LogEntry: engine.LogEntry{Server: "demo", Level: lvl, Logger: "demo", Data: json.RawMessage(`"a ` + lvl + ` line"`)}})
	}
	h.until("logs", func() bool { return len(h.m.call.shownJob().logs) == 4 })
	h.golden("progress_120x30")
	h.key("c")
	select {
	case <-cancelled:
	case <-h.ctx.Done():
	}
	h.until("cancelled", func() bool { j := h.m.call.shownJob(); return j.state == jobCancelled })
	h.golden("cancelled_120x30")
	close(release)
}

func TestResultRenderingByType(t *testing.T) {
	h := ready(t, 100, 40)
	png := make([]byte, 3000)
	h.f.call = func(ctx context.Context, _ string, _ engine.ToolDef, _ json.RawMessage, _ func(engine.Progress)) (*engine.ToolResult, error) {
		return &engine.ToolResult{Content: []engine.Content{
			{Type: "text", Text: "A paragraph of plain text long enough that it has to wrap across more than one line of the call pane.\nsecond line\x1b[2J"},
			{Type: "text", Text: `{"answer":42,"ok":true,"list":["a",null]}`},
			{Type: "image", MIMEType: "image/png", Data: png},
			{Type: "audio", MIMEType: "audio/wav", Data: make([]byte, 100)},
			{Type: "resource", URI: "test://static-text", MIMEType: "text/plain", Text: "embedded text"},
			{Type: "resource", URI: "test://static-binary", MIMEType: "image/png", Data: make([]byte, 10)},
			{Type: "resource_link", URI: "demo://notes/1", Name: "note-1", MIMEType: "text/markdown"},
		}, Structured: json.RawMessage(`{"sum":3}`)}, nil
	}
	h.key("tab", "enter")
	h.typeText("x")
	h.key("ctrl+s")
	h.until("the result", func() bool { j := h.m.call.shownJob(); return j != nil && j.finished() })
	if strings.Contains(h.view(), "\x1b") {
		t.Fatal("an escape sequence from the server reached the frame")
	}
	h.golden("result_types_100x40")
	// isError in the error colour; a Go error as a failure.
	h.f.call = func(ctx context.Context, _ string, _ engine.ToolDef, _ json.RawMessage, _ func(engine.Progress)) (*engine.ToolResult, error) {
		return &engine.ToolResult{IsError: true, Content: []engine.Content{{Type: "text", Text: "the tool failed: no such file"}}}, nil
	}
	h.key("ctrl+s")
	h.until("the isError result", func() bool { return len(h.m.call.jobs) == 2 && h.m.call.jobs[1].finished() })
	h.golden("result_is_error_100x40")
}

func TestConfirmationRequiredRoundTrip(t *testing.T) {
	h := ready(t, 120, 30)
	var seen []string
	h.f.call = func(ctx context.Context, _ string, _ engine.ToolDef, args json.RawMessage, _ func(engine.Progress)) (*engine.ToolResult, error) {
		seen = append(seen, string(args))
		if strings.Contains(string(args), "confirm") {
			return &engine.ToolResult{Content: []engine.Content{{Type: "text", Text: `{"ok":true,"data":{"revoked":1}}`}}}, nil
		}
		env := `{"ok":true,"data":{"confirmation_required":true,"kind":"request","confirm":"` + strings.Repeat("ab", 32) +
			`","side_effect":"destructive","reason":"consent revoke is destructive","plan":null}}`
		return &engine.ToolResult{Content: []engine.Content{{Type: "text", Text: env}}, Structured: json.RawMessage(env)}, nil
	}
	h.key("tab", "enter")
	h.typeText("x")
	h.key("ctrl+s")
	h.until("the confirmation dialog", func() bool { _, ok := h.m.topDialog().(*dialog.Confirm); return ok })
	h.golden("confirmation_required_120x30")
	h.key("y")
	h.until("the confirmed call", func() bool { return len(h.m.call.jobs) == 2 && h.m.call.jobs[1].finished() })
	if len(seen) != 2 || !strings.Contains(seen[1], `"confirm":"abab`) {
		t.Fatalf("calls = %v", seen)
	}
}

func TestElicitationDialog(t *testing.T) {
	h := ready(t, 120, 30)
	schema := json.RawMessage(`{"type":"object","properties":{"name":{"type":"string","title":"Name"},"color":{"type":"string","oneOf":[{"const":"red","title":"Red"},{"const":"blue","title":"Blue"}]},"cups":{"type":"integer","default":2}},"required":["name"]}`)
	type answer struct {
		resp engine.ElicitResponse
		err  error
	}
	ask := func(ctx context.Context) chan answer {
		ch := make(chan answer, 1)
		go func() {
			r, err := h.m.Elicitor().Elicit(ctx, engine.ElicitRequest{Server: "demo", Message: "Who are you?\x1b]0;pwned\x07", Schema: schema})
			ch <- answer{r, err}
		}()
		return ch
	}
	got := ask(context.Background())
	h.until("the elicitation dialog", func() bool { _, ok := h.m.topDialog().(*dialog.Elicit); return ok })
	h.golden("elicitation_120x30")
	h.typeText("Ada")
	h.key("tab", "right", "right", "ctrl+s")
	a := <-got
	if a.err != nil || a.resp.Action != "accept" || a.resp.Content["name"] != "Ada" || a.resp.Content["color"] != "blue" || fmt.Sprint(a.resp.Content["cups"]) != "2" {
		t.Fatalf("accept answer = %+v %v", a.resp, a.err)
	}
	got = ask(context.Background())
	h.until("a second dialog", func() bool { _, ok := h.m.topDialog().(*dialog.Elicit); return ok })
	h.key("ctrl+d")
	if a := <-got; a.resp.Action != "decline" {
		t.Fatalf("decline answer = %+v", a.resp)
	}
	got = ask(context.Background())
	h.until("a third dialog", func() bool { _, ok := h.m.topDialog().(*dialog.Elicit); return ok })
	h.key("esc")
	if a := <-got; a.resp.Action != "cancel" {
		t.Fatalf("esc answer = %+v", a.resp)
	}
	// The server gives up: the dialog goes away and the requester returns.
	ctx, cancel := context.WithCancel(context.Background())
	got = ask(ctx)
	h.until("a fourth dialog", func() bool { _, ok := h.m.topDialog().(*dialog.Elicit); return ok })
	cancel()
	if a := <-got; !errors.Is(a.err, context.Canceled) {
		t.Fatalf("abandoned answer = %+v %v", a.resp, a.err)
	}
	h.until("the dialog closed", func() bool { return h.m.topDialog() == nil })
}

func TestHelpAndHistoryAndExport(t *testing.T) {
	h := ready(t, 120, 30)
	h.key("?")
	h.golden("help_120x30")
	h.key("esc", "tab", "enter")
	h.typeText("one")
	h.key("ctrl+s")
	h.until("first call", func() bool { return len(h.m.call.jobs) == 1 && h.m.call.jobs[0].finished() })
	h.key("h")
	h.golden("history_120x30")
	h.key("enter") // replay
	h.until("the replay", func() bool { return len(h.m.call.jobs) == 2 && h.m.call.jobs[1].finished() })
	if string(h.m.call.jobs[1].args) != string(h.m.call.jobs[0].args) {
		t.Fatalf("replay args %s != %s", h.m.call.jobs[1].args, h.m.call.jobs[0].args)
	}
	h.key("e")
	h.until("the export", func() bool { return strings.Contains(h.m.status.text, "exported") })
	var types []string
	for _, e := range h.f.exported {
		types = append(types, e.Type)
	}
	all := strings.Join(types, " ")
	for _, want := range []string{engine.EventServer, engine.EventToolCall, engine.EventToolResult} {
		if !strings.Contains(all, want) {
			t.Fatalf("export lacks %s: %s", want, all)
		}
	}
}

func TestFailedServerShowsReasonAndStderr(t *testing.T) {
	f := newFake(t)
	f.addStdio("broken", "x")
	f.connectErr["broken"] = &testErr{code: "E503", msg: "server broken: exited during initialize"}
	h := newHarness(t, f, 100, 24)
	h.until("consent", func() bool { _, ok := h.m.topDialog().(*dialog.Consent); return ok })
	h.key("o")
	h.until("failed", func() bool { return h.m.server("broken").state == engine.StateFailed && !h.m.server("broken").busy })
	h.golden("failed_100x24")
	// r retries: decided afresh (approved once this session), connected again.
	f.mu.Lock()
	delete(f.connectErr, "broken")
	f.mu.Unlock()
	h.key("r")
	h.until("ready after retry", func() bool { return h.m.server("broken").state == engine.StateReady })
	h.key("x")
	h.until("closed", func() bool { return h.m.server("broken").state == engine.StateClosed })
	h.key("r")
	h.until("ready after reconnect", func() bool { return h.m.server("broken").state == engine.StateReady })
	if got := strings.Join(f.connects, ","); got != "broken,broken,broken" {
		t.Fatalf("connects = %s", got)
	}
}

func TestResourcesPromptsAndWorkflowGate(t *testing.T) {
	h := ready(t, 120, 30)
	h.key("tab", "]")
	h.until("resources", func() bool { return len(h.m.browse.listRows()) == 2 })
	h.golden("resources_120x30")
	h.key("enter")
	h.until("the read", func() bool { j := h.m.call.shownJob(); return j != nil && j.finished() && j.contents != nil })
	h.key("shift+tab", "down", "enter")
	h.typeText("42")
	h.key("ctrl+s")
	h.until("the template read", func() bool {
		j := h.m.call.shownJob()
		return j != nil && j.title == "test://template/42/data" && j.finished()
	})
	h.key("shift+tab", "]")
	h.until("prompts", func() bool { return len(h.m.browse.listRows()) == 1 && h.m.browse.listRows()[0].kind == rowPrompt })
	h.key("enter")
	h.typeText("fmt.Println()")
	h.key("ctrl+s")
	h.until("the prompt", func() bool { j := h.m.call.shownJob(); return j != nil && j.prompt != nil })
	if !strings.Contains(h.view(), "Review: fmt.Println()") {
		t.Fatalf("prompt not shown:\n%s", h.view())
	}
	// A workflow with a gate: the gate is a confirmation dialog.
	dir := t.TempDir()
	wfDir := filepath.Join(dir, ".relavium", "workflows")
	if err := os.MkdirAll(wfDir, 0o755); err != nil {
		t.Fatal(err)
	}
	yaml := "id: release\ndescription: Cut a release\nside_effect: destructive\ninputs:\n  - {name: version, type: string, required: true}\nsteps:\n  - id: approve\n    gate: \"Release {{inputs.version}}?\"\noutputs:\n  released: \"{{inputs.version}}\"\n"
	if err := os.WriteFile(filepath.Join(wfDir, "release.yaml"), []byte(yaml), 0o644); err != nil {
		t.Fatal(err)
	}
	wfs, err := workflow.LoadWorkflows(dir)
	if err != nil {
		t.Fatal(err)
	}
	h.f.workflows = wfs
	h.key("shift+tab", "]")
	h.until("workflows", func() bool { r := h.m.browse.listRows(); return len(r) == 1 && r[0].kind == rowWorkflow })
	h.key("enter")
	h.typeText("1.2.3")
	h.key("ctrl+s")
	h.until("the run confirmation", func() bool { _, ok := h.m.topDialog().(*dialog.Confirm); return ok })
	h.key("y")
	h.until("the gate", func() bool {
		d, ok := h.m.topDialog().(*dialog.Confirm)
		return ok && strings.HasPrefix(d.Title, "Workflow gate")
	})
	h.golden("workflow_gate_120x30")
	h.key("y")
	h.until("the run done", func() bool { j := h.m.call.shownJob(); return j != nil && j.run != nil })
	if got := fmt.Sprint(h.m.call.shownJob().run.Outputs["released"]); got != "1.2.3" {
		t.Fatalf("outputs = %v", h.m.call.shownJob().run.Outputs)
	}
}

func TestNarrowLayouts(t *testing.T) {
	h := ready(t, 60, 16)
	h.golden("narrow_servers_60x16")
	h.key("tab")
	h.golden("narrow_tools_60x16")
	h.key("enter")
	h.typeText("hello")
	h.key("ctrl+s")
	h.until("the result", func() bool { j := h.m.call.shownJob(); return j != nil && j.finished() })
	h.golden("narrow_call_60x16")
}

// TestEverySizeEveryScreen renders every screen at sizes from tiny to huge:
// no panic, and every frame exactly fills the terminal.
func TestEverySizeEveryScreen(t *testing.T) {
	h := ready(t, 120, 30)
	h.key("tab", "down", "down", "enter")
	h.typeText("a title that is fairly long")
	screens := map[string]func(){
		"form":    func() {},
		"help":    func() { h.m.pushDialog(dialog.NewHelp(h.m.keys.FullHelp(), h.m.help)) },
		"details": func() { h.m.pushDialog(h.m.detailsDialog(listRow{kind: rowTool, tool: h.m.browse.tools[3]})) },
		"confirm": func() {
			h.m.pushDialog(&dialog.ToolConfirm{Tool: h.m.browse.tools[3], Args: json.RawMessage(`{"path":"/x"}`)})
		},
	}
	for name, open := range screens {
		h.m.dialogs.stack = nil
		open()
		for _, size := range [][2]int{{1, 1}, {20, 5}, {40, 10}, {59, 15}, {60, 16}, {80, 24}, {99, 30}, {100, 30}, {160, 50}, {240, 70}} {
			t.Run(fmt.Sprintf("%s/%dx%d", name, size[0], size[1]), func(t *testing.T) {
				h.send(teaSize(size[0], size[1]))
				checkFrame(t, h.view(), size[0], size[1])
			})
		}
	}
}

func TestMouseWheelAndFocusKeys(t *testing.T) {
	h := ready(t, 120, 30)
	if h.m.focus != paneServers {
		t.Fatalf("focus starts on %v", h.m.focus)
	}
	h.key("tab")
	if h.m.focus != paneTools {
		t.Fatal("tab did not move the focus")
	}
	h.key("shift+tab", "shift+tab")
	if h.m.focus != paneCall {
		t.Fatal("shift+tab did not move the focus back around")
	}
	g := h.m.geometry()
	// The wheel over the tools pane scrolls its list.
	h.send(teaMouse(g.toolX+3, g.bodyY+3, "wheeldown"))
	if h.m.browse.cursor != 3 {
		t.Fatalf("wheel down over the tools: cursor %d", h.m.browse.cursor)
	}
	h.send(teaMouse(g.toolX+3, g.bodyY+3, "wheelup"))
	if h.m.browse.cursor != 0 {
		t.Fatalf("wheel up over the tools: cursor %d", h.m.browse.cursor)
	}
	// A long result scrolls under the wheel in the call pane.
	h.f.call = func(context.Context, string, engine.ToolDef, json.RawMessage, func(engine.Progress)) (*engine.ToolResult, error) {
		return &engine.ToolResult{Content: []engine.Content{{Type: "text", Text: strings.Repeat("line\n", 200)}}}, nil
	}
	h.key("shift+tab", "enter")
	h.typeText("x")
	h.key("ctrl+s")
	h.until("the result", func() bool { j := h.m.call.shownJob(); return j != nil && j.finished() })
	at := h.m.call.vp.YOffset
	h.send(teaMouse(g.callX+3, g.bodyY+10, "wheeldown"))
	if h.m.call.vp.YOffset != at+3 {
		t.Fatalf("wheel over the result: offset %d, was %d", h.m.call.vp.YOffset, at)
	}
	// A click focuses the pane under it.
	h.send(teaMouse(2, g.bodyY+1, "left"))
	if h.m.focus != paneServers {
		t.Fatal("a click on the servers pane did not focus it")
	}
}

func TestQuitTearsDownAndAbandonsQuestions(t *testing.T) {
	h := ready(t, 120, 30)
	release, cancelled := make(chan struct{}), make(chan struct{})
	defer close(release)
	h.f.call = progressCall(release, cancelled)
	h.key("tab", "down", "enter", "ctrl+s")
	h.until("running", func() bool { j := h.m.call.shownJob(); return j != nil && j.progressN > 0 })
	pending := make(chan error, 1)
	go func() {
		_, err := h.m.Elicitor().Elicit(context.Background(), engine.ElicitRequest{Server: "demo", Message: "still there?"})
		pending <- err
	}()
	h.until("the elicitation", func() bool { _, ok := h.m.topDialog().(*dialog.Elicit); return ok })
	_, cmd := h.m.Update(keyMsg("ctrl+c"))
	if cmd == nil || fmt.Sprint(cmd()) != fmt.Sprint(tea.QuitMsg{}) {
		t.Fatal("ctrl+c did not quit")
	}
	<-cancelled // the running call was cancelled on the way out
	h.m.Shutdown()
	if err := <-pending; !errors.Is(err, asker.ErrClosed) {
		t.Fatalf("a pending elicitation after quit: %v", err)
	}
}
