package tui

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	"github.com/charmbracelet/bubbles/key"
	"github.com/charmbracelet/bubbles/progress"
	"github.com/charmbracelet/bubbles/viewport"
	tea "github.com/charmbracelet/bubbletea"

	"github.com/relavium/relavium/tui/dialog"
	"github.com/relavium/relavium/tui/fieldedit"
	"github.com/relavium/relavium/tui/form"
	"github.com/relavium/relavium/tui/render"
	"github.com/relavium/relavium/tui/resultsearch"
)

// The call pane: the form being filled in (if any), and below it the job on
// show — its live header (state, elapsed, progress bar and message) and a
// viewport over its body (arguments, logs, result). The viewport holds the
// body's lines once per width and version; a frame draws only the lines in
// view. History mode lists every job for replay.

// callPane is the right column's state: the form being filled in (and
// what it is for), the jobs and the one on show, the history list, and the
// viewport over the shown job's body with its search.
type callPane struct {
	*ui
	log     *eventLog      // reads: the events strip drawn under a short result
	bar     progress.Model // a job's progress bar (styled by applyStyles)
	form    *form.Form
	formFor formTarget
	editing bool
	formSeq int
	jobs    []*job
	shown   int // index of the job on show, -1 none
	jobSeq  int
	history bool
	histSel int
	vp      viewport.Model
	vpKey   vpKey
	follow  bool
	search  resultsearch.Search
}

// job is the job with id (the newest of that id), nil when none.
func (p *callPane) job(id string) *job {
	for i := len(p.jobs) - 1; i >= 0; i-- {
		if p.jobs[i].id == id {
			return p.jobs[i]
		}
	}
	return nil
}

// label is the pane's title.
func (p *callPane) label() string {
	switch {
	case p.history:
		return "HISTORY"
	case p.form != nil:
		return p.formFor.title()
	}
	if j := p.shownJob(); j != nil {
		return strings.ToUpper(j.kind.String()) + " · " + render.ServerLine(j.title)
	}
	return "CALL"
}

// shownJob is the job on show (nil with none).
func (p *callPane) shownJob() *job {
	if p.shown < 0 || p.shown >= len(p.jobs) {
		return nil
	}
	return p.jobs[p.shown]
}

// callLayout splits the call pane body: form lines on top, then the job.
type callLayout struct {
	form    []string
	header  []string
	vpH     int
	showJob bool
}

func (p *callPane) layout(w, h int, focused bool) callLayout {
	var l callLayout
	st := p.st
	j := p.shownJob()
	if p.form != nil {
		budget := h
		if j != nil {
			budget = max(4, h/2)
		}
		l.form = p.form.View(w, max(1, budget-1), focused && p.editing)
		hint := "ctrl+s send · ctrl+t raw JSON · esc stop editing"
		if !p.editing {
			hint = "enter edit · ctrl+s send · esc close"
		}
		l.form = append(l.form, render.Cut(st.Faint.Render(hint), w))
		if j != nil {
			l.form = append(l.form, st.Separator.Render(strings.Repeat("─", w)))
		}
	}
	if j == nil {
		return l
	}
	l.showJob = true
	l.header = p.jobHeader(j, w)
	if sl := p.search.Line(p.st, w); sl != "" {
		l.header = append(l.header, sl)
	}
	l.vpH = max(0, h-len(l.form)-len(l.header))
	return l
}

// syncViewport sizes the viewport and gives it the shown job's body when
// the job, its version or the width changed. Called from Update only.
func (m *Model) syncViewport() {
	g := m.geometry()
	if g.callW <= 0 {
		return
	}
	cw := g.callW
	if g.multi {
		cw-- // the padding after the separator
	}
	l := m.call.layout(cw, g.bodyH-1, m.focus == paneCall)
	j := m.call.shownJob()
	m.call.vp.Width, m.call.vp.Height = cw, max(0, l.vpH)
	if j == nil {
		m.call.vpKey = vpKey{}
		m.call.vp.SetContent("")
		return
	}
	key := vpKey{job: j.id, w: cw, ver: j.version, present: true, done: j.finished(), query: m.call.search.Query}
	if key == m.call.vpKey {
		return
	}
	newJob := key.job != m.call.vpKey.job && m.call.vpKey.job != ""
	justDone := key.done && (key.job != m.call.vpKey.job || !m.call.vpKey.done)
	if newJob {
		m.call.search.End() // a search belongs to its result
		key.query = ""
	}
	body := j.body(m.st, cw)
	m.call.search.Hits = resultsearch.FindHits(body, m.call.search.Query)
	m.call.vp.SetContent(strings.Join(resultsearch.Highlight(m.st, body, m.call.search.Query), "\n"))
	m.call.vpKey = key
	switch {
	case justDone:
		// A finished job opens at its top (its arguments, then what it
		// logged, then the outcome), unless the logs would push the
		// outcome out of view: then at the outcome.
		off := 0
		if j.resultAt >= m.call.vp.Height {
			off = j.resultAt
		}
		m.call.vp.SetYOffset(off)
		m.call.follow = m.call.vp.AtBottom()
	case m.call.follow:
		m.call.vp.GotoBottom()
	}
}

