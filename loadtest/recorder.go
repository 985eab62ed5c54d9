package loadtest

import (
	"sync"
	"time"

	hdr "github.com/HdrHistogram/hdrhistogram-go"
)

// Histogram range: 1 µs to 1 h at 3 significant digits (HDR's usual
// setting; ~200 KB whatever the run's length). A latency above an hour is
// recorded as an hour.
const (
	minValueUS = 1
	maxValueUS = int64(time.Hour / time.Microsecond)
	sigFigs    = 3
	// maxPoints bounds the latency-over-time series: a run's measured
	// phase is cut into at most this many intervals, each of at least
	// minInterval.
	maxPoints   = 120
	minInterval = 100 * time.Millisecond
)

// recorder holds a run's figures as requests finish: the whole run's
// histogram, the schedule lag's, the errors by key and the time series.
// Memory is bounded by the histograms and maxPoints, never by the count.
type recorder struct {
	mu       sync.Mutex
	start    time.Time // the measured phase's start (intended times before it are warmup)
	end      time.Time // and its end
	interval time.Duration
	lat      *hdr.Histogram // latency from the intended start, µs
	lag      *hdr.Histogram // sent - intended, µs: the client's own delay
	errors   map[string]int64
	ok       int64
	last     time.Time // the latest completion of a measured request
	points   []point
}

// point is one interval of the series (by intended start).
type point struct {
	hist   *hdr.Histogram // lower precision: 2 digits
	count  int64
	errors int64
}

func newRecorder(start time.Time, d time.Duration) *recorder {
	iv := max(minInterval, (d+maxPoints-1)/maxPoints)
	// Round the interval up to a readable step (100 ms, 1 s, 10 s …
	// multiples) so the chart's axis reads in whole units.
	for _, step := range []time.Duration{100 * time.Millisecond, time.Second, 10 * time.Second, time.Minute} {
		if iv <= 10*step {
			iv = (iv + step - 1) / step * step
			break
		}
	}
	n := int((d + iv - 1) / iv)
	pts := make([]point, n)
	for i := range pts {
		pts[i].hist = hdr.New(minValueUS, maxValueUS, 2)
	}
	return &recorder{
		start: start, end: start.Add(d), interval: iv,
		lat:    hdr.New(minValueUS, maxValueUS, sigFigs),
		lag:    hdr.New(minValueUS, maxValueUS, sigFigs),
		errors: map[string]int64{},
		points: pts,
	}
}

func micros(d time.Duration) int64 {
	us := d.Microseconds()
	return min(max(us, minValueUS), maxValueUS)
}

// record takes one finished request; a request whose intended start is
// before the measured phase (warmup) or after it is not counted.
func (r *recorder) record(s sample) {
	if s.intended.Before(r.start) || !s.intended.Before(r.end) {
		return
	}
	lat := micros(s.done.Sub(s.intended))
	r.mu.Lock()
	defer r.mu.Unlock()
	// A failed request's latency is recorded too: a timeout that is left
	// out of the percentiles flatters the server.
	_ = r.lat.RecordValue(lat)
	_ = r.lag.RecordValue(micros(s.sent.Sub(s.intended)))
	p := &r.points[min(int(s.intended.Sub(r.start)/r.interval), len(r.points)-1)]
	_ = p.hist.RecordValue(lat)
	p.count++
	if key := s.outcome.Error; key != "" {
		if _, seen := r.errors[key]; !seen && len(r.errors) >= maxErrorKeys-1 {
			key = "other" // a server inventing a new error per request cannot grow the report
		}
		r.errors[key]++
		p.errors++
	} else {
		r.ok++
	}
	if s.done.After(r.last) {
		r.last = s.done
	}
}

// live is what the progress line shows: requests so far, the p99 so far
// and the errors.
func (r *recorder) live() (count int64, p99 time.Duration, errs int64) {
	r.mu.Lock()
	defer r.mu.Unlock()
	count = r.lat.TotalCount()
	p99 = time.Duration(r.lat.ValueAtQuantile(99)) * time.Microsecond
	return count, p99, count - r.ok
}
