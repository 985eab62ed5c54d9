package tui

import (
	"fmt"
	"strings"

	"github.com/relavium/relavium/tui/render"
)

// The middle pane's drawing: its body, one row a line, the cursor mark.

// viewTools renders the middle pane's body (below its title) in w×h.
func (m *Model) viewToolsBody(w, h int, focused bool) []string {
	st := m.st
	var lines []string
	// tab strip: the current tab bracketed (visible without colour); the
	// labels shorten before any tab would be cut off
	strip := ""
	for level := 0; level < 3; level++ {
		var tabs []string
		for t := browseTab(0); t < tabCount; t++ {
			label := t.short(level)
			if t == m.browse.tab {
				tabs = append(tabs, st.PaneTitleFocused.Render("["+label+"]"))
			} else {
				tabs = append(tabs, st.Muted.Render(label))
			}
		}
		strip = strings.Join(tabs, " ")
		if render.Width(strip) <= w {
			break
		}
	}
	lines = append(lines, render.Cut(strip, w))
	if m.browse.filtering || m.browse.filter.Value() != "" {
		m.browse.filter.Width = max(4, w-4)
		lines = append(lines, render.Cut(m.browse.filter.View(), w))
	}
	legend := ""
	if m.browse.tab == tabTools {
		legend = st.Advisory.Render("badges are server hints: advisory")
	}
	room := h - len(lines)
	if legend != "" {
		room--
	}
	rows := m.listRows()
	room = max(0, room)
	if m.browse.cursor < m.browse.offset {
		m.browse.offset = m.browse.cursor
	}
	if m.browse.cursor >= m.browse.offset+room {
		m.browse.offset = m.browse.cursor - room + 1
	}
	m.browse.offset = max(0, min(m.browse.offset, max(0, len(rows)-room)))
	for i := m.browse.offset; i < len(rows) && i < m.browse.offset+room; i++ {
		lines = append(lines, m.rowLine(rows[i], w, i == m.browse.cursor && rows[i].selectable(), focused))
	}
	for len(lines) < h-1 && legend != "" {
		lines = append(lines, "")
	}
	if legend != "" {
		if len(rows) > room {
			legend = st.Muted.Render(fmt.Sprintf("%d–%d of %d · ", m.browse.offset+1, min(len(rows), m.browse.offset+room), len(rows))) + legend
		}
		lines = append(lines, render.Cut(legend, w))
	}
	return lines
}

func (m *Model) rowLine(r listRow, w int, selected, focused bool) string {
	return m.markRow(m.rowContent(r, w-2), w, selected, focused)
}

func (m *Model) rowContent(r listRow, w int) string {
	st := m.st
	var left, right string
	switch r.kind {
	case rowTool:
		left = st.OK.Render("✓") + " " + render.ServerLine(r.tool.Tool)
		if m.browse.allTools {
			left += st.Muted.Render(" · " + render.ServerLine(r.tool.Server))
		}
		right = m.badge(r.tool)
	case rowSkipped:
		// the name first: when the row is narrow, the reason is what is cut
		// (details, i, shows it whole)
		left = st.Error.Render("✗") + " " + render.ServerLine(r.skip.Tool)
		right = st.Error.Render(render.ServerLine(r.skip.Code))
		row := left + " " + right
		if render.Width(row)+4 < w {
			row += st.Faint.Render(" " + render.ServerLine(r.skip.Detail))
		}
		return render.Fit(row, w)
	case rowResource:
		name := r.res.Title
		if name == "" {
			name = r.res.Name
		}
		left = st.Accent.Render("◆") + " " + render.ServerLine(name) + " " + st.Muted.Render(render.ServerLine(r.res.URI))
		if m.subscribed(r.res.URI) {
			right = st.Accent.Render("◉ subscribed")
			if n := m.cr.updates[subKey{m.currentServer(), r.res.URI}]; n > 0 {
				right = st.Accent.Render(fmt.Sprintf("◉ %s", counted(n, "update", "updates")))
			}
		}
	case rowTemplate:
		left = st.Accent.Render("◇") + " " + render.ServerLine(r.tmpl.Name) + " " + st.Muted.Render(render.ServerLine(r.tmpl.URITemplate))
	case rowPrompt:
		left = st.Accent.Render("»") + " " + render.ServerLine(r.prompt.Name)
		if n := len(r.prompt.Arguments); n > 0 {
			right = st.Muted.Render(fmt.Sprintf("%d arg(s)", n))
		}
	case rowWorkflow:
		left = st.Accent.Render("⚙") + " " + render.ServerLine(r.wf.ID)
		style := st.Muted
		if r.wf.SideEffect == "destructive" {
			style = st.BadgeDestructive
		} else if r.wf.SideEffect != "read" {
			style = st.BadgeWrite
		}
		right = style.Render(r.wf.SideEffect)
	case rowNote:
		return render.Fit(st.Muted.Render(r.note), w)
	}
	return render.SpaceBetween(left, right, w)
}
