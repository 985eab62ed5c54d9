package tui

import (
	"fmt"
	"time"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"

	"github.com/relavium/relavium/engine"
	"github.com/relavium/relavium/host"
	"github.com/relavium/relavium/tui/backend"
	"github.com/relavium/relavium/tui/render"
)

// The client requests the workbench makes beyond calls and reads: a
// server's log level (L), which logs are shown (v), resource
// subscriptions (w) and the refresh they bring, argument completion in
// forms (completion.go).

// clientState is the model's state of these requests.
type clientState struct {
	// logFloor is the lowest log level shown (an index of logFloors).
	logFloor int
	// levels is the level last set on each server (by L).
	levels map[string]string
	// subs are the subscribed (server, uri) pairs; updates counts the
	// updates each has had (shown on its row, not the status line).
	subs    map[subKey]bool
	updates map[subKey]int
	comp    completionState
	// samplers is the call running when each pending sampling request
	// (server, id) was asked, for its answer's log line (bounded).
	samplers map[sampleKey]*job
}

// sampleKey is a sampling request: its server and its id.
type sampleKey struct{ server, id string }

// maxSamplers bounds the sampling requests remembered at once.
const maxSamplers = 64

// sampledBy notes that job j (nil: none) was running when server asked
// sampling request id.
func (c *clientState) sampledBy(server, id string, j *job) {
	if j == nil {
		return
	}
	if c.samplers == nil || len(c.samplers) >= maxSamplers {
		c.samplers = map[sampleKey]*job{}
	}
	c.samplers[sampleKey{server, id}] = j
}

// sampler is (and forgets) the job that was running when server asked
// sampling request id; nil when none was.
func (c *clientState) sampler(server, id string) *job {
	k := sampleKey{server, id}
	j := c.samplers[k]
	delete(c.samplers, k)
	return j
}

type subKey struct{ server, uri string }

// logFloors are the floors v cycles through.
var logFloors = []string{"debug", "info", "warning", "error"}

func (c *clientState) init() {
	c.levels = map[string]string{}
	c.subs = map[subKey]bool{}
	c.updates = map[subKey]int{}
}

// shows reports whether a log of level passes the filter.
func (c *clientState) shows(level string) bool {
	return host.LogLevelRank(level) >= host.LogLevelRank(logFloors[c.logFloor])
}

// clientKey handles the keys of these requests; ok is false for any other.
func (m *Model) clientKey(msg tea.KeyMsg) (tea.Cmd, bool) {
	k := m.keys
	switch {
	case key.Matches(msg, k.LogFilter):
		m.cr.logFloor = (m.cr.logFloor + 1) % len(logFloors)
		for _, j := range m.call.jobs {
			j.logFloor = logFloors[m.cr.logFloor]
			j.touch()
		}
		m.status.set("logs shown: "+logFloors[m.cr.logFloor]+" and above (v for the next)", false)
		return nil, true
	case m.focus == paneServers && key.Matches(msg, k.LogLevel):
		return m.nextLogLevel(), true
	case m.focus == paneTools && m.browse.tab == tabResources && key.Matches(msg, k.Watch):
		return m.toggleWatch(), true
	case key.Matches(msg, k.CallTask, k.ListTasks):
		return m.taskKey(msg)
	case key.Matches(msg, k.Bench):
		return m.benchKey(msg)
	case m.focus == paneCall && !m.call.history && key.Matches(msg, k.OpenLink):
		return m.openLinks(), true
	case m.focus == paneCall && !m.call.history && key.Matches(msg, k.Preview):
		return m.previewShown(), true
	}
	return nil, false
}

// nextLogLevel asks the selected server for the next level (debug after
// emergency).
func (m *Model) nextLogLevel() tea.Cmd {
	r := m.selected()
	if r == nil || r.state != engine.StateReady {
		m.status.set("a log level is set on a ready server", true)
		return nil
	}
	levels := host.LogLevels()
	cur := m.cr.levels[r.spec.Name]
	if cur == "" {
		cur = "info" // what every server is asked for at connect
	}
	next := levels[(host.LogLevelRank(cur)+1)%len(levels)]
	b, ctx, server := m.b, m.ctx, r.spec.Name
	m.status.set("asking "+server+" for log level "+next+"…", false)
	return func() tea.Msg {
		return logLevelMsg{server: server, level: next, err: b.SetLogLevel(ctx, server, next)}
	}
}

type logLevelMsg struct {
	server, level string
	err           error
}

func (m *Model) onLogLevel(msg logLevelMsg) {
	if msg.err != nil {
		m.status.set("log level of "+msg.server+" not set: "+backend.MessageOf(msg.err), true)
		return
	}
	m.cr.levels[msg.server] = msg.level
	m.status.set(msg.server+" now sends logs at "+msg.level+" and above (L for the next level)", false)
}

