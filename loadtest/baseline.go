package loadtest

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"strings"

	"github.com/relavium/relavium/atomicfile"
	"github.com/relavium/relavium/regularfile"
)

// MaxReportBytes bounds a saved report: --save refuses to write a larger
// one and --baseline to read one (a report is a few KiB: 120 points, ~30
// buckets, the errors by key — which are bounded below).
const MaxReportBytes = 8 << 20

// maxErrorKeys bounds the distinct error keys a report keeps; the rest are
// counted under "other".
const maxErrorKeys = 64

// Save writes the report to path atomically (mode 0600), as --baseline
// reads it back.
func (r *Report) Save(path string) error {
	b, err := json.MarshalIndent(r, "", "  ")
	if err != nil {
		return codes.Wrap(CodeSave, err, "cannot encode the report")
	}
	if len(b) > MaxReportBytes {
		return codes.New(CodeSave, "the report is %d bytes, over the %d a baseline may hold", len(b), MaxReportBytes)
	}
	if err := atomicfile.Write(path, append(b, '\n')); err != nil {
		return codes.Wrap(CodeSave, err, "cannot write %s", path)
	}
	return nil
}

// LoadBaseline reads a report --save wrote: a regular file (a FIFO is
// refused without waiting for a writer) of at most MaxReportBytes, in this
// version's shape.
func LoadBaseline(path string) (*Report, error) {
	data, _, err := regularfile.Read(path, MaxReportBytes, regularfile.Options{})
	if err != nil {
		return nil, codes.Wrap(CodeBaseline, err, "cannot read the baseline %s", path)
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	var r Report
	if err := dec.Decode(&r); err != nil {
		return nil, codes.Wrap(CodeBaseline, err, "the baseline %s is not a report --save wrote", path)
	}
	if r.Version != ReportVersion {
		return nil, codes.New(CodeBaseline, "the baseline %s is a report of version %d; this relavium reads version %d", path, r.Version, ReportVersion)
	}
	return &r, nil
}

// Comparison is a run against its baseline: a row a figure.
type Comparison struct {
	Baseline string `json:"baseline"` // the file
	Rows     []Row  `json:"rows"`
}

// Row is one figure then and now. Ratio is now/then (0 when then is 0).
// Worse says whether the change is a regression (higher latency or error
// rate, lower rate), by more than 10%.
type Row struct {
	Figure string  `json:"figure"`
	Then   float64 `json:"then"`
	Now    float64 `json:"now"`
	Ratio  float64 `json:"ratio"`
	Worse  bool    `json:"worse"`
}

// regression is the ratio past which a row is marked worse.
const regression = 1.10

// Compare sets the run beside base.
func Compare(now, base *Report, file string) *Comparison {
	c := &Comparison{Baseline: file}
	add := func(fig string, then, cur float64, higherIsWorse bool) {
		row := Row{Figure: fig, Then: then, Now: cur}
		if then != 0 {
			row.Ratio = float64(int64(cur/then*1000+0.5)) / 1000
		}
		switch {
		case higherIsWorse && then == 0:
			row.Worse = cur > 0
		case higherIsWorse:
			row.Worse = cur > then*regression
		default:
			row.Worse = cur < then/regression
		}
		c.Rows = append(c.Rows, row)
	}
	add("p50_ms", base.P50MS, now.P50MS, true)
	add("p90_ms", base.P90MS, now.P90MS, true)
	add("p99_ms", base.P99MS, now.P99MS, true)
	add("p999_ms", base.P999MS, now.P999MS, true)
	add("max_ms", base.MaxMS, now.MaxMS, true)
	add("achieved_rate", base.AchievedRate, now.AchievedRate, false)
	add("error_rate", base.ErrorRate, now.ErrorRate, true)
	return c
}

// WriteHuman prints the regression table.
func (c *Comparison) WriteHuman(w io.Writer) error {
	var b strings.Builder
	fmt.Fprintf(&b, "against the baseline %s\n", c.Baseline)
	fmt.Fprintf(&b, "  %-14s %12s %12s %8s\n", "figure", "baseline", "now", "ratio")
	for _, r := range c.Rows {
		ratio := "-"
		if r.Ratio != 0 {
			ratio = fmt.Sprintf("%.2f×", r.Ratio)
		}
		mark := ""
		if r.Worse {
			mark = "  ▲ worse"
		}
		fmt.Fprintf(&b, "  %-14s %12.3f %12.3f %8s%s\n", r.Figure, r.Then, r.Now, ratio, mark)
	}
	_, err := io.WriteString(w, b.String())
	return err
}
