package tui

import (
	"encoding/json"
	"strconv"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"

	"github.com/relavium/relavium/tui/dialog"
	"github.com/relavium/relavium/tui/fieldedit"
)

// callAct is what a key on the call pane asks of the root: the pane
// scrolls its result, moves its history cursor, opens its search and
// closes its form itself; what reaches beyond it (a call, the clipboard, a
// file, the status line) is the root's.
type callAct int

const (
	callNone        callAct = iota
	callLoad                // l in the history: the job back into a form
	callReplay              // enter in the history: the job again
	callYank                // y
	callYankCommand         // Y
	callSave                // s
	callSubmit              // ctrl+s on the form
	callNoHit               // n or N found no line holding the query
)

// key reads a key on the pane. It returns what the root is to do, the job
// it is about, and the Cmd of the pane's own widget (the search line).
func (p *callPane) key(msg tea.KeyMsg) (callAct, *job, tea.Cmd) {
	k := p.keys
	if p.history {
		switch {
		case key.Matches(msg, k.Back), key.Matches(msg, k.History):
			p.history = false
		case key.Matches(msg, k.Load):
			if j := p.historyJob(); j != nil {
				return callLoad, j, nil
			}
		case key.Matches(msg, k.Replay):
			if j := p.historyJob(); j != nil {
				return callReplay, j, nil
			}
		default:
			moveKey(msg, k, &p.histSel, len(p.jobs), 5)
		}
		return callNone, nil, nil
	}
	switch {
	case key.Matches(msg, k.History):
		p.history, p.histSel = true, 0
		return callNone, nil, nil
	case key.Matches(msg, k.Filter) && p.shownJob() != nil:
		return callNone, nil, p.search.Start(p.st)
	case key.Matches(msg, k.Yank):
		return callYank, nil, nil
	case key.Matches(msg, k.YankCommand):
		return callYankCommand, nil, nil
	case key.Matches(msg, k.Save):
		return callSave, nil, nil
	case key.Matches(msg, k.SearchNext) && p.search.Query != "":
		return p.hitAct(p.jumpHit(1, false)), nil, nil
	case key.Matches(msg, k.SearchPrev) && p.search.Query != "":
		return p.hitAct(p.jumpHit(-1, false)), nil, nil
	case key.Matches(msg, k.Back) && p.search.Query != "":
		p.search.End()
		return callNone, nil, nil
	case key.Matches(msg, k.Submit) && p.form != nil:
		return callSubmit, nil, nil
	case key.Matches(msg, k.Enter) && p.form != nil:
		p.editing = true
		return callNone, nil, nil
	case key.Matches(msg, k.Back):
		if p.form != nil {
			p.form, p.editing = nil, false
		}
		return callNone, nil, nil
	}
	p.scrollKey(msg)
	return callNone, nil, nil
}

func (p *callPane) hitAct(found bool) callAct {
	if found {
		return callNone
	}
	return callNoHit
}

// formAct is what a key in the form being edited asks of the root.
type formAct int

const (
	formNone   formAct = iota
	formSubmit         // ctrl+s, or enter on the last field
	formEditor         // ctrl+e: the focused field in the long-value editor
)

// formKey takes a key while the form is edited. It reports whether the
// key was the form's (tab and shift+tab are not: they leave the form as it
// is and move the focus), what the root is to do, and the form's own Cmd.
func (p *callPane) formKey(msg tea.KeyMsg) (formAct, tea.Cmd, bool) {
	k := p.keys
	switch {
	case p.form.Picking() && (msg.String() == "enter" || msg.String() == "esc"):
		cmd, _ := p.form.Update(msg, k.RawJSON) // the pick list's: pick, close
		return formNone, cmd, true
	case key.Matches(msg, k.Submit):
		return formSubmit, nil, true
	case key.Matches(msg, k.EditValue):
		return formEditor, nil, true
	case msg.String() == "esc":
		p.editing = false
		return formNone, nil, true
	case key.Matches(msg, k.NextPane, k.PrevPane):
		// leaves the form as it is
	case msg.String() == "enter":
		if p.form.AtLast() {
			return formSubmit, nil, true
		}
		p.form.FocusField(p.form.Focus + 1)
		return formNone, nil, true
	default:
		cmd, used := p.form.Update(msg, k.RawJSON)
		if used || msg.Type == tea.KeyRunes {
			return formNone, cmd, true
		}
	}
	return formNone, nil, false
}

