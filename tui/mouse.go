package tui

import (
	tea "github.com/charmbracelet/bubbletea"

	"github.com/relavium/relavium/host"
)

// onMouse scrolls the pane under the pointer with the wheel, and focuses
// (and selects in) a pane on a click. Selecting a server this way is
// selecting it (selectServer), as with the keys.
func (m *Model) onMouse(msg tea.MouseMsg) tea.Cmd {
	if len(m.dialogs.stack) > 0 {
		if msg.Action == tea.MouseActionPress {
			switch msg.Button {
			case tea.MouseButtonWheelUp:
				m.dialogs.stack.ScrollBy(-3)
			case tea.MouseButtonWheelDown:
				m.dialogs.stack.ScrollBy(3)
			}
		}
		return nil
	}
	g := m.geometry()
	p := m.focus
	if g.multi {
		switch {
		case msg.X < g.toolX:
			p = paneServers
		case msg.X < g.callX:
			p = paneTools
		default:
			p = paneCall
		}
	}
	row := msg.Y - g.bodyY - 1 // below the pane title
	switch {
	case msg.Action == tea.MouseActionPress && (msg.Button == tea.MouseButtonWheelUp || msg.Button == tea.MouseButtonWheelDown):
		delta := 3
		if msg.Button == tea.MouseButtonWheelUp {
			delta = -3
		}
		switch p {
		case paneServers:
			return m.selectServer(max(0, min(len(m.servers.rows)-1, m.servers.sel+delta/3)))
		case paneTools:
			m.browse.cursor = max(0, min(len(m.browse.listRows())-1, m.browse.cursor+delta))
		case paneCall:
			if m.call.history {
				m.call.histSel = max(0, min(len(m.call.jobs)-1, m.call.histSel+delta/3))
			} else if delta < 0 {
				m.call.vp.ScrollUp(-delta)
				m.call.follow = false
			} else {
				m.call.vp.ScrollDown(delta)
				m.call.follow = m.call.vp.AtBottom()
			}
		}
	case msg.Action == tea.MouseActionPress && msg.Button == tea.MouseButtonLeft:
		m.focus = p
		switch p {
		case paneServers:
			if i := m.servers.offset + row; row >= 0 && i < len(m.servers.rows) {
				return m.selectServer(i)
			}
		case paneTools:
			if i := m.browse.offset + row - 1; row >= 1 && i < len(m.browse.listRows()) {
				m.browse.cursor = i
			}
		}
	}
	return nil
}

func promptNamed(name string) host.Prompt { return host.Prompt{Name: name} }
