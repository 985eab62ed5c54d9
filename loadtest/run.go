package loadtest

import (
	"context"
	"io"
	"sync"
	"time"
)

// Options are what a run reports to while it runs.
type Options struct {
	// Progress, when not nil, receives a live line (rate, p99, errors) a
	// few times a second, each starting with a carriage return: give it a
	// terminal, never a pipe.
	Progress io.Writer
	// Live, when not nil, is called a few times a second with the figures
	// so far (a report of what has been measured; the workbench draws its
	// chart from it), from a goroutine of the run's; it must not block.
	Live func(*Report)
	// Now is the clock (nil: time.Now); tests do not replace it to speed
	// a run up, only to read it.
	Now func() time.Time
}

// Run drives target by plan and returns the report. It returns when the
// measured phase is over and every request in flight has ended (each is
// bounded by plan.Timeout, and all by ctx); no goroutine it started
// outlives it. Cancelling ctx ends the run early: the report covers what
// was measured, with Interrupted set.
func Run(ctx context.Context, plan Plan, target Target, opt Options) (*Report, error) {
	if err := plan.Check(); err != nil {
		return nil, err
	}
	return measure(ctx, plan, opt, func(ctx context.Context, rec *recorder, t0 time.Time, now func() time.Time) int64 {
		if plan.Open() {
			return openLoop(ctx, plan, target, rec, t0, now)
		}
		return closedLoop(ctx, plan, target, rec, t0, now)
	}), nil
}

// measure is what every run shares: the clock, the recorder, the live
// progress, the client's own CPU and the report. drive sends the requests
// (from t0, recording into rec) and returns how many it sent, once every
// one of them has ended.
func measure(ctx context.Context, plan Plan, opt Options, drive func(ctx context.Context, rec *recorder, t0 time.Time, now func() time.Time) int64) *Report {
	now := opt.Now
	if now == nil {
		now = time.Now
	}
	cpu0 := cpuTime()
	t0 := now()
	rec := newRecorder(t0.Add(plan.Warmup), plan.Duration)
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()

	var progress sync.WaitGroup
	stopProgress := make(chan struct{})
	if opt.Progress != nil || opt.Live != nil {
		progress.Add(1)
		go func() {
			defer progress.Done()
			tick(opt, plan, rec, t0, now, stopProgress)
		}()
	}
	sent := drive(ctx, rec, t0, now)
	close(stopProgress)
	progress.Wait()
	cpu := cpuTime() - cpu0
	return rec.report(plan, now(), ctx.Err() != nil, cpu, sent)
}

// call runs one request under the plan's deadline and records it.
func call(ctx context.Context, plan Plan, target Target, rec *recorder, i int, intended time.Time, now func() time.Time) {
	if plan.Timeout > 0 {
		var cancel context.CancelFunc
		// The deadline runs from the intended start: a request that waited
		// for a free slot has already spent part of its time.
		ctx, cancel = context.WithDeadline(ctx, intended.Add(plan.Timeout))
		defer cancel()
	}
	s := sample{intended: intended, sent: now()}
	s.outcome = safeCall(ctx, target, i)
	if s.outcome.Error != "" && ctx.Err() == context.DeadlineExceeded {
		s.outcome = Failed("timeout")
	}
	s.done = now()
	rec.record(s)
}

// safeCall is target(ctx, i); a panic in it is counted as a failure of
// this request, not the end of the run.
func safeCall(ctx context.Context, target Target, i int) (out Outcome) {
	defer func() {
		if recover() != nil {
			out = Failed("client panic")
		}
	}()
	return target(ctx, i)
}

// openLoop sends request i at t0 + i/rate, whatever became of the earlier
// ones: the arrival rate is the plan's, not the server's. At most
// plan.MaxInFlight requests are outstanding; a request due while that many
// are, waits, and its wait is part of its latency.
func openLoop(ctx context.Context, plan Plan, target Target, rec *recorder, t0 time.Time, now func() time.Time) int64 {
	total := plan.Warmup + plan.Duration
	period := float64(time.Second) / plan.Rate
	slots := make(chan struct{}, plan.maxInFlight())
	var wg sync.WaitGroup
	defer wg.Wait()
	timer := time.NewTimer(0)
	defer timer.Stop()
	<-timer.C
	var i int64
	for ; ; i++ {
		offset := time.Duration(float64(i) * period)
		if offset >= total {
			return i
		}
		intended := t0.Add(offset)
		if wait := intended.Sub(now()); wait > 0 {
			timer.Reset(wait)
			select {
			case <-timer.C:
			case <-ctx.Done():
				return i
			}
		}
		select {
		case slots <- struct{}{}:
		case <-ctx.Done():
			return i
		}
		wg.Add(1)
		go func(i int, intended time.Time) {
			defer wg.Done()
			defer func() { <-slots }()
			call(ctx, plan, target, rec, i, intended, now)
		}(int(i), intended)
	}
}

// closedLoop runs plan.Closed callers, each sending its next request when
// its last one has answered, until the run's time is up. Latency is from
// each request's own start: a closed loop cannot see what a stalled server
// would have cost the requests it never sent (the open loop can).
func closedLoop(ctx context.Context, plan Plan, target Target, rec *recorder, t0 time.Time, now func() time.Time) int64 {
	end := t0.Add(plan.Warmup + plan.Duration)
	var (
		wg  sync.WaitGroup
		mu  sync.Mutex
		seq int64
	)
	next := func() int {
		mu.Lock()
		defer mu.Unlock()
		seq++
		return int(seq - 1)
	}
	for range plan.Closed {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for ctx.Err() == nil {
				start := now()
				if !start.Before(end) {
					return
				}
				call(ctx, plan, target, rec, next(), start, now)
			}
		}()
	}
	wg.Wait()
	mu.Lock()
	defer mu.Unlock()
	return seq
}
