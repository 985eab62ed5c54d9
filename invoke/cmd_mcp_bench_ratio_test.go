package invoke

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os/exec"
	"sort"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/relavium/relavium/internal/testbin"
)

// rawClientRate is how many tools/call requests per second a bare JSON-RPC
// client reaches against the demo server over stdio: it writes each
// request as one line and reads each answer's id, nothing else (no schema,
// no validation, no events), with inFlight requests outstanding, for d.
// It is the ceiling mcp bench is measured against.
func rawClientRate(tb testing.TB, bin string, inFlight int, d time.Duration) float64 {
	tb.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	cmd := exec.CommandContext(ctx, bin, "demo-server")
	in, _ := cmd.StdinPipe()
	outPipe, _ := cmd.StdoutPipe()
	if err := cmd.Start(); err != nil {
		tb.Fatal(err)
	}
	defer func() { in.Close(); cancel(); _ = cmd.Wait() }()
	out := bufio.NewReaderSize(outPipe, 1<<20)
	send := func(s string) {
		if _, err := io.WriteString(in, s+"\n"); err != nil {
			tb.Fatal(err)
		}
	}
	send(`{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"raw","version":"1"}}}`)
	if _, err := out.ReadBytes('\n'); err != nil {
		tb.Fatal(err)
	}
	send(`{"jsonrpc":"2.0","method":"notifications/initialized"}`)

	slots := make(chan struct{}, inFlight)
	var answered atomic.Int64
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		for {
			line, err := out.ReadBytes('\n')
			if err != nil {
				return
			}
			var m struct {
				ID *int64 `json:"id"`
			}
			if json.Unmarshal(line, &m) == nil && m.ID != nil {
				answered.Add(1)
				<-slots
			}
		}
	}()
	start := time.Now()
	end := start.Add(d)
	for id := 1; time.Now().Before(end); id++ {
		slots <- struct{}{}
		send(fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":"echo","arguments":{"message":"hi"}}}`, id))
	}
	n := answered.Load()
	rate := float64(n) / time.Since(start).Seconds()
	in.Close()
	cancel()
	wg.Wait()
	return rate
}

// BenchmarkRatioBenchSustainsRawRate holds that the client is never the
// bottleneck: a bare JSON-RPC client finds the demo server's ceiling
// (requests/s over stdio with 32 in flight), then `relavium mcp bench` is
// asked for that rate against the same server for 3 s. Reported: asked /
// achieved, the median of three such pairs in the same run (a 2-core
// machine shared with builds changes its ceiling between a pair's halves;
// the median keeps one such pair from deciding). Target ≤ 1.03 (relavium
// sustains ≥ 97% of the rate a raw client reaches).
func BenchmarkRatioBenchSustainsRawRate(b *testing.B) {
	bin := testbin.Relavium(b)
	e := &runE2E{bin: bin, home: b.TempDir(), project: b.TempDir()}
	var ratios, raws []float64
	for i := 0; i < b.N; i++ {
		for range 3 {
			raw := rawClientRate(b, bin, 32, 2*time.Second)
			achieved := benchAchieved(b, e, bin, raw)
			raws = append(raws, raw)
			ratios = append(ratios, raw/achieved)
		}
	}
	b.ReportMetric(median(raws), "raw-req/s")
	b.ReportMetric(median(ratios), "ratio")
	b.ReportMetric(1.03, "target")
}

// benchAchieved runs mcp bench against the demo server at rate for 3 s and
// returns the rate it achieved.
func benchAchieved(b *testing.B, e *runE2E, bin string, rate float64) float64 {
	args := []string{"mcp", "bench", "echo", "message=hi", "--stdio", bin + " demo-server", "--rate", fmt.Sprintf("%.0f", rate),
		"--duration", "3s", "--warmup", "500ms", "--timeout", "5s", "--yes", "--json"}
	o := e.run(b, args...)
	if o.code == 2 { // the ad-hoc server's digest, once
		var env struct {
			Data struct {
				Pending []struct {
					Digest string `json:"digest"`
				} `json:"pending"`
			} `json:"data"`
		}
		if json.Unmarshal([]byte(o.stdout), &env) != nil || len(env.Data.Pending) != 1 {
			b.Fatalf("mcp bench: exit 2\n%s\n%s", o.stdout, o.stderr)
		}
		o = e.run(b, append(args, "--allow-mcp-stdio", env.Data.Pending[0].Digest)...)
	}
	var env struct {
		Data struct {
			Achieved float64 `json:"achieved_rate"`
		} `json:"data"`
	}
	if json.Unmarshal([]byte(o.stdout), &env) != nil || env.Data.Achieved == 0 {
		b.Fatalf("mcp bench: exit %d\n%s\n%s", o.code, o.stdout, o.stderr)
	}
	return env.Data.Achieved
}

// median of xs (sorted in place).
func median(xs []float64) float64 {
	sort.Float64s(xs)
	return xs[len(xs)/2]
}
