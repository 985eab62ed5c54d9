package loadtest

import (
	"fmt"
	"io"
	"strings"
	"time"
)

// progressEvery is how often the live line is redrawn.
const progressEvery = 250 * time.Millisecond

// tick reports the run while it lasts, until stop is closed: the live
// line on opt.Progress (cleared at the end) and the figures so far to
// opt.Live.
func tick(opt Options, plan Plan, rec *recorder, t0 time.Time, now func() time.Time, stop <-chan struct{}) {
	t := time.NewTicker(progressEvery)
	defer t.Stop()
	for {
		select {
		case <-stop:
			if opt.Progress != nil {
				fmt.Fprint(opt.Progress, "\r\x1b[K")
			}
			return
		case <-t.C:
		}
		if opt.Live != nil {
			rep := rec.report(plan, now(), true, 0, 0)
			rep.Interrupted, rep.Running = false, true
			opt.Live(rep)
		}
		if opt.Progress != nil {
			drawProgress(opt.Progress, plan, rec, t0, now)
		}
	}
}

// drawProgress redraws one line on w: elapsed time, a bar, the live rate,
// the p99 so far and the errors.
func drawProgress(w io.Writer, plan Plan, rec *recorder, t0 time.Time, now func() time.Time) {
	total := plan.Warmup + plan.Duration
	{
		elapsed := now().Sub(t0)
		count, p99, errs := rec.live()
		var b strings.Builder
		b.WriteString("\r\x1b[K  ")
		b.WriteString(bar(float64(elapsed)/float64(total), 24))
		fmt.Fprintf(&b, " %s/%s", elapsed.Truncate(100*time.Millisecond), total)
		if elapsed < plan.Warmup {
			b.WriteString("  warming up")
		} else {
			rate := float64(count) / max(elapsed-plan.Warmup, time.Millisecond).Seconds()
			fmt.Fprintf(&b, "  %.1f req/s  p99 %s  errors %d", rate, fmtMS(float64(p99.Microseconds())/1000), errs)
		}
		io.WriteString(w, b.String())
	}
}

// bar is a progress bar of width cells, f from 0 to 1, in eighth blocks.
func bar(f float64, width int) string {
	f = min(max(f, 0), 1)
	eighths := int(f * float64(width*8))
	var b strings.Builder
	b.WriteString("▕")
	for i := 0; i < width; i++ {
		switch n := eighths - i*8; {
		case n >= 8:
			b.WriteString("█")
		case n <= 0:
			b.WriteString(" ")
		default:
			b.WriteString(partial[n])
		}
	}
	b.WriteString("▏")
	return b.String()
}

// partial are the left-aligned eighth blocks, 1/8 to 7/8.
var partial = [8]string{"", "▏", "▎", "▍", "▌", "▋", "▊", "▉"}

// fmtMS prints a latency in ms with three significant figures.
func fmtMS(v float64) string {
	switch {
	case v >= 100:
		return fmt.Sprintf("%.0f ms", v)
	case v >= 10:
		return fmt.Sprintf("%.1f ms", v)
	default:
		return fmt.Sprintf("%.2f ms", v)
	}
}
