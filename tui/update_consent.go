package tui

import (
	"errors"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/relavium/relavium/consent"
	"github.com/relavium/relavium/engine"
	"github.com/relavium/relavium/tui/backend"
	"github.com/relavium/relavium/tui/dialog"
)

// The consent flow of the workbench: a server's decision arrives, a
// pending one is queued and asked in a dialog, one at a time, and the
// person's answer is recorded (a server that shares its digest with the
// one on screen waits for that answer).

// deniedText is a denied server's note.
const deniedText = "consent denied this session; press a to be asked again"

func (m *Model) onDecided(msg decidedMsg) tea.Cmd {
	if msg.err != nil {
		m.status.set("consent: "+msg.err.Error(), true)
		return nil
	}
	var cmds []tea.Cmd
	for _, d := range msg.decisions {
		if d.Server == nil || (msg.only != "" && d.Server.Name != msg.only) {
			continue
		}
		r := m.server(d.Server.Name)
		if r == nil || r.busy || r.state == engine.StateReady || r.state == engine.StateConnecting {
			continue
		}
		r.digest = d.Server.Digest
		if d.StoreErr != nil {
			m.status.banner = "remembered consent grants are not trusted, so every stdio server asks again: " + consent.ProblemOf(d.StoreErr).Message
		}
		switch d.State {
		case consent.Approved:
			r.decision, r.busy = nil, true
			cmds = append(cmds, m.connectCmd(r.spec.Name, false))
		case consent.NeedsConsent:
			dc := d
			r.become(engine.StateNeedsConsent, m.now())
			r.decision = &dc
			m.queueConsent(r.spec.Name)
		case consent.Denied:
			r.state, r.decision = stateDenied, nil
			r.errCode, r.err = consent.CodeDenied, deniedText
		}
	}
	m.nextConsent()
	return tea.Batch(cmds...)
}

// queueConsent adds a server to the consent queue (declaration order is
// the order decisions arrive in).
func (m *Model) queueConsent(name string) {
	for _, q := range m.dialogs.consentQueue {
		if q == name {
			return
		}
	}
	if m.dialogs.stack.Any(func(d dialog.Dialog) bool {
		cd, ok := d.(*dialog.Consent)
		return ok && cd.Dec.Server != nil && cd.Dec.Server.Name == name
	}) {
		return
	}
	m.dialogs.consentQueue = append(m.dialogs.consentQueue, name)
}

// nextConsent opens the next queued consent dialog when none is open: one
// server at a time.
func (m *Model) nextConsent() {
	if m.dialogs.stack.Any(func(d dialog.Dialog) bool { _, ok := d.(*dialog.Consent); return ok }) {
		return
	}
	for len(m.dialogs.consentQueue) > 0 {
		name := m.dialogs.consentQueue[0]
		m.dialogs.consentQueue = m.dialogs.consentQueue[1:]
		r := m.server(name)
		if r == nil || r.decision == nil || r.state != engine.StateNeedsConsent {
			continue
		}
		d := newConsentDialog(*r.decision)
		if r.spec.Adhoc {
			d.Remember = nil // an ad-hoc server is never remembered
		}
		m.pushDialog(d)
		return
	}
}

func (m *Model) onAnswered(msg answeredMsg) tea.Cmd {
	r := m.server(msg.server)
	if r == nil {
		return nil
	}
	if msg.err != nil {
		m.status.set("could not record consent for "+msg.server+": "+msg.err.Error(), true)
		if r.decision != nil {
			r.become(engine.StateNeedsConsent, m.now())
			m.queueConsent(msg.server)
		}
		for _, t := range m.servers.rows { // the twins held back ask again too
			if t.twinOf == r.spec.Name {
				t.twinOf = ""
				if t.decision != nil {
					t.become(engine.StateNeedsConsent, m.now())
					m.queueConsent(t.spec.Name)
				}
			}
		}
		m.nextConsent()
		return nil
	}
	switch msg.answer {
	case backend.ApproveRemember, backend.ApproveOnce:
		r.decision, r.busy = nil, true
		m.status.set(msg.server+": "+msg.answer.String(), false)
		return tea.Batch(m.connectCmd(msg.server, false), m.redecideTwins(r))
	}
	r.state, r.decision = stateDenied, nil
	r.errCode, r.err = consent.CodeDenied, deniedText
	m.status.set(msg.server+" was not started (consent denied); select it and press a to be asked again", false)
	return nil
}

