package discovery

import (
	"context"
	"runtime"
	"testing"
	"time"
)

// BenchmarkRatioDiscovery256 measures discovery (raw capture, page scan,
// bounds, sanitizing, schema compile) of 256 tools with about 1 MiB of
// schema over stdio, after initialize; ratio is discovery time over the
// SDK's own bare walk (cs.Tools: its decode of the same pages, nothing
// checked or compiled) of the same server in the same run. Target 1.3×.
func BenchmarkRatioDiscovery256(b *testing.B) {
	benchDiscovery256(b, "same")
	b.ReportMetric(1.3, "target")
}

// BenchmarkDiscovery256Distinct is the same walk with 256 distinct schemas
// (each compiled on its own): no target, the README quotes it beside
// Discovery256. go test -bench Discovery256Distinct ./host/discovery
func BenchmarkDiscovery256Distinct(b *testing.B) {
	benchDiscovery256(b, "distinct")
}

func benchDiscovery256(b *testing.B, variant string) {
	s := connect(b, viaStdio, "-case", "bench", "-variant", variant)
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

		start = time.Now()
		if _, err := Discover(ctx, "bench", s.lister, Options{}); err != nil {
			b.Fatal(err)
		}
		subject += time.Since(start)
	}
	b.ReportMetric(float64(subject)/float64(baseline), "ratio")
	b.ReportMetric(float64(subject.Microseconds())/1000/float64(b.N), "ms")
	b.ReportMetric(float64(baseline.Microseconds())/1000/float64(b.N), "sdk-ms")
}

// benchPageMemory reports what one walk of the case's page allocates in
// relavium's process (the server is another process), as a ratio to the
// server's discovery budget (1 MiB): the target, 100, is the bound
// of 100 MiB for any page up to the 16 MiB stdio line cap.
func benchPageMemory(b *testing.B, args ...string) {
	s := connect(b, viaStdio, args...)
	ctx := context.Background()
	if _, err := Discover(ctx, "mem", s.lister, Options{}); err != nil {
		b.Fatal(err)
	}
	runtime.GC()
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	start := time.Now()
	b.ResetTimer()
	for b.Loop() {
		if _, err := Discover(ctx, "mem", s.lister, Options{}); err != nil {
			b.Fatal(err)
		}
	}
	elapsed := time.Since(start)
	runtime.ReadMemStats(&after)
	perWalk := float64(after.TotalAlloc-before.TotalAlloc) / float64(b.N)
	b.ReportMetric(perWalk/MaxPayload, "ratio")
	b.ReportMetric(100, "target")
	b.ReportMetric(perWalk/(1<<20), "alloc-MiB")
	b.ReportMetric(float64(elapsed.Microseconds())/1000/float64(b.N), "ms")
}

// BenchmarkRatioDiscoveryGiantLineMemory: one 14.6 MiB tools/list line (a
// giant schema of many properties between small tools).
func BenchmarkRatioDiscoveryGiantLineMemory(b *testing.B) {
	benchPageMemory(b, "-case", "giant-line", "-variant", "schema")
}

// BenchmarkRatioDiscoverySubschemaPageMemory: a 1.3 MB page of tools rich
// in subschemas (compiled validators are what it costs).
func BenchmarkRatioDiscoverySubschemaPageMemory(b *testing.B) {
	benchPageMemory(b, "-case", "subschemas")
}
