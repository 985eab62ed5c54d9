package tui

import (
	"fmt"
	"strings"

	"github.com/charmbracelet/bubbles/key"
	"github.com/charmbracelet/bubbles/textinput"
	tea "github.com/charmbracelet/bubbletea"

	"github.com/relavium/relavium/engine"
	"github.com/relavium/relavium/host"
	"github.com/relavium/relavium/themes"
	"github.com/relavium/relavium/tui/detailview"
	"github.com/relavium/relavium/tui/dialog"
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
	*ui
	servers   *serversPane // reads: the server whose lists are shown, and whether it is ready
	cr        *clientState // reads: the resources subscribed and their updates
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
	// rowsNeed is the width the list on show takes with every row whole
	// (measured as the rows are built), for the layout.
	rowsNeed int
}

// setTools shows a catalogue: the admitted tools and those skipped.
func (p *browsePane) setTools(tools []engine.ToolDef, skipped []engine.SkippedTool) {
	p.tools, p.skipped, p.catalogued = tools, skipped, true
	p.rowsKey = ""
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

// listRows returns the middle pane's rows, rebuilding them only when what
// they depend on changed.
func (p *browsePane) listRows() []listRow {
	key := fmt.Sprintf("%d\x1f%s\x1f%s\x1f%t", p.tab, p.servers.current(), p.filter.Value(), p.allTools)
	if key == p.rowsKey && p.rows != nil {
		return p.rows
	}
	p.rowsKey = key
	p.rows = p.buildRows()
	p.rowsNeed = 0
	for _, r := range p.rows {
		p.rowsNeed = max(p.rowsNeed, p.rowNeed(r))
	}
	p.cursor = max(0, min(p.cursor, len(p.rows)-1))
	return p.rows
}

func (p *browsePane) buildRows() []listRow {
	server := p.servers.current()
	f := rowFilter{typed: p.filter.Value(), q: strings.ToLower(p.filter.Value())}
	switch p.tab {
	case tabTools:
		return p.toolRows(server, f)
	case tabResources:
		return p.resourceRows(server, f)
	case tabPrompts:
		return p.promptRows(server, f)
	case tabWorkflows:
		return p.workflowRows(f)
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

func (p *browsePane) toolRows(server string, f rowFilter) []listRow {
	rows := []listRow{}
	mine := func(s string) bool { return p.allTools || s == server }
	for _, t := range p.tools {
		if mine(t.Server) && f.match(t.Tool, t.Title, t.Description, t.Server) {
			rows = append(rows, listRow{kind: rowTool, tool: t})
		}
	}
	for _, s := range p.skipped {
		if mine(s.Server) && f.match(s.Tool, s.Code, s.Detail, s.Server) {
			rows = append(rows, listRow{kind: rowSkipped, skip: s})
		}
	}
	switch {
	case len(rows) > 0:
		return rows
	case p.allTools && f.q == "":
		return noteRows("no server has admitted a tool yet")
	case f.q == "" && p.servers.notAdmitted(server):
		return noteRows("not admitted: i on it says why")
	case f.q == "" && !p.servers.ready(server):
		return noteRows("tools appear once the server is ready")
	}
	return f.none("tool", "this server admitted no tools")
}

func (p *browsePane) resourceRows(server string, f rowFilter) []listRow {
	key := "r:" + server
	l := p.resources[server]
	switch {
	case p.errs[key] != "":
		return noteRows("✗ " + p.errs[key])
	case p.loading[key]:
		return noteRows("loading resources…")
	case !p.servers.ready(server):
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

func (p *browsePane) promptRows(server string, f rowFilter) []listRow {
	key := "p:" + server
	ps, ok := p.prompts[server]
	switch {
	case p.errs[key] != "":
		return noteRows("✗ " + p.errs[key])
	case !p.servers.ready(server):
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

func (p *browsePane) workflowRows(f rowFilter) []listRow {
	switch {
	case p.wfErr != "":
		var notes []string
		for _, l := range strings.Split(p.wfErr, "\n") {
			notes = append(notes, "✗ "+l)
		}
		return noteRows(notes...)
	case !p.wfLoaded:
		return noteRows("loading workflows…")
	}
	rows := []listRow{}
	for _, w := range p.workflows {
		if f.match(w.ID, w.Description) {
			rows = append(rows, listRow{kind: rowWorkflow, wf: w})
		}
	}
	if len(rows) == 0 {
		return f.none("workflow", "no workflows in .relavium/workflows")
	}
	return rows
}

// browseAct is what a key on the browse pane asks of the root: the pane
// moves its cursor, switches its tab and types its filter itself; loading
// a list, leaving the pane, and acting on a row reach beyond it.
type browseAct int

const (
	browseNone     browseAct = iota
	browseLoad               // the tab changed: load its list when needed
	browseBack               // back up to the servers pane
	browseDetails            // i on the row
	browseAccept             // A on a tool flagged changed
	browseActivate           // enter on the row
)

// key reads a key on the pane; page is how far a page key moves. It
// returns what the root is to do, the row it is about, and the Cmd of the
// pane's own widget (the filter's cursor).
func (p *browsePane) key(msg tea.KeyMsg, page int) (browseAct, listRow, tea.Cmd) {
	k := p.keys
	rows := p.listRows()
	if moveKey(msg, k, &p.cursor, len(rows), page) {
		return browseNone, listRow{}, nil
	}
	switch {
	case key.Matches(msg, k.NextTab):
		p.tab = (p.tab + 1) % tabCount
		p.cursor, p.offset = 0, 0
		return browseLoad, listRow{}, nil
	case key.Matches(msg, k.PrevTab):
		p.tab = (p.tab + tabCount - 1) % tabCount
		p.cursor, p.offset = 0, 0
		return browseLoad, listRow{}, nil
	case key.Matches(msg, k.Filter):
		// a fresh filter each time: / never appends to the last one
		p.filtering = true
		p.filter.SetValue("")
		p.cursor, p.offset = 0, 0
		return browseNone, listRow{}, p.filter.Focus()
	case key.Matches(msg, k.Back):
		if p.filter.Value() != "" {
			p.filter.SetValue("")
			return browseNone, listRow{}, nil
		}
		return browseBack, listRow{}, nil
	}
	if p.cursor >= len(rows) || !rows[p.cursor].selectable() {
		return browseNone, listRow{}, nil
	}
	r := rows[p.cursor]
	switch {
	case key.Matches(msg, k.Details):
		return browseDetails, r, nil
	case key.Matches(msg, k.Accept):
		return browseAccept, r, nil
	case key.Matches(msg, k.Enter):
		return browseActivate, r, nil
	}
	return browseNone, listRow{}, nil
}

// filterKey takes a key while the filter is typed: esc clears it, enter
// keeps it, anything else types (the list starts at its top again).
func (p *browsePane) filterKey(msg tea.KeyMsg) tea.Cmd {
	switch msg.String() {
	case "esc":
		p.filtering = false
		p.filter.SetValue("")
		p.filter.Blur()
	case "enter":
		p.filtering = false
		p.filter.Blur()
	default:
		var cmd tea.Cmd
		p.filter, cmd = p.filter.Update(msg)
		p.cursor = 0
		return cmd
	}
	return nil
}

// toolsKey carries out what a key on the browse pane asked.
func (m *Model) toolsKey(msg tea.KeyMsg) tea.Cmd {
	act, r, cmd := m.browse.key(msg, max(1, m.geometry().bodyH-4))
	switch act {
	case browseLoad:
		return m.ensureBrowse()
	case browseBack:
		m.focus = paneServers // back up from the drill-down
	case browseDetails:
		m.pushDialog(m.detailsDialog(r))
	case browseAccept:
		if r.kind != rowTool || !r.tool.Changed {
			m.status.set("nothing to accept: only a tool flagged ⚑ changed has a new definition to review", false)
			return nil
		}
		return m.changesCmd(r.tool)
	case browseActivate:
		return m.activate(r)
	}
	return cmd
}

// ensureBrowse loads the lists the middle pane needs for the selected
// server and tab.
func (m *Model) ensureBrowse() tea.Cmd {
	server := m.servers.current()
	switch m.browse.tab {
	case tabResources:
		if _, ok := m.browse.resources[server]; !ok && !m.browse.loading["r:"+server] && m.servers.ready(server) {
			m.browse.loading["r:"+server] = true
			return m.resourcesCmd(server)
		}
	case tabPrompts:
		if _, ok := m.browse.prompts[server]; !ok && !m.browse.loading["p:"+server] && m.servers.ready(server) {
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

func (p *browsePane) label() string {
	label := "TOOLS"
	if p.tab != tabTools {
		label = strings.ToUpper(p.tab.String())
	}
	switch s := p.servers.current(); {
	case p.tab == tabTools && p.allTools:
		label += " of all servers"
	case p.tab == tabWorkflows:
		label += " of the project"
	case s != "":
		label += " of " + render.ServerLine(s)
	}
	return label
}

func (p *browsePane) help() []key.Binding {
	k := p.keys
	b := []key.Binding{k.NextPane, k.Enter}
	if rows := p.listRows(); p.cursor < len(rows) && rows[p.cursor].kind == rowTool && rows[p.cursor].tool.Changed {
		b = append(b, k.Accept)
	}
	return append(b, k.Back, k.Filter, k.Details, k.NextTab, k.AllTools)
}

// detailsDialog shows a row in full (i on it; package detailview): a
// tool, a skipped tool's reason, a resource, a template, a prompt, a
// workflow.
func (m *Model) detailsDialog(r listRow) dialog.Dialog {
	server := m.servers.current()
	switch r.kind {
	case rowSkipped:
		return detailview.Skipped(r.skip)
	case rowTool:
		return detailview.Tool(r.tool)
	case rowResource:
		return detailview.Resource(server, r.res)
	case rowTemplate:
		return detailview.Template(server, r.tmpl, templateVars(r.tmpl.URITemplate))
	case rowPrompt:
		return detailview.Prompt(server, r.prompt)
	case rowWorkflow:
		return detailview.Workflow(r.wf)
	}
	return &dialog.Text{Title: "Details", Max: 80, Lines: func(st *themes.Styles, iw int) []string { return nil }}
}
