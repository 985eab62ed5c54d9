package tui

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"github.com/relavium/relavium/engine"
	"github.com/relavium/relavium/host"
)

func (f *fakeBackend) answered(s string) bool {
	f.mu.Lock()
	defer f.mu.Unlock()
	return slices.Contains(f.answers, s)
}

// A log host attributed to no call is the server's, even while a call runs
// on that server: it is never put under a call it may not belong to.
func TestUnattributedLogGoesToTheServerNotTheRunningCall(t *testing.T) {
	h := ready(t, 120, 30)
	release, cancelled := make(chan struct{}), make(chan struct{})
	defer close(release)
	h.f.call = progressCall(release, cancelled)
	h.key("tab", "down", "enter", "ctrl+s")
	h.until("running", func() bool { j := h.m.call.shownJob(); return j != nil && j.progressN > 0 })
	h.f.emit(engine.EventToolLog, engine.ToolLogData{LogEntry: engine.LogEntry{Server: "demo", Level: "info", Data: json.RawMessage(`"background"`)}})
	h.until("the server's log", func() bool { return len(h.m.server("demo").logs) == 1 })
	if n := len(h.m.call.shownJob().logs); n != 0 {
		t.Errorf("the running call got %d unattributed log(s)", n)
	}
}

// v cycles the lowest level shown, in calls and in the server's log; L asks
// the selected server for the next level.
func TestLogFilterAndLevel(t *testing.T) {
	h := ready(t, 120, 30)
	for _, lvl := range []string{"debug", "info", "warning", "error"} {
		h.f.emit(engine.EventToolLog, engine.ToolLogData{LogEntry: engine.LogEntry{Server: "demo", Level: lvl, Data: json.RawMessage(`"a ` + lvl + ` line"`)}})
	}
	h.until("logs", func() bool { return len(h.m.server("demo").logs) == 4 })
	if v := h.view(); !strings.Contains(v, "a debug line") {
		t.Fatalf("debug not shown by default:\n%s", v)
	}
	h.key("v", "v") // info, then warning
	v := h.view()
	if strings.Contains(v, "a debug line") || strings.Contains(v, "a info line") || !strings.Contains(v, "a warning line") ||
		!strings.Contains(v, "2 log line(s) below") {
		t.Fatalf("warning floor:\n%s", v)
	}
	h.key("v", "v") // error, then all again
	if v := h.view(); !strings.Contains(v, "a debug line") {
		t.Fatalf("the filter does not cycle back to all:\n%s", v)
	}
	h.key("L")
	h.until("level asked", func() bool { return h.f.answered("level demo notice") })
	h.until("level shown", func() bool { return strings.Contains(h.view(), "now sends logs at notice") })
	h.key("L")
	h.until("next level", func() bool { return h.f.answered("level demo warning") })
}

// w subscribes to the selected resource; an update of it refreshes the open
// read and says so; an update of another resource only says it.
func TestSubscriptionRefreshesTheOpenResource(t *testing.T) {
	h := ready(t, 120, 30)
	h.key("tab", "]")
	h.until("resources", func() bool { return len(h.m.browse.listRows()) == 2 })
	h.key("w")
	h.until("subscribed", func() bool { return h.f.answered("subscribe demo test://static-text") })
	h.until("marked", func() bool { return strings.Contains(h.view(), "◉ subscribed") })
	h.key("enter")
	h.until("read", func() bool { j := h.m.call.shownJob(); return j != nil && j.kind == jobRead && j.finished() })
	h.f.emit(engine.EventResourceUpdated, host.ResourceUpdatedData{Server: "demo", URI: "test://static-text"})
	h.until("refreshed", func() bool { return h.m.call.shownJob().updates == 1 })
	if v := h.view(); !strings.Contains(v, "↻ refreshed · 1 update(s), last") {
		t.Fatalf("the refresh is not said:\n%s", v)
	}
	h.f.emit(engine.EventResourceUpdated, host.ResourceUpdatedData{Server: "demo", URI: "test://other"})
	h.until("other said", func() bool { return strings.Contains(h.view(), "updated test://other") })
	if strings.Contains(h.m.status.text, "updated") {
		t.Errorf("an update took over the status line: %q", h.m.status.text)
	}
	h.key("shift+tab")
	if v := h.view(); !strings.Contains(v, "◉ 1 update") {
		t.Fatalf("the subscribed row does not count its update:\n%s", v)
	}
	h.key("tab")
	if h.m.call.shownJob().updates != 1 {
		t.Error("an update of another resource refreshed the open one")
	}
	h.key("shift+tab", "w")
	h.until("unsubscribed", func() bool { return h.f.answered("unsubscribe demo test://static-text") })
}

// A prompt's argument is completed by the server once typing pauses: the
// answer opens a pick list under the field; ↓ and enter put a choice in it.
func TestCompletionPickListInPromptForm(t *testing.T) {
	h := ready(t, 120, 30)
	h.key("tab", "]", "]")
	h.until("prompts", func() bool { r := h.m.browse.listRows(); return len(r) == 1 && r[0].kind == rowPrompt })
	h.key("enter")
	h.until("all suggested", func() bool {
		return h.m.call.form != nil && h.m.call.form.Picking() && strings.Contains(h.view(), "1 of 4")
	})
	h.typeText("go")
	h.until("narrowed", func() bool {
		return h.f.answered("complete demo review_code code=go") && strings.Contains(h.view(), "1 of 2")
	})
	if v := h.view(); !strings.Contains(v, "golang") || strings.Contains(v, "python") {
		t.Fatalf("the pick list is not narrowed to go…:\n%s", v)
	}
	h.key("down", "enter")
	if got := h.m.call.form.Fields[0].Input.Value(); got != "golang" || h.m.call.form.Picking() {
		t.Fatalf("picked %q (list open: %v), want golang", got, h.m.call.form.Picking())
	}
	if h.m.focus != paneCall || !h.m.call.editing {
		t.Fatal("picking left the form")
	}
}
