package tui

import (
	tea "github.com/charmbracelet/bubbletea"

	"github.com/relavium/relavium/engine"
	"github.com/relavium/relavium/host"
	"github.com/relavium/relavium/session"
	"github.com/relavium/relavium/tui/backend"
	"github.com/relavium/relavium/tui/dialog"
)

// Connecting an ad-hoc server from inside the workbench (the palette's
// "Connect a server by URL or command…"): one line, a url or a command
// line, read as `mcp ls --url / --stdio` reads them. The server joins the
// servers pane like a declared one and goes the same way: a command asks
// for consent (approve once or deny: an ad-hoc server is never
// remembered), a url is admitted by the network guard before anything is
// dialled.

// adhocBackend is a Backend that can add a server while the session runs.
type adhocBackend interface {
	// DeclareAdhoc adds the server line names (nothing resolved, asked or
	// dialled) and returns it as the servers pane lists it.
	DeclareAdhoc(line string) (backend.ServerSpec, error)
}

// paletteAdhoc is the palette's entry for an ad-hoc server.
func (m *Model) paletteAdhoc() []dialog.PaletteItem {
	if _, ok := m.b.(adhocBackend); !ok {
		return nil
	}
	return []dialog.PaletteItem{item("action", "Connect a server by URL or command…", "ad-hoc", (*Model).openAdhoc)}
}

// openAdhoc asks for the server's url or command line.
func (m *Model) openAdhoc() tea.Cmd {
	d, cmd := dialog.NewInput("Connect a server",
		"A url (http, https, ws, wss), admitted by the network guard before it is dialled (add --allow-local-endpoint for a loopback or private address), "+
			"or a command line, split on blanks with no shell, that asks for consent like any local server and is never remembered.",
		"", func(line string) dialog.Action {
			return paletteDo(func(m *Model) tea.Cmd { return m.adhocCmd(line) })
		})
	d.OK = "Connect"
	d.SetCharLimit(session.MaxAdhocLine)
	m.pushDialog(d)
	return cmd
}

// adhocCmd declares the server outside Update; onAdhoc takes it in.
func (m *Model) adhocCmd(line string) tea.Cmd {
	ab, ok := m.b.(adhocBackend)
	if !ok {
		return nil
	}
	return func() tea.Msg {
		spec, err := ab.DeclareAdhoc(line)
		return clientSideMsg(func(m *Model) tea.Cmd { return m.onAdhoc(spec, err) })
	}
}

// onAdhoc lists the new server, selects it, and starts it the way a
// declared one starts: a stdio server is decided (and asked), a network
// one connected.
func (m *Model) onAdhoc(spec backend.ServerSpec, err error) tea.Cmd {
	if err != nil {
		m.status.set("not connected: "+err.Error(), true)
		return nil
	}
	r := &serverRow{spec: spec, state: engine.StateResolving, since: m.now()}
	m.servers.rows = append(m.servers.rows, r)
	cmds := []tea.Cmd{m.selectServer(len(m.servers.rows) - 1)}
	m.status.set("connecting "+spec.Name+": "+spec.Target, false)
	if spec.Transport == host.TransportStdio {
		cmds = append(cmds, m.decideCmd(spec.Name))
	} else {
		r.state, r.busy = engine.StateConnecting, true
		cmds = append(cmds, m.connectCmd(spec.Name, false))
	}
	return tea.Batch(cmds...)
}
