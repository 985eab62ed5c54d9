package tui

import (
	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"

	"github.com/relavium/relavium/tui/dialog"
)

// onKey routes a key: the top dialog first, then the filter or the form
// being edited, then the global keys, then the focused pane.
func (m *Model) onKey(msg tea.KeyMsg) tea.Cmd {
	k := m.keys
	if msg.String() == "ctrl+c" {
		m.quit()
		return nil
	}
	m.dialogs.guard.note(m.topDialog())
	deliberate := m.dialogs.guard.key()
	if d := m.topDialog(); d != nil {
		return m.dialogKey(d, msg, deliberate)
	}
	if cmd, ok := m.signInKey(msg); ok {
		return cmd
	}
	if !deliberate { // typed before the screen was up
		m.setStatus("ignored "+keyName(msg)+": typed before the workbench was on screen", false)
		return nil
	}
	if m.browse.filtering {
		switch msg.String() {
		case "esc":
			m.browse.filtering = false
			m.browse.filter.SetValue("")
			m.browse.filter.Blur()
		case "enter":
			m.browse.filtering = false
			m.browse.filter.Blur()
		default:
			var cmd tea.Cmd
			m.browse.filter, cmd = m.browse.filter.Update(msg)
			m.browse.cursor = 0
			return cmd
		}
		return nil
	}
	if m.call.search.typing {
		return m.searchKey(msg)
	}
	if m.focus == paneCall && m.call.editing && m.call.form != nil {
		switch {
		case m.call.form.Picking() && (msg.String() == "enter" || msg.String() == "esc"):
			cmd, _ := m.call.form.Update(msg, k.RawJSON) // the pick list's: pick, close
			return cmd
		case key.Matches(msg, k.Submit):
			return m.submitForm()
		case key.Matches(msg, k.EditValue):
			return m.openFieldEditor()
		case msg.String() == "esc":
			m.call.editing = false
			return nil
		case key.Matches(msg, k.NextPane, k.PrevPane):
			// leaves the form as it is
		case msg.String() == "enter":
			if m.call.form.AtLast() {
				return m.submitForm()
			}
			m.call.form.FocusField(m.call.form.Focus + 1)
			return nil
		default:
			cmd, used := m.call.form.Update(msg, k.RawJSON)
			if used || msg.Type == tea.KeyRunes {
				return cmd
			}
		}
	}
	if cmd, ok := m.clientSideKey(msg); ok {
		return cmd
	}
	if cmd, ok := m.wireKey(msg); ok { // W: the protocol view (wireview_open.go)
		return cmd
	}
	switch {
	case key.Matches(msg, k.Quit):
		m.quit()
		return nil
	case key.Matches(msg, k.Help):
		m.pushDialog(dialog.NewHelp(k.fullHelp(), m.help))
		return nil
	case key.Matches(msg, k.Palette):
		return m.openPalette()
	case key.Matches(msg, k.AllTools):
		m.toggleAllTools()
		return m.ensureBrowse()
	case key.Matches(msg, k.NextPane):
		m.focus = (m.focus + 1) % paneCount
		return m.ensureBrowse()
	case key.Matches(msg, k.PrevPane):
		m.focus = (m.focus + paneCount - 1) % paneCount
		return m.ensureBrowse()
	case key.Matches(msg, k.Cancel):
		if cmd, ok := m.cancelTaskJob(); ok { // a task is cancelled at the server (tasks.go)
			return cmd
		}
		m.cancelJob()
		return nil
	case key.Matches(msg, k.Export):
		m.setStatus("exporting the session…", false)
		return m.exportCmd()
	}
	if cmd, ok := m.clientKey(msg); ok {
		return cmd
	}
	return m.focus.route().key(m, msg)
}

