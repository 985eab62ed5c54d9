package tui

import (
	"errors"
	"time"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"

	"github.com/relavium/relavium/engine"
	"github.com/relavium/relavium/fault"
	"github.com/relavium/relavium/host"
	"github.com/relavium/relavium/host/failure"
	"github.com/relavium/relavium/themes"
	"github.com/relavium/relavium/tui/backend"
	"github.com/relavium/relavium/tui/dialog"
	"github.com/relavium/relavium/tui/render"
)

// Tools called as tasks (2025-11-25, experimental): t on a tool opens its
// form to call it as a task; the job shows the task's status as the server
// reports it (polled at its pollInterval, kept between 250 ms and 5 s),
// then its result; c cancels the task at the server; t on a server lists
// the tasks it holds.

const (
	minTaskPoll = 250 * time.Millisecond
	maxTaskPoll = 5 * time.Second
)

// taskKey handles t: on a tool (tools tab), on a server (servers pane).
func (m *Model) taskKey(msg tea.KeyMsg) (tea.Cmd, bool) {
	switch {
	case m.focus == paneTools && m.browse.tab == tabTools && key.Matches(msg, m.keys.CallTask):
		rows := m.browse.listRows()
		if m.browse.cursor >= len(rows) || rows[m.browse.cursor].kind != rowTool {
			return nil, true
		}
		t := rows[m.browse.cursor].tool
		specs, err := t.InputFields()
		m.openForm(formTarget{kind: jobTool, tool: t, server: t.Server, task: true}, specs, nil)
		if err != nil {
			m.call.form.ToggleRaw()
		}
		m.status.set("ctrl+s calls "+t.Name+" as a task (the server must offer tasks)", false)
		return nil, true
	case m.focus == paneServers && key.Matches(msg, m.keys.ListTasks):
		r := m.selected()
		if r == nil || r.state != engine.StateReady {
			return nil, true
		}
		b, ctx, server := m.b, m.ctx, r.spec.Name
		return func() tea.Msg {
			list, err := b.Tasks(ctx, server)
			return taskListMsg{server: server, tasks: list, err: err}
		}, true
	}
	return nil, false
}

type taskCreatedMsg struct {
	id   string
	task *host.Task
	res  *engine.ToolResult
	err  error
}
type taskPollMsg struct{ id string }
type taskStatusMsg struct {
	id   string
	task *host.Task
	err  error
}
type taskListMsg struct {
	server string
	tasks  []*host.Task
	err    error
}
type taskCancelMsg struct {
	id  string
	err error
}

func (taskCreatedMsg) clientMsg() {}
func (taskPollMsg) clientMsg()    {}
func (taskStatusMsg) clientMsg()  {}
func (taskListMsg) clientMsg()    {}
func (taskCancelMsg) clientMsg()  {}

// dispatchTask starts a confirmed call as a task.
func (m *Model) dispatchTask(pc pendingCall) tea.Cmd {
	j, ctx := m.newJob(jobTool, pc.tool.Server, pc.tool.Name+" (task)", pc.args)
	j.tool, j.isTask = pc.tool, true
	m.status.set("", false)
	b, id := m.b, j.id
	return func() tea.Msg {
		task, res, err := b.CallTask(ctx, pc.tool, pc.args)
		return taskCreatedMsg{id: id, task: task, res: res, err: err}
	}
}

func (m *Model) onTaskMsg(msg clientMsg) tea.Cmd {
	switch msg := msg.(type) {
	case taskCreatedMsg:
		j := m.job(msg.id)
		switch {
		case j == nil:
		case msg.err != nil || msg.task == nil:
			m.endJob(msg.id, msg.err, func(j *job) { j.result = msg.res }) // the server ran it at once
		default:
			j.task = msg.task
			j.touch()
			return m.nextPoll(j)
		}
	case taskPollMsg:
		j := m.job(msg.id)
		if j == nil || j.finished() || j.task == nil {
			return nil
		}
		b, ctx, server, tid := m.b, m.ctx, j.server, j.task.TaskID
		return func() tea.Msg {
			t, err := b.GetTask(ctx, server, tid)
			return taskStatusMsg{id: msg.id, task: t, err: err}
		}
	case taskStatusMsg:
		return m.onTaskStatus(msg)
	case taskCancelMsg:
		if msg.err != nil {
			m.status.set("the task was not cancelled: "+backend.MessageOf(msg.err), true)
		}
	case taskListMsg:
		m.onTaskList(msg)
	}
	return nil
}

func (m *Model) nextPoll(j *job) tea.Cmd {
	wait := min(max(time.Duration(j.task.PollIntervalMS)*time.Millisecond, minTaskPoll), maxTaskPoll)
	id := j.id
	return tea.Tick(wait, func(time.Time) tea.Msg { return taskPollMsg{id: id} })
}

func (m *Model) onTaskStatus(msg taskStatusMsg) tea.Cmd {
	j := m.job(msg.id)
	if j == nil || j.finished() {
		return nil
	}
	if msg.err != nil {
		m.endJob(msg.id, msg.err, func(*job) {})
		return nil
	}
	j.task = msg.task
	j.touch()
	switch msg.task.Status {
	case host.TaskCompleted:
		b, ctx, server, tid, id := m.b, m.ctx, j.server, j.task.TaskID, j.id
		return func() tea.Msg {
			res, err := b.TaskResult(ctx, server, tid)
			return callDoneMsg{id: id, result: res, err: err}
		}
	case host.TaskFailed, host.TaskCancelled:
		text := "the task ended " + msg.task.Status
		if msg.task.StatusMessage != "" {
			text += ": " + msg.task.StatusMessage
		}
		err := errors.New(text)
		if msg.task.Status == host.TaskCancelled {
			err = &failure.Error{Base: fault.Base{ErrCode: failure.CodeCallCancelled, Msg: text}}
		}
		m.endJob(msg.id, err, func(*job) {})
		return nil
	}
	return m.nextPoll(j)
}

// cancelTaskJob is c on a running task: tasks/cancel at the server (the
// next poll sees it end).
func (m *Model) cancelTaskJob() (tea.Cmd, bool) {
	j := m.call.shownJob()
	if j == nil || j.finished() || !j.isTask || j.task == nil {
		return nil, false
	}
	j.cancelAsked = true
	m.status.set("cancelling task "+j.task.TaskID+" at the server…", false)
	b, ctx, server, tid, id := m.b, m.ctx, j.server, j.task.TaskID, j.id
	return func() tea.Msg {
		_, err := b.CancelTask(ctx, server, tid)
		return taskCancelMsg{id: id, err: err}
	}, true
}

func (m *Model) onTaskList(msg taskListMsg) {
	if msg.err != nil {
		m.status.set("tasks of "+msg.server+": "+backend.MessageOf(msg.err), true)
		return
	}
	tasks := msg.tasks
	m.pushDialog(&dialog.Text{Title: "Tasks · " + render.ServerLine(msg.server), Max: 100, Lines: func(_ *themes.Styles, iw int) []string {
		if len(tasks) == 0 {
			return []string{"the server holds no task"}
		}
		var out []string
		for _, t := range tasks {
			out = append(out, render.Wrap(render.ServerLine(t.TaskID+"  "+t.Status+"  "+t.StatusMessage), iw)...)
		}
		return out
	}})
}