func (p *callPane) jobHeader(j *job, w int) []string {
	st := p.st
	now := p.now()
	state := ""
	switch j.state {
	case jobRunning:
		state = st.Accent.Render("running " + render.HumanDuration(j.elapsed(now).Truncate(100*1e6)))
		if j.cancelAsked {
			state = st.Warn.Render("cancelling…")
		}
	case jobDone:
		state = st.Muted.Render("done in " + render.HumanDuration(j.elapsed(now)))
		if j.result != nil && j.result.IsError {
			state = st.Error.Render("tool error · " + render.HumanDuration(j.elapsed(now)))
		}
	case jobFailed:
		state = st.Error.Render("failed · " + render.HumanDuration(j.elapsed(now)))
	case jobCancelled:
		state = st.Warn.Render("cancelled · " + render.HumanDuration(j.elapsed(now)))
	}
	if total := p.vp.TotalLineCount(); total > p.vp.Height && p.vp.Height > 0 && j.id == p.vpKey.job {
		state += st.Faint.Render(fmt.Sprintf(" · %d–%d/%d", p.vp.YOffset+1, min(total, p.vp.YOffset+p.vp.Height), total))
	}
	lines := []string{render.SpaceBetween(j.icon(st, p.spinFrame())+" "+st.Bold.Render(render.ServerLine(j.title)), state, w)}
	if j.hasProgress {
		pr := j.progress
		count := fmt.Sprintf(" %g", pr.Progress)
		pct := 0.0
		if pr.Total > 0 {
			count = fmt.Sprintf(" %g/%g", pr.Progress, pr.Total)
			pct = max(0, min(1, pr.Progress/pr.Total))
		}
		barW := max(4, min(40, w-render.Width(count)-2))
		p.bar.Width = barW
		bar := p.bar.ViewAs(pct)
		if pr.Total <= 0 {
			bar = st.Muted.Render(strings.Repeat("·", barW))
		}
		lines = append(lines, render.Cut("  "+bar+st.Text.Render(count), w))
		if msg := render.ServerLine(pr.Message); msg != "" {
			lines = append(lines, render.Cut("  "+st.Muted.Render(msg), w))
		}
	}
	return lines
}

func (p *callPane) view(w, h int, focused bool) []string {
	st := p.st
	if p.history {
		return p.viewHistory(w, h, focused)
	}
	l := p.layout(w, h, focused)
	lines := append([]string{}, l.form...)
	if !l.showJob {
		if p.form == nil {
			lines = append(lines, render.Wrap(st.Muted.Render("select a tool and press enter to call it (enter on a server, enter on a tool, ctrl+s)"), w)...)
			if len(p.jobs) > 0 {
				lines = append(lines, st.Muted.Render("h shows the call history"))
			}
		}
		return p.withStrip(lines, w, h)
	}
	lines = append(lines, l.header...)
	if l.vpH > 0 {
		view := strings.Split(p.vp.View(), "\n")
		// a short result leaves the rest of the pane to the events strip
		if total := p.vp.TotalLineCount(); p.vp.YOffset == 0 && total+4 <= len(view) {
			return p.withStrip(append(lines, view[:total]...), w, h)
		}
		lines = append(lines, view...)
	}
	return lines
}

func (p *callPane) viewHistory(w, h int, focused bool) []string {
	st := p.st
	lines := []string{render.Cut(st.Faint.Render("enter replay · l load into form · esc back · e export"), w)}
	if len(p.jobs) == 0 {
		return append(lines, st.Muted.Render("no calls yet"))
	}
	room := h - 1
	// newest first
	order := make([]int, 0, len(p.jobs))
	for i := len(p.jobs) - 1; i >= 0; i-- {
		order = append(order, i)
	}
	p.histSel = max(0, min(p.histSel, len(order)-1))
	top := 0
	if p.histSel >= room {
		top = p.histSel - room + 1
	}
	for k := top; k < len(order) && k < top+room; k++ {
		j := p.jobs[order[k]]
		right := st.Muted.Render(j.started.Format("15:04:05") + " " + render.HumanDuration(j.elapsed(p.now())))
		content := render.SpaceBetween(j.icon(st, p.spinFrame())+" "+st.Muted.Render(j.kind.String())+" "+render.ServerLine(j.title), right, w-2)
		lines = append(lines, p.markRow(content, w, k == p.histSel, focused))
	}
	return lines
}

// historyJob is the job the history cursor is on.
func (p *callPane) historyJob() *job {
	i := len(p.jobs) - 1 - p.histSel
	if i < 0 || i >= len(p.jobs) {
		return nil
	}
	return p.jobs[i]
}

// withStrip fills the pane's free lines below lines with the events strip
// (one blank line between).
func (p *callPane) withStrip(lines []string, w, h int) []string {
	free := h - len(lines) - 1
	strip := p.log.strip.Lines(p.st, w, free, p.log.cr.shows)
	if len(strip) == 0 {
		return lines
	}
	for len(lines) < h-len(strip) {
		lines = append(lines, "")
	}
	return append(lines, strip...)
}

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
