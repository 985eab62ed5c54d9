package tui

import (
	"fmt"
	"strings"
	"time"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"

	"github.com/relavium/relavium/loadtest"
	"github.com/relavium/relavium/tui/backend"
	"github.com/relavium/relavium/tui/dialog"
	"github.com/relavium/relavium/tui/render"
)

// A load of one tool (b on a tool: `relavium mcp bench` in the workbench):
// the tool's form takes its arguments, ctrl+s asks the usual question
// about calling it (the person's word, never the tool's annotations), then
// a dialog takes the rate and the duration; the job in the call pane draws
// the figures and the latency chart as they come, and c cancels the run.

// benchDefaults is what the rate and duration dialog starts with.
const benchDefaults = "10/s 10s"

// maxBenchDuration bounds a load started from the workbench (the command
// line takes up to loadtest.MaxDuration).
const maxBenchDuration = 10 * time.Minute

// benchKey handles b on a tool of the tools tab: its form, to load it.
func (m *Model) benchKey(msg tea.KeyMsg) (tea.Cmd, bool) {
	if m.focus != paneTools || m.browse.tab != tabTools || !key.Matches(msg, m.keys.Bench) {
		return nil, false
	}
	rows := m.browse.listRows()
	if m.browse.cursor >= len(rows) || rows[m.browse.cursor].kind != rowTool {
		return nil, true
	}
	t := rows[m.browse.cursor].tool
	specs, err := t.InputFields()
	m.openForm(formTarget{kind: jobTool, tool: t, server: t.Server, bench: true}, specs, nil)
	if err != nil {
		m.call.form.ToggleRaw()
	}
	m.status.set("ctrl+s loads "+t.Name+" with these arguments (then the rate and the duration)", false)
	return nil, true
}

// benchSettings is the answer of the rate and duration dialog.
type benchSettings struct {
	call pendingCall
	text string
}

// askBench asks the rate and the duration of a load the person has
// cleared (dispatch of a bench pendingCall).
func (m *Model) askBench(pc pendingCall) tea.Cmd {
	help := fmt.Sprintf("Load %s: RATE DURATION, e.g. 50/s 30s (open loop: requests are sent on schedule, latency is measured from each one's scheduled start). The tool is called rate × duration times.", render.ServerLine(pc.tool.Name))
	d, cmd := dialog.NewInput("Load "+render.ServerLine(pc.tool.Name), help, benchDefaults, func(s string) dialog.Action {
		return benchSettings{call: pc, text: s}
	})
	d.OK = "Start"
	m.pushDialog(d)
	return cmd
}

// parseBench reads "RATE DURATION" (either may be left out: 10/s, 10s).
func parseBench(text string) (loadtest.Plan, error) {
	plan := loadtest.Plan{Rate: 10, Duration: 10 * time.Second, Timeout: 10 * time.Second}
	words := strings.Fields(text)
	if len(words) > 2 {
		return plan, fmt.Errorf("give RATE DURATION, e.g. 50/s 30s")
	}
	for _, w := range words {
		if d, err := time.ParseDuration(w); err == nil {
			plan.Duration = d
			continue
		}
		r, err := loadtest.ParseRate(w)
		if err != nil {
			return plan, err
		}
		plan.Rate = r
	}
	if plan.Duration > maxBenchDuration {
		return plan, fmt.Errorf("a load from the workbench lasts at most %s (mcp bench takes longer ones)", maxBenchDuration)
	}
	return plan, plan.Check()
}

// benchUpdateMsg is a load's figures so far; benchDoneMsg its end.
type benchUpdateMsg struct {
	id      string
	rep     *loadtest.Report
	updates <-chan *loadtest.Report
	done    <-chan benchDoneMsg
}
type benchDoneMsg struct {
	id  string
	rep *loadtest.Report
	err error
}

// startBench starts the load of settings' call as a job of its own.
func (m *Model) startBench(s benchSettings) tea.Cmd {
	plan, err := parseBench(s.text)
	if err != nil {
		m.status.set("not started: "+backend.MessageOf(err), true)
		return nil
	}
	pc := s.call
	j, ctx := m.newJob(jobBench, pc.tool.Server, pc.tool.Name, pc.args)
	j.tool, j.plan = pc.tool, plan
	m.status.set(fmt.Sprintf("loading %s at %g/s for %s (c cancels)", pc.tool.Name, plan.Rate, plan.Duration), false)
	// The run's snapshots go through a one-slot channel that keeps the
	// newest: the frame draws the latest figures, never a backlog.
	updates := make(chan *loadtest.Report, 1)
	done := make(chan benchDoneMsg, 1)
	b, id, tool, args := m.b, j.id, pc.tool, pc.args
	return func() tea.Msg {
		// The run lives in a goroutine of this Cmd's, bound to the job's
		// context (cancelled by c, and with every job when the program
		// ends); it ends by sending on done, which has room.
		go func() {
			rep, err := b.Bench(ctx, tool, args, plan, func(r *loadtest.Report) {
				select {
				case <-updates:
				default:
				}
				updates <- r
			})
			done <- benchDoneMsg{id: id, rep: rep, err: err}
		}()
		return waitBench(id, updates, done)()
	}
}

// waitBench is the Cmd that waits for a load's next snapshot or its end.
func waitBench(id string, updates <-chan *loadtest.Report, done <-chan benchDoneMsg) tea.Cmd {
	return func() tea.Msg {
		select {
		case d := <-done:
			return d
		case r := <-updates:
			return benchUpdateMsg{id: id, rep: r, updates: updates, done: done}
		}
	}
}

// onBench applies a load's snapshot or end to its job.
func (m *Model) onBench(msg tea.Msg) tea.Cmd {
	switch msg := msg.(type) {
	case benchUpdateMsg:
		if j := m.job(msg.id); j != nil && !j.finished() {
			j.bench = msg.rep
			j.touch()
		}
		return waitBench(msg.id, msg.updates, msg.done)
	case benchDoneMsg:
		j := m.endJob(msg.id, msg.err, func(j *job) { j.bench = msg.rep })
		if j != nil && msg.rep != nil {
			m.status.set(fmt.Sprintf("%s: %d requests, p99 %.3g ms, %d failed", j.title, msg.rep.Count, msg.rep.P99MS, msg.rep.ErrorCount), msg.rep.ErrorCount > 0)
		}
	}
	return nil
}
