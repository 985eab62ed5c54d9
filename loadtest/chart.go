package loadtest

import (
	"fmt"
	"strings"

	"github.com/NimbleMarkets/ntcharts/canvas"
	"github.com/NimbleMarkets/ntcharts/linechart"
	"github.com/charmbracelet/lipgloss"
)

// richTimeline draws latency over time for a terminal with the Charm chart
// library: the p99 line and the p50 line in braille (two dots a cell
// across, four down), time on the X axis, milliseconds on the Y axis. The
// chart is drawn once from the finished report (static: no model runs).
func (r *Report) richTimeline(width, height int) string {
	pts := r.Timeline
	if len(pts) == 0 {
		return "  (no answers)\n"
	}
	top := 0.0
	for _, p := range pts {
		top = max(top, p.P99MS)
	}
	if top == 0 {
		return "  (no answers)\n"
	}
	top = niceCeil(top)
	end := float64(r.DurationMS) / 1000
	lc := linechart.New(max(width-2, 30), height, 0, end, 0, top,
		linechart.WithXYSteps(4, 2),
		linechart.WithXLabelFormatter(func(_ int, v float64) string { return fmt.Sprintf("%gs", roundTo(v, 1)) }),
		linechart.WithYLabelFormatter(func(_ int, v float64) string { return fmtMS(v) }),
	)
	lc.DrawXYAxisAndLabel()
	step := float64(r.interval().Milliseconds()) / 1000
	line := func(get func(Point) float64, style lipgloss.Style) {
		var prev *canvas.Float64Point
		for _, p := range pts {
			if p.Count == 0 {
				prev = nil // no answers in the interval: a gap, not a zero
				continue
			}
			cur := canvas.Float64Point{X: float64(p.TMS)/1000 + step/2, Y: get(p)}
			if prev != nil {
				lc.DrawBrailleLineWithStyle(*prev, cur, style)
			} else {
				lc.DrawBrailleLineWithStyle(cur, cur, style)
			}
			prev = &cur
		}
	}
	line(func(p Point) float64 { return p.P50MS }, lipgloss.NewStyle().Foreground(lipgloss.Color("6")))
	line(func(p Point) float64 { return p.P99MS }, lipgloss.NewStyle().Foreground(lipgloss.Color("3")))
	var b strings.Builder
	b.WriteString(lc.View())
	b.WriteString("\n  ⣿ p99 (yellow)  ⣿ p50 (cyan)\n")
	return b.String()
}

func roundTo(v float64, digits int) float64 {
	p := 1.0
	for range digits {
		p *= 10
	}
	return float64(int64(v*p+0.5)) / p
}
