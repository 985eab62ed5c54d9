package loadtest

import (
	"context"
	"sync"
	"testing"
	"time"

	"github.com/relavium/relavium/fault"
)

// serialPipe stands in for a pipelined connection to a serial server: it
// answers requests in arrival order, each after delay(i), from its one
// goroutine (as a pipe's reader answers). drop(i) true: never answered.
type serialPipe struct {
	answer Answer
	delay  func(i int) time.Duration
	drop   func(i int) bool
	fail   func(i int) error

	in   chan int
	quit chan struct{}
	done chan struct{}

	mu        sync.Mutex
	cancelled []int
	closed    bool
	failed    []int // requests sent in a batch Send failed (the error is each one's outcome)
}

func openSerial(delay func(int) time.Duration, drop func(int) bool, fail func(int) error) (*serialPipe, OpenPipes) {
	p := &serialPipe{delay: delay, drop: drop, fail: fail, in: make(chan int, 1<<16), quit: make(chan struct{}), done: make(chan struct{})}
	return p, func(a Answer) ([]Pipe, error) {
		p.answer = a
		go p.serve()
		return []Pipe{p}, nil
	}
}

func (p *serialPipe) serve() {
	defer close(p.done)
	for {
		select {
		case i := <-p.in:
			select {
			case <-time.After(p.delay(i)):
			case <-p.quit:
				return
			}
			if p.drop == nil || !p.drop(i) {
				p.mu.Lock()
				if !p.closed {
					p.answer(i, OK)
				}
				p.mu.Unlock()
			}
		case <-p.quit:
			return
		}
	}
}

func (p *serialPipe) Send(is []int) error {
	for _, i := range is {
		if p.fail != nil {
			if err := p.fail(i); err != nil {
				p.mu.Lock()
				p.failed = append(p.failed, is...)
				p.mu.Unlock()
				return err
			}
		}
	}
	for _, i := range is {
		p.in <- i
	}
	return nil
}

func (p *serialPipe) Cancel(i int) {
	p.mu.Lock()
	p.cancelled = append(p.cancelled, i)
	p.mu.Unlock()
}

func (p *serialPipe) Close() {
	p.mu.Lock()
	already := p.closed
	p.closed = true
	p.mu.Unlock()
	if !already {
		close(p.quit)
		<-p.done
	}
}

// Over pipes the open loop shows a stall the closed loop hides, as it does
// over a Target (TestOpenLoopShowsTheStallClosedLoopHides): the schedule,
// not the answers, decides when a request is sent.
func TestPipesOpenLoopShowsTheStallClosedLoopHides(t *testing.T) {
	t.Parallel()
	stall := func(at int) func(int) time.Duration {
		var once sync.Once
		return func(i int) time.Duration {
			d := time.Millisecond
			if i >= at {
				once.Do(func() { d = time.Second })
			}
			return d
		}
	}
	plan := Plan{Rate: 50, Duration: 4 * time.Second, Timeout: 5 * time.Second}
	_, open := openSerial(stall(50), nil, nil)
	rep, err := RunPipes(context.Background(), plan, open, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Count != 200 || rep.ErrorCount != 0 {
		t.Fatalf("open loop: %d requests, %d errors; want 200 and 0", rep.Count, rep.ErrorCount)
	}
	if rep.P90MS < 500 || rep.MaxMS < 900 {
		t.Errorf("open loop p90 %.1f ms, max %.1f ms: the 1 s stall is hidden", rep.P90MS, rep.MaxMS)
	}
	plan.Closed = 1
	_, closedOpen := openSerial(stall(50), nil, nil)
	closed, err := RunPipes(context.Background(), plan, closedOpen, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if closed.MaxMS < 900 {
		t.Errorf("closed loop max = %.1f ms: the stalled request was not measured", closed.MaxMS)
	}
	if closed.P90MS >= rep.P90MS/2 {
		t.Errorf("closed loop p90 %.1f ms against open loop p90 %.1f ms: the closed loop should hide the stall", closed.P90MS, rep.P90MS)
	}
}

// A request never answered is a timeout at its deadline (counted once,
// cancelled at its pipe), and the run still ends; a request the pipe could
// not write is counted under its error's code.
func TestPipesTimeoutsAndSendFailures(t *testing.T) {
	t.Parallel()
	p, open := openSerial(func(int) time.Duration { return 0 },
		func(i int) bool { return i%10 == 3 },
		func(i int) error {
			if i%10 == 7 {
				return &fault.Error{ErrCode: "E599", Msg: "gone"}
			}
			return nil
		})
	plan := Plan{Rate: 100, Duration: time.Second, Timeout: 200 * time.Millisecond}
	rep, err := RunPipes(context.Background(), plan, open, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Count != 100 {
		t.Fatalf("%d requests counted, want 100", rep.Count)
	}
	// A sender that falls behind (a loaded machine) writes several
	// requests at once, and a failed write is the outcome of each of them
	// (Pipe.Send): what the report must count follows from the batches the
	// pipe saw. Kept up with, that is 10 E599 and 10 timeouts.
	p.mu.Lock()
	defer p.mu.Unlock()
	inFailed := map[int]bool{}
	for _, i := range p.failed {
		inFailed[i] = true
	}
	var timedOut []int
	for i := range 100 {
		if i%10 == 3 && !inFailed[i] {
			timedOut = append(timedOut, i)
		}
	}
	if len(inFailed) < 10 || rep.Errors["E599"] != int64(len(inFailed)) || rep.Errors["timeout"] != int64(len(timedOut)) ||
		rep.ErrorCount != int64(len(inFailed)+len(timedOut)) || len(rep.Errors) != 2 {
		t.Errorf("errors %v (%d), want %d E599 (the requests of failed writes) and %d timeouts", rep.Errors, rep.ErrorCount, len(inFailed), len(timedOut))
	}
	if len(p.cancelled) != len(timedOut) {
		t.Errorf("%d requests cancelled at the pipe, want the %d that timed out", len(p.cancelled), len(timedOut))
	}
	for _, i := range p.cancelled {
		if i%10 != 3 || inFailed[i] {
			t.Errorf("request %d cancelled, but it was answered or never written", i)
		}
	}
}

// Cancelling ctx ends a run over pipes early with what was measured; the
// pipes are closed before RunPipes returns (goleak: TestMain).
func TestPipesCancelEndsTheRun(t *testing.T) {
	t.Parallel()
	p, open := openSerial(func(int) time.Duration { return time.Hour }, nil, nil)
	ctx, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
	defer cancel()
	rep, err := RunPipes(ctx, Plan{Rate: 20, Duration: time.Minute, Timeout: time.Hour}, open, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if !rep.Interrupted {
		t.Error("the report does not say the run was interrupted")
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if !p.closed {
		t.Error("the pipe was not closed")
	}
}

// A pipe that cannot be opened is the run's error, before anything is sent.
func TestPipesOpenFailure(t *testing.T) {
	t.Parallel()
	want := &fault.Error{ErrCode: "E925", Msg: "no pipe"}
	_, err := RunPipes(context.Background(), Plan{Rate: 10, Duration: time.Second, Timeout: time.Second},
		func(Answer) ([]Pipe, error) { return nil, want }, Options{})
	if err != want {
		t.Fatalf("err = %v, want the opener's", err)
	}
}