// holdTwins holds back the queued consent requests for the program r's
// answer approves (another server declaring the same digest): they are
// decided afresh through package consent once the answer is recorded
// (redecideTwins), instead of asking about an approved program again.
func (m *Model) holdTwins(r *serverRow) {
	if r.decision == nil {
		return
	}
	for _, t := range m.servers.rows {
		if t != r && t.state == engine.StateNeedsConsent && t.decision != nil && t.decision.Server.Digest == r.decision.Server.Digest {
			t.state, t.twinOf = engine.StateResolving, r.spec.Name
		}
	}
}

// redecideTwins decides the servers holdTwins held back for r.
func (m *Model) redecideTwins(r *serverRow) tea.Cmd {
	var cmds []tea.Cmd
	for _, t := range m.servers.rows {
		if t.twinOf == r.spec.Name {
			t.twinOf = ""
			cmds = append(cmds, m.decideCmd(t.spec.Name))
		}
	}
	return tea.Batch(cmds...)
}

// askBinding opens the binding dialog for the first secret a network
// server's connect found unbound (the session refused it with a
// PendingError naming the bindings: nothing was dialled). It reports
// whether err was such a refusal.
func (m *Model) askBinding(r *serverRow, err error) bool {
	var pe *consent.PendingError
	if !errors.As(err, &pe) || len(pe.Bindings) == 0 || len(pe.Pending) > 0 {
		return false
	}
	if m.dialogs.stack.Any(func(d dialog.Dialog) bool { _, ok := d.(*dialog.Consent); return ok }) {
		// One question at a time: this server asks again when the one on
		// screen is answered and it is connected anew (press a).
		r.state, r.errCode, r.err = engine.StateFailed, consent.CodeSecretUnbound, "a secret of your stores is not bound to this server's origin; press a to be asked"
		if pe.Bindings[0].Binding.Local {
			r.errCode, r.err = consent.CodeLocalHeld, "held: its local address "+pe.Bindings[0].Binding.Origin+" waits for your word; press a to be asked"
		}
		if pe.Bindings[0].Binding.Helper != nil {
			r.errCode, r.err = consent.CodeConsentRequired, "its headers helper waits for your consent; press a to be asked"
		}
		return true
	}
	bd := pe.Bindings[0]
	r.become(engine.StateNeedsConsent, m.now())
	m.pushDialog(dialog.NewBinding(bd, bindAction{server: r.spec.Name, binding: bd.Binding, answer: backend.ApproveRemember},
		bindAction{server: r.spec.Name, binding: bd.Binding, answer: backend.ApproveOnce}, bindAction{server: r.spec.Name, binding: bd.Binding, answer: backend.DenyConsent}))
	return true
}

// bindAction is the person's answer to a secret binding dialog.
type bindAction struct {
	server  string
	binding *consent.Binding
	answer  backend.Answer
}

func (m *Model) answerBindingCmd(a bindAction) tea.Cmd {
	b, ctx := m.b, m.ctx
	return func() tea.Msg {
		if err := b.AnswerBinding(a.binding, a.answer); err != nil {
			return connectedMsg{server: a.server, err: err}
		}
		if a.answer == backend.DenyConsent {
			return connectedMsg{server: a.server, err: consent.BindingDeniedError(a.binding)}
		}
		return connectedMsg{server: a.server, err: b.Connect(ctx, a.server)}
	}
}
