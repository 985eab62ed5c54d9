package tui

import (
	"strings"

	"github.com/charmbracelet/bubbles/key"

	"github.com/relavium/relavium/engine"
	"github.com/relavium/relavium/tui/dialog"
	"github.com/relavium/relavium/tui/header"
	"github.com/relavium/relavium/tui/render"
)

// Layout: a header line, an optional banner (a grant store that failed
// closed), the panes, a status line and the short help. At 100 columns or
// more the three panes sit side by side, sized from what they hold
// (columns); below that the focused pane takes
// the whole width with a pane strip in its title. Every line of a frame is
// exactly the terminal's width and the frame exactly its height.

// multiPaneWidth is the width from which the three panes fit side by side.
const multiPaneWidth = 100

type geometry struct {
	multi          bool
	banner, footer []string
	bodyY, bodyH   int
	srvW           int
	toolX, toolW   int
	callX, callW   int
}

func (m *Model) geometry() geometry {
	var g geometry
	w := m.width
	if m.status.banner != "" {
		g.banner = render.Wrap(m.st.Banner.Render("⚠ "+m.status.banner), w)
		if len(g.banner) > 2 {
			g.banner = append(g.banner[:1], render.Cut(render.StripANSI(g.banner[1]), w-1)+"…")
		}
	}
	if m.status.text != "" {
		style := m.st.Muted
		if m.status.err {
			style = m.st.Error
		}
		g.footer = append(g.footer, render.Cut(style.Render(m.status.text), w))
	}
	m.help.Width = w
	g.footer = append(g.footer, m.shortHelpLine(w))
	g.bodyY = 1 + len(g.banner)
	g.bodyH = max(2, m.height-g.bodyY-len(g.footer))
	if w >= multiPaneWidth && !m.zoomed {
		g.multi = true
		g.srvW, g.toolW = m.columns(w)
		g.toolX = g.srvW + 1
		g.callX = g.toolX + g.toolW + 1
		g.callW = w - g.callX
		return g
	}
	switch m.focus {
	case paneServers:
		g.srvW = w
	case paneTools:
		g.toolW = w
	case paneCall:
		g.callW = w
	}
	return g
}

// Side by side, the panes are sized from what they hold: the servers pane
// takes what its names need whole (and a short state), the browse pane
// what the rows of its list need whole, each within its bounds, and the
// call pane the rest, at least callIdleMin; while it holds something to
// read (a form, a job, the history) at least callShare percent of the
// width. What it lacks is taken first from the browse pane, then from the
// servers pane, never below their floors.
const (
	srvMin, srvMax     = 26, 40
	toolsMin, toolsMax = 30, 56
	callShare          = 42
	callIdleMin        = 30 // the call pane with nothing in it yet keeps room for its hint
)

// columns is the width of the servers and browse panes side by side.
func (m *Model) columns(w int) (srv, tools int) {
	srv = min(srvMax, max(srvMin, m.servers.need()))
	m.browse.listRows()                                       // measures the list on show (a render cache)
	tools = min(toolsMax, max(toolsMin, m.browse.rowsNeed+1)) // +1: the padding after the separator
	callMin := callIdleMin
	if m.call.form != nil || m.call.shownJob() != nil || m.call.history {
		callMin = max(callMin, w*callShare/100)
	}
	if short := srv + tools + 2 + callMin - w; short > 0 {
		cut := min(short, tools-toolsMin)
		tools -= cut
		srv -= min(short-cut, srv-srvMin)
	}
	return srv, tools
}

// View renders the frame. It reads state and fills render caches only.
func (m *Model) View() string {
	if m.width < 1 || m.height < 1 {
		return ""
	}
	if m.quitting {
		return "closing every server…"
	}
	g := m.geometry()
	lines := make([]string, 0, m.height)
	lines = append(lines, m.headerLine(m.width))
	lines = append(lines, g.banner...)
	lines = append(lines, m.bodyLines(g)...)
	lines = append(lines, g.footer...)
	lines = render.PadLines(lines, m.width, m.height)
	if d := m.topDialog(); d != nil {
		lines = dialog.Overlay(lines, d.View(m.st, m.width, m.height), m.width, m.height)
	}
	if m.clip.OSC52 != "" { // zero cells wide: the clipboard copy rides on the frame
		lines[0] = m.clip.OSC52 + lines[0]
	}
	// The frame is where the workbench's text leaves relavium: every
	// secret of the session is replaced in it, whatever pane or dialog
	// shows it (serverInfo, logs, results, errors).
	return m.redact.Text(strings.Join(lines, "\n"))
}

// headerLine is the session summary (package header) over the servers'
// states and the jobs as they stand.
func (m *Model) headerLine(w int) string {
	s := header.Summary{Demo: m.info.Demo, Project: m.info.Project, Agent: m.info.Agent, Servers: len(m.servers.rows),
		Tools: len(m.browse.tools), Skipped: len(m.browse.skipped), Calls: len(m.call.jobs)}
	for _, r := range m.servers.rows {
		switch r.state {
		case engine.StateReady:
			s.Ready++
		case engine.StateNeedsConsent:
			s.Pending++
		case engine.StateFailed, stateDenied:
			s.Failed++
		default:
			s.Other++
		}
	}
	for _, j := range m.call.jobs {
		if !j.finished() {
			s.Running++
		}
	}
	return header.Line(m.st, s, w)
}

