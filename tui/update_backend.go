package tui

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/relavium/relavium/tui/asker"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/relavium/relavium/consent"
	"github.com/relavium/relavium/engine"
	"github.com/relavium/relavium/fault"
	"github.com/relavium/relavium/tui/backend"
	"github.com/relavium/relavium/tui/dialog"
	"github.com/relavium/relavium/tui/render"
	"github.com/relavium/relavium/workflow"
)

// Handlers of what the backend answered.

func (m *Model) onConnected(msg connectedMsg) tea.Cmd {
	r := m.server(msg.server)
	if r == nil {
		return nil
	}
	r.busy = false
	delete(m.browse.resources, msg.server)
	delete(m.browse.prompts, msg.server)
	if msg.err != nil && m.askBinding(r, msg.err) {
		return nil
	}
	if msg.err != nil && fault.CodeOf(msg.err, "") == consent.CodeDenied {
		r.state, r.errCode, r.err = stateDenied, consent.CodeDenied, deniedText
		m.nextConsent()
		return m.catalogueCmd()
	}
	if msg.err != nil {
		if r.state != engine.StateFailed || r.err == "" {
			r.state = engine.StateFailed
			r.errCode, r.err = fault.CodeOf(msg.err, ""), backend.MessageOf(msg.err)
		}
	}
	return m.catalogueCmd()
}

func (m *Model) onValidated(msg validatedMsg) tea.Cmd {
	if msg.seq != m.call.formSeq || m.call.form == nil || m.call.formFor.kind != jobTool {
		m.dialogs.guard.Settle()
		return nil
	}
	if msg.err != nil {
		m.dialogs.guard.Settle() // not sent: the form is the person's again
		m.call.form.SetErrors(msg.errs)
		n := len(msg.errs)
		m.status.set(fmt.Sprintf("not sent: %s the tool's schema refuses (marked)", render.Counted(n, "value", "values")), true)
		return nil
	}
	if m.status.err {
		m.status.set("", false) // the arguments are right now
	}
	return m.startCall(pendingCall{tool: m.call.formFor.tool, args: msg.args, task: m.call.formFor.task, bench: m.call.formFor.bench})
}

// startCall dispatches only on the person's word: the backend says whether
// tools_auto_approve or a remembered approval of this exact definition
// clears it (clearanceMsg); otherwise the person is asked. The tool's
// annotations never skip the question: they are the server's own claims.
// A replayed call is judged on the tool as the catalogue has it now (its
// definition may have changed since).
func (m *Model) startCall(pc pendingCall) tea.Cmd {
	for _, t := range m.browse.tools {
		if t.Name == pc.tool.Name && t.Server == pc.tool.Server {
			pc.tool = t
		}
	}
	b := m.b
	return func() tea.Msg {
		c, err := b.Clearance(pc.tool)
		return clearanceMsg{call: pc, clearance: c, err: err}
	}
}

func (m *Model) onClearance(msg clearanceMsg) tea.Cmd {
	if msg.clearance != "" {
		m.dialogs.guard.Settle() // no question: the call goes ahead
		return m.dispatch(msg.call)
	}
	if msg.err != nil {
		m.status.set("remembered approvals not read: "+backend.MessageOf(msg.err), true)
	}
	m.pushDialog(newToolConfirmDialog(msg.call))
	return nil
}

func (m *Model) newJob(kind jobKind, server, title string, args json.RawMessage) (*job, context.Context) {
	m.call.jobSeq++
	ctx, cancel := context.WithCancel(m.ctx)
	j := &job{id: fmt.Sprintf("%s%d", kind.String()[:1], m.call.jobSeq), kind: kind, server: server, title: title,
		args: args, started: m.now(), cancel: cancel}
	j.logFloor = logFloors[m.cr.logFloor]
	m.call.jobs = append(m.call.jobs, j)
	// a form stays only under the calls it makes (a tool's form, to send
	// again); a read's or a prompt's form, or another tool's, goes
	if m.call.form != nil && !(kind == jobTool && m.call.formFor.kind == jobTool && m.call.formFor.tool.Name == title) {
		m.call.form, m.call.editing = nil, false
	}
	if m.status.err { // a refusal of an earlier attempt is over
		m.status.text, m.status.err = "", false
	}
	m.call.shown, m.call.history, m.call.follow, m.call.editing = len(m.call.jobs)-1, false, true, false
	m.focus = paneCall
	return j, ctx
}

