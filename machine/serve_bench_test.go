package machine

import (
	"context"
	"os"
	"os/exec"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/relavium/relavium/internal/testbin"
)

// BenchmarkRatioServeOverhead measures one read request through `relavium
// mcp serve` (stdio; the server runs `relavium version --json` as a child
// per call) against running `relavium version --json` directly, in the same
// run. Target: ratio <= 1.5.
func BenchmarkRatioServeOverhead(b *testing.B) {
	bin := testbin.Relavium(b)
	home, project := b.TempDir(), b.TempDir()
	env := []string{"PATH=" + os.Getenv("PATH"), "RELAVIUM_HOME=" + home}
	cmd := exec.Command(bin, "mcp", "serve", "--project", project)
	cmd.Env = env
	ctx := context.Background()
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "bench", Version: "1"}, nil).Connect(ctx, &mcp.CommandTransport{Command: cmd}, nil)
	if err != nil {
		b.Fatal(err)
	}
	defer cs.Close()
	direct := func() {
		c := exec.Command(bin, "version", "--json")
		c.Env, c.Dir = env, project
		if _, err := c.Output(); err != nil {
			b.Fatal(err)
		}
	}
	served := func() {
		res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "relavium-version", Arguments: map[string]any{}})
		if err != nil || res.IsError {
			b.Fatalf("%v %v", err, res)
		}
	}
	direct() // warm both paths
	served()
	var dDirect, dServed time.Duration
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		t0 := time.Now()
		direct()
		t1 := time.Now()
		served()
		dServed += time.Since(t1)
		dDirect += t1.Sub(t0)
	}
	b.StopTimer()
	n := float64(b.N)
	b.ReportMetric(float64(dDirect.Microseconds())/1000/n, "direct-ms")
	b.ReportMetric(float64(dServed.Microseconds())/1000/n, "serve-ms")
	b.ReportMetric(float64(dServed)/float64(dDirect), "ratio")
	b.ReportMetric(1.5, "target")
}
