package loadtest

import (
	"context"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// stallingServer stands in for a server that answers requests one at a
// time in about a millisecond, and once, at request number stallAt, stops
// for a second. It is a serial server: the requests that arrive during the
// stall wait behind it, as they would on a single-threaded server.
type stallingServer struct {
	mu      sync.Mutex
	stallAt int
	stalled atomic.Bool
}

func (s *stallingServer) target(ctx context.Context, i int) Outcome {
	s.mu.Lock()
	defer s.mu.Unlock()
	d := time.Millisecond
	if i >= s.stallAt && s.stalled.CompareAndSwap(false, true) {
		d = time.Second
	}
	select {
	case <-time.After(d):
		return OK
	case <-ctx.Done():
		return Failed("timeout")
	}
}

// The open loop shows a stall the closed loop hides (coordinated
// omission): at 50 requests/s for 4 s, a 1-second stall delays the ~50
// requests scheduled during it by up to a second, so well over 10% of all
// requests are slow and p90 reflects the stall; one closed-loop caller
// sends nothing while it waits, so only its one stalled request is slow.
// The bounds are one-sided in the direction load cannot help: load can
// only make the open loop's p90 higher.
func TestOpenLoopShowsTheStallClosedLoopHides(t *testing.T) {
	t.Parallel()
	plan := Plan{Rate: 50, Duration: 4 * time.Second, Timeout: 5 * time.Second}
	open, err := Run(context.Background(), plan, (&stallingServer{stallAt: 50}).target, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if open.Count != 200 || open.ErrorCount != 0 {
		t.Fatalf("open loop: %d requests, %d errors; want 200 and 0", open.Count, open.ErrorCount)
	}
	if open.P90MS < 500 {
		t.Errorf("open loop p90 = %.1f ms: the 1 s stall is hidden", open.P90MS)
	}
	if open.MaxMS < 900 {
		t.Errorf("open loop max = %.1f ms, want about the stall (1000 ms)", open.MaxMS)
	}
	plan.Closed = 1
	closed, err := Run(context.Background(), plan, (&stallingServer{stallAt: 50}).target, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if closed.MaxMS < 900 {
		t.Errorf("closed loop max = %.1f ms: the stalled request was not measured", closed.MaxMS)
	}
	if closed.P90MS >= open.P90MS/2 {
		t.Errorf("closed loop p90 %.1f ms against open loop p90 %.1f ms: the closed loop should hide the stall", closed.P90MS, open.P90MS)
	}
	// The stall is drawn where it happened: the intervals scheduled during
	// it have a p99 near a second, the first ones do not.
	worst := 0.0
	for _, p := range open.Timeline {
		worst = max(worst, p.P99MS)
	}
	if worst < 900 || open.Timeline[0].P99MS >= 500 {
		t.Errorf("timeline: worst p99 %.1f ms, first %.1f ms", worst, open.Timeline[0].P99MS)
	}
}

// Warmup requests are sent but not measured; failures are counted by
// their key; a request past its deadline is a timeout.
func TestWarmupErrorsAndTimeouts(t *testing.T) {
	t.Parallel()
	var n atomic.Int64
	target := func(ctx context.Context, i int) Outcome {
		n.Add(1)
		switch i % 10 {
		case 3:
			return Failed("jsonrpc -32602")
		case 7:
			<-ctx.Done() // never answers
			return Failed("transport")
		}
		return OK
	}
	plan := Plan{Rate: 100, Warmup: 500 * time.Millisecond, Duration: time.Second, Timeout: 200 * time.Millisecond}
	r, err := Run(context.Background(), plan, target, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if r.Sent != 150 || n.Load() != 150 {
		t.Fatalf("sent %d (target saw %d), want 150 (warmup included)", r.Sent, n.Load())
	}
	if r.Count != 100 {
		t.Fatalf("measured %d, want the 100 after warmup", r.Count)
	}
	if r.Errors["jsonrpc -32602"] != 10 || r.Errors["timeout"] != 10 || r.ErrorCount != 20 {
		t.Fatalf("errors %v (%d), want 10 jsonrpc -32602 and 10 timeout", r.Errors, r.ErrorCount)
	}
	if r.ErrorRate != 0.2 {
		t.Fatalf("error rate %v, want 0.2", r.ErrorRate)
	}
	// A timed-out request's latency is its deadline, and it is counted in
	// the percentiles: the p99 is at least the deadline.
	if r.P99MS < 200 {
		t.Errorf("p99 %.1f ms leaves the timeouts out", r.P99MS)
	}
}

// A server that invents a new error for every request cannot grow the
// report: past maxErrorKeys distinct keys the rest count as "other".
func TestErrorKeysAreBounded(t *testing.T) {
	t.Parallel()
	target := func(_ context.Context, i int) Outcome {
		return Failed("jsonrpc " + string(rune('A'+i%200)) + time.Duration(i).String())
	}
	r, err := Run(context.Background(), Plan{Rate: 1000, Duration: 300 * time.Millisecond, Timeout: time.Second}, target, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Errors) > maxErrorKeys || r.Errors["other"] == 0 || r.ErrorCount != r.Count {
		t.Fatalf("%d error keys (other %d), %d errors of %d", len(r.Errors), r.Errors["other"], r.ErrorCount, r.Count)
	}
}

// Cancelling the run's context ends it early with what was measured, and
// every request in flight ends with it.
func TestCancelEndsTheRun(t *testing.T) {
	t.Parallel()
	ctx, cancel := context.WithCancel(context.Background())
	target := func(ctx context.Context, i int) Outcome {
		if i == 20 {
			cancel()
		}
		<-ctx.Done()
		return Failed("cancelled")
	}
	r, err := Run(ctx, Plan{Rate: 100, Duration: time.Hour, Timeout: time.Hour}, target, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if !r.Interrupted || r.Sent > 30 {
		t.Fatalf("interrupted=%v after %d sent", r.Interrupted, r.Sent)
	}
}

func TestPlanBounds(t *testing.T) {
	for _, p := range []Plan{
		{Rate: 0, Duration: time.Second, Timeout: time.Second},
		{Rate: MaxRate + 1, Duration: time.Second, Timeout: time.Second},
		{Rate: 10, Duration: 0, Timeout: time.Second},
		{Rate: 10, Duration: time.Second},
		{Rate: 10, Duration: time.Second, Timeout: time.Second, Warmup: -1},
		{Closed: MaxClosed + 1, Duration: time.Second, Timeout: time.Second},
	} {
		if err := p.Check(); err == nil || !hasCode(err, CodeBadPlan) {
			t.Errorf("%+v: %v, want %s", p, err, CodeBadPlan)
		}
	}
	if err := (Plan{Closed: 4, Duration: time.Second, Timeout: time.Second}).Check(); err != nil {
		t.Errorf("a closed loop needs no rate: %v", err)
	}
}
