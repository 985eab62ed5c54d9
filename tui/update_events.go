package tui

import (
	"encoding/json"
	"fmt"
	"strings"
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
		m.stripEvent(e)
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
	l := logLine{Level: d.Level, Logger: d.Logger, Server: d.Server, Text: logText(d.Data)}
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

// logText renders a log notification's data: a JSON string as its text,
// anything else as compact JSON; always sanitized to one line.
func logText(raw json.RawMessage) string {
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return render.ServerLine(s)
	}
	return render.ServerLine(strings.TrimSpace(string(raw)))
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

// stripEvent notes an event in the strip (progress is left to the call
// pane's bar).
func (m *Model) stripEvent(e engine.Event) {
	switch d := e.Data.(type) {
	case engine.ServerData:
		switch d.State {
		case engine.StateReady:
			m.log.strip.Add(e.Time, "●", "ok", fmt.Sprintf("%s ready · %d tools · %s", d.Server, d.Tools, render.HumanDuration(msDur(d.ConnectMS))))
		case engine.StateFailed:
			m.log.strip.Add(e.Time, "✗", "error", strings.TrimSpace(d.Server+" failed "+string(d.ErrorCode)+" "+firstLine(d.Error)))
		case engine.StateConnecting:
			m.log.strip.Add(e.Time, "◌", "accent", d.Server+" connecting")
		case engine.StateClosed:
			m.log.strip.Add(e.Time, "○", "muted", d.Server+" closed")
		case engine.StateNeedsConsent:
			m.log.strip.Add(e.Time, "⚠", "warn", d.Server+" needs consent")
		}
	case host.SandboxNoteData:
		m.log.strip.Add(e.Time, "🔒", "warn", d.Server+" "+render.ServerLine(d.Note))
	case engine.SkippedTool:
		m.log.strip.Add(e.Time, "✗", "warn", "skipped "+d.Server+"/"+d.Tool+": "+d.Code)
	case engine.ToolCallData:
		m.log.strip.Add(e.Time, "→", "accent", "call "+d.Tool)
	case engine.ToolResultData:
		switch {
		case d.ErrorCode != "":
			m.log.strip.Add(e.Time, "✗", "error", d.Tool+" "+string(d.ErrorCode)+" · "+render.HumanDuration(msDur(d.DurationMS)))
		case d.Result != nil && d.Result.IsError:
			m.log.strip.Add(e.Time, "✗", "error", d.Tool+" tool error · "+render.HumanDuration(msDur(d.DurationMS)))
		default:
			m.log.strip.Add(e.Time, "✓", "ok", d.Tool+" · "+render.HumanDuration(msDur(d.DurationMS)))
		}
	case engine.ToolLogData:
		m.log.strip.Add(e.Time, "·", "log:"+d.Level, d.Server+" "+d.Level+": "+logText(d.Data))
	case engine.GateRequestedData:
		m.log.strip.Add(e.Time, "⏸", "warn", "gate "+d.Step+": "+d.Message)
	case engine.GateResolvedData:
		m.log.strip.Add(e.Time, "⏵", "muted", fmt.Sprintf("gate %s answered (approved: %t)", d.Step, d.Approved))
	}
}
