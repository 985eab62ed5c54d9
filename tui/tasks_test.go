package tui

import (
	"strings"
	"testing"

	"github.com/relavium/relavium/tui/dialog"
)

// t calls a tool as a task: the job shows the task's statuses as polled,
// then its result.
func TestCallAsTaskPollsToTheResult(t *testing.T) {
	h := ready(t, 120, 30)
	h.f.taskState.offered, h.f.taskState.polls = true, 2
	h.key("tab", "t")
	h.until("the task form", func() bool { return strings.Contains(h.view(), "CALL AS A TASK · mcp_demo_echo") })
	h.typeText("hi")
	h.key("ctrl+s")
	// echo is auto-approved in ready(): no confirmation
	h.until("the result", func() bool { j := h.m.call.shownJob(); return j != nil && j.isTask && j.finished() })
	j := h.m.call.shownJob()
	if j.state != jobDone || j.result == nil || j.result.Text() != "the result of t-1" || h.f.taskState.polled != 3 {
		t.Fatalf("job %+v (polled %d)", j, h.f.taskState.polled)
	}
	if v := h.view(); !strings.Contains(v, "task t-1 · completed") || !strings.Contains(v, "the result of t-1") {
		t.Fatalf("the task's end is not shown:\n%s", v)
	}
}

// c on a running task cancels it at the server; the job ends cancelled.
func TestCancelTaskAtTheServer(t *testing.T) {
	h := ready(t, 120, 30)
	h.f.taskState.offered, h.f.taskState.polls = true, 1000
	h.key("tab", "t")
	h.typeText("hi")
	h.key("ctrl+s")
	h.until("running", func() bool { j := h.m.call.shownJob(); return j != nil && j.task != nil })
	h.key("c")
	h.until("cancelled", func() bool { return h.m.call.shownJob().state == jobCancelled })
	if !h.f.answered("cancel t-1") {
		t.Error("tasks/cancel was not sent")
	}
}

// A server without tasks fails the call with its reason; t on a server lists a
// server's tasks.
func TestTaskRefusedAndTaskList(t *testing.T) {
	h := ready(t, 120, 30)
	h.key("tab", "t")
	h.typeText("hi")
	h.key("ctrl+s")
	h.until("refused", func() bool { j := h.m.call.shownJob(); return j != nil && j.finished() })
	if j := h.m.call.shownJob(); j.state != jobFailed || string(j.errCode) != "E920" {
		t.Fatalf("job %v %s %s", j.state, j.errCode, j.errMsg)
	}
	h.key("shift+tab", "shift+tab", "t")
	h.until("the task list", func() bool {
		d, ok := h.m.topDialog().(*dialog.Text)
		return ok && strings.HasPrefix(d.Title, "Tasks · demo")
	})
	if v := h.view(); !strings.Contains(v, "t-0  completed  done long ago") {
		t.Fatalf("the list:\n%s", v)
	}
}