func (m *Model) dispatch(pc pendingCall) tea.Cmd {
	if pc.task {
		return m.dispatchTask(pc)
	}
	if pc.bench {
		return m.askBench(pc)
	}
	j, ctx := m.newJob(jobTool, pc.tool.Server, pc.tool.Name, pc.args)
	j.tool = pc.tool
	m.status.set("", false)
	return m.callCmd(ctx, j.id, pc.tool, pc.args)
}

// settleStatus replaces a "cancelling" status once its job has ended.
func (m *Model) settleStatus(j *job) {
	if j.cancelAsked && strings.HasPrefix(m.status.text, "cancelling ") {
		m.status.set(j.title+" ended: "+[...]string{"running", "done", "failed", "cancelled"}[j.state], false)
	}
}

// endJob ends job id: failed (or cancelled) with err, else done, with
// outcome storing what it produced. It returns the job when it ended done,
// nil when it failed or is unknown.
func (m *Model) endJob(id string, err error, outcome func(*job)) *job {
	j := m.job(id)
	if j == nil {
		return nil
	}
	defer m.settleStatus(j)
	if err != nil {
		j.fail(m.now(), err)
		return nil
	}
	j.ended, j.state, j.cancel = m.now(), jobDone, nil
	outcome(j)
	j.touch()
	return j
}

func (m *Model) onCallDone(msg callDoneMsg) tea.Cmd {
	m.noteStepUp(msg.err)
	j := m.endJob(msg.id, msg.err, func(j *job) { j.result = msg.result })
	if j == nil {
		return nil
	}
	if c := confirmationOf(msg.result); c != nil {
		args := map[string]json.RawMessage{}
		_ = json.Unmarshal(j.args, &args)
		nonce, _ := json.Marshal(c.Confirm)
		args["confirm"] = nonce
		again, _ := json.Marshal(args)
		m.pushDialog(&dialog.Confirm{Title: "Confirmation required · " + render.ServerLine(j.tool.Name), SideEffect: c.SideEffect,
			Reason: c.Reason, Plan: c.Plan, Focus: 1,
			Yes: confirmCallAction{call: pendingCall{tool: j.tool, args: again}},
			No:  statusAction{text: "not confirmed: " + j.tool.Name + " did nothing"}})
	}
	return nil
}

// confirmation is the data of a confirmation_required answer of relavium's
// machine surface (invoke.Confirmation), read off a tool's structured
// content {"ok":true,"data":{...}}.
type confirmation struct {
	ConfirmationRequired bool            `json:"confirmation_required"`
	Kind                 string          `json:"kind"`
	Confirm              string          `json:"confirm"`
	SideEffect           string          `json:"side_effect"`
	Reason               string          `json:"reason"`
	Plan                 json.RawMessage `json:"plan"`
}

func confirmationOf(r *engine.ToolResult) *confirmation {
	if r == nil || r.IsError || len(r.Structured) == 0 {
		return nil
	}
	var env struct {
		OK   bool          `json:"ok"`
		Data *confirmation `json:"data"`
	}
	if json.Unmarshal(r.Structured, &env) != nil || !env.OK || env.Data == nil || !env.Data.ConfirmationRequired || env.Data.Confirm == "" {
		return nil
	}
	return env.Data
}

type confirmCallAction struct{ call pendingCall }

type statusAction struct{ text string }

type gateAction struct {
	req     *asker.Request
	approve bool
}

