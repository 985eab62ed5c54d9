package loadtest

import (
	"context"
	"sync"
	"time"

	"github.com/relavium/relavium/fault"
)

// A Pipe is a connection that carries many requests at once without a
// goroutine, a timer or a context each: Send writes request i and returns
// without waiting for its answer, and the pipe reports the answer through
// the Answer function it was opened with. This is how a load generator
// keeps out of its own measurement (wrk2 drives each connection from one
// event loop for the same reason): a client that spends a goroutine
// wake-up per request on two cores measures its own scheduler, not the
// server. Target remains for connections that cannot pipeline.
type Pipe interface {
	// Send writes requests is (numbered 0, 1, 2 … in schedule order;
	// several when the sender is catching up), in one write where it can.
	// An error is the outcome of every one of them; the pipe does not
	// answer them.
	Send(is []int) error
	// Cancel tells the server request i is given up (its deadline
	// passed); best effort, and a later answer to it is not reported.
	Cancel(i int)
	// Close ends the pipe's reporting: once Close returns, Answer is
	// never called again. Close does not end the connection.
	Close()
}

// Answer reports how request i ended. A pipe calls it at most once per i,
// from any goroutine (typically its reader's), and must not call it after
// Close returned. It never blocks on the network.
type Answer func(i int, o Outcome)

// OpenPipes opens the pipes a run spreads its requests over (request i
// goes to pipe i mod n), each reporting answers to answer.
type OpenPipes func(answer Answer) ([]Pipe, error)

// RunPipes is Run over pipes: the same schedule, figures and guarantees
// (latency from the intended start; at most plan.Timeout per request; no
// goroutine it started outlives it; ctx ends the run early, with what was
// measured). A request whose deadline passes is counted a "timeout" and
// cancelled at its pipe.
func RunPipes(ctx context.Context, plan Plan, open OpenPipes, opt Options) (*Report, error) {
	if err := plan.Check(); err != nil {
		return nil, err
	}
	if opt.Now == nil {
		opt.Now = time.Now
	}
	inflight := newPending(plan, opt.Now)
	pipes, err := open(inflight.answer)
	if err != nil {
		return nil, err
	}
	defer func() {
		for _, p := range pipes {
			p.Close()
		}
	}()
	inflight.pipes = pipes
	return measure(ctx, plan, opt, func(ctx context.Context, rec *recorder, t0 time.Time, _ func() time.Time) int64 {
		inflight.rec = rec // read by answers only after a send (under mu)
		var sweeper sync.WaitGroup
		stop := make(chan struct{})
		sweeper.Add(1)
		go func() { // deadlines: one sweep a few times per timeout, not a timer per request
			defer sweeper.Done()
			inflight.sweep(stop)
		}()
		var sent int64
		if plan.Open() {
			sent = inflight.openLoop(ctx, t0)
		} else {
			sent = inflight.closedLoop(ctx, t0)
		}
		inflight.drain(ctx)
		close(stop)
		sweeper.Wait()
		return sent
	}), nil
}

// pending is a run's requests in flight over pipes, by number.
type pending struct {
	plan  Plan
	rec   *recorder
	now   func() time.Time
	pipes []Pipe
	slots chan struct{} // one per request in flight (the plan's bound)
	ids   []int         // the sender's scratch: one pipe's share of a batch
	freed chan struct{} // closed-loop callers: a request ended

	mu   sync.Mutex
	out  map[int]sample // sent, not yet answered
	live int            // sent, not yet recorded
	idle chan struct{}  // closed when live reaches 0 while draining
}

func newPending(plan Plan, now func() time.Time) *pending {
	return &pending{plan: plan, now: now, out: map[int]sample{},
		slots: make(chan struct{}, plan.maxInFlight()), freed: make(chan struct{}, max(plan.Closed, 1))}
}

// answer takes a pipe's report of request i; a request already ended (its
// deadline passed) is not counted twice.
func (p *pending) answer(i int, o Outcome) {
	done := p.now()
	p.mu.Lock()
	s, ok := p.out[i]
	delete(p.out, i)
	p.mu.Unlock()
	if !ok {
		return
	}
	s.done, s.outcome = done, o
	p.end(s)
}

// end records s and frees its slot; the last one wakes a drain.
func (p *pending) end(s sample) {
	p.rec.record(s)
	<-p.slots
	if p.plan.Closed > 0 {
		select {
		case p.freed <- struct{}{}:
		default:
		}
	}
	p.mu.Lock()
	p.live--
	if p.live == 0 && p.idle != nil {
		close(p.idle)
		p.idle = nil
	}
	p.mu.Unlock()
}

// due is a request whose time has come: its number and intended start.
type due struct {
	i        int
	intended time.Time
}

// maxBatch bounds the requests written at once.
const maxBatch = 256

