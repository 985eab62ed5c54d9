package tui

import (
	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
)

// The pane router: what the root asks of each focusable pane. A pane's
// state lives in its component (serversPane, browsePane, callPane); the
// root owns the focus and the layout and reaches a pane only through this
// table, so adding a pane is adding its component and one row here.

// pane is a focusable column.
type pane int

const (
	paneServers pane = iota
	paneTools
	paneCall
	paneCount
)

// paneRoute is one pane's entry: its name in the pane strip, its title,
// its body at a size, its keys and its short help.
type paneRoute struct {
	name  string
	label func(m *Model) string
	body  func(m *Model, w, h int, focused bool) []string
	key   func(m *Model, msg tea.KeyMsg) tea.Cmd
	help  func(m *Model) []key.Binding
}

// route is p's entry in the router.
func (p pane) route() paneRoute {
	switch p {
	case paneServers:
		return paneRoute{"SERVERS", func(m *Model) string { return m.servers.label() },
			func(m *Model, w, h int, f bool) []string { return m.servers.view(w, h, f) },
			(*Model).serversKey, func(m *Model) []key.Binding { return m.servers.help() }}
	case paneTools:
		return paneRoute{"TOOLS", func(m *Model) string { return m.browse.label() },
			func(m *Model, w, h int, f bool) []string { return m.browse.view(w, h, f) },
			(*Model).toolsKey, func(m *Model) []key.Binding { return m.browse.help() }}
	}
	return paneRoute{"CALL", func(m *Model) string { return m.call.label() },
		func(m *Model, w, h int, f bool) []string { return m.call.view(w, h, f) },
		(*Model).callKey, func(m *Model) []key.Binding { return m.call.help() }}
}

func (p pane) title() string { return p.route().name }
