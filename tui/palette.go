package tui

import (
	tea "github.com/charmbracelet/bubbletea"

	"github.com/relavium/relavium/engine"
	"github.com/relavium/relavium/host"
	"github.com/relavium/relavium/themes"
	"github.com/relavium/relavium/tui/dialog"
)

// The command palette (: or ctrl+p): every action, server, tool, prompt,
// resource and workflow, searched fuzzily. Its entries come from sources,
// each a method listing what it offers now; a part of the workbench adds
// its entries by adding its source to paletteSources (one line, in its
// own file otherwise).

// paletteSource lists entries for the palette as the session stands.
type paletteSource func(m *Model) []dialog.PaletteItem

// paletteSources are the palette's sources, in the order their entries
// are listed before anything is typed.
var paletteSources = []paletteSource{
	(*Model).paletteActions,
	(*Model).paletteAdhoc,
	(*Model).paletteServers,
	(*Model).paletteThemes,
	(*Model).paletteBrowse,
	(*Model).paletteClientSide,
	(*Model).paletteLogLevels,
	(*Model).paletteWire,
}

// paletteDo is a palette entry's Action: what choosing it does.
type paletteDo func(m *Model) tea.Cmd

// openPalette opens the palette over everything the sources list now,
// and loads the lists not loaded yet (resources and prompts of every ready
// server, the workflows): the palette gains them as they arrive.
func (m *Model) openPalette() tea.Cmd {
	m.pushDialog(dialog.NewPalette(m.st, m.paletteItems()))
	var cmds []tea.Cmd
	for _, r := range m.servers.rows {
		s := r.spec.Name
		if !m.servers.ready(s) {
			continue
		}
		if _, ok := m.browse.resources[s]; !ok && !m.browse.loading["r:"+s] {
			m.browse.loading["r:"+s] = true
			cmds = append(cmds, m.resourcesCmd(s))
		}
		if _, ok := m.browse.prompts[s]; !ok && !m.browse.loading["p:"+s] {
			m.browse.loading["p:"+s] = true
			cmds = append(cmds, m.promptsCmd(s))
		}
	}
	if !m.browse.wfLoaded && !m.browse.wfLoading {
		m.browse.wfLoading = true
		cmds = append(cmds, m.workflowsCmd())
	}
	return tea.Batch(cmds...)
}

func (m *Model) paletteItems() []dialog.PaletteItem {
	var items []dialog.PaletteItem
	for _, src := range paletteSources {
		items = append(items, src(m)...)
	}
	return items
}

// refreshPalette gives an open palette the entries listed now (a list
// loaded since it opened); the query and the choice stay.
func (m *Model) refreshPalette() {
	for _, d := range m.dialogs.stack {
		if p, ok := d.(*dialog.Palette); ok {
			p.SetItems(m.paletteItems())
		}
	}
}

func item(kind, title, hint string, do paletteDo) dialog.PaletteItem {
	return dialog.PaletteItem{Kind: kind, Title: title, Hint: hint, Do: do}
}

// paletteActions are the workbench's own actions.
func (m *Model) paletteActions() []dialog.PaletteItem {
	label := "Show all servers' tools"
	if m.browse.allTools {
		label = "Show the selected server's tools only"
	}
	return []dialog.PaletteItem{
		item("action", label, "ctrl+a", func(m *Model) tea.Cmd { m.toggleAllTools(); return nil }),
		item("action", "Export the session (JSONL)", "e", func(m *Model) tea.Cmd {
			m.status.set("exporting the session…", false)
			return m.exportCmd()
		}),
		item("action", "Call history", "h", func(m *Model) tea.Cmd {
			m.focus, m.call.history, m.call.histSel = paneCall, true, 0
			return nil
		}),
		item("action", "Cancel the running call", "c", func(m *Model) tea.Cmd { m.cancelJob(); return nil }),
		item("action", "Keys", "?", func(m *Model) tea.Cmd {
			m.pushDialog(dialog.NewHelp(m.keys.FullHelp(), m.help))
			return nil
		}),
		item("action", "Quit", "q", func(m *Model) tea.Cmd { m.quit(); return nil }),
	}
}

