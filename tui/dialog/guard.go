package dialog

import (
	"time"
)

// A dialog takes only deliberate keys. Keys typed into the wrong window
// arrive as a burst (letters a fraction of a second apart); a dialog that
// opens in the middle of one must not be answered by its tail. So a key
// reaches the dialog on top only when the burst it belongs to began after
// that dialog had been on screen for ModalGrace. A burst is a run of keys
// each less than BurstGap after the one before. The workbench's own
// start counts as such a moment: a burst typed before the screen was up
// (into the wrong window) does nothing at all.
//
// A dialog the person's own key brings (ctrl+s asking "this call?") is
// expected: it takes a key typed after any pause of expectPause or more
// once it is on screen (a natural ctrl+s … y), never one of the run that
// brought it. While such a dialog is on its way (the call is checked first),
// keys go nowhere, and the status line says so: they cannot answer a
// question not yet asked, and must not land in the form behind it.
const (
	ModalGrace   = 400 * time.Millisecond
	BurstGap     = 250 * time.Millisecond
	expectPause  = 80 * time.Millisecond
	expectWindow = 3 * time.Second
)

// Guard times keys against the dialog on top (NewGuard makes one).
type Guard struct {
	now        func() time.Time
	start      time.Time // when the workbench started
	top        Dialog    // the dialog on top when last noted
	topSince   time.Time // when it came on top
	last       time.Time // the last key
	burstStart time.Time // the first key of the current burst
	runStart   time.Time // the first key after the last pause of expectPause
	dropped    int       // keys kept from a dialog (tests read it)
	// expectAt is when the person's key asked for a dialog still on its
	// way (zero: none); topExpected is set while that dialog is on top.
	expectAt    time.Time
	topExpected bool
	// actedAt is the key that chose the action of a dialog the person
	// opened to type into (a palette entry): the rest of its burst is
	// text that lost its field, never read as shortcuts.
	actedAt time.Time
}

// NewGuard is a guard on the clock now whose start (a burst typed before
// the screen was up does nothing) is now's present.
func NewGuard(now func() time.Time) Guard { return Guard{now: now, start: now()} }

// Note records the dialog now on top; a new one starts its grace.
func (g *Guard) Note(top Dialog) {
	if Same(top, g.top) {
		return
	}
	g.top = top
	g.topExpected = false
	if top != nil {
		g.topSince = g.now()
		if !g.expectAt.IsZero() && g.topSince.Sub(g.expectAt) < expectWindow {
			g.topExpected = true
		}
		g.expectAt = time.Time{}
	}
}

// Expect notes that the key just pressed asked for a dialog (the call's
// question): until it comes, keys go nowhere (awaiting).
func (g *Guard) Expect() { g.expectAt = g.last }

// Settle ends the wait for an expected dialog that will not come (the call
// went ahead unasked, or was not sent).
func (g *Guard) Settle() { g.expectAt = time.Time{} }

// Awaiting reports whether a dialog the person asked for is still on its
// way (within expectWindow of the key that asked).
func (g *Guard) Awaiting() bool {
	if g.expectAt.IsZero() {
		return false
	}
	if g.last.Sub(g.expectAt) >= expectWindow {
		g.expectAt = time.Time{}
		return false
	}
	return true
}

// Why says why the last key was kept from the dialog on top, truly: a key
// of a run begun before the dialog opened, or one pressed too soon after.
func (g *Guard) Why() string {
	switch {
	case g.topExpected:
		return "typed with no pause after the key that asked for this dialog (pause, then answer)"
	case g.burstStart.Before(g.topSince):
		return "the dialog had just opened (keys typed with no pause before it are not answers)"
	}
	return "the dialog had just opened " + g.last.Sub(g.topSince).Round(10*time.Millisecond).String() +
		" before: read it, then answer (a key counts " + ModalGrace.String() + " after it opens)"
}

// Acted notes that the last key chose the action of a dialog the person
// opened to type into (the palette).
func (g *Guard) Acted() { g.actedAt = g.last }

// AfterAction reports whether the last key belongs to the burst of the key
// that chose such an action: text typed on with no pause (a url meant for
// a field that is not there) must not fire shortcuts behind the dialog.
func (g *Guard) AfterAction() bool {
	if !g.actedAt.IsZero() && !g.burstStart.After(g.actedAt) {
		g.dropped++
		return true
	}
	return false
}

// Key records a key's arrival and reports whether the dialog on top may
// take it.
func (g *Guard) Key() bool {
	at := g.now()
	if g.last.IsZero() || at.Sub(g.last) >= BurstGap {
		g.burstStart = at
	}
	if g.last.IsZero() || at.Sub(g.last) >= expectPause {
		g.runStart = at
	}
	g.last = at
	if g.top != nil && g.topExpected {
		if g.runStart.After(g.topSince) {
			return true
		}
		g.dropped++
		return false
	}
	since := g.start
	if g.top != nil {
		since = g.topSince
	}
	if g.burstStart.Sub(since) >= ModalGrace {
		return true
	}
	g.dropped++
	return false
}
