package consent

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
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
