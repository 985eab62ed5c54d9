package tui

import (
	"fmt"
	"strings"

	"github.com/charmbracelet/bubbles/key"
	"github.com/charmbracelet/bubbles/textinput"
	tea "github.com/charmbracelet/bubbletea"

	"github.com/relavium/relavium/engine"
	"github.com/relavium/relavium/host"
	"github.com/relavium/relavium/tui/render"
	"github.com/relavium/relavium/workflow"
)

// The middle pane lists, for the selected server, its tools (admitted then
// skipped), resources and templates, prompts — and the project's
// workflows. Only the rows in view are rendered.

// browsePane is the middle column's state: what the selected server (or
// every server, with allTools) offers, the tab on show, the cursor, the
// filter, and the lists fetched per server.
type browsePane struct {
	tools     []engine.ToolDef
	skipped   []engine.SkippedTool
	tab       browseTab
	allTools  bool // the tools tab lists every server's tools (ctrl+a)
	cursor    int  // row in the list
	offset    int
	filter    textinput.Model
	filtering bool
	rows      []listRow
	rowsKey   string
	resources map[string]*host.ResourceList
	prompts   map[string][]host.Prompt
	errs      map[string]string // a list that failed to load, per server and tab
	loading   map[string]bool
	workflows []*workflow.Workflow
	wfErr     string
	wfLoaded  bool
	wfLoading bool
	// catalogued once the tools were listed; catSeq counts the requests,
	// catShown is the newest whose answer is shown.
	catalogued       bool
	catSeq, catShown int
	// filters keeps each server's filter while another is selected.
	filters map[string]string
}

// switchFilter keeps the filter typed for server from and restores the
// one kept for to (empty when none): drilling into another server starts
// unfiltered, and coming back finds the filter as it was left.
func (p *browsePane) switchFilter(from, to string) {
	if p.filters == nil {
		p.filters = map[string]string{}
	}
	if v := p.filter.Value(); v != "" {
		p.filters[from] = v
	} else {
		delete(p.filters, from)
	}
	p.filtering = false
	p.filter.Blur()
	p.filter.SetValue(p.filters[to])
}

type rowKind int

const (
	rowTool rowKind = iota
	rowSkipped
	rowResource
	rowTemplate
	rowPrompt
	rowWorkflow
	rowNote
)

type listRow struct {
	kind   rowKind
	tool   engine.ToolDef
	skip   engine.SkippedTool
	res    host.Resource
	tmpl   host.ResourceTemplate
	prompt host.Prompt
	wf     *workflow.Workflow
	note   string
}

func (r listRow) selectable() bool { return r.kind != rowNote }

// currentServer is the server whose lists the middle pane shows.
func (m *Model) currentServer() string {
	if r := m.selected(); r != nil {
		return r.spec.Name
	}
	return ""
}

// listRows returns the middle pane's rows, rebuilding them only when what
// they depend on changed.
func (m *Model) listRows() []listRow {
	key := fmt.Sprintf("%d\x1f%s\x1f%s\x1f%t", m.browse.tab, m.currentServer(), m.browse.filter.Value(), m.browse.allTools)
	if key == m.browse.rowsKey && m.browse.rows != nil {
		return m.browse.rows
	}
	m.browse.rowsKey = key
	m.browse.rows = m.buildRows()
	m.browse.cursor = max(0, min(m.browse.cursor, len(m.browse.rows)-1))
	return m.browse.rows
}

func (m *Model) buildRows() []listRow {
	server := m.currentServer()
	f := rowFilter{typed: m.browse.filter.Value(), q: strings.ToLower(m.browse.filter.Value())}
	switch m.browse.tab {
	case tabTools:
		return m.toolRows(server, f)
	case tabResources:
		return m.resourceRows(server, f)
	case tabPrompts:
		return m.promptRows(server, f)
	case tabWorkflows:
		return m.workflowRows(f)
	}
	return []listRow{}
}

// rowFilter is the list filter as typed: a row matches when one of its
// parts holds it, case folded.
type rowFilter struct{ typed, q string }

func (f rowFilter) match(parts ...string) bool {
	if f.q == "" {
		return true
	}
	for _, p := range parts {
		if strings.Contains(strings.ToLower(p), f.q) {
			return true
		}
	}
	return false
}

