package loadtest

import (
	"time"
)

// Bounds of a plan: what a person can ask of one run.
const (
	// MaxRate bounds --rate: far above what one client machine sustains,
	// low enough that a typo (1e9) is refused rather than attempted.
	MaxRate = 100_000
	// MaxDuration bounds --duration and --warmup each.
	MaxDuration = 24 * time.Hour
	// MaxClosed bounds --closed and --connections.
	MaxClosed = 1024
	// DefaultMaxInFlight bounds the requests an open loop keeps
	// outstanding. A request due while the bound is reached waits, and the
	// wait is part of its latency (it is measured from its intended start),
	// so the bound protects the client without hiding a stall.
	DefaultMaxInFlight = 4096
)

// Plan is one run's schedule.
type Plan struct {
	Rate        float64       // requests per second (open loop); ignored when Closed > 0
	Duration    time.Duration // the measured phase
	Warmup      time.Duration // run before measuring; nothing of it is recorded
	Closed      int           // > 0: this many callers, each sending its next request when the last one answers
	MaxInFlight int           // open loop: requests outstanding at most (0: DefaultMaxInFlight)
	Timeout     time.Duration // one request's deadline, from its intended start (required)
}

// Open reports whether the plan is an open loop (a constant arrival rate).
func (p Plan) Open() bool { return p.Closed <= 0 }

// Check refuses a plan that cannot be run as asked (E720).
func (p Plan) Check() error {
	switch {
	case p.Duration <= 0 || p.Duration > MaxDuration:
		return codes.New(CodeBadPlan, "--duration must be above 0 and at most %s, got %s", MaxDuration, p.Duration)
	case p.Warmup < 0 || p.Warmup > MaxDuration:
		return codes.New(CodeBadPlan, "--warmup must be 0 to %s, got %s", MaxDuration, p.Warmup)
	case p.Closed < 0 || p.Closed > MaxClosed:
		return codes.New(CodeBadPlan, "--closed must be 1 to %d callers, got %d", MaxClosed, p.Closed)
	case p.Open() && (p.Rate <= 0 || p.Rate > MaxRate || p.Rate != p.Rate):
		return codes.New(CodeBadPlan, "--rate must be above 0 and at most %d requests/s, got %g", MaxRate, p.Rate)
	case p.Timeout <= 0 || p.Timeout > MaxDuration:
		// Every request has a deadline: a run must end even when the
		// server never answers.
		return codes.New(CodeBadPlan, "--timeout must be above 0 and at most %s, got %s", MaxDuration, p.Timeout)
	}
	return nil
}

func (p Plan) maxInFlight() int {
	if p.MaxInFlight > 0 {
		return p.MaxInFlight
	}
	return DefaultMaxInFlight
}
