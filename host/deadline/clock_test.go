package deadline

import (
	"testing"
	"time"

	"github.com/relavium/relavium/host/deadline/deadlinetest"
)

// clockCase is a deadline on a fake clock and what expired it.
type clockCase struct {
	clk   *deadlinetest.Clock
	d     *Call
	idleC *Cause
	hardC *Cause
	got   []error
}

func newClockCase(idle, hard time.Duration, paused int) *clockCase {
	cc := &clockCase{clk: deadlinetest.NewClock(), idleC: &Cause{What: "idle", D: idle}, hardC: &Cause{What: "hard", D: hard}}
	cc.d = NewCall(cc.clk, idle, hard, cc.idleC, cc.hardC, paused, func(err error) { cc.got = append(cc.got, err) })
	cc.d.Start()
	return cc
}

func (cc *clockCase) expired(t *testing.T, want *Cause, when string) {
	t.Helper()
	switch {
	case want == nil && len(cc.got) > 0:
		t.Fatalf("%s: expired by %v, want still running", when, cc.got[0])
	case want != nil && (len(cc.got) != 1 || cc.got[0] != want):
		t.Fatalf("%s: expired by %v, want exactly %s", when, cc.got, want.What)
	case want != nil && cc.d.Cause() != want:
		t.Fatalf("%s: cause() = %v, want %s", when, cc.d.Cause(), want.What)
	}
}

func TestCallDeadlineIdleExpires(t *testing.T) {
	cc := newClockCase(10*time.Second, time.Minute, 0)
	cc.clk.Advance(9 * time.Second)
	cc.expired(t, nil, "at 9s of 10s idle")
	cc.clk.Advance(time.Second)
	cc.expired(t, cc.idleC, "at 10s")
}

func TestCallDeadlineProgressResetsIdleNotHard(t *testing.T) {
	cc := newClockCase(10*time.Second, 25*time.Second, 0)
	for i := range 2 { // a sign of life every 8 s keeps the idle deadline away
		cc.clk.Advance(8 * time.Second)
		cc.d.Touch()
		cc.expired(t, nil, "after progress "+string(rune('1'+i)))
	}
	cc.clk.Advance(8 * time.Second) // 24 s active
	cc.d.Touch()
	cc.expired(t, nil, "at 24s")
	cc.clk.Advance(time.Second) // 25 s: the hard cap, progress or not
	cc.expired(t, cc.hardC, "at the 25s hard cap")
}

func TestCallDeadlinePausedWhileAsked(t *testing.T) {
	cc := newClockCase(10*time.Second, 20*time.Second, 0)
	cc.clk.Advance(6 * time.Second)
	cc.d.Pause() // a form opens
	cc.clk.Advance(time.Hour)
	cc.expired(t, nil, "an hour with the form open")
	cc.d.Resume()
	cc.clk.Advance(3 * time.Second) // 9 s active
	cc.expired(t, nil, "9s active")
	cc.clk.Advance(time.Second)
	cc.expired(t, cc.idleC, "10s active")
}

func TestCallDeadlineNestedPauses(t *testing.T) {
	cc := newClockCase(10*time.Second, 0, 0)
	cc.d.Pause()
	cc.d.Pause() // two dialogs of the server open
	cc.d.Resume()
	cc.clk.Advance(time.Minute)
	cc.expired(t, nil, "one dialog still open")
	cc.d.Resume()
	cc.d.Resume() // one resume too many changes nothing
	cc.clk.Advance(10 * time.Second)
	cc.expired(t, cc.idleC, "10s after the last dialog closed")
}

func TestCallDeadlineStartsPausedAndStops(t *testing.T) {
	cc := newClockCase(time.Second, time.Second, 1) // started while a dialog was open
	cc.clk.Advance(time.Minute)
	cc.expired(t, nil, "started paused")
	cc.d.Resume()
	cc.d.Stop() // the call returned
	cc.clk.Advance(time.Minute)
	cc.expired(t, nil, "stopped")
	if c := cc.d.Cause(); c == cc.idleC || c == cc.hardC {
		t.Fatalf("cause() of a deadline that never ran out: %v", c)
	}
}