// toggleWatch subscribes to the selected resource, or unsubscribes.
func (m *Model) toggleWatch() tea.Cmd {
	rows := m.browse.listRows()
	if m.browse.cursor >= len(rows) || rows[m.browse.cursor].kind != rowResource {
		m.status.set("w subscribes to a resource (a row marked ◆)", false)
		return nil
	}
	k := subKey{m.servers.current(), rows[m.browse.cursor].res.URI}
	on := !m.cr.subs[k]
	b, ctx := m.b, m.ctx
	return func() tea.Msg {
		var err error
		if on {
			err = b.SubscribeResource(ctx, k.server, k.uri)
		} else {
			err = b.UnsubscribeResource(ctx, k.server, k.uri)
		}
		return watchMsg{key: k, on: on, err: err}
	}
}

type watchMsg struct {
	key subKey
	on  bool
	err error
}

func (m *Model) onWatch(msg watchMsg) {
	uri := render.ServerLine(msg.key.uri)
	switch {
	case msg.err != nil:
		m.status.set("subscription to "+uri+" unchanged: "+backend.MessageOf(msg.err), true)
	case msg.on:
		m.cr.subs[msg.key] = true
		m.status.set("subscribed to "+uri+": an open read of it refreshes on each update (w to unsubscribe)", false)
	default:
		delete(m.cr.subs, msg.key)
		m.status.set("unsubscribed from "+uri, false)
	}
	m.browse.rowsKey = ""
}

// subscribed reports whether uri on the current server is subscribed.
// subscribed reports whether the person subscribed to server's uri.
func (c *clientState) subscribed(server, uri string) bool { return c.subs[subKey{server, uri}] }

// onResourceUpdated refreshes the read of the updated resource on show, or
// says it changed.
func (m *Model) onResourceUpdated(d host.ResourceUpdatedData) tea.Cmd {
	uri := render.ServerLine(d.URI)
	// Counted on the resource's row and noted in the events strip: the
	// status line stays for what the person just did.
	m.cr.updates[subKey{d.Server, d.URI}]++
	m.log.strip.Add(m.now(), "⟳", "muted", render.ServerLine(d.Server)+" updated "+uri)
	if m.call.shown >= 0 && m.call.shown < len(m.call.jobs) {
		j := m.call.jobs[m.call.shown]
		if j.kind == jobRead && j.server == d.Server && j.title == d.URI && j.finished() && !j.refreshing {
			j.refreshing = true
			j.touch()
			b, ctx, id := m.b, m.ctx, j.id
			return func() tea.Msg {
				c, err := b.ReadResource(ctx, d.Server, d.URI)
				return refreshedMsg{id: id, contents: c, err: err}
			}
		}
	}
	return nil
}

type refreshedMsg struct {
	id       string
	contents []engine.Content
	err      error
}

func (m *Model) onRefreshed(msg refreshedMsg) {
	j := m.job(msg.id)
	if j == nil {
		return
	}
	j.refreshing = false
	if msg.err != nil {
		j.refreshErr = backend.MessageOf(msg.err)
	} else {
		j.contents, j.refreshErr = msg.contents, ""
		if j.contents == nil {
			j.contents = []engine.Content{}
		}
		j.updates++
		j.updatedAt = m.now()
	}
	j.touch()
}

// refreshLines say that a read was refreshed by the server's updates.
func (j *job) refreshLines(m func(...string) string) []string {
	switch {
	case j.refreshing:
		return []string{m("↻ updated by the server: reading it again…")}
	case j.refreshErr != "":
		return []string{m("↻ updated by the server; reading it again failed: " + render.ServerLine(j.refreshErr))}
	case j.updates > 0:
		return []string{m(fmt.Sprintf("↻ refreshed · %d update(s), last %s", j.updates, j.updatedAt.Format("15:04:05")))}
	}
	return nil
}

// filterLogs are the lines of logs at or above floor ("" = all) and how
// many were hidden.
func filterLogs(logs []logLine, floor string) (shown []logLine, hidden int) {
	if floor == "" || floor == "debug" {
		return logs, 0
	}
	for _, l := range logs {
		if host.LogLevelRank(l.Level) >= host.LogLevelRank(floor) {
			shown = append(shown, l)
		} else {
			hidden++
		}
	}
	return shown, hidden
}

// jobClient is a job's state of these requests.
type jobClient struct {
	logFloor   string // the lowest log level shown ("" or debug: all)
	refreshing bool   // a read being refreshed after an update
	refreshErr string
	updates    int
	updatedAt  time.Time
	isTask     bool       // called as a task (tasks.go)
	task       *host.Task // the task as last polled
}

// clientMsg is an answer to one of these requests.
type clientMsg interface{ clientMsg() }

func (logLevelMsg) clientMsg()  {}
func (watchMsg) clientMsg()     {}
func (refreshedMsg) clientMsg() {}

func (m *Model) onClientMsg(msg clientMsg) tea.Cmd {
	switch msg := msg.(type) {
	case logLevelMsg:
		m.onLogLevel(msg)
	case watchMsg:
		m.onWatch(msg)
	case refreshedMsg:
		m.onRefreshed(msg)
	case completeTickMsg:
		return m.onCompleteTick(msg)
	case completionMsg:
		m.onCompletion(msg)
	case taskCreatedMsg, taskPollMsg, taskStatusMsg, taskCancelMsg, taskListMsg:
		return m.onTaskMsg(msg)
	case previewedMsg:
		m.onPreviewed(msg)
	}
	return nil
}
