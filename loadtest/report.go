package loadtest

import (
	"math"
	"sort"
	"time"

	hdr "github.com/HdrHistogram/hdrhistogram-go"
)

// Report is a run's figures, named plainly: the --json envelope's data,
// what --save writes and what --baseline reads back. Latencies are in
// milliseconds, measured from each request's intended start (open loop) or
// its start (closed loop).
type Report struct {
	Version int `json:"version"` // of this shape; --baseline refuses another

	Target      string  `json:"target"`           // the tool, or the method
	Server      string  `json:"server,omitempty"` // the server it ran against
	Mode        string  `json:"mode"`             // "open" or "closed"
	Rate        float64 `json:"rate,omitempty"`   // asked, requests/s (open loop)
	Closed      int     `json:"closed,omitempty"` // callers (closed loop)
	Connections int     `json:"connections,omitempty"`
	DurationMS  int64   `json:"duration_ms"`
	WarmupMS    int64   `json:"warmup_ms"`
	TimeoutMS   int64   `json:"timeout_ms"`

	Count        int64            `json:"count"`         // measured requests that ended (answered or failed)
	Sent         int64            `json:"sent"`          // every request sent, warmup included
	AchievedRate float64          `json:"achieved_rate"` // measured requests ended per second
	Errors       map[string]int64 `json:"errors"`        // failed requests by class and code
	ErrorCount   int64            `json:"error_count"`
	ErrorRate    float64          `json:"error_rate"` // failed / count, 0 to 1

	MinMS  float64 `json:"min_ms"`
	MeanMS float64 `json:"mean_ms"`
	P50MS  float64 `json:"p50_ms"`
	P90MS  float64 `json:"p90_ms"`
	P99MS  float64 `json:"p99_ms"`
	P999MS float64 `json:"p999_ms"`
	MaxMS  float64 `json:"max_ms"`

	// The client's own cost, so the tool never mistakes itself for the
	// server: relavium's CPU time per request, and how late requests were
	// sent against their schedule (a p99 lag near the p99 latency means
	// the client, not the server, was the bottleneck).
	ClientCPUUSPerRequest float64 `json:"client_cpu_us_per_request"`
	LagP99MS              float64 `json:"schedule_lag_p99_ms"`

	Histogram []Bucket `json:"histogram"` // latency buckets, 1-2-5 steps
	Timeline  []Point  `json:"timeline"`  // latency over time, by intended start

	Interrupted bool `json:"interrupted,omitempty"` // cut short (ctrl+c): the figures cover what ran
	Running     bool `json:"running,omitempty"`     // a snapshot taken while the run goes on (Options.Live)
}

// ReportVersion is the shape Report has today.
const ReportVersion = 1

// Bucket counts the requests whose latency is above the previous bucket's
// LeMS and at most this one's.
type Bucket struct {
	LeMS  float64 `json:"le_ms"`
	Count int64   `json:"count"`
}

// Point is one interval of the measured phase.
type Point struct {
	TMS    int64   `json:"t_ms"` // the interval's start, from the measured phase's start
	Count  int64   `json:"count"`
	Errors int64   `json:"errors"`
	P50MS  float64 `json:"p50_ms"`
	P99MS  float64 `json:"p99_ms"`
	MaxMS  float64 `json:"max_ms"`
}

func ms(us int64) float64 { return math.Round(float64(us)) / 1000 }

func (r *recorder) report(plan Plan, ended time.Time, interrupted bool, cpu time.Duration, sent int64) *Report {
	r.mu.Lock()
	defer r.mu.Unlock()
	rep := &Report{
		Version: ReportVersion, Mode: "open",
		DurationMS: plan.Duration.Milliseconds(), WarmupMS: plan.Warmup.Milliseconds(), TimeoutMS: plan.Timeout.Milliseconds(),
		Count: r.lat.TotalCount(), Sent: sent, Errors: map[string]int64{},
		Histogram: []Bucket{}, Timeline: []Point{}, Interrupted: interrupted,
	}
	if plan.Open() {
		rep.Rate = plan.Rate
	} else {
		rep.Mode, rep.Closed = "closed", plan.Closed
	}
	for k, v := range r.errors {
		rep.Errors[k] = v
		rep.ErrorCount += v
	}
	if rep.Count > 0 {
		rep.ErrorRate = float64(rep.ErrorCount) / float64(rep.Count)
		// The rate achieved is what ended over the time it took: the
		// measured phase, or longer when the last answers came after it
		// (a server that falls behind drains late, and that is slower).
		span := r.end.Sub(r.start)
		if r.last.After(r.end) {
			span = r.last.Sub(r.start)
		}
		if interrupted && ended.Before(r.end) {
			span = ended.Sub(r.start)
		}
		if span > 0 {
			rep.AchievedRate = math.Round(float64(rep.Count)/span.Seconds()*100) / 100
		}
		rep.MinMS, rep.MaxMS = ms(r.lat.Min()), ms(r.lat.Max())
		rep.MeanMS = math.Round(r.lat.Mean()) / 1000
		rep.P50MS = ms(r.lat.ValueAtQuantile(50))
		rep.P90MS = ms(r.lat.ValueAtQuantile(90))
		rep.P99MS = ms(r.lat.ValueAtQuantile(99))
		rep.P999MS = ms(r.lat.ValueAtQuantile(99.9))
		rep.LagP99MS = ms(r.lag.ValueAtQuantile(99))
		if cpu > 0 {
			rep.ClientCPUUSPerRequest = math.Round(float64(cpu.Microseconds())/float64(max(sent, 1))*10) / 10
		}
		rep.Histogram = buckets(r.lat)
	}
	for i, p := range r.points {
		pt := Point{TMS: (time.Duration(i) * r.interval).Milliseconds(), Count: p.count, Errors: p.errors}
		if p.count > 0 {
			pt.P50MS = ms(p.hist.ValueAtQuantile(50))
			pt.P99MS = ms(p.hist.ValueAtQuantile(99))
			pt.MaxMS = ms(p.hist.Max())
		}
		rep.Timeline = append(rep.Timeline, pt)
	}
	return rep
}

// edgesUS are the buckets' upper bounds in µs: 1-2-5 steps from 10 µs to
// one hour.
var edgesUS = func() []int64 {
	var e []int64
	for d := int64(10); d <= maxValueUS; d *= 10 {
		e = append(e, d, 2*d, 5*d)
	}
	return e
}()

// buckets folds the histogram into 1-2-5 buckets from the one holding the
// fastest request to the one holding the slowest.
func buckets(h *hdr.Histogram) []Bucket {
	counts := make([]int64, len(edgesUS)+1)
	for _, bar := range h.Distribution() {
		if bar.Count == 0 {
			continue
		}
		// A bar's values are From..To; its highest equivalent value decides
		// its bucket (HDR's bars are far narrower than a 1-2-5 step).
		i := sort.Search(len(edgesUS), func(i int) bool { return edgesUS[i] >= bar.To })
		counts[i] += bar.Count
	}
	lo, hi := -1, -1
	for i, c := range counts {
		if c > 0 {
			if lo < 0 {
				lo = i
			}
			hi = i
		}
	}
	out := []Bucket{}
	for i := lo; i >= 0 && i <= hi; i++ {
		le := float64(maxValueUS) / 1000
		if i < len(edgesUS) {
			le = float64(edgesUS[i]) / 1000
		}
		out = append(out, Bucket{LeMS: le, Count: counts[i]})
	}
	return out
}
