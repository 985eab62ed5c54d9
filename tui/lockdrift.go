package tui

import (
	"context"
	"fmt"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/relavium/relavium/tui/backend"
	"github.com/relavium/relavium/tui/render"
)

// Lock drift on the server row: when a server becomes ready and the
// project has a lock (.relavium/mcp-lock.json, `relavium mcp lock`), the
// row says how many differences `relavium mcp check` would report for it,
// and the details say the first (a tool now claiming read-only first).

// lockDrifter is the backend that can compare a ready server with the
// lock (the live backend; a backend without it shows no drift).
type lockDrifter interface {
	LockDrift(ctx context.Context, server string) (backend.LockDrift, bool)
}

type lockDriftMsg struct {
	server string
	drift  backend.LockDrift
	ok     bool
}

// lockDriftCmd compares server with the lock, off the update loop.
func (m *Model) lockDriftCmd(server string) tea.Cmd {
	ld, ok := m.b.(lockDrifter)
	if !ok {
		return nil
	}
	ctx := m.ctx
	return func() tea.Msg {
		d, ok := ld.LockDrift(ctx, server)
		return lockDriftMsg{server: server, drift: d, ok: ok}
	}
}

func (m *Model) onLockDrift(msg lockDriftMsg) {
	if r := m.server(msg.server); r != nil {
		r.lockDrift, r.lockChecked = msg.drift, msg.ok
	}
}

// lockDriftText is the row's drift mark, put before the row's state text
// so a narrow pane still shows it ("" when there is no lock, or no drift).
func (p *serversPane) lockDriftText(r *serverRow) string {
	if !r.lockChecked || r.lockDrift.Differences == 0 {
		return ""
	}
	return p.st.Warn.Render(fmt.Sprintf("⚠ drift %d", r.lockDrift.Differences)) + " "
}

// lockDriftDetail is the details' line for the first difference.
func (p *serversPane) lockDriftDetail(r *serverRow) string {
	if !r.lockChecked || r.lockDrift.Differences == 0 {
		return ""
	}
	return p.st.Warn.Render(render.ServerLine(fmt.Sprintf("lock drift: %s (relavium mcp check shows all %d)", r.lockDrift.First, r.lockDrift.Differences)))
}