type runConfirmAction struct {
	wf     *workflow.Workflow
	inputs map[string]any
}

func (m *Model) onReadDone(msg readDoneMsg) {
	m.endJob(msg.id, msg.err, func(j *job) {
		j.contents = msg.contents
		if j.contents == nil {
			j.contents = []engine.Content{}
		}
	})
	m.recordJob(m.job(msg.id))
}

func (m *Model) onPromptDone(msg promptDoneMsg) {
	m.endJob(msg.id, msg.err, func(j *job) { j.prompt = msg.res })
	m.recordJob(m.job(msg.id))
}

func (m *Model) onRunDone(msg runDoneMsg) {
	m.endJob(msg.id, msg.err, func(j *job) { j.run = msg.res })
}

// onAsk opens the dialog for a backend's question.
func (m *Model) onAsk(r *asker.Request) tea.Cmd {
	if cmd, ok := m.onClientAsk(r); ok {
		return cmd
	}
	switch {
	case r.Elicit != nil:
		m.pushDialog(newElicitDialog(m.st, m.keys.RawJSON, r))
		m.logToServerJob(r.Elicit.Server, logLine{Level: "notice", Server: r.Elicit.Server, Text: "asks for input: " + render.ServerLine(r.Elicit.Message)})
	case r.Gate != nil:
		g := r.Gate
		d := &dialog.Confirm{Title: "Workflow gate · " + render.ServerLine(g.Workflow) + " · step " + render.ServerLine(g.Step),
			Reason: g.Message, Focus: 1, Yes: gateAction{req: r, approve: true}, No: gateAction{req: r}}
		if j := m.job(g.RunID); j != nil {
			d.Plan = m.runPlan(j, g.Step)
			for _, w := range m.browse.workflows {
				if w.ID == g.Workflow {
					d.SideEffect = w.SideEffect
				}
			}
		}
		m.pushDialog(d)
	default:
		return nil
	}
	return asker.Watch(r)
}

// runPlan is the plan a gate dialog shows: the workflow's steps, marking
// the one waiting.
func (m *Model) runPlan(j *job, at string) json.RawMessage {
	for _, w := range m.browse.workflows {
		if w.ID != j.title {
			continue
		}
		type step struct {
			ID   string `json:"id"`
			Kind string `json:"kind"`
			Tool string `json:"tool,omitempty"`
			Here bool   `json:"waiting_here,omitempty"`
		}
		var steps []step
		for _, s := range w.Steps {
			steps = append(steps, step{ID: s.ID, Kind: s.Kind(), Tool: s.Tool, Here: s.ID == at})
		}
		b, _ := json.Marshal(map[string]any{"workflow": w.ID, "side_effect": w.SideEffect, "steps": steps})
		return b
	}
	return nil
}

// dropAsk closes the dialog of a question whose asker gave up.
func (m *Model) dropAsk(r *asker.Request) {
	dropped := m.dialogs.stack.RemoveIf(func(d dialog.Dialog) bool {
		if askedBy(d, r) {
			return true
		}
		switch d := d.(type) {
		case *dialog.Elicit:
			return r.Elicit != nil && d.Request == r.Elicit
		case *dialog.Confirm:
			g, ok := d.Yes.(gateAction)
			return ok && g.req == r
		}
		return false
	})
	if dropped > 0 {
		m.status.set("the question was withdrawn before it was answered", false)
	}
}