// send writes the requests of batch, each once a slot is free: those of
// one pipe in one write. A sender that keeps up writes one request at a
// time; one that fell behind (the schedule is what it is) catches up with
// one write instead of many, so the client's own cost does not grow as the
// server slows it down.
func (p *pending) send(ctx context.Context, batch []due) bool {
	for range batch {
		select {
		case p.slots <- struct{}{}:
		case <-ctx.Done():
			return false
		}
	}
	sent := p.now()
	p.mu.Lock()
	for _, d := range batch {
		p.out[d.i] = sample{intended: d.intended, sent: sent}
		p.live++
	}
	p.mu.Unlock()
	n := len(p.pipes)
	for k, pipe := range p.pipes {
		is := p.ids[:0]
		for _, d := range batch {
			if d.i%n == k {
				is = append(is, d.i)
			}
		}
		p.ids = is
		if len(is) == 0 {
			continue
		}
		if err := pipe.Send(is); err != nil {
			p.failed(is, err)
		}
	}
	return true
}

// failed ends the requests a pipe could not write (those the sweep has not
// ended already).
func (p *pending) failed(is []int, err error) {
	var ended []sample
	p.mu.Lock()
	for _, i := range is {
		if s, ok := p.out[i]; ok {
			delete(p.out, i)
			ended = append(ended, s)
		}
	}
	p.mu.Unlock()
	now := p.now()
	for _, s := range ended {
		s.done, s.outcome = now, Failed(sendKey(err))
		p.end(s)
	}
}

// openLoop sends request i at t0 + i/rate, whatever became of the earlier
// ones (as openLoop does for a Target); the requests already due when it
// wakes go out together.
func (p *pending) openLoop(ctx context.Context, t0 time.Time) int64 {
	total := p.plan.Warmup + p.plan.Duration
	period := float64(time.Second) / p.plan.Rate
	at := func(i int64) time.Duration { return time.Duration(float64(i) * period) }
	timer := time.NewTimer(0)
	defer timer.Stop()
	<-timer.C
	batch := make([]due, 0, maxBatch)
	var i int64
	for {
		if at(i) >= total {
			return i
		}
		if wait := t0.Add(at(i)).Sub(p.now()); wait > 0 {
			timer.Reset(wait)
			select {
			case <-timer.C:
			case <-ctx.Done():
				return i
			}
		}
		now := p.now()
		batch = batch[:0]
		for j := i; len(batch) < maxBatch && at(j) < total; j++ {
			intended := t0.Add(at(j))
			if j > i && intended.After(now) {
				break
			}
			batch = append(batch, due{int(j), intended})
		}
		if !p.send(ctx, batch) {
			return i
		}
		i += int64(len(batch))
	}
}

// closedLoop keeps plan.Closed requests outstanding until the run's time is
// up: each ending request lets the next one go, measured from its own start.
func (p *pending) closedLoop(ctx context.Context, t0 time.Time) int64 {
	end := t0.Add(p.plan.Warmup + p.plan.Duration)
	var i int64
	for ; i < int64(p.plan.Closed); i++ {
		if !p.send(ctx, []due{{int(i), p.now()}}) {
			return i
		}
	}
	for {
		select {
		case <-p.freed:
		case <-ctx.Done():
			return i
		}
		start := p.now()
		if !start.Before(end) {
			return i
		}
		if !p.send(ctx, []due{{int(i), start}}) {
			return i
		}
		i++
	}
}

// drain waits for the requests still out: each is answered or reaches its
// deadline (the sweep ends it), or the run is cancelled.
func (p *pending) drain(ctx context.Context) {
	p.mu.Lock()
	if p.live == 0 {
		p.mu.Unlock()
		return
	}
	idle := make(chan struct{})
	p.idle = idle
	p.mu.Unlock()
	select {
	case <-idle:
	case <-ctx.Done():
	}
}

// sweep ends the requests whose deadline (intended start + timeout) has
// passed, a few times per timeout, until stop.
func (p *pending) sweep(stop <-chan struct{}) {
	every := min(max(p.plan.Timeout/20, 5*time.Millisecond), 100*time.Millisecond)
	t := time.NewTicker(every)
	defer t.Stop()
	for {
		select {
		case <-stop:
			return
		case <-t.C:
		}
		now := p.now()
		var late []int
		var ended []sample
		p.mu.Lock()
		for i, s := range p.out {
			if now.Sub(s.intended) >= p.plan.Timeout {
				late = append(late, i)
				s.done, s.outcome = now, Failed("timeout")
				ended = append(ended, s)
				delete(p.out, i)
			}
		}
		p.mu.Unlock()
		for n, i := range late {
			p.pipes[i%len(p.pipes)].Cancel(i)
			p.end(ended[n])
		}
	}
}

// sendKey counts a request its pipe could not write: under the error's
// code (as a Target's failures are counted), else "transport".
func sendKey(err error) string {
	if c := fault.CodeOf(err, ""); c != "" {
		return string(c)
	}
	return "transport"
}
