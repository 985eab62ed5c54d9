package deadline

import (
	"sync"
	"time"
)

// The person's time is not the call's time. A call has two deadlines, both
// counted in active time only: while a dialog of the person's is open on
// the call's server (an elicitation form, a sampling request), neither
// runs.
//
//   - idle: how long the call may go without a sign of life. A progress
//     notification of the call starts it again. It is the server's
//     call_timeout_ms, else the session's call timeout (the TUI setting),
//     else 60 s.
//   - hard: the cap on the call's whole active time, which progress does
//     not reset: --timeout, else DefaultHardCap.
//
// Call is that clock, and nothing else: it starts no goroutine of
// its own, reads time only through its Clock, and calls expire once, with
// the cause of the deadline that ran out. Tests drive it with a fake Clock.

// DefaultHardCap caps a call's active time when no --timeout says
// otherwise.
const DefaultHardCap = 10 * time.Minute

// Clock is time as a call's deadline and the sampling rate limit read it.
type Clock interface {
	Now() time.Time
	// AfterFunc calls f in its own goroutine after d; the returned stop
	// reports whether it stopped f from running.
	AfterFunc(d time.Duration, f func()) (stop func() bool)
}

// RealClock is the wall clock, the Clock a host uses unless told otherwise.
type RealClock struct{}

func (RealClock) Now() time.Time { return time.Now() }
func (RealClock) AfterFunc(d time.Duration, f func()) func() bool {
	return time.AfterFunc(d, f).Stop
}

// Call is one call's idle and hard deadlines, paused while the
// person is being asked something.
type Call struct {
	clk        Clock
	idle, hard time.Duration
	idleCause  *Cause
	hardCause  *Cause
	expire     func(cause error)
	mu         sync.Mutex
	idleUsed   time.Duration // active time since the last sign of life, up to since
	hardUsed   time.Duration // active time since the start, up to since
	since      time.Time     // start of the running stretch (paused == 0)
	paused     int           // dialogs open on the call's server
	stopTimer  func() bool
	fired      *Cause
	ended      bool
}

// NewCall makes the clock of one call; paused is how many dialogs
// are open on its server as it starts. Start arms it.
func NewCall(clk Clock, idle, hard time.Duration, idleCause, hardCause *Cause, paused int, expire func(error)) *Call {
	return &Call{clk: clk, idle: idle, hard: hard, idleCause: idleCause, hardCause: hardCause, paused: paused, expire: expire}
}

func (d *Call) Start() {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.since = d.clk.Now()
	if d.paused == 0 {
		d.arm()
	}
}

// account adds the running stretch up to now (d.mu held).
func (d *Call) account() {
	if d.paused > 0 || d.ended {
		return
	}
	now := d.clk.Now()
	if el := now.Sub(d.since); el > 0 {
		d.idleUsed += el
		d.hardUsed += el
	}
	d.since = now
}

// arm schedules a check when the nearer deadline would run out (d.mu held).
func (d *Call) arm() {
	if d.stopTimer != nil {
		d.stopTimer()
		d.stopTimer = nil
	}
	rem := d.idle - d.idleUsed
	if d.hard > 0 && d.hard-d.hardUsed < rem {
		rem = d.hard - d.hardUsed
	}
	d.stopTimer = d.clk.AfterFunc(max(rem, 0), d.check)
}

// check runs when a deadline may have run out: it expires the call, or
// arms again for what is left (progress reset the idle deadline meanwhile).
func (d *Call) check() {
	d.mu.Lock()
	if d.ended || d.paused > 0 {
		d.mu.Unlock()
		return
	}
	d.account()
	var cause *Cause
	switch {
	case d.hard > 0 && d.hardUsed >= d.hard:
		cause = d.hardCause
	case d.idleUsed >= d.idle:
		cause = d.idleCause
	}
	if cause == nil {
		d.arm()
		d.mu.Unlock()
		return
	}
	d.ended, d.fired = true, cause
	d.stopTimer = nil
	d.mu.Unlock()
	d.expire(cause)
}

// Pause stops both deadlines until the matching Resume.
func (d *Call) Pause() {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.account()
	d.paused++
	if d.stopTimer != nil {
		d.stopTimer()
		d.stopTimer = nil
	}
}

// Resume ends one pause; the last one starts the clock again.
func (d *Call) Resume() {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.paused == 0 {
		return
	}
	d.paused--
	if d.paused == 0 && !d.ended {
		d.since = d.clk.Now()
		d.arm()
	}
}

// Touch is a sign of life (a progress notification): the idle deadline
// starts again; the hard one runs on.
func (d *Call) Touch() {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.ended {
		return
	}
	d.account()
	d.idleUsed = 0
	if d.paused == 0 {
		d.arm()
	}
}

// Stop ends the clock (the call returned); expire is never called after.
func (d *Call) Stop() {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.ended = true
	if d.stopTimer != nil {
		d.stopTimer()
		d.stopTimer = nil
	}
}

// Cause is the deadline that ran out, or a cause no context carries.
func (d *Call) Cause() *Cause {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.fired != nil {
		return d.fired
	}
	return &Cause{What: "(no deadline ran out)"}
}
