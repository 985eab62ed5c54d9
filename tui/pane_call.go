package tui

import (
	"fmt"
	"strings"

	"github.com/relavium/relavium/tui/render"
)

// The call pane: the form being filled in (if any), and below it the job on
// show — its live header (state, elapsed, progress bar and message) and a
// viewport over its body (arguments, logs, result). The viewport holds the
// body's lines once per width and version; a frame draws only the lines in
// view. History mode lists every job for replay.

// callTitle is the pane's title.
func (m *Model) callTitle() string {
	switch {
	case m.history:
		return "HISTORY"
	case m.form != nil:
		return m.formFor.title()
	}
	if j := m.shownJob(); j != nil {
		return strings.ToUpper(j.kind.String()) + " · " + render.ServerLine(j.title)
	}
	return "CALL"
}

func (m *Model) shownJob() *job {
	if m.shown < 0 || m.shown >= len(m.jobs) {
		return nil
	}
	return m.jobs[m.shown]
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
	j := m.shownJob()
	if m.form != nil {
		budget := h
		if j != nil {
			budget = max(4, h/2)
		}
		l.form = m.form.View(w, max(1, budget-1), focused && m.editing)
		hint := "ctrl+s send · ctrl+t raw JSON · esc stop editing"
		if !m.editing {
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
	j := m.shownJob()
	m.vp.Width, m.vp.Height = cw, max(0, l.vpH)
	if j == nil {
		m.vpKey = vpKey{}
		m.vp.SetContent("")
		return
	}
	key := vpKey{job: j.id, w: cw, ver: j.version, present: true, done: j.finished(), query: m.search.query}
	if key == m.vpKey {
		return
	}
	newJob := key.job != m.vpKey.job && m.vpKey.job != ""
	justDone := key.done && (key.job != m.vpKey.job || !m.vpKey.done)
	if newJob {
		m.search.query, m.search.hits = "", nil // a search belongs to its result
		key.query = ""
	}
	body := j.body(m.st, cw)
	m.search.hits = findHits(body, m.search.query)
	m.vp.SetContent(strings.Join(m.highlight(body, m.search.query), "\n"))
	m.vpKey = key
	switch {
	case justDone:
		// A finished job opens at its top (its arguments, then what it
		// logged, then the outcome), unless the logs would push the
		// outcome out of view: then at the outcome.
		off := 0
		if j.resultAt >= m.vp.Height {
			off = j.resultAt
		}
		m.vp.SetYOffset(off)
		m.follow = m.vp.AtBottom()
	case m.follow:
		m.vp.GotoBottom()
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
	if total := m.vp.TotalLineCount(); total > m.vp.Height && m.vp.Height > 0 && j.id == m.vpKey.job {
		state += st.Faint.Render(fmt.Sprintf(" · %d–%d/%d", m.vp.YOffset+1, min(total, m.vp.YOffset+m.vp.Height), total))
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
	if m.history {
		return m.viewHistory(w, h, focused)
	}
	l := m.layoutCall(w, h, focused)
	lines := append([]string{}, l.form...)
	if !l.showJob {
		if m.form == nil {
			lines = append(lines, render.Wrap(st.Muted.Render("select a tool and press enter to call it (enter on a server, enter on a tool, ctrl+s)"), w)...)
			if len(m.jobs) > 0 {
				lines = append(lines, st.Muted.Render("h shows the call history"))
			}
		}
		return m.withStrip(lines, w, h)
	}
	lines = append(lines, l.header...)
	if l.vpH > 0 {
		view := strings.Split(m.vp.View(), "\n")
		// a short result leaves the rest of the pane to the events strip
		if total := m.vp.TotalLineCount(); m.vp.YOffset == 0 && total+4 <= len(view) {
			return m.withStrip(append(lines, view[:total]...), w, h)
		}
		lines = append(lines, view...)
	}
	return lines
}

func (m *Model) viewHistory(w, h int, focused bool) []string {
	st := m.st
	lines := []string{render.Cut(st.Faint.Render("enter replay · l load into form · esc back · e export"), w)}
	if len(m.jobs) == 0 {
		return append(lines, st.Muted.Render("no calls yet"))
	}
	room := h - 1
	// newest first
	order := make([]int, 0, len(m.jobs))
	for i := len(m.jobs) - 1; i >= 0; i-- {
		order = append(order, i)
	}
	m.histSel = max(0, min(m.histSel, len(order)-1))
	top := 0
	if m.histSel >= room {
		top = m.histSel - room + 1
	}
	for k := top; k < len(order) && k < top+room; k++ {
		j := m.jobs[order[k]]
		right := st.Muted.Render(j.started.Format("15:04:05") + " " + render.HumanDuration(j.elapsed(m.now())))
		content := render.SpaceBetween(j.icon(st, m.spinFrame())+" "+st.Muted.Render(j.kind.String())+" "+render.ServerLine(j.title), right, w-2)
		lines = append(lines, m.markRow(content, w, k == m.histSel, focused))
	}
	return lines
}

// historyJob is the job the history cursor is on.
func (m *Model) historyJob() *job {
	i := len(m.jobs) - 1 - m.histSel
	if i < 0 || i >= len(m.jobs) {
		return nil
	}
	return m.jobs[i]
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