// formKey carries out what a key in the form being edited asked; used
// is false when the key was not the form's.
func (m *Model) formKey(msg tea.KeyMsg) (tea.Cmd, bool) {
	act, cmd, used := m.call.formKey(msg)
	switch act {
	case formSubmit:
		return m.submitForm(), true
	case formEditor:
		return m.openFieldEditor(), true
	}
	return cmd, used
}

// editorKeep is the field editor's answer: the field's new text.
type editorKeep struct {
	formSeq int
	field   string
	text    string
}

// openFieldEditor opens the larger editor (ctrl+o, package fieldedit) on
// the focused field.
func (m *Model) openFieldEditor() tea.Cmd {
	f := m.call.form
	if f == nil || f.Raw || f.Focus < 0 || f.Focus >= len(f.Fields) {
		return nil
	}
	seq, name := m.call.formSeq, f.Fields[f.Focus].Spec.Name
	keep := func(v json.RawMessage) dialog.Action { return editorKeep{formSeq: seq, field: name, text: string(v)} }
	d, ok := fieldedit.New(m.st, f.Fields[f.Focus], keep)
	if !ok {
		m.status.set("ctrl+o opens objects and arrays in a larger editor; this field is typed in place", false)
		return nil
	}
	m.pushDialog(d)
	return nil
}

// onEditorKeep writes a kept value into its field (the form it came from
// only).
func (m *Model) onEditorKeep(a editorKeep) {
	if m.call.form == nil || a.formSeq != m.call.formSeq {
		return
	}
	if fld := m.call.form.Field(a.field); fld != nil {
		fld.Input.SetValue(a.text)
		fld.Err = ""
	}
}

// callKey carries out what a key on the call pane asked.
func (m *Model) callKey(msg tea.KeyMsg) tea.Cmd {
	act, j, cmd := m.call.key(msg)
	switch act {
	case callLoad:
		m.loadJob(j)
	case callReplay:
		return m.replay(j)
	case callYank:
		return m.yank()
	case callYankCommand:
		return m.yankCommand()
	case callSave:
		return m.save()
	case callSubmit:
		return m.submitForm()
	case callNoHit:
		m.noHit()
	}
	return cmd
}

// scrollKey scrolls the result viewport.
func (p *callPane) scrollKey(msg tea.KeyMsg) {
	k := p.keys
	switch {
	case key.Matches(msg, k.Up):
		p.vp.ScrollUp(1)
	case key.Matches(msg, k.Down):
		p.vp.ScrollDown(1)
	case key.Matches(msg, k.PageUp):
		p.vp.PageUp()
	case key.Matches(msg, k.PageDown):
		p.vp.PageDown()
	case key.Matches(msg, k.Top):
		p.vp.GotoTop()
	case key.Matches(msg, k.Bottom):
		p.vp.GotoBottom()
	default:
		return
	}
	p.follow = p.vp.AtBottom()
}

func (p *callPane) help() []key.Binding {
	k := p.keys
	b := []key.Binding{k.NextPane, k.History, k.Export}
	if p.shownJob() != nil {
		b = []key.Binding{k.NextPane, k.Search, k.Yank, k.YankCommand, k.Save, k.History, k.Export}
	}
	if p.search.Query != "" {
		b = append([]key.Binding{k.SearchNext, k.SearchPrev}, b...)
	}
	if p.history {
		b = []key.Binding{k.Replay, k.Load, k.Back}
	}
	return b
}

// searchKey takes a key while the result's query is typed; a kept query's
// hits are counted over the body as drawn now, and the view jumps to the
// first (package resultsearch).
func (m *Model) searchKey(msg tea.KeyMsg) tea.Cmd {
	closed, kept, cmd := m.call.search.Key(msg)
	if closed {
		m.call.vpKey = vpKey{}
	}
	if kept {
		m.syncViewport()
		if !m.call.jumpHit(0, true) {
			m.noHit()
		}
	}
	return cmd
}

// noHit says the kept query is on no line of the result.
func (m *Model) noHit() {
	m.status.set("no line of this result holds "+strconv.Quote(m.call.search.Query), false)
}

// jumpHit scrolls to the next (dir 1) or previous (-1) hit, or the first
// at or below the view's top; false when the query is on no line.
func (p *callPane) jumpHit(dir int, first bool) bool {
	off, moved, ok := p.search.Jump(p.vp.YOffset, dir, first)
	if moved {
		p.vp.SetYOffset(off)
		p.follow = false
	}
	return ok
}