// dialogKey gives a key to the dialog on top. A key of a burst that began
// before the dialog had been on screen for its grace is dropped (and said
// so); q quits and ? lists the dialog's keys, except where the dialog
// takes text.
func (m *Model) dialogKey(d dialog.Dialog, msg tea.KeyMsg, deliberate bool) tea.Cmd {
	if !deliberate && !dialog.IsBidden(d) {
		m.setStatus("ignored "+keyName(msg)+": the dialog had just opened (keys typed with no pause before it are not answers)", false)
		return nil
	}
	if !dialog.TakesText(d) {
		switch msg.String() {
		case "q":
			m.quit()
			return nil
		case "?":
			if _, isText := d.(*dialog.Text); !isText {
				m.pushDialog(dialog.NewKeys(dialog.KeysOf(d), m.help))
				return nil
			}
		}
	}
	act, cmd := d.Handle(msg)
	if act == nil {
		return cmd
	}
	m.dialogs.stack.Remove(d)
	return tea.Batch(cmd, m.apply(act))
}

// keyName is a key as the status line names it (a rune is quoted; server
// text never reaches here, only the person's keys).
func keyName(msg tea.KeyMsg) string {
	if msg.Type == tea.KeyRunes {
		return "'" + string(msg.Runes) + "'"
	}
	return msg.String()
}

func (m *Model) quit() {
	for _, j := range m.call.jobs {
		if j.cancel != nil {
			j.cancel()
		}
	}
	m.quitting = true
}

// moveKey applies a list movement key to cursor over n rows (page = h).
func moveKey(msg tea.KeyMsg, k keyMap, cursor *int, n, page int) bool {
	switch {
	case key.Matches(msg, k.Up):
		*cursor--
	case key.Matches(msg, k.Down):
		*cursor++
	case key.Matches(msg, k.PageUp):
		*cursor -= max(1, page)
	case key.Matches(msg, k.PageDown):
		*cursor += max(1, page)
	case key.Matches(msg, k.Top):
		*cursor = 0
	case key.Matches(msg, k.Bottom):
		*cursor = n - 1
	default:
		return false
	}
	*cursor = max(0, min(*cursor, n-1))
	return true
}

// serversKey handles the servers pane's keys. Approve, reconnect and
// disconnect act on the selected server only from here, where the footer
// lists them and the selection is in view: an x meant for another pane
// never drops a server and the calls running on it.
func (m *Model) serversKey(msg tea.KeyMsg) tea.Cmd {
	switch k := m.keys; {
	case key.Matches(msg, k.Approve):
		return m.approveSelected()
	case key.Matches(msg, k.Reconnect):
		return m.reconnectSelected()
	case key.Matches(msg, k.Disconnect):
		return m.disconnectSelected()
	case key.Matches(msg, k.Ping):
		return m.pingSelected()
	}
	sel := m.servers.sel
	if moveKey(msg, m.keys, &sel, len(m.servers.rows), 5) {
		return m.selectServer(sel)
	}
	switch r := m.selected(); {
	case r == nil:
	case key.Matches(msg, m.keys.Enter) && m.wantsSignIn(r):
		return m.startSignIn(r)
	case key.Matches(msg, m.keys.Enter):
		// drill down: the server's tools, the first one under the cursor
		m.focus, m.browse.tab, m.browse.cursor, m.browse.offset = paneTools, tabTools, 0, 0
		return m.ensureBrowse()
	case key.Matches(msg, m.keys.Details):
		m.pushDialog(m.serverDialog(r))
	}
	return nil
}

// selectServer selects server row i (by key or mouse): the middle pane
// starts at the top of that server's list, and loads it when needed.
func (m *Model) selectServer(i int) tea.Cmd {
	if i != m.servers.sel {
		m.servers.sel = i
		m.browse.cursor, m.browse.offset = 0, 0
	}
	return m.ensureBrowse()
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
			m.setStatus("nothing to accept: only a tool flagged ⚑ changed has a new definition to review", false)
			return nil
		}
		return m.changesCmd(r.tool)
	case key.Matches(msg, k.Enter):
		return m.activate(r)
	}
	return nil
}

func (m *Model) callKey(msg tea.KeyMsg) tea.Cmd {
	k := m.keys
	if m.call.history {
		switch {
		case key.Matches(msg, k.Back), key.Matches(msg, k.History):
			m.call.history = false
		case key.Matches(msg, k.Load):
			if j := m.historyJob(); j != nil {
				m.loadJob(j)
			}
		case key.Matches(msg, k.Replay):
			if j := m.historyJob(); j != nil {
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
	case key.Matches(msg, k.Filter) && m.shownJob() != nil:
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
