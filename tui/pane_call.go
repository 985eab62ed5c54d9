package tui

import (
	"fmt"
	"strings"

	"github.com/charmbracelet/bubbles/key"
	"github.com/charmbracelet/bubbles/viewport"
	tea "github.com/charmbracelet/bubbletea"

	"github.com/relavium/relavium/tui/form"
	"github.com/relavium/relavium/tui/render"
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
	search  resultSearch
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

// callTitle is the pane's title.
func (m *Model) callTitle() string {
	switch {
	case m.call.history:
		return "HISTORY"
	case m.call.form != nil:
		return m.call.formFor.title()
	}
	if j := m.call.shownJob(); j != nil {
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

func (m *Model) layoutCall(w, h int, focused bool) callLayout {
	var l callLayout
	st := m.st
	j := m.call.shownJob()
	if m.call.form != nil {
		budget := h
		if j != nil {
			budget = max(4, h/2)
		}
		l.form = m.call.form.View(w, max(1, budget-1), focused && m.call.editing)
		hint := "ctrl+s send · ctrl+t raw JSON · esc stop editing"
		if !m.call.editing {
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
	l.header = m.jobHeader(j, w)
	if sl := m.searchLine(w); sl != "" {
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
	l := m.layoutCall(cw, g.bodyH-1, m.focus == paneCall)
	j := m.call.shownJob()
	m.call.vp.Width, m.call.vp.Height = cw, max(0, l.vpH)
	if j == nil {
		m.call.vpKey = vpKey{}
		m.call.vp.SetContent("")
		return
	}
	key := vpKey{job: j.id, w: cw, ver: j.version, present: true, done: j.finished(), query: m.call.search.query}
	if key == m.call.vpKey {
		return
	}
	newJob := key.job != m.call.vpKey.job && m.call.vpKey.job != ""
	justDone := key.done && (key.job != m.call.vpKey.job || !m.call.vpKey.done)
	if newJob {
		m.call.search.query, m.call.search.hits = "", nil // a search belongs to its result
		key.query = ""
	}
	body := j.body(m.st, cw)
	m.call.search.hits = findHits(body, m.call.search.query)
	m.call.vp.SetContent(strings.Join(m.highlight(body, m.call.search.query), "\n"))
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

func (m *Model) jobHeader(j *job, w int) []string {
	st := m.st
	now := m.now()
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
	if total := m.call.vp.TotalLineCount(); total > m.call.vp.Height && m.call.vp.Height > 0 && j.id == m.call.vpKey.job {
		state += st.Faint.Render(fmt.Sprintf(" · %d–%d/%d", m.call.vp.YOffset+1, min(total, m.call.vp.YOffset+m.call.vp.Height), total))
	}
	lines := []string{render.SpaceBetween(j.icon(st, m.spinFrame())+" "+st.Bold.Render(render.ServerLine(j.title)), state, w)}
	if j.hasProgress {
		p := j.progress
		count := fmt.Sprintf(" %g", p.Progress)
		pct := 0.0
		if p.Total > 0 {
			count = fmt.Sprintf(" %g/%g", p.Progress, p.Total)
			pct = max(0, min(1, p.Progress/p.Total))
		}
		barW := max(4, min(40, w-render.Width(count)-2))
		m.bar.Width = barW
		bar := m.bar.ViewAs(pct)
		if p.Total <= 0 {
			bar = st.Muted.Render(strings.Repeat("·", barW))
		}
		lines = append(lines, render.Cut("  "+bar+st.Text.Render(count), w))
		if msg := render.ServerLine(p.Message); msg != "" {
			lines = append(lines, render.Cut("  "+st.Muted.Render(msg), w))
		}
	}
	return lines
}

func (m *Model) viewCallBody(w, h int, focused bool) []string {
	st := m.st
	if m.call.history {
		return m.viewHistory(w, h, focused)
	}
	l := m.layoutCall(w, h, focused)
	lines := append([]string{}, l.form...)
	if !l.showJob {
		if m.call.form == nil {
			lines = append(lines, render.Wrap(st.Muted.Render("select a tool and press enter to call it (enter on a server, enter on a tool, ctrl+s)"), w)...)
			if len(m.call.jobs) > 0 {
				lines = append(lines, st.Muted.Render("h shows the call history"))
			}
		}
		return m.withStrip(lines, w, h)
	}
	lines = append(lines, l.header...)
	if l.vpH > 0 {
		view := strings.Split(m.call.vp.View(), "\n")
		// a short result leaves the rest of the pane to the events strip
		if total := m.call.vp.TotalLineCount(); m.call.vp.YOffset == 0 && total+4 <= len(view) {
			return m.withStrip(append(lines, view[:total]...), w, h)
		}
		lines = append(lines, view...)
	}
	return lines
}

func (m *Model) viewHistory(w, h int, focused bool) []string {
	st := m.st
	lines := []string{render.Cut(st.Faint.Render("enter replay · l load into form · esc back · e export"), w)}
	if len(m.call.jobs) == 0 {
		return append(lines, st.Muted.Render("no calls yet"))
	}
	room := h - 1
	// newest first
	order := make([]int, 0, len(m.call.jobs))
	for i := len(m.call.jobs) - 1; i >= 0; i-- {
		order = append(order, i)
	}
	m.call.histSel = max(0, min(m.call.histSel, len(order)-1))
	top := 0
	if m.call.histSel >= room {
		top = m.call.histSel - room + 1
	}
	for k := top; k < len(order) && k < top+room; k++ {
		j := m.call.jobs[order[k]]
		right := st.Muted.Render(j.started.Format("15:04:05") + " " + render.HumanDuration(j.elapsed(m.now())))
		content := render.SpaceBetween(j.icon(st, m.spinFrame())+" "+st.Muted.Render(j.kind.String())+" "+render.ServerLine(j.title), right, w-2)
		lines = append(lines, m.markRow(content, w, k == m.call.histSel, focused))
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
func (m *Model) withStrip(lines []string, w, h int) []string {
	free := h - len(lines) - 1
	strip := m.stripLines(w, free)
	if len(strip) == 0 {
		return lines
	}
	for len(lines) < h-len(strip) {
		lines = append(lines, "")
	}
	return append(lines, strip...)
}

func (m *Model) callKey(msg tea.KeyMsg) tea.Cmd {
	k := m.keys
	if m.call.history {
		switch {
		case key.Matches(msg, k.Back), key.Matches(msg, k.History):
			m.call.history = false
		case key.Matches(msg, k.Load):
			if j := m.call.historyJob(); j != nil {
				m.loadJob(j)
			}
		case key.Matches(msg, k.Replay):
			if j := m.call.historyJob(); j != nil {
				return m.replay(j)
			}
		default:
			moveKey(msg, k, &m.call.histSel, len(m.call.jobs), 5)
		}
		return nil
	}
	switch {
	case key.Matches(msg, k.History):
		m.call.history, m.call.histSel = true, 0
		return nil
	case key.Matches(msg, k.Filter) && m.call.shownJob() != nil:
		return m.startSearch()
	case key.Matches(msg, k.Yank):
		return m.yank()
	case key.Matches(msg, k.YankCommand):
		return m.yankCommand()
	case key.Matches(msg, k.Save):
		return m.save()
	case key.Matches(msg, k.SearchNext) && m.call.search.query != "":
		m.jumpHit(1, false)
		return nil
	case key.Matches(msg, k.SearchPrev) && m.call.search.query != "":
		m.jumpHit(-1, false)
		return nil
	case key.Matches(msg, k.Back) && m.call.search.query != "":
		m.call.search.query, m.call.search.hits = "", nil
		return nil
	case key.Matches(msg, k.Submit) && m.call.form != nil:
		return m.submitForm()
	case key.Matches(msg, k.Enter) && m.call.form != nil:
		m.call.editing = true
		return nil
	case key.Matches(msg, k.Back):
		if m.call.form != nil {
			m.call.form, m.call.editing = nil, false
		}
		return nil
	}
	return m.scrollKey(msg)
}

// scrollKey scrolls the result viewport.
func (m *Model) scrollKey(msg tea.KeyMsg) tea.Cmd {
	k := m.keys
	switch {
	case key.Matches(msg, k.Up):
		m.call.vp.ScrollUp(1)
	case key.Matches(msg, k.Down):
		m.call.vp.ScrollDown(1)
	case key.Matches(msg, k.PageUp):
		m.call.vp.PageUp()
	case key.Matches(msg, k.PageDown):
		m.call.vp.PageDown()
	case key.Matches(msg, k.Top):
		m.call.vp.GotoTop()
	case key.Matches(msg, k.Bottom):
		m.call.vp.GotoBottom()
	default:
		return nil
	}
	m.call.follow = m.call.vp.AtBottom()
	return nil
}

func (m *Model) callHelp() []key.Binding {
	k := m.keys
	b := []key.Binding{k.NextPane, k.History, k.Export}
	if m.call.shownJob() != nil {
		b = []key.Binding{k.NextPane, k.Search, k.Yank, k.YankCommand, k.Save, k.History, k.Export}
	}
	if m.call.search.query != "" {
		b = append([]key.Binding{k.SearchNext, k.SearchPrev}, b...)
	}
	if m.call.history {
		b = []key.Binding{k.Replay, k.Load, k.Back}
	}
	return b
}
