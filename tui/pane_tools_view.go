package tui

import (
	"fmt"
	"strings"

	"github.com/relavium/relavium/tui/detailview"
	"github.com/relavium/relavium/tui/render"
)

// The middle pane's drawing: its body, one row a line, the cursor mark.

// view renders the middle pane's body (below its title) in w×h.
func (p *browsePane) view(w, h int, focused bool) []string {
	st := p.st
	var lines []string
	// tab strip: the current tab bracketed (visible without colour); the
	// labels shorten before any tab would be cut off
	strip := ""
	for level := 0; level < 3; level++ {
		var tabs []string
		for t := browseTab(0); t < tabCount; t++ {
			label := t.short(level)
			if t == p.tab {
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
	if p.filtering || p.filter.Value() != "" {
		p.filter.Width = max(4, w-4)
		lines = append(lines, render.Cut(p.filter.View(), w))
	}
	legend := ""
	if p.tab == tabTools {
		legend = st.Advisory.Render("badges are server hints: advisory")
	}
	room := h - len(lines)
	if legend != "" {
		room--
	}
	rows := p.listRows()
	room = max(0, room)
	if p.cursor < p.offset {
		p.offset = p.cursor
	}
	if p.cursor >= p.offset+room {
		p.offset = p.cursor - room + 1
	}
	p.offset = max(0, min(p.offset, max(0, len(rows)-room)))
	for i := p.offset; i < len(rows) && i < p.offset+room; i++ {
		lines = append(lines, p.rowLine(rows[i], w, i == p.cursor && rows[i].selectable(), focused))
	}
	for len(lines) < h-1 && legend != "" {
		lines = append(lines, "")
	}
	if legend != "" {
		if len(rows) > room {
			legend = st.Muted.Render(fmt.Sprintf("%d–%d of %d · ", p.offset+1, min(len(rows), p.offset+room), len(rows))) + legend
		}
		lines = append(lines, render.Cut(legend, w))
	}
	return lines
}

func (p *browsePane) rowLine(r listRow, w int, selected, focused bool) string {
	return p.markRow(p.rowContent(r, w-2), w, selected, focused)
}

func (p *browsePane) rowContent(r listRow, w int) string {
	left, right, whole := p.rowParts(r, w)
	if whole {
		return render.Fit(left, w)
	}
	return render.SpaceBetween(left, right, w)
}

// rowNeed is the width a row takes whole (the cursor's two cells
// included): a name and its badge side by side, a skipped tool's name and
// code (its detail may be cut), a note.
func (p *browsePane) rowNeed(r listRow) int {
	left, right, whole := p.rowParts(r, 0)
	if whole {
		return 2 + render.Width(left)
	}
	return 2 + render.Width(left) + 1 + render.Width(right)
}

// rowParts is a row's left part and right part; whole when the row is
// drawn as one piece (left only, fitted): a skipped tool (its detail added
// when w leaves room) and a note.
func (p *browsePane) rowParts(r listRow, w int) (left, right string, whole bool) {
	st := p.st
	switch r.kind {
	case rowTool:
		left = st.OK.Render("✓") + " " + render.ServerLine(r.tool.Tool)
		if p.allTools {
			left += st.Muted.Render(" · " + render.ServerLine(r.tool.Server))
		}
		right = detailview.Badge(st, r.tool)
	case rowSkipped:
		// the name first: when the row is narrow, the reason is what is cut
		// (details, i, shows it whole)
		left = st.Error.Render("✗") + " " + render.ServerLine(r.skip.Tool)
		right = st.Error.Render(render.ServerLine(r.skip.Code))
		row := left + " " + right
		if render.Width(row)+4 < w {
			row += st.Faint.Render(" " + render.ServerLine(r.skip.Detail))
		}
		return row, "", true
	case rowResource:
		name := r.res.Title
		if name == "" {
			name = r.res.Name
		}
		left = st.Accent.Render("◆") + " " + render.ServerLine(name) + " " + st.Muted.Render(render.ServerLine(r.res.URI))
		if p.cr.subscribed(p.servers.current(), r.res.URI) {
			right = st.Accent.Render("◉ subscribed")
			if n := p.cr.updates[subKey{p.servers.current(), r.res.URI}]; n > 0 {
				right = st.Accent.Render(fmt.Sprintf("◉ %s", render.Counted(n, "update", "updates")))
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
		return st.Muted.Render(r.note), "", true
	}
	return left, right, false
}
