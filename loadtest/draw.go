package loadtest

import (
	"fmt"
	"io"
	"math"
	"sort"
	"strings"
	"time"

	"github.com/relavium/relavium/engine/sanitize"
)

// Drawing: the summary, then a latency histogram and latency over time,
// because people would rather look at a tail than read one. Plain block
// characters everywhere (they survive a pipe, a CI log and a file); on a
// terminal the time chart is drawn by the Charm chart library (chart.go).

// Render says how a report is drawn.
type Render struct {
	Width int  // columns available (0: 80)
	Rich  bool // a terminal: the time chart in braille lines with axes
}

// WriteHuman writes the report as plain text of at most 80 columns.
func (r *Report) WriteHuman(w io.Writer) error { return r.Draw(w, Render{}) }

// Draw writes the report: summary, histogram, latency over time.
func (r *Report) Draw(w io.Writer, o Render) error {
	width := o.Width
	if width <= 0 {
		width = 80
	}
	width = min(max(width, 40), 200)
	var b strings.Builder
	r.summary(&b)
	if r.Count > 0 {
		b.WriteString("\nlatency histogram\n")
		r.histogram(&b, width)
		fmt.Fprintf(&b, "\nlatency over time (p99 per %s, by intended start)\n", r.interval())
		if o.Rich {
			b.WriteString(r.richTimeline(width, 12))
		} else {
			r.timeline(&b, width, 8)
		}
	}
	_, err := io.WriteString(w, b.String())
	return err
}

func (r *Report) summary(b *strings.Builder) {
	fmt.Fprintf(b, "mcp bench %s", sanitize.Line(r.Target))
	if r.Server != "" {
		fmt.Fprintf(b, " on %s", sanitize.Line(r.Server))
	}
	if r.Mode == "closed" {
		fmt.Fprintf(b, " · closed loop, %d callers", r.Closed)
	} else {
		fmt.Fprintf(b, " · open loop, %g req/s", r.Rate)
	}
	fmt.Fprintf(b, " for %s", time.Duration(r.DurationMS)*time.Millisecond)
	if r.WarmupMS > 0 {
		fmt.Fprintf(b, " (after %s warmup)", time.Duration(r.WarmupMS)*time.Millisecond)
	}
	switch {
	case r.Interrupted:
		b.WriteString(" · interrupted")
	case r.Running:
		b.WriteString(" · running")
	}
	b.WriteByte('\n')
	fmt.Fprintf(b, "  requests  %d ended, %d failed (%s), %.2f req/s achieved", r.Count, r.ErrorCount, pct(r.ErrorRate), r.AchievedRate)
	if r.Mode == "open" && r.Rate > 0 {
		fmt.Fprintf(b, " (%s of asked)", pct(r.AchievedRate/r.Rate))
	}
	b.WriteByte('\n')
	if r.Count > 0 {
		fmt.Fprintf(b, "  latency   p50 %s  p90 %s  p99 %s  p99.9 %s  max %s\n",
			fmtMS(r.P50MS), fmtMS(r.P90MS), fmtMS(r.P99MS), fmtMS(r.P999MS), fmtMS(r.MaxMS))
		fmt.Fprintf(b, "            min %s  mean %s\n", fmtMS(r.MinMS), fmtMS(r.MeanMS))
	}
	if r.ClientCPUUSPerRequest > 0 || r.LagP99MS > 0 {
		fmt.Fprintf(b, "  client    %.1f µs CPU per request, schedule lag p99 %s\n", r.ClientCPUUSPerRequest, fmtMS(r.LagP99MS))
	}
	if len(r.Errors) > 0 {
		keys := make([]string, 0, len(r.Errors))
		for k := range r.Errors {
			keys = append(keys, k)
		}
		sort.Slice(keys, func(i, j int) bool {
			if r.Errors[keys[i]] != r.Errors[keys[j]] {
				return r.Errors[keys[i]] > r.Errors[keys[j]]
			}
			return keys[i] < keys[j]
		})
		b.WriteString("  errors   ")
		for _, k := range keys {
			fmt.Fprintf(b, " %s ×%d", sanitize.Line(k), r.Errors[k])
		}
		b.WriteByte('\n')
	}
}