// none notes an empty list: a filter that hides every row says so.
func (f rowFilter) none(what, empty string) []listRow {
	if f.q != "" {
		return noteRows("no " + what + " matches " + fmt.Sprintf("%q", f.typed))
	}
	return noteRows(empty)
}

// noteRows is a list of notes in place of rows.
func noteRows(notes ...string) []listRow {
	rows := make([]listRow, 0, len(notes))
	for _, n := range notes {
		rows = append(rows, listRow{kind: rowNote, note: n})
	}
	return rows
}

func (m *Model) toolRows(server string, f rowFilter) []listRow {
	rows := []listRow{}
	mine := func(s string) bool { return m.browse.allTools || s == server }
	for _, t := range m.browse.tools {
		if mine(t.Server) && f.match(t.Tool, t.Title, t.Description, t.Server) {
			rows = append(rows, listRow{kind: rowTool, tool: t})
		}
	}
	for _, s := range m.browse.skipped {
		if mine(s.Server) && f.match(s.Tool, s.Code, s.Detail, s.Server) {
			rows = append(rows, listRow{kind: rowSkipped, skip: s})
		}
	}
	switch {
	case len(rows) > 0:
		return rows
	case m.browse.allTools && f.q == "":
		return noteRows("no server has admitted a tool yet")
	case f.q == "" && !m.serverReady(server):
		return noteRows("tools appear once the server is ready")
	}
	return f.none("tool", "this server admitted no tools")
}

func (m *Model) resourceRows(server string, f rowFilter) []listRow {
	key := "r:" + server
	l := m.browse.resources[server]
	switch {
	case m.browse.errs[key] != "":
		return noteRows("✗ " + m.browse.errs[key])
	case m.browse.loading[key]:
		return noteRows("loading resources…")
	case !m.serverReady(server):
		return noteRows("resources appear once the server is ready")
	case l == nil:
		return noteRows("loading resources…")
	case !l.Offered:
		return noteRows("this server offers no resources")
	}
	rows := []listRow{}
	for _, r := range l.Resources {
		if f.match(r.Name, r.Title, r.URI) {
			rows = append(rows, listRow{kind: rowResource, res: r})
		}
	}
	for _, t := range l.Templates {
		if f.match(t.Name, t.Title, t.URITemplate) {
			rows = append(rows, listRow{kind: rowTemplate, tmpl: t})
		}
	}
	if len(rows) == 0 {
		return f.none("resource", "this server lists no resources")
	}
	return rows
}

func (m *Model) promptRows(server string, f rowFilter) []listRow {
	key := "p:" + server
	ps, ok := m.browse.prompts[server]
	switch {
	case m.browse.errs[key] != "":
		return noteRows("✗ " + m.browse.errs[key])
	case !m.serverReady(server):
		return noteRows("prompts appear once the server is ready")
	case !ok:
		return noteRows("loading prompts…")
	}
	rows := []listRow{}
	for _, p := range ps {
		if f.match(p.Name, p.Title, p.Description) {
			rows = append(rows, listRow{kind: rowPrompt, prompt: p})
		}
	}
	if len(rows) == 0 {
		return f.none("prompt", "this server offers no prompts")
	}
	return rows
}

func (m *Model) workflowRows(f rowFilter) []listRow {
	switch {
	case m.browse.wfErr != "":
		var notes []string
		for _, l := range strings.Split(m.browse.wfErr, "\n") {
			notes = append(notes, "✗ "+l)
		}
		return noteRows(notes...)
	case !m.browse.wfLoaded:
		return noteRows("loading workflows…")
	}
	rows := []listRow{}
	for _, w := range m.browse.workflows {
		if f.match(w.ID, w.Description) {
			rows = append(rows, listRow{kind: rowWorkflow, wf: w})
		}
	}
	if len(rows) == 0 {
		return f.none("workflow", "no workflows in .relavium/workflows")
	}
	return rows
}

func (m *Model) serverReady(name string) bool {
	r := m.server(name)
	return r != nil && r.state == engine.StateReady
}

