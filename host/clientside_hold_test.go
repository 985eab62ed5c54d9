package host

import (
	"testing"
	"time"

	"github.com/relavium/relavium/host/clientside"
	"github.com/relavium/relavium/host/deadline"
	"github.com/relavium/relavium/host/deadline/deadlinetest"
)

// hold pauses the calls of the held server only; a call that starts during
// a hold starts paused and is resumed with the others.
func TestClientSideHoldPausesTheServersCalls(t *testing.T) {
	var cs clientSide
	clk := deadlinetest.NewClock()
	a, b := &conn{}, &conn{}
	fired := map[string]bool{}
	mk := func(name string) func(int) *deadline.Call {
		return func(paused int) *deadline.Call {
			c := &deadline.Cause{What: name}
			return deadline.NewCall(clk, 10*time.Second, 0, c, c, paused, func(error) { fired[name] = true })
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
	clk := deadlinetest.NewClock()
	c := &conn{}
	for i := range clientside.SamplingBurst {
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
	clk.Advance(time.Minute / clientside.SamplingPerMinute)
	if !cs.allowSample(c, clk) {
		t.Fatal("no request allowed after a refill interval")
	}
	if cs.allowSample(c, clk) {
		t.Fatal("two requests allowed after one refill interval")
	}
}