// paletteServers: go to each server, and reconnect, disconnect or ask
// consent for it.
func (m *Model) paletteServers() []dialog.PaletteItem {
	var out []dialog.PaletteItem
	for i, r := range m.servers.rows {
		i, name := i, r.spec.Name
		out = append(out, item("server", name, r.spec.Transport+" · "+r.state, func(m *Model) tea.Cmd {
			m.focus = paneTools
			m.browse.tab = tabTools
			return m.selectServer(i)
		}))
		if r.spec.NotAdmitted != nil {
			continue // nothing to reconnect: its entry must be fixed first
		}
		out = append(out, item("action", "Reconnect "+name, "r", func(m *Model) tea.Cmd {
			m.setSel(i)
			return m.reconnectSelected()
		}))
		if r.state == engine.StateReady || r.state == engine.StateConnecting {
			out = append(out, item("action", "Disconnect "+name, "x", func(m *Model) tea.Cmd {
				m.setSel(i)
				return m.disconnectSelected()
			}))
		}
		if r.state == stateDenied || r.state == engine.StateNeedsConsent {
			out = append(out, item("action", "Ask consent for "+name, "a", func(m *Model) tea.Cmd {
				m.setSel(i)
				return m.approveSelected()
			}))
		}
	}
	return out
}

// paletteThemes switches the theme for this session (a fixed palette:
// auto would have to ask the terminal again while the program reads it).
func (m *Model) paletteThemes() []dialog.PaletteItem {
	var out []dialog.PaletteItem
	for _, name := range themes.Names() {
		if name == themes.Auto {
			continue
		}
		name := name
		out = append(out, item("theme", "Theme "+name, "this session", func(m *Model) tea.Cmd {
			m.setTheme(name)
			return nil
		}))
	}
	return out
}

// paletteBrowse lists every tool, and the resources, prompts and
// workflows loaded so far: choosing one opens it as enter on its row does.
func (m *Model) paletteBrowse() []dialog.PaletteItem {
	var out []dialog.PaletteItem
	open := func(server string, tab browseTab, r listRow) paletteDo {
		return func(m *Model) tea.Cmd {
			if i := m.serverIndex(server); i >= 0 {
				m.setSel(i)
			}
			m.browse.tab, m.browse.cursor, m.browse.offset = tab, 0, 0
			return m.activate(r)
		}
	}
	for _, t := range m.browse.tools {
		out = append(out, item("tool", t.Name, t.Server, open(t.Server, tabTools, listRow{kind: rowTool, tool: t})))
	}
	for _, r := range m.servers.rows {
		s := r.spec.Name
		if l := m.browse.resources[s]; l != nil {
			for _, res := range l.Resources {
				out = append(out, item("resource", res.URI, s, open(s, tabResources, listRow{kind: rowResource, res: res})))
			}
			for _, t := range l.Templates {
				out = append(out, item("template", t.URITemplate, s, open(s, tabResources, listRow{kind: rowTemplate, tmpl: t})))
			}
		}
		for _, p := range m.browse.prompts[s] {
			out = append(out, item("prompt", p.Name, s, open(s, tabPrompts, listRow{kind: rowPrompt, prompt: p})))
		}
	}
	for _, w := range m.browse.workflows {
		out = append(out, item("workflow", w.ID, w.SideEffect, open("", tabWorkflows, listRow{kind: rowWorkflow, wf: w})))
	}
	return out
}

func (m *Model) serverIndex(name string) int {
	for i, r := range m.servers.rows {
		if r.spec.Name == name {
			return i
		}
	}
	return -1
}

// toggleAllTools switches the tools tab between the selected server's
// tools and every server's.
func (m *Model) toggleAllTools() {
	m.browse.allTools = !m.browse.allTools
	m.browse.tab, m.browse.cursor, m.browse.offset = tabTools, 0, 0
	m.focus = paneTools
}

// setTheme restyles the workbench with a built-in palette for the rest of
// the session.
func (m *Model) setTheme(name string) {
	p, ok := themes.ByName(name)
	if !ok {
		return
	}
	r := m.st.Renderer
	r.SetHasDarkBackground(name != themes.Light)
	m.applyStyles(themes.NewStyles(r, p))
	m.info.Theme = themes.Choice{Name: name, Source: "palette"}
	m.status.set("theme "+name+" for this session (--theme, RELAVIUM_THEME or theme in config keep one)", false)
}

// paletteLogLevels sets a ready server's log level (logging/setLevel), as
// L steps through them.
func (m *Model) paletteLogLevels() []dialog.PaletteItem {
	var out []dialog.PaletteItem
	for _, r := range m.servers.rows {
		if r.state != engine.StateReady {
			continue
		}
		server := r.spec.Name
		for _, level := range host.LogLevels() {
			level := level
			out = append(out, item("action", "Log level "+level+" for "+server, "L steps", func(m *Model) tea.Cmd {
				b, ctx := m.b, m.ctx
				m.status.set("asking "+server+" for log level "+level+"…", false)
				return func() tea.Msg {
					return logLevelMsg{server: server, level: level, err: b.SetLogLevel(ctx, server, level)}
				}
			}))
		}
	}
	return out
}