// badge is a tool's annotation badge: the server's claim, advisory.
func (m *Model) badge(t engine.ToolDef) string {
	st := m.st
	var b string
	switch {
	case t.Annotations.IsReadOnly():
		b = st.BadgeRead.Render("read-only")
	case t.Annotations.Destructive != nil && !*t.Annotations.Destructive:
		b = st.BadgeWrite.Render("⚠ writes")
	default:
		b = st.BadgeDestructive.Render("⚠ destructive")
	}
	if t.Changed {
		b = st.BadgeChanged.Render("⚑ changed") + " " + b
	}
	return b
}

func (m *Model) toolsKey(msg tea.KeyMsg) tea.Cmd {
	k := m.keys
	rows := m.listRows()
	if moveKey(msg, k, &m.browse.cursor, len(rows), max(1, m.geometry().bodyH-4)) {
		return nil
	}
	switch {
	case key.Matches(msg, k.NextTab):
		m.browse.tab = (m.browse.tab + 1) % tabCount
		m.browse.cursor, m.browse.offset = 0, 0
		return m.ensureBrowse()
	case key.Matches(msg, k.PrevTab):
		m.browse.tab = (m.browse.tab + tabCount - 1) % tabCount
		m.browse.cursor, m.browse.offset = 0, 0
		return m.ensureBrowse()
	case key.Matches(msg, k.Filter):
		// a fresh filter each time: / never appends to the last one
		m.browse.filtering = true
		m.browse.filter.SetValue("")
		m.browse.cursor, m.browse.offset = 0, 0
		return m.browse.filter.Focus()
	case key.Matches(msg, k.Back):
		if m.browse.filter.Value() != "" {
			m.browse.filter.SetValue("")
			return nil
		}
		m.focus = paneServers // back up from the drill-down
		return nil
	}
	if m.browse.cursor >= len(rows) || !rows[m.browse.cursor].selectable() {
		return nil
	}
	r := rows[m.browse.cursor]
	switch {
	case key.Matches(msg, k.Details):
		m.pushDialog(m.detailsDialog(r))
	case key.Matches(msg, k.Accept):
		if r.kind != rowTool || !r.tool.Changed {
			m.status.set("nothing to accept: only a tool flagged ⚑ changed has a new definition to review", false)
			return nil
		}
		return m.changesCmd(r.tool)
	case key.Matches(msg, k.Enter):
		return m.activate(r)
	}
	return nil
}

// ensureBrowse loads the lists the middle pane needs for the selected
// server and tab.
func (m *Model) ensureBrowse() tea.Cmd {
	server := m.currentServer()
	switch m.browse.tab {
	case tabResources:
		if _, ok := m.browse.resources[server]; !ok && !m.browse.loading["r:"+server] && m.serverReady(server) {
			m.browse.loading["r:"+server] = true
			return m.resourcesCmd(server)
		}
	case tabPrompts:
		if _, ok := m.browse.prompts[server]; !ok && !m.browse.loading["p:"+server] && m.serverReady(server) {
			m.browse.loading["p:"+server] = true
			return m.promptsCmd(server)
		}
	case tabWorkflows:
		if !m.browse.wfLoaded && !m.browse.wfLoading {
			m.browse.wfLoading = true
			return m.workflowsCmd()
		}
	}
	return nil
}

func (m *Model) toolsLabel() string {
	label := "TOOLS"
	if m.browse.tab != tabTools {
		label = strings.ToUpper(m.browse.tab.String())
	}
	switch s := m.currentServer(); {
	case m.browse.tab == tabTools && m.browse.allTools:
		label += " of all servers"
	case m.browse.tab == tabWorkflows:
		label += " of the project"
	case s != "":
		label += " of " + render.ServerLine(s)
	}
	return label
}

func (m *Model) toolsHelp() []key.Binding {
	k := m.keys
	b := []key.Binding{k.NextPane, k.Enter}
	if rows := m.listRows(); m.browse.cursor < len(rows) && rows[m.browse.cursor].kind == rowTool && rows[m.browse.cursor].tool.Changed {
		b = append(b, k.Accept)
	}
	return append(b, k.Back, k.Filter, k.Details, k.NextTab, k.AllTools)
}
