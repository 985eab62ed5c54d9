package tui

import (
	"time"

	"github.com/relavium/relavium/tui/dialog"
)

// A dialog takes only deliberate keys. Keys typed into the wrong window
// arrive as a burst (letters a fraction of a second apart); a dialog that
// opens in the middle of one must not be answered by its tail. So a key
// reaches the dialog on top only when the burst it belongs to began after
// that dialog had been on screen for modalGrace. A burst is a run of keys
// each less than burstGap after the one before. The workbench's own
// start counts as such a moment: a burst typed before the screen was up
// (into the wrong window) does nothing at all.
const (
	modalGrace = 400 * time.Millisecond
	burstGap   = 250 * time.Millisecond
)

// keyGuard times keys against the dialog on top.
type keyGuard struct {
	now        func() time.Time
	start      time.Time     // when the workbench started
	top        dialog.Dialog // the dialog on top when last noted
	topSince   time.Time     // when it came on top
	last       time.Time     // the last key
	burstStart time.Time     // the first key of the current burst
	dropped    int           // keys kept from a dialog (tests read it)
}

// dialogLayer is the overlay: the dialog stack, the guard that times keys
// against the dialog on top, and the servers whose consent waits its turn.
type dialogLayer struct {
	stack        dialog.Stack
	guard        keyGuard
	consentQueue []string
}

// note records the dialog now on top; a new one starts its grace.
func (g *keyGuard) note(top dialog.Dialog) {
	if dialog.Same(top, g.top) {
		return
	}
	g.top = top
	if top != nil {
		g.topSince = g.now()
	}
}

// key records a key's arrival and reports whether the dialog on top may
// take it.
func (g *keyGuard) key() bool {
	at := g.now()
	if g.last.IsZero() || at.Sub(g.last) >= burstGap {
		g.burstStart = at
	}
	g.last = at
	since := g.start
	if g.top != nil {
		since = g.topSince
	}
	if g.burstStart.Sub(since) >= modalGrace {
		return true
	}
	g.dropped++
	return false
}