func (m *Model) bodyLines(g geometry) []string {
	h := g.bodyH
	if !g.multi {
		body := m.focus.route().body(m, m.width, h-1, true)
		return append([]string{m.paneStrip(m.width)}, render.PadLines(body, m.width, h-1)...)
	}
	// the tools and call panes keep one cell of padding after the separator
	srv := append([]string{m.paneTitle(paneServers, g.srvW)}, render.PadLines(paneServers.route().body(m, g.srvW, h-1, m.focus == paneServers), g.srvW, h-1)...)
	tools := append([]string{m.paneTitle(paneTools, g.toolW-1)}, render.PadLines(paneTools.route().body(m, g.toolW-1, h-1, m.focus == paneTools), g.toolW-1, h-1)...)
	call := append([]string{m.paneTitle(paneCall, g.callW-1)}, render.PadLines(paneCall.route().body(m, g.callW-1, h-1, m.focus == paneCall), g.callW-1, h-1)...)
	// a separator next to the focused pane takes the focus colour
	sepStyle := func(a, b pane) string {
		if m.focus == a || m.focus == b {
			return m.st.SeparatorFocused.Render("│") + " "
		}
		return m.st.Separator.Render("│") + " "
	}
	sep1, sep2 := sepStyle(paneServers, paneTools), sepStyle(paneTools, paneCall)
	out := make([]string, h)
	for i := 0; i < h; i++ {
		out[i] = render.Fit(srv[i], g.srvW) + sep1 + render.Fit(tools[i], g.toolW-1) + sep2 + render.Fit(call[i], g.callW-1)
	}
	return out
}

// paneLabel is a pane's title text.
func (m *Model) paneLabel(p pane) string { return p.route().label(m) }

// paneTitle is a pane's title bar: the focused pane's title in reverse
// (focus reads without colour too), the others plain, each followed by a
// rule to the pane's edge.
func (m *Model) paneTitle(p pane, w int) string {
	label := " " + render.Cut(m.paneLabel(p), max(1, w-2)) + " "
	style, rule := m.st.PaneTitle, m.st.Separator
	if m.focus == p {
		style, rule = m.st.PaneTitleFocused.Reverse(true), m.st.SeparatorFocused
	}
	title := style.Render(label)
	return render.Fit(title+rule.Render(strings.Repeat("─", max(0, w-render.Width(label)))), w)
}

// paneStrip is the single-pane title: every pane's name, the focused one
// highlighted with its full title.
func (m *Model) paneStrip(w int) string {
	st := m.st
	var parts []string
	for p := pane(0); p < paneCount; p++ {
		if p == m.focus {
			parts = append(parts, st.PaneTitleFocused.Render(m.paneLabel(p)))
		} else {
			parts = append(parts, st.PaneTitle.Render(p.title()))
		}
	}
	return render.Fit(strings.Join(parts, st.Separator.Render(" │ "))+st.Faint.Render("  tab"), w)
}

// shortHelpLine renders the short help within w cells. When it does not
// fit, the pane's own keys go first, from the last: help, quit and cancel
// (the keys that lead to every other one, and the way out of a running
// call) stay in view.
func (m *Model) shortHelpLine(w int) string {
	b := m.shortHelp()
	pinned := func(x key.Binding) bool {
		h := x.Help()
		for _, p := range []key.Binding{m.keys.Help, m.keys.Quit, m.keys.Cancel, m.keys.Palette} {
			if h == p.Help() {
				return true
			}
		}
		return false
	}
	for render.Width(m.help.ShortHelpView(b)) > w || strings.HasSuffix(render.StripANSI(m.help.ShortHelpView(b)), "…") {
		drop := -1
		for i := len(b) - 1; i >= 0; i-- {
			if !pinned(b[i]) {
				drop = i
				break
			}
		}
		if drop < 0 {
			break
		}
		b = append(b[:drop:drop], b[drop+1:]...)
	}
	return m.help.ShortHelpView(b)
}

// shortHelp is the footer's key help for what has the focus now.
func (m *Model) shortHelp() []key.Binding {
	k := m.keys
	if d := m.topDialog(); d != nil {
		b := dialog.KeysOf(d)
		if !dialog.TakesText(d) {
			b = append(b, k.Help, k.Quit)
		}
		return b
	}
	if m.browse.filtering {
		return []key.Binding{key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "keep filter")), key.NewBinding(key.WithKeys("esc"), key.WithHelp("esc", "clear"))}
	}
	if m.focus == paneCall && m.call.editing && m.call.form != nil {
		b := []key.Binding{k.Submit, k.RawJSON}
		if f := m.call.form; !f.Raw && f.Focus >= 0 && f.Focus < len(f.Fields) {
			if t := f.Fields[f.Focus].Spec.Type(); t == "object" || t == "array" {
				b = append(b, k.EditValue)
			}
		}
		return append(b, key.NewBinding(key.WithKeys("esc"), key.WithHelp("esc", "stop editing")), k.FieldPrev, k.FieldNext, k.NextPane)
	}
	running := false
	for _, j := range m.call.jobs {
		running = running || !j.finished()
	}
	b := m.focus.route().help(m)
	if running {
		b = append(b, k.Cancel)
	}
	return append(b, k.Palette, k.Help, k.Quit)
}
