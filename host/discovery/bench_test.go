package discovery

import (
	"context"
	"testing"
	"time"
)

// BenchmarkRatioDiscovery256 measures discovery (raw capture, parse,
// bounds, sanitizing, schema compile) of 256 tools with about 1 MiB of
// schema over stdio, after initialize, against the target of
// 50 ms; ratio is discovery time over the raw SDK walk (cs.Tools) of the
// same server in the same run.
func BenchmarkRatioDiscovery256(b *testing.B) {
	s := connect(b, viaStdio, "-case", "bench")
	ctx := context.Background()
	cat, err := Discover(ctx, "bench", s.lister, Options{})
	if err != nil {
		b.Fatal(err)
	}
	if len(cat.Tools) != 256 || len(cat.Skipped) != 0 {
		b.Fatalf("admitted %d, skipped %d", len(cat.Tools), len(cat.Skipped))
	}
	b.ReportMetric(float64(cat.PayloadBytes), "payload-bytes")

	var subject, baseline time.Duration
	b.ResetTimer()
	for b.Loop() {
		start := time.Now()
		if _, err := Discover(ctx, "bench", s.lister, Options{}); err != nil {
			b.Fatal(err)
		}
		subject += time.Since(start)

		start = time.Now()
		n := 0
		for _, err := range s.cs.Tools(ctx, nil) {
			if err != nil {
				b.Fatal(err)
			}
			n++
		}
		baseline += time.Since(start)
		if n != 256 {
			b.Fatalf("SDK walk saw %d tools", n)
		}
	}
	ms := float64(subject.Microseconds()) / 1000 / float64(b.N)
	b.ReportMetric(ms, "ms")
	b.ReportMetric(50, "target-ms")
	b.ReportMetric(float64(subject)/float64(baseline), "ratio")
	b.ReportMetric(float64(baseline.Microseconds())/1000/float64(b.N), "sdk-ms")
}
