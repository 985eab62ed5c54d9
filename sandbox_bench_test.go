//go:build linux

package main

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// BenchmarkRatioSandboxSpawn measures what the sandbox costs a node
// server's connect: `relavium mcp ls --json` on server-everything under the
// default sandbox against the same server with sandbox = false, whole
// process wall time, alternating in the same run. Target: ≤ 1.2×.
func BenchmarkRatioSandboxSpawn(b *testing.B) {
	peers := os.Getenv("RELAVIUM_PEERS")
	node, err := exec.LookPath("node")
	if peers == "" || err != nil {
		b.Skip("peers not installed (RELAVIUM_PEERS, node): run make peers")
	}
	everything := filepath.Join(peers, "node_modules", "@modelcontextprotocol", "server-everything", "dist", "index.js")
	e := newSandboxE2E(b)
	ls := func(sandboxLine string) func() {
		project := filepath.Join(b.TempDir(), "project")
		if err := os.MkdirAll(filepath.Join(project, ".relavium"), 0o700); err != nil {
			b.Fatal(err)
		}
		e.project = project
		e.declare(b, fmt.Sprintf("[[mcp_servers]]\nname = \"everything\"\ntransport = \"stdio\"\ncommand = %q\nargs = [%q, \"stdio\"]\n%s\n", node, everything, sandboxLine))
		args := append([]string{"mcp", "ls", "--json"}, e.allow(b)...)
		return func() {
			cmd := exec.Command(e.bin, args...)
			cmd.Dir, cmd.Env = project, e.env
			if out, err := cmd.Output(); err != nil || !strings.Contains(string(out), `"ok":true`) {
				b.Fatalf("mcp ls: %v %s", err, out)
			}
		}
	}
	confined, unconfined := ls(""), ls("sandbox = false")
	confined()
	unconfined()
	var tc, tu time.Duration
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		t0 := time.Now()
		confined()
		t1 := time.Now()
		unconfined()
		tc += t1.Sub(t0)
		tu += time.Since(t1)
	}
	b.StopTimer()
	b.ReportMetric(float64(tc.Milliseconds())/float64(b.N), "sandboxed-ms")
	b.ReportMetric(float64(tu.Milliseconds())/float64(b.N), "unconfined-ms")
	b.ReportMetric(float64(tc)/float64(tu), "ratio")
	b.ReportMetric(1.2, "target")
}
