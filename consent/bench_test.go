package consent

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"syscall"
	"testing"
	"time"
)

// BenchmarkRatioFold100k folds a 100 000-line store (grants with realistic
// metadata, every tenth line a revocation). Issue 3's target: < 150 ms.
func BenchmarkRatioFold100k(b *testing.B) {
	const lines, targetMS = 100_000, 150.0
	home := filepath.Join(b.TempDir(), "home")
	if err := os.Mkdir(home, 0o700); err != nil {
		b.Fatal(err)
	}
	var buf bytes.Buffer
	at := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	var last string
	for i := 0; i < lines; i++ {
		at = at.Add(time.Second)
		if i%10 == 9 {
			l, _ := encodeRevoke(last, at)
			buf.Write(l)
			continue
		}
		r := mustResolved(fmt.Sprintf("s%d", i), "/usr/local/bin/npx",
			[]string{"-y", fmt.Sprintf("@modelcontextprotocol/server-filesystem@%d", i), "/home/user/projects/app"},
			[]EnvEntry{TagEnv("GITHUB_TOKEN", "{{secrets.github_token}}"), TagEnv("LOG_LEVEL", "debug")}, "/home/user/projects/app")
		l, _ := encodeGrant(r, at)
		buf.Write(l)
		last = r.Digest
	}
	if err := os.WriteFile(filepath.Join(home, StoreFile), buf.Bytes(), 0o600); err != nil {
		b.Fatal(err)
	}
	s := Open(home)
	b.SetBytes(int64(buf.Len()))
	b.ResetTimer()
	start, cpu0 := time.Now(), cpuTime()
	for i := 0; i < b.N; i++ {
		g, err := s.Fold()
		if err != nil || g.Len() != lines-2*lines/10 {
			b.Fatalf("fold: %d grants, %v", g.Len(), err)
		}
	}
	ms := float64(time.Since(start).Microseconds()) / 1000 / float64(b.N)
	b.ReportMetric(ms, "ms")
	b.ReportMetric(targetMS, "target-ms")
	// CPU time (all threads, GC included): on a shared machine wall time
	// also counts other processes' load; this does not.
	b.ReportMetric(float64((cpuTime()-cpu0).Microseconds())/1000/float64(b.N), "cpu-ms")
}

// BenchmarkRatioFoldMemory compares the peak memory a fold holds for a
// store of 1 000 000 lines (about 330 MB, synthesized: no disk) with one of
// 1 000 lines, both ending with the same 80 live grants. The fold reads line
// by line, so the ratio is about 1: memory does not grow with the file.
// The peak is the live heap above a baseline, sampled with a collection
// first (so garbage the collector has yet to reclaim does not count) after
// every MiB read, at the end of the input, and after the fold.
func BenchmarkRatioFoldMemory(b *testing.B) {
	const target = 1.25
	cycle := cycleLines(b)
	peak := func(periods int64) uint64 {
		runtime.GC()
		base := heapInUse()
		top := base
		sample := func() {
			runtime.GC()
			top = max(top, heapInUse())
		}
		g, err := foldReader(&repeatReader{unit: cycle, n: periods, every: sample}, StoreFile)
		if err != nil || g.Len() != cycleLive {
			b.Fatalf("fold of %d lines: %d grants, %v", periods*100, g.Len(), err)
		}
		sample()
		runtime.KeepAlive(g)
		return top - base
	}
	var small, large uint64
	for i := 0; i < b.N; i++ {
		small, large = peak(10), peak(10_000)
	}
	b.ReportMetric(float64(large)/float64(max(small, 1)), "ratio")
	b.ReportMetric(target, "target")
	b.ReportMetric(float64(large)/1024, "peak-KiB-1M-lines")
	b.ReportMetric(float64(small)/1024, "peak-KiB-1k-lines")
}

// BenchmarkRatioDigest computes the v1 digest of one typical declaration.
// Issue 3's target: < 20 µs.
func BenchmarkRatioDigest(b *testing.B) {
	const targetUS = 20.0
	args := []string{"-y", "@modelcontextprotocol/server-github", "--verbose"}
	env := []EnvEntry{TagEnv("GITHUB_TOKEN", "{{secrets.github_token}}"), TagEnv("LOG_LEVEL", "debug"), TagEnv("NODE_ENV", "production")}
	b.ReportAllocs()
	b.ResetTimer()
	start, cpu0 := time.Now(), cpuTime()
	for i := 0; i < b.N; i++ {
		if _, err := Digest("/usr/local/bin/npx", args, env, "/home/user/projects/app"); err != nil {
			b.Fatal(err)
		}
	}
	us := float64(time.Since(start).Nanoseconds()) / 1000 / float64(b.N)
	b.ReportMetric(us, "us")
	b.ReportMetric(targetUS, "target-us")
	b.ReportMetric(float64((cpuTime()-cpu0).Nanoseconds())/1000/float64(b.N), "cpu-us")
}

// cpuTime is the process's user+system CPU time so far.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