// apply carries out what a closed dialog decided.
func (m *Model) apply(a dialog.Action) tea.Cmd {
	if cmd, ok := m.applyClientSide(a); ok {
		return cmd
	}
	switch a := a.(type) {
	case consentAction:
		cmd := m.answerCmd(a.server, a.answer)
		if r := m.server(a.server); r != nil && a.answer != backend.DenyConsent {
			r.state = engine.StateConnecting
			r.since = m.now()
			m.holdTwins(r)
		}
		m.nextConsent()
		return cmd
	case bindAction:
		if r := m.server(a.server); r != nil {
			r.state, r.since, r.busy = engine.StateConnecting, m.now(), true
		}
		m.nextConsent()
		return m.answerBindingCmd(a)
	case toolConfirmAction:
		if !a.allow {
			m.status.set("not sent: "+a.call.tool.Name+" (denied)", false)
			return nil
		}
		if a.always && !a.call.tool.Changed {
			return tea.Batch(m.approveCmd(a.call.tool), m.dispatch(a.call))
		}
		return m.dispatch(a.call)
	case acceptAction:
		return m.acceptCmd(a.tool)
	case secretsAction:
		for id, v := range a.values {
			m.b.ProvideSecret(a.server, id, v)
		}
		if r := m.server(a.server); r != nil {
			r.state, r.since = engine.StateConnecting, m.now()
			r.asked = false // still lacking one (another of its secrets): ask again
		}
		return m.connectCmd(a.server, true)
	case benchSettings:
		return m.startBench(a)
	case confirmCallAction:
		return m.dispatch(a.call)
	case elicitAction:
		asker.Reply(a.req, asker.Answer{Elicit: a.resp})
		m.status.set("answered "+a.req.Elicit.Server+": "+a.resp.Action, false)
	case gateAction:
		asker.Reply(a.req, asker.Answer{Approve: a.approve})
	case runConfirmAction:
		return m.startRun(a.wf, a.inputs)
	case statusAction:
		m.status.set(a.text, false)
	case paletteDo:
		return a(m)
	case editorKeep:
		m.onEditorKeep(a)
	case openLinkAction:
		return m.openLink(a)
	}
	return nil
}

func (m *Model) startRun(wf *workflow.Workflow, inputs map[string]any) tea.Cmd {
	raw, _ := json.Marshal(inputs)
	j, ctx := m.newJob(jobRun, "", wf.ID, raw)
	j.runID = j.id
	return m.runCmd(ctx, j.id, wf, inputs)
}

// logToServerJob attaches a line to the newest running job on server, or
// to the server's own log; it returns the job (nil: the server's log).
func (m *Model) logToServerJob(server string, l logLine) *job {
	for i := len(m.call.jobs) - 1; i >= 0; i-- {
		j := m.call.jobs[i]
		if !j.finished() && (j.server == server || j.kind == jobRun) {
			j.addLog(l)
			return j
		}
	}
	m.serverLog(server, l)
	return nil
}

// serverLog keeps a line in the server's own log (bounded).
func (m *Model) serverLog(server string, l logLine) {
	if r := m.server(server); r != nil {
		if len(r.logs) >= maxServerLogs {
			r.logs = r.logs[1:]
		}
		r.logs = append(r.logs, l)
	}
}

// Lock drift on the server row: when a server becomes ready, it is
// compared with the project's lock off the update loop; the row and its
// details draw the answer (serverinfo.DriftMark, DriftDetail).

// lockDrifter is the backend that can compare a ready server with the
// lock (the live backend; a backend without it shows no drift).
type lockDrifter interface {
	LockDrift(ctx context.Context, server string) (backend.LockDrift, bool)
}

type lockDriftMsg struct {
	server string
	drift  backend.LockDrift
	ok     bool
}

// lockDriftCmd compares server with the lock, off the update loop.
func (m *Model) lockDriftCmd(server string) tea.Cmd {
	ld, ok := m.b.(lockDrifter)
	if !ok {
		return nil
	}
	ctx := m.ctx
	return func() tea.Msg {
		d, ok := ld.LockDrift(ctx, server)
		return lockDriftMsg{server: server, drift: d, ok: ok}
	}
}

func (m *Model) onLockDrift(msg lockDriftMsg) {
	if r := m.server(msg.server); r != nil {
		r.lockDrift, r.lockChecked = msg.drift, msg.ok
	}
}
