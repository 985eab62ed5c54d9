package tui

import (
	"fmt"
	"strings"

	"github.com/charmbracelet/bubbles/progress"
	"github.com/charmbracelet/bubbles/viewport"

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
