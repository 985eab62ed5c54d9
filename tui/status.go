package tui

import (
	"time"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/relavium/relavium/engine"
	"github.com/relavium/relavium/tui/render"
)

// The status line (set, then expired by a timer that ends with the model)
// and the clock behind spinners and elapsed times (ticking only while
// something on screen moves).

// statusLine is what the person just did, said for a moment: seq numbers
// each status, timed is the last one whose expiry is scheduled. banner is
// the lasting warning above the panes (a grant store that failed closed).
type statusLine struct {
	text       string
	err        bool
	seq, timed int
	banner     string
}

// startTicking starts the spinner clock when something moves.
func (m *Model) startTicking() tea.Cmd {
	if m.ticking || !m.animating() {
		return nil
	}
	m.ticking = true
	return tick()
}

// animating reports whether a spinner or an elapsed time is on screen:
// a server connecting, resolving or waiting for consent, a sign-in, a job
// running.
func (m *Model) animating() bool {
	if m.auth.run != nil {
		return true
	}
	for _, r := range m.servers.rows {
		switch r.state {
		case engine.StateConnecting, engine.StateResolving, engine.StateNeedsConsent:
			return true
		}
	}
	for _, j := range m.call.jobs {
		if !j.finished() {
			return true
		}
	}
	return false
}

// set says s (sanitized here) on the status line, as an error or not.
func (l *statusLine) set(s string, isErr bool) {
	l.text, l.err = render.ServerLine(s), isErr
	l.seq++
}

// expireStatus schedules the current status's removal, once per status.
func (m *Model) expireStatus() tea.Cmd {
	if m.status.text == "" || m.status.timed == m.status.seq {
		return nil
	}
	m.status.timed = m.status.seq
	seq, life := m.status.seq, statusLife
	if m.status.err {
		life = statusErrLife
	}
	ctx := m.ctx
	return func() tea.Msg { // a timer that ends with the model
		t := time.NewTimer(life)
		defer t.Stop()
		select {
		case <-t.C:
			return statusExpiredMsg{seq: seq}
		case <-ctx.Done():
			return nil
		}
	}
}

// statusLife is how long a status line stays; an error stays longer.
const (
	statusLife    = 8 * time.Second
	statusErrLife = 20 * time.Second
)
