package config

import (
	"fmt"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"
)

// BenchmarkRatioNestingRefusal measures refusing a 60 KB agent file whose
// mcp_servers is a flow sequence nested 30 000 deep (1.4 GB and seconds to
// parse before the pre-scan) against validating a well-formed agent file
// of the same size (about 1 200 inline servers) in the same run. ratio is
// refusal time over the normal file's; target 1: a hostile file costs no
// more than an honest one. refuse-ms and refuse-KB (allocated per refusal)
// are the absolute figures.
func BenchmarkRatioNestingRefusal(b *testing.B) {
	hostile := agentHead + "mcp_servers: " + strings.Repeat("[", 30000) + strings.Repeat("]", 30000) + "\n"
	var normal strings.Builder
	normal.WriteString(agentHead + "mcp_servers:\n")
	for i := 0; normal.Len() < len(hostile); i++ {
		fmt.Fprintf(&normal, "  - name: s%d\n    command: /usr/bin/env\n", i)
	}
	dir := func(body string) (string, string) {
		root := writeTree(b, map[string]string{agentYAML: body})
		return filepath.Join(root, "home"), filepath.Join(root, "project")
	}
	hh, hp := dir(hostile)
	nh, np := dir(normal.String())
	if _, err := Validate(hh, hp, ""); err == nil || !strings.Contains(err.Error(), string(CodeNesting)) {
		b.Fatalf("hostile file: %v", err)
	}
	if _, err := Validate(nh, np, ""); err != nil && strings.Contains(err.Error(), string(CodeNesting)) {
		b.Fatalf("normal file refused for nesting: %v", err)
	}
	var subject, baseline time.Duration
	var alloc uint64
	var ms runtime.MemStats
	b.ResetTimer()
	for b.Loop() {
		runtime.ReadMemStats(&ms)
		before := ms.TotalAlloc
		start := time.Now()
		_, _ = Validate(hh, hp, "")
		subject += time.Since(start)
		runtime.ReadMemStats(&ms)
		alloc += ms.TotalAlloc - before

		start = time.Now()
		_, _ = Validate(nh, np, "")
		baseline += time.Since(start)
	}
	n := float64(max(b.N, 1))
	b.ReportMetric(float64(subject)/float64(baseline), "ratio")
	b.ReportMetric(1, "target")
	b.ReportMetric(float64(subject.Microseconds())/1000/n, "refuse-ms")
	b.ReportMetric(float64(alloc)/1024/n, "refuse-KB")
	b.ReportMetric(float64(baseline.Microseconds())/1000/n, "normal-ms")
	b.ReportMetric(float64(len(hostile)), "file-bytes")
}
