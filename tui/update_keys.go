package tui

import (
	"strings"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"

	"github.com/relavium/relavium/tui/dialog"
	"github.com/relavium/relavium/tui/keymap"
)

// onKey routes a key: the top dialog first, then the filter or the form
// being edited, then the global keys, then the focused pane.
func (m *Model) onKey(msg tea.KeyMsg) tea.Cmd {
	k := m.keys
	if msg.String() == "ctrl+c" {
		m.quit()
		return nil
	}
	m.dialogs.guard.Note(m.topDialog())
	deliberate := m.dialogs.guard.Key()
	if d := m.topDialog(); d != nil {
		return m.dialogKey(d, msg, deliberate)
	}
	if cmd, ok := m.signInKey(msg); ok {
		return cmd
	}
	if m.dialogs.guard.Awaiting() { // the call's question is on its way
		m.status.set("ignored "+keyName(msg)+": sending the call — its question is not on screen yet", false)
		return nil
	}
	if !deliberate { // typed before the screen was up
		m.status.set("ignored "+keyName(msg)+": typed before the workbench was on screen", false)
		return nil
	}
	if m.browse.filtering {
		return m.browse.filterKey(msg)
	}
	if m.call.search.Typing {
		return m.searchKey(msg)
	}
	if m.focus == paneCall && m.call.editing && m.call.form != nil {
		if cmd, used := m.formKey(msg); used {
			return cmd
		}
	}
	if msg.Type == tea.KeyRunes && m.dialogs.guard.AfterAction() { // text, and no field took it
		m.status.set("ignored "+keyName(msg)+": typed with no pause after the key that chose the dialog's action, and no field is there to take it", false)
		return nil
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
		m.pushDialog(dialog.NewPaneHelp(m.focus.title(), m.focus.route().help(m), k.FullHelp(), m.help))
		return nil
	case key.Matches(msg, k.Palette):
		return m.openPalette()
	case key.Matches(msg, k.Zoom):
		m.zoomed = !m.zoomed
		if m.zoomed {
			m.status.set("zoomed: "+strings.ToLower(m.focus.title())+" takes the whole width (tab moves between panes; z again shows all three)", false)
		} else {
			m.status.set("every pane side by side again", false)
		}
		return nil
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
		m.status.set("exporting the session…", false)
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
		m.status.set("ignored "+keyName(msg)+": "+m.dialogs.guard.Why(), false)
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
	if _, closed := act.(dialog.Close); !closed && dialog.IsBidden(d) && dialog.TakesText(d) {
		m.dialogs.guard.Acted() // the person was typing a query: its field is gone
	}
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
func moveKey(msg tea.KeyMsg, k keymap.Map, cursor *int, n, page int) bool {
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
