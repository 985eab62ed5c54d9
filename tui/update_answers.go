package tui

import (
	tea "github.com/charmbracelet/bubbletea"
	"github.com/relavium/relavium/tui/backend"
)

// Handlers of the smaller answers Update receives: the animation tick, a
// disconnect, catalogue and list snapshots, approvals, accepted
// definitions, an export.

func (m *Model) onTick() tea.Cmd {
	m.ticking = false
	if !m.animating() {
		return nil
	}
	m.frame++
	m.ticking = true
	return tick()
}

func (m *Model) onDisconnected(msg disconnectedMsg) tea.Cmd {
	if r := m.server(msg.server); r != nil {
		r.busy = false
	}
	if msg.err != nil {
		m.status.set("disconnect "+msg.server+": "+msg.err.Error(), true)
	}
	return m.catalogueCmd()
}

func (m *Model) onCatalogue(msg catalogueMsg) {
	if msg.seq >= m.browse.catShown { // snapshots may answer out of order
		m.browse.catShown = msg.seq
		m.browse.setTools(msg.tools, msg.skipped)
	}
}

func (m *Model) onApproved(msg approvedMsg) {
	if msg.err != nil {
		m.status.set("approved for this call only, not remembered: "+backend.MessageOf(msg.err), true)
	}
}

func (m *Model) onChanges(msg changesMsg) {
	if msg.err != nil {
		m.status.set(backend.MessageOf(msg.err), true)
		return
	}
	m.pushDialog(newAcceptDialog(msg.tool, msg.changes))
}

func (m *Model) onAccepted(msg acceptedMsg) tea.Cmd {
	if msg.err != nil {
		m.status.set("not accepted: "+backend.MessageOf(msg.err), true)
	} else {
		m.status.set("accepted the new definition of "+msg.tool.Name+"; its remembered approvals lapsed", false)
	}
	return m.catalogueCmd()
}

func (m *Model) onResources(msg resourcesMsg) {
	delete(m.browse.loading, "r:"+msg.server)
	if msg.err != nil {
		m.browse.errs["r:"+msg.server] = msg.err.Error()
	} else {
		m.browse.resources[msg.server] = msg.list
		delete(m.browse.errs, "r:"+msg.server)
	}
	m.browse.rowsKey = ""
}

func (m *Model) onPrompts(msg promptsMsg) {
	delete(m.browse.loading, "p:"+msg.server)
	if msg.err != nil {
		m.browse.errs["p:"+msg.server] = msg.err.Error()
	} else {
		m.browse.prompts[msg.server] = msg.prompts
		delete(m.browse.errs, "p:"+msg.server)
	}
	m.browse.rowsKey = ""
}

func (m *Model) onWorkflows(msg workflowsMsg) {
	m.browse.wfLoading, m.browse.wfLoaded = false, true
	m.browse.workflows, m.browse.wfErr = msg.workflows, ""
	if msg.err != nil {
		m.browse.wfErr = msg.err.Error()
	}
	m.browse.rowsKey = ""
}

func (m *Model) onExported(msg exportedMsg) {
	if msg.err != nil {
		m.status.set("export failed: "+msg.err.Error(), true)
		return
	}
	m.status.set("session exported to "+msg.path, false)
}
