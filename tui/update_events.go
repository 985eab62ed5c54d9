package tui

import (
	"time"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/relavium/relavium/consent"
	"github.com/relavium/relavium/engine"
	"github.com/relavium/relavium/host"
	"github.com/relavium/relavium/host/clientside"
	"github.com/relavium/relavium/tui/render"
)

// onEvents applies a batch of events. A burst (10 000 progress
// notifications) arrives here as one batch of at most one progress event
// per call — the bus coalesces while the model is busy — so it costs one
// Update and one frame.
func (m *Model) onEvents(events []engine.Event) tea.Cmd {
	refresh := false
	var drift []tea.Cmd // lockdrift.go: a ready server is compared with the lock; a subscribed resource refreshed (clientreq.go)
	for _, e := range events {
		m.log.record(e)
		m.log.strip.Event(e)
		switch d := e.Data.(type) {
		case engine.ServerData:
			if m.applyServer(d) {
				refresh = true
			}
			if d.State == engine.StateReady {
				drift = append(drift, m.lockDriftCmd(d.Server))
			}
			m.applyRetry(d)
		case host.ListChangedData:
			drift = append(drift, m.applyListChanged(d))
		case host.SandboxNoteData:
			if r := m.server(d.Server); r != nil {
				r.sandboxNote = d.Note
			}
		case engine.SkippedTool:
			refresh = true
		case engine.ToolProgressData:
			m.applyProgress(e.RunID, d)
		case engine.ToolLogData:
			m.applyLog(e.RunID, d)
		case engine.ToolCallData:
			if j := m.job(e.RunID); j != nil && e.RunID != "" {
				j.steps = append(j.steps, stepLine{step: d.Step, tool: d.Tool, state: "calling"})
				j.touch()
			}
		case engine.ToolResultData:
			if j := m.job(e.RunID); j != nil && e.RunID != "" {
				m.applyStepResult(j, d)
			}
		case engine.GateRequestedData:
			if j := m.job(e.RunID); j != nil && e.RunID != "" {
				j.steps = append(j.steps, stepLine{step: d.Step, tool: render.ServerLine(d.Message), state: "gate"})
				j.touch()
			}
		case engine.GateResolvedData:
			if j := m.job(e.RunID); j != nil && e.RunID != "" {
				state := "refused"
				if d.Approved {
					state = "approved"
				}
				j.steps = append(j.steps, stepLine{step: d.Step, state: state})
				j.touch()
			}
		case engine.ElicitRequest:
			// The dialog comes through the asker; nothing else to show.
		case host.ResourceUpdatedData:
			drift = append(drift, m.onResourceUpdated(d))
		case clientside.ResolvedData:
			m.logToServerJob(d.Server, logLine{Level: "notice", Server: d.Server, Text: "elicitation answered: " + d.Action})
		case engine.SamplingResolvedData:
			m.onSamplingResolved(d)
		}
	}
	if refresh {
		drift = append(drift, m.catalogueCmd())
	}
	return tea.Batch(drift...)
}

// applyServer updates a server row; it reports whether the catalogue
// changed with it.
func (m *Model) applyServer(d engine.ServerData) bool {
	r := m.server(d.Server)
	if r == nil {
		return false
	}
	prev := r.state
	r.state = d.State
	if d.State == engine.StateFailed && d.ErrorCode == consent.CodeDenied {
		// a denial is this session's answer, not a failure: the row stays
		// askable (a asks again), whichever of event and answer came last
		r.state = stateDenied
	}
	if d.State != prev {
		r.since = m.now()
	}
	if d.PID != 0 {
		r.pid = d.PID
	}
	if d.Digest != "" {
		r.digest = d.Digest
	}
	if d.Sandbox != "" {
		r.sandbox = d.Sandbox
	}
	switch d.State {
	case engine.StateConnecting, engine.StateResolving:
		r.errCode, r.err, r.stderr = "", "", ""
		if prev == engine.StateFailed { // a reconnect: ask again if it fails again
			r.asked = false
		}
	case engine.StateReady:
		r.connectMS, r.protocol, r.tools = d.ConnectMS, d.Protocol, d.Tools
		r.errCode, r.err, r.stderr = "", "", ""
	case engine.StateFailed:
		r.errCode, r.err, r.stderr = d.ErrorCode, d.Error, d.StderrTail
		if r.state == stateDenied {
			r.err = deniedText
		}
		m.askInputs(r)
	case engine.StateNeedsConsent:
		// the decision (with its diff) arrives from Decide
	}
	return d.State == engine.StateReady || d.State == engine.StateFailed || d.State == engine.StateClosed
}

func (m *Model) applyProgress(runID string, d engine.ToolProgressData) {
	j := m.job(d.CallID)
	if j == nil && runID != "" {
		j = m.job(runID)
	}
	if j == nil || j.finished() {
		return
	}
	j.progress, j.hasProgress = d.Progress, true
	j.progressN++
}

func (m *Model) applyLog(runID string, d engine.ToolLogData) {
	l := logLine{Level: d.Level, Logger: d.Logger, Server: d.Server, Text: render.LogData(d.Data)}
	if d.CallID != "" {
		if j := m.job(d.CallID); j != nil {
			j.addLog(l)
			return
		}
	}
	if runID != "" {
		if j := m.job(runID); j != nil {
			j.addLog(l)
			return
		}
	}
	// A log host attributed to no call is the server's: it is never put
	// under whichever call happens to be running there.
	m.serverLog(d.Server, l)
}

func (m *Model) applyStepResult(j *job, d engine.ToolResultData) {
	state := "ok"
	switch {
	case d.ErrorCode != "":
		state = "failed"
	case d.Result != nil && d.Result.IsError:
		state = "tool error"
	}
	for i := len(j.steps) - 1; i >= 0; i-- {
		if j.steps[i].step == d.Step && j.steps[i].state == "calling" {
			j.steps[i].state = state
			j.steps[i].dur = time.Duration(d.DurationMS) * time.Millisecond
			j.touch()
			return
		}
	}
	j.steps = append(j.steps, stepLine{step: d.Step, tool: d.Tool, state: state, dur: time.Duration(d.DurationMS) * time.Millisecond})
	j.touch()
}