func pct(f float64) string {
	switch v := f * 100; {
	case v == 0:
		return "0%"
	case v < 0.1:
		return fmt.Sprintf("%.3f%%", v)
	case v < 10:
		return fmt.Sprintf("%.2f%%", v)
	default:
		return fmt.Sprintf("%.1f%%", v)
	}
}

// histogram draws one row a bucket: its bound, a bar scaled to the fullest
// bucket, the count and the cumulative share.
func (r *Report) histogram(b *strings.Builder, width int) {
	var most, total int64
	for _, k := range r.Histogram {
		most = max(most, k.Count)
		total += k.Count
	}
	barW := max(width-34, 10)
	var cum int64
	for _, k := range r.Histogram {
		cum += k.Count
		cells := 0.0
		if most > 0 {
			cells = float64(k.Count) / float64(most) * float64(barW)
		}
		fmt.Fprintf(b, "  ≤ %-9s %s %d (%s)\n", fmtMS(k.LeMS), blocks(cells, barW), k.Count, pct(float64(cum)/float64(max(total, 1))))
	}
}

// blocks is a bar of cells (fractional, in eighths), padded to width.
func blocks(cells float64, width int) string {
	full := int(cells)
	rest := int((cells - float64(full)) * 8)
	var b strings.Builder
	b.WriteString(strings.Repeat("█", full))
	n := full
	if rest > 0 && full < width {
		b.WriteString(partial[rest])
		n++
	}
	if cells > 0 && n == 0 {
		b.WriteString("▏")
		n++
	}
	b.WriteString(strings.Repeat(" ", max(width-n, 0)))
	return b.String()
}

// interval is the time chart's step, from the timeline.
func (r *Report) interval() time.Duration {
	if len(r.Timeline) > 1 {
		return time.Duration(r.Timeline[1].TMS-r.Timeline[0].TMS) * time.Millisecond
	}
	return time.Duration(r.DurationMS) * time.Millisecond
}

// columns folds the timeline's p99s into at most n columns (the worst of
// the intervals a column covers: a stall must never be averaged away).
func (r *Report) columns(n int) []float64 {
	pts := r.Timeline
	if len(pts) == 0 {
		return nil
	}
	per := (len(pts) + n - 1) / n
	var out []float64
	for i := 0; i < len(pts); i += per {
		worst := 0.0
		for _, p := range pts[i:min(i+per, len(pts))] {
			worst = max(worst, p.P99MS)
		}
		out = append(out, worst)
	}
	return out
}

// vertical are the bottom-aligned eighth blocks, 1/8 to 8/8.
var vertical = [9]string{" ", "▁", "▂", "▃", "▄", "▅", "▆", "▇", "█"}

// timeline draws the p99 of each interval as a column of block characters,
// height rows tall, with the scale on the left and the time below.
func (r *Report) timeline(b *strings.Builder, width, height int) {
	cols := r.columns(max(width-12, 10))
	top := 0.0
	for _, v := range cols {
		top = max(top, v)
	}
	if top == 0 {
		b.WriteString("  (no answers)\n")
		return
	}
	top = niceCeil(top)
	for row := height; row >= 1; row-- {
		label := ""
		switch row {
		case height:
			label = fmtMS(top)
		case 1:
			label = "0 ms"
		}
		fmt.Fprintf(b, "%9s ┤", label)
		for _, v := range cols {
			eighths := int(math.Round(v / top * float64(height*8)))
			if v > 0 && eighths == 0 {
				eighths = 1 // an answered interval is never drawn empty
			}
			b.WriteString(vertical[min(max(eighths-(row-1)*8, 0), 8)])
		}
		b.WriteByte('\n')
	}
	end := time.Duration(r.DurationMS) * time.Millisecond
	axis := fmt.Sprintf("%11s%s", "0s", strings.Repeat(" ", max(len(cols)-len(end.String()), 1)))
	b.WriteString(axis + end.String() + "\n")
}

// niceCeil rounds v up to a readable scale: 1, 1.2, 1.5, 2, 2.5, 3, 4, 5,
// 6 or 8 times a power of ten.
func niceCeil(v float64) float64 {
	p := math.Pow(10, math.Floor(math.Log10(v)))
	for _, m := range []float64{1, 1.2, 1.5, 2, 2.5, 3, 4, 5, 6, 8, 10} {
		if v <= m*p {
			return m * p
		}
	}
	return 10 * p
}
