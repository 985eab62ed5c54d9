package tui

import (
	"encoding/json"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/relavium/relavium/engine"
	"github.com/relavium/relavium/host"
)

// What the keys do to a selected server (approve, reconnect, disconnect)
// and to a call (cancel it, load its arguments into the form, replay it).

// cancelJob cancels the job on show when it runs, else the newest running
// one. The cancellation reaches the server (notifications/cancelled).
func (m *Model) cancelJob() {
	j := m.call.shownJob()
	if j == nil || j.finished() {
		j = nil
		for i := len(m.call.jobs) - 1; i >= 0; i-- {
			if !m.call.jobs[i].finished() {
				j = m.call.jobs[i]
				break
			}
		}
	}
	if j == nil || j.cancel == nil {
		m.status.set("nothing is running", false)
		return
	}
	j.cancel()
	j.cancelAsked = true
	m.status.set("cancelling "+j.title+"…", false)
}

// loadJob puts a past call's arguments into its form.
func (m *Model) loadJob(j *job) {
	var values map[string]any
	_ = json.Unmarshal(j.args, &values)
	switch j.kind {
	case jobTool:
		specs, _ := j.tool.InputFields()
		m.openForm(formTarget{kind: jobTool, tool: j.tool, server: j.tool.Server}, specs, values)
	default:
		m.status.set("only tool calls load into a form; enter replays this one", false)
	}
}

// replay runs a past job again with the same arguments (a tool call asks
// again unless allowed for the session).
func (m *Model) replay(j *job) tea.Cmd {
	switch j.kind {
	case jobTool:
		return m.startCall(pendingCall{tool: j.tool, args: j.args})
	case jobRead:
		n, ctx := m.newJob(jobRead, j.server, j.title, j.args)
		return m.readCmd(ctx, n.id, j.server, j.title)
	case jobPrompt:
		var args map[string]string
		_ = json.Unmarshal(j.args, &args)
		return m.getPrompt(formTarget{kind: jobPrompt, server: j.server, prompt: promptNamed(j.title)}, args)
	case jobRun:
		for _, w := range m.browse.workflows {
			if w.ID == j.title {
				var inputs map[string]any
				_ = json.Unmarshal(j.args, &inputs)
				return m.confirmRun(w, inputs)
			}
		}
	}
	return nil
}

// approveSelected opens consent for the selected server (asking again
// after a denial).
func (m *Model) approveSelected() tea.Cmd {
	r := m.selected()
	if r == nil || m.notAdmitted(r) {
		return nil
	}
	switch r.state {
	case stateDenied:
		if r.spec.Transport != host.TransportStdio {
			// a denied secret binding: forget the denial and connect, so
			// the binding is asked about again
			r.state, r.since, r.busy = engine.StateConnecting, m.now(), true
			return m.rebindCmd(r.spec.Name)
		}
		r.become(engine.StateResolving, m.now())
		return m.reaskCmd(r.spec.Name)
	case engine.StateNeedsConsent:
		if r.decision != nil {
			m.queueConsent(r.spec.Name)
			m.nextConsent()
		}
		return nil
	}
	m.status.set(r.spec.Name+" does not need consent now", false)
	return nil
}

func (m *Model) reconnectSelected() tea.Cmd {
	r := m.selected()
	if r == nil || r.busy {
		return nil
	}
	if m.notAdmitted(r) {
		return nil
	}
	switch r.state {
	case stateDenied:
		return m.approveSelected()
	case engine.StateNeedsConsent, engine.StateResolving:
		return m.approveSelected()
	}
	reconnect := r.state == engine.StateReady || r.state == engine.StateConnecting
	r.busy = true
	r.state, r.since = engine.StateConnecting, m.now()
	r.errCode, r.err, r.stderr = "", "", ""
	r.asked = false // a retry asks for its inputs again if it fails for want of them
	if r.spec.Transport == host.TransportStdio && !reconnect {
		// a stdio server connects only with an approving decision: decide
		// afresh (a grant revoked meanwhile asks again).
		r.busy = false
		r.become(engine.StateResolving, m.now())
		return m.decideCmd(r.spec.Name)
	}
	return m.connectCmd(r.spec.Name, reconnect)
}

func (m *Model) disconnectSelected() tea.Cmd {
	r := m.selected()
	if r == nil || r.busy || (r.state != engine.StateReady && r.state != engine.StateConnecting) {
		return nil
	}
	r.busy = true
	return m.disconnectCmd(r.spec.Name)
}

// notAdmitted reports whether r is a server that was not admitted, and
// says on the status line that it cannot be connected as it stands.
func (m *Model) notAdmitted(r *serverRow) bool {
	if r.spec.NotAdmitted == nil {
		return false
	}
	m.status.set(r.spec.Name+" was not admitted ("+string(r.spec.NotAdmitted.Code)+"): i says why and the fix", true)
	return true
}
