package tui

import (
	"time"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"

	"github.com/relavium/relavium/host"
	"github.com/relavium/relavium/tui/backend"
	"github.com/relavium/relavium/tui/dialog"
	"github.com/relavium/relavium/tui/wireview"
)

// wireKey opens the protocol view of the selected server (W); it reports
// whether the key was its.
func (m *Model) wireKey(msg tea.KeyMsg) (tea.Cmd, bool) {
	if !key.Matches(msg, m.keys.Wire) {
		return nil, false
	}
	return m.openWireView(false), true
}

// openWireView opens the protocol (or network) view of the selected
// server and starts its refresh.
func (m *Model) openWireView(network bool) tea.Cmd {
	src, ok := m.b.(wireview.Source)
	if !ok || src.Wire() == nil {
		m.status.set("this session records no wire", true)
		return nil
	}
	r := m.selected()
	if r == nil {
		m.status.set("no server selected", true)
		return nil
	}
	if m.dialogs.stack.Any(isWireView) {
		return nil
	}
	m.pushDialog(wireview.New(src, r.spec.Name, r.spec.Transport == host.TransportStdio, network))
	return wireTick()
}

func isWireView(d dialog.Dialog) bool { _, ok := d.(*wireview.View); return ok }

// wireTick refreshes an open view every wireview.RefreshEvery; the ticks
// stop once it is closed.
func wireTick() tea.Cmd {
	return tea.Tick(wireview.RefreshEvery, func(time.Time) tea.Msg {
		return clientSideMsg(func(m *Model) tea.Cmd {
			for _, d := range m.dialogs.stack {
				if v, ok := d.(*wireview.View); ok {
					v.Refresh()
					return wireTick()
				}
			}
			return nil
		})
	})
}

// onWireExported shows an export's path (or its failure) in its view and
// on the status line.
func (m *Model) onWireExported(msg wireview.Exported) {
	if msg.Err != nil {
		msg.View.Noted(backend.MessageOf(msg.Err), true)
		m.status.set("export: "+backend.MessageOf(msg.Err), true)
		return
	}
	msg.View.Noted("exported to "+msg.Path, false)
	m.status.set("exported "+msg.Name+" to "+msg.Path, false)
}

// paletteWire are the palette entries of the two views.
func (m *Model) paletteWire() []dialog.PaletteItem {
	if _, ok := m.b.(wireview.Source); !ok {
		return nil
	}
	return []dialog.PaletteItem{
		item("action", "Protocol view of the selected server", "W", func(m *Model) tea.Cmd { return m.openWireView(false) }),
		item("action", "Network view of the selected server (HTTP)", "W n", func(m *Model) tea.Cmd { return m.openWireView(true) }),
	}
}
