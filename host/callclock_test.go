package host

import (
	"sync"
	"testing"
	"time"
)

// fakeClock is time moved by hand: Advance fires the timers that came due,
// in the test's goroutine, in order.
type fakeClock struct {
	mu     sync.Mutex
	now    time.Time
	timers []*fakeTimer
}

type fakeTimer struct {
	at   time.Time
	f    func()
	dead bool
}

func newFakeClock() *fakeClock { return &fakeClock{now: time.Unix(1_700_000_000, 0)} }

func (c *fakeClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

func (c *fakeClock) AfterFunc(d time.Duration, f func()) func() bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	t := &fakeTimer{at: c.now.Add(d), f: f}
	c.timers = append(c.timers, t)
	return func() bool {
		c.mu.Lock()
		defer c.mu.Unlock()
		was := !t.dead
		t.dead = true
		return was
	}
}

// Advance moves time by d, firing each timer due on the way at its time.
func (c *fakeClock) Advance(d time.Duration) {
	c.mu.Lock()
	end := c.now.Add(d)
	c.mu.Unlock()
	for {
		c.mu.Lock()
		var next *fakeTimer
		for _, t := range c.timers {
			if !t.dead && !t.at.After(end) && (next == nil || t.at.Before(next.at)) {
				next = t
			}
		}
		if next == nil {
			c.now = end
			c.mu.Unlock()
			return
		}
		next.dead = true
		if next.at.After(c.now) {
			c.now = next.at
		}
		c.mu.Unlock()
		next.f()
	}
}

// clockCase is a deadline on a fake clock and what expired it.
type clockCase struct {
	clk   *fakeClock
	d     *callDeadline
	idleC *deadlineCause
	hardC *deadlineCause
	got   []error
}

func newClockCase(idle, hard time.Duration, paused int) *clockCase {
	cc := &clockCase{clk: newFakeClock(), idleC: &deadlineCause{what: "idle", d: idle}, hardC: &deadlineCause{what: "hard", d: hard}}
	cc.d = newCallDeadline(cc.clk, idle, hard, cc.idleC, cc.hardC, paused, func(err error) { cc.got = append(cc.got, err) })
	cc.d.start()
	return cc
}

func (cc *clockCase) expired(t *testing.T, want *deadlineCause, when string) {
	t.Helper()
	switch {
	case want == nil && len(cc.got) > 0:
		t.Fatalf("%s: expired by %v, want still running", when, cc.got[0])
	case want != nil && (len(cc.got) != 1 || cc.got[0] != want):
		t.Fatalf("%s: expired by %v, want exactly %s", when, cc.got, want.what)
	case want != nil && cc.d.cause() != want:
		t.Fatalf("%s: cause() = %v, want %s", when, cc.d.cause(), want.what)
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
		cc.d.touch()
		cc.expired(t, nil, "after progress "+string(rune('1'+i)))
	}
	cc.clk.Advance(8 * time.Second) // 24 s active
	cc.d.touch()
	cc.expired(t, nil, "at 24s")
	cc.clk.Advance(time.Second) // 25 s: the hard cap, progress or not
	cc.expired(t, cc.hardC, "at the 25s hard cap")
}

func TestCallDeadlinePausedWhileAsked(t *testing.T) {
	cc := newClockCase(10*time.Second, 20*time.Second, 0)
	cc.clk.Advance(6 * time.Second)
	cc.d.pause() // a form opens
	cc.clk.Advance(time.Hour)
	cc.expired(t, nil, "an hour with the form open")
	cc.d.resume()
	cc.clk.Advance(3 * time.Second) // 9 s active
	cc.expired(t, nil, "9s active")
	cc.clk.Advance(time.Second)
	cc.expired(t, cc.idleC, "10s active")
}

func TestCallDeadlineNestedPauses(t *testing.T) {
	cc := newClockCase(10*time.Second, 0, 0)
	cc.d.pause()
	cc.d.pause() // two dialogs of the server open
	cc.d.resume()
	cc.clk.Advance(time.Minute)
	cc.expired(t, nil, "one dialog still open")
	cc.d.resume()
	cc.d.resume() // one resume too many changes nothing
	cc.clk.Advance(10 * time.Second)
	cc.expired(t, cc.idleC, "10s after the last dialog closed")
}

func TestCallDeadlineStartsPausedAndStops(t *testing.T) {
	cc := newClockCase(time.Second, time.Second, 1) // started while a dialog was open
	cc.clk.Advance(time.Minute)
	cc.expired(t, nil, "started paused")
	cc.d.resume()
	cc.d.stop() // the call returned
	cc.clk.Advance(time.Minute)
	cc.expired(t, nil, "stopped")
	if c := cc.d.cause(); c == cc.idleC || c == cc.hardC {
		t.Fatalf("cause() of a deadline that never ran out: %v", c)
	}
}

// hold pauses the calls of the held server only; a call that starts during
// a hold starts paused and is resumed with the others.
func TestClientSideHoldPausesTheServersCalls(t *testing.T) {
	var cs clientSide
	clk := newFakeClock()
	a, b := &conn{}, &conn{}
	fired := map[string]bool{}
	mk := func(name string) func(int) *callDeadline {
		return func(paused int) *callDeadline {
			c := &deadlineCause{what: name}
			return newCallDeadline(clk, 10*time.Second, 0, c, c, paused, func(error) { fired[name] = true })
		}
	}
	_, endA1 := cs.track(a, mk("a1"))
	defer endA1()
	_, endB := cs.track(b, mk("b"))
	defer endB()
	resume := cs.hold(a)
	_, endA2 := cs.track(a, mk("a2")) // starts during the hold
	defer endA2()
	clk.Advance(15 * time.Second)
	if fired["a1"] || fired["a2"] || !fired["b"] {
		t.Fatalf("during a hold of a: fired %v, want only b", fired)
	}
	resume()
	resume() // idempotent
	clk.Advance(10 * time.Second)
	if !fired["a1"] || !fired["a2"] {
		t.Fatalf("after the hold: fired %v, want a1 and a2", fired)
	}
}

func TestSamplingRateLimit(t *testing.T) {
	var cs clientSide
	clk := newFakeClock()
	c := &conn{}
	for i := range SamplingBurst {
		if !cs.allowSample(c, clk) {
			t.Fatalf("request %d of the burst refused", i+1)
		}
	}
	if cs.allowSample(c, clk) {
		t.Fatal("a request past the burst was allowed")
	}
	if !cs.allowSample(&conn{}, clk) {
		t.Fatal("another server's request was refused: the limit is per server")
	}
	clk.Advance(time.Minute / SamplingPerMinute)
	if !cs.allowSample(c, clk) {
		t.Fatal("no request allowed after a refill interval")
	}
	if cs.allowSample(c, clk) {
		t.Fatal("two requests allowed after one refill interval")
	}
}
