package loadtest

import (
	"fmt"
	"strconv"
	"strings"
	"time"
)

// Thresholds turn a run into pass or fail for CI, as k6 does: each one set
// is checked against the report, and every one that fails is named.
type Thresholds struct {
	MaxP99       time.Duration // 0: not checked
	MaxErrorRate float64       // a fraction, 0 to 1; < 0: not checked
	MinRate      float64       // a fraction of the asked rate, 0 to 1; 0: not checked (open loop only)
}

// NoThresholds checks nothing.
var NoThresholds = Thresholds{MaxErrorRate: -1}

// ParseRate reads a rate in requests per second: "50", "50/s" or
// "3000/m" (E720 otherwise, or out of bounds).
func ParseRate(s string) (float64, error) {
	num, per := strings.TrimSpace(s), time.Second
	for suffix, d := range map[string]time.Duration{"/s": time.Second, "/m": time.Minute} {
		if n, ok := strings.CutSuffix(num, suffix); ok && n != "" {
			num, per = n, d
		}
	}
	v, err := strconv.ParseFloat(num, 64)
	if err != nil {
		return 0, codes.New(CodeBadPlan, "the rate takes requests per second such as 50 or 50/s (or 3000/m), got %q", s)
	}
	v = v * float64(time.Second) / float64(per)
	if v <= 0 || v > MaxRate || v != v {
		return 0, codes.New(CodeBadPlan, "the rate must be above 0 and at most %d requests/s, got %q", MaxRate, s)
	}
	return v, nil
}

// ParsePercent reads "0.1%" (or a bare fraction "0.001") as a fraction.
func ParsePercent(flag, s string) (float64, error) {
	t := strings.TrimSpace(s)
	var v float64
	var err error
	if p, ok := strings.CutSuffix(t, "%"); ok {
		v, err = strconv.ParseFloat(strings.TrimSpace(p), 64)
		v /= 100
	} else {
		v, err = strconv.ParseFloat(t, 64)
	}
	if err != nil || v < 0 || v > 1 || v != v {
		return 0, codes.New(CodeBadThreshold, "%s takes a percentage from 0%% to 100%% (for example 0.1%%), got %q", flag, s)
	}
	return v, nil
}

// Failure is one threshold a run did not meet.
type Failure struct {
	Threshold string  `json:"threshold"` // the flag
	Limit     float64 `json:"limit"`
	Measured  float64 `json:"measured"`
	Unit      string  `json:"unit"`
}

func (f Failure) String() string {
	switch f.Unit {
	case "ms":
		return fmt.Sprintf("%s %s: measured %s", f.Threshold, fmtMS(f.Limit), fmtMS(f.Measured))
	default:
		return fmt.Sprintf("%s %s: measured %s", f.Threshold, pct(f.Limit), pct(f.Measured))
	}
}

// Check returns every threshold the report does not meet. A run in which
// nothing answered fails every latency threshold (there is no p99 to
// trust).
func (t Thresholds) Check(r *Report) []Failure {
	var out []Failure
	if t.MaxP99 > 0 {
		limit := float64(t.MaxP99.Microseconds()) / 1000
		if r.Count == r.ErrorCount || r.P99MS > limit {
			out = append(out, Failure{Threshold: "--max-p99", Limit: limit, Measured: r.P99MS, Unit: "ms"})
		}
	}
	if t.MaxErrorRate >= 0 && (r.ErrorRate > t.MaxErrorRate || r.Count == 0) {
		measured := r.ErrorRate
		if r.Count == 0 {
			measured = 1
		}
		out = append(out, Failure{Threshold: "--max-error-rate", Limit: t.MaxErrorRate, Measured: measured, Unit: "fraction"})
	}
	if t.MinRate > 0 && r.Mode == "open" && r.Rate > 0 {
		if got := r.AchievedRate / r.Rate; got < t.MinRate {
			out = append(out, Failure{Threshold: "--min-rate", Limit: t.MinRate, Measured: got, Unit: "fraction"})
		}
	}
	return out
}
