package loadtest

import (
	"runtime"
	"testing"
	"time"
)

// heapAfter records n samples into a fresh recorder of a 10-minute run and
// returns the live heap with the recorder still reachable.
func heapAfter(n int) (uint64, *recorder) {
	runtime.GC()
	var before runtime.MemStats
	runtime.ReadMemStats(&before)
	start := time.Unix(0, 0)
	rec := newRecorder(start, 10*time.Minute)
	step := 10 * time.Minute / time.Duration(n)
	for i := 0; i < n; i++ {
		at := start.Add(time.Duration(i) * step)
		rec.record(sample{intended: at, sent: at, done: at.Add(time.Duration(i%5000) * time.Microsecond)})
	}
	runtime.GC()
	var after runtime.MemStats
	runtime.ReadMemStats(&after)
	return after.HeapAlloc - min(after.HeapAlloc, before.HeapAlloc), rec
}

// BenchmarkRatioRecorderMemoryFlat holds that a run's memory does not
// grow with its length: the live heap of a recorder after 1 000 000
// requests against one after 1 000 (both of a 10-minute run: the same
// histograms and 120 intervals). Target ≤ 1.05×: histograms, not lists of
// samples.
func BenchmarkRatioRecorderMemoryFlat(b *testing.B) {
	var small, large uint64
	for i := 0; i < b.N; i++ {
		s, r1 := heapAfter(1_000)
		l, r2 := heapAfter(1_000_000)
		small += s
		large += l
		runtime.KeepAlive(r1)
		runtime.KeepAlive(r2)
	}
	b.ReportMetric(float64(large)/float64(small), "ratio")
	b.ReportMetric(1.05, "target")
	b.ReportMetric(float64(large)/float64(b.N)/1024, "KiB")
}
