package tui

import (
	"context"
	"fmt"
	"time"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/relavium/relavium/engine"
	"github.com/relavium/relavium/fault"
	"github.com/relavium/relavium/host"
	"github.com/relavium/relavium/tui/render"
)

// A server's liveness in the workbench: p pings the selected server (its
// round-trip time on the status line), a lost network server shows when it
// is dialled again, and a server's list_changed reloads what it changed.

// pingTimeout bounds one ping from the workbench.
const pingTimeout = 10 * time.Second

type pingedMsg struct {
	server string
	rtt    time.Duration
	err    error
}

func (m *Model) pingSelected() tea.Cmd {
	r := m.selected()
	if r == nil {
		return nil
	}
	if r.state != engine.StateReady {
		m.status.set(r.spec.Name+" is not connected: nothing to ping", true)
		return nil
	}
	b, ctx, server := m.b, m.ctx, r.spec.Name
	m.status.set("pinging "+server+"…", false)
	return func() tea.Msg {
		pctx, cancel := context.WithTimeout(ctx, pingTimeout)
		defer cancel()
		rtt, err := b.Ping(pctx, server)
		return pingedMsg{server: server, rtt: rtt, err: err}
	}
}

func (m *Model) onPinged(msg pingedMsg) {
	if msg.err != nil {
		m.status.set(fmt.Sprintf("ping %s: %s %s", msg.server, fault.CodeOf(msg.err, ""), render.FirstLine(fault.MessageOf(msg.err))), true)
		return
	}
	m.status.set(fmt.Sprintf("ping %s: %.3f ms", msg.server, float64(msg.rtt.Microseconds())/1000), false)
}

// applyRetry notes when a lost server is dialled again.
func (m *Model) applyRetry(d engine.ServerData) {
	r := m.server(d.Server)
	if r == nil {
		return
	}
	r.retryAt, r.retryN = time.Time{}, 0
	if d.State == engine.StateFailed && d.RetryMS > 0 {
		r.retryAt, r.retryN = m.now().Add(time.Duration(d.RetryMS)*time.Millisecond), d.RetryAttempt
	}
}

// applyListChanged reloads what a server said changed: the tool list comes
// with its ready event (the catalogue is read again); prompts and
// resources are read again when shown.
func (m *Model) applyListChanged(d host.ListChangedData) tea.Cmd {
	switch {
	case d.Error != "":
		m.status.set(d.Server+": "+d.Error, true)
		return nil
	case d.List == "tools":
		m.status.set(fmt.Sprintf("%s: tool list changed (%d tools, %d skipped)", d.Server, d.Tools, d.Skipped), false)
		return nil
	case d.List == "prompts":
		delete(m.browse.prompts, d.Server)
	case d.List == "resources":
		delete(m.browse.resources, d.Server)
	default:
		return nil
	}
	m.status.set(d.Server+": "+d.List+" changed", false)
	if m.servers.current() == d.Server {
		return m.ensureBrowse()
	}
	return nil
}
