package tui

import (
	"strconv"
	"time"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/relavium/relavium/host"
	"github.com/relavium/relavium/tui/form"
)

// Argument completion in the form of a prompt or a resource template: what
// is typed in the focused field is sent to the server (completion/complete)
// once typing pauses, and its answer opens the field's pick list (package
// form). Only the newest question counts: an answer to an older value, or
// to another form, is dropped.

// completeDebounce is the pause in typing after which the server is asked.
const completeDebounce = 250 * time.Millisecond

// completionState is the model's completion bookkeeping.
type completionState struct {
	seq   int    // questions scheduled
	asked string // form, field and value last scheduled
}

type completeTickMsg struct {
	seq          int
	form         int
	field, typed string
}

type completionMsg struct {
	seq          int
	form         int
	field, typed string
	res          *host.Completion
	err          error
}

func (completeTickMsg) clientMsg() {}
func (completionMsg) clientMsg()   {}

// completionRef is what the open form completes for, if anything.
func (m *Model) completionRef() (host.CompletionRef, bool) {
	if m.call.form == nil || !m.call.editing {
		return host.CompletionRef{}, false
	}
	switch t := m.call.formFor; {
	case t.kind == jobPrompt:
		return host.CompletionRef{Type: host.RefPrompt, Name: t.prompt.Name}, true
	case t.kind == jobRead && t.template.URITemplate != "":
		return host.CompletionRef{Type: host.RefResource, URI: t.template.URITemplate}, true
	}
	return host.CompletionRef{}, false
}

// maybeComplete schedules a question when the focused field's value (or
// the focus) changed since the last one.
func (m *Model) maybeComplete() tea.Cmd {
	if _, ok := m.completionRef(); !ok {
		return nil
	}
	name, typed, ok := m.call.form.Typed()
	if !ok {
		return nil
	}
	key := strconv.Itoa(m.call.formSeq) + "\x00" + name + "\x00" + typed
	if key == m.cr.comp.asked {
		return nil
	}
	m.cr.comp.asked = key
	m.cr.comp.seq++
	tick := completeTickMsg{seq: m.cr.comp.seq, form: m.call.formSeq, field: name, typed: typed}
	return tea.Tick(completeDebounce, func(time.Time) tea.Msg { return tick })
}

// onCompleteTick asks the server, if nothing was typed since.
func (m *Model) onCompleteTick(msg completeTickMsg) tea.Cmd {
	ref, ok := m.completionRef()
	if !ok || msg.seq != m.cr.comp.seq || msg.form != m.call.formSeq {
		return nil
	}
	known := map[string]string{}
	for _, fld := range m.call.form.Fields {
		if fld.Kind == form.KindText && fld.Spec.Name != msg.field && fld.Input.Value() != "" {
			known[fld.Spec.Name] = fld.Input.Value()
		}
	}
	b, ctx, server := m.b, m.ctx, m.call.formFor.server
	return func() tea.Msg {
		res, err := b.Complete(ctx, server, ref, msg.field, msg.typed, known)
		return completionMsg{seq: msg.seq, form: msg.form, field: msg.field, typed: msg.typed, res: res, err: err}
	}
}

func (m *Model) onCompletion(msg completionMsg) {
	if m.call.form == nil || msg.form != m.call.formSeq || msg.seq != m.cr.comp.seq {
		return
	}
	if msg.err != nil {
		// A server without completions is the common case: the form
		// works as before, and nothing is said about it.
		return
	}
	m.call.form.Suggest(msg.field, msg.typed, msg.res.Values, msg.res.HasMore)
}
