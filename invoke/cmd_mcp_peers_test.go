package invoke

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/relavium/relavium/internal/testbin"
)

// Real peers from npm (RELAVIUM_PEERS, see host/peers_test.go for the
// convention): the official conformance suite's CLIENT scenarios with the
// relavium binary as the client, and the Inspector CLI as the baseline of
// `mcp ls`.

type mcpPeers struct {
	dir, node, node22, everything, conformance, inspector string
}

func requireMCPPeers(t testing.TB) mcpPeers {
	t.Helper()
	missing := func(why string) {
		if os.Getenv("RELAVIUM_REQUIRE_PEERS") == "1" {
			t.Fatalf("RELAVIUM_REQUIRE_PEERS=1 but %s (run make peers)", why)
		}
		t.Skipf("peers not installed: run make peers (%s)", why)
	}
	dir := os.Getenv("RELAVIUM_PEERS")
	if dir == "" {
		missing("RELAVIUM_PEERS is unset")
	}
	mod := filepath.Join(dir, "node_modules")
	p := mcpPeers{
		dir:         dir,
		node22:      filepath.Join(dir, "node22", "node_modules", ".bin", "node"),
		everything:  filepath.Join(mod, "@modelcontextprotocol", "server-everything", "dist", "index.js"),
		conformance: filepath.Join(mod, "@modelcontextprotocol", "conformance", "dist", "index.js"),
		inspector:   filepath.Join(mod, ".bin", "mcp-inspector-cli"),
	}
	for _, f := range []string{p.node22, p.everything, p.conformance, p.inspector} {
		if _, err := os.Stat(f); err != nil {
			missing(f + " is missing")
		}
	}
	node, err := exec.LookPath("node")
	if err != nil {
		missing("node is not on PATH")
	}
	p.node = node
	return p
}

// conformanceClientScript dispatches on MCP_CONFORMANCE_SCENARIO to the real
// binary; the suite appends the server url as the last argument.
const conformanceClientScript = `#!/bin/sh
for URL; do :; done
case "$MCP_CONFORMANCE_SCENARIO" in
  initialize) exec "$RELAVIUM_BIN" mcp ls --url "$URL" --allow-local-endpoint --json ;;
  tools_call) exec "$RELAVIUM_BIN" mcp call add_numbers a=2 b=3 --url "$URL" --allow-local-endpoint --yes --json ;;
  elicitation-sep1034-client-defaults) exec "$RELAVIUM_BIN" mcp call test_client_elicitation_defaults --url "$URL" --allow-local-endpoint --yes --elicit=defaults --json ;;
  sse-retry) exec "$RELAVIUM_BIN" mcp call test_reconnection --url "$URL" --allow-local-endpoint --yes --json ;;
esac
echo "unknown scenario $MCP_CONFORMANCE_SCENARIO" >&2
exit 3
`

func TestConformanceClientScenarios(t *testing.T) {
	p := requireMCPPeers(t)
	bin := testbin.Relavium(t)
	dir := t.TempDir()
	script := filepath.Join(dir, "client.sh")
	if err := os.WriteFile(script, []byte(conformanceClientScript), 0o755); err != nil {
		t.Fatal(err)
	}
	for _, scenario := range []string{"initialize", "tools_call", "elicitation-sep1034-client-defaults", "sse-retry"} {
		t.Run(scenario, func(t *testing.T) {
			ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
			defer cancel()
			cmd := exec.CommandContext(ctx, p.node22, p.conformance, "client", "--command", script, "--scenario", scenario)
			cmd.Dir = dir
			cmd.Env = append(os.Environ(), "RELAVIUM_BIN="+bin, "RELAVIUM_HOME="+filepath.Join(dir, "home"))
			out, err := cmd.CombinedOutput()
			if err != nil || !strings.Contains(string(out), "OVERALL: PASSED") {
				t.Errorf("scenario %s: %v\n%s", scenario, err, out)
			}
		})
	}
}

// BenchmarkRatioMCPListVsInspector measures `relavium mcp ls --json`
// against the Inspector CLI's `--method tools/list`, both spawning
// server-everything over stdio, whole-process wall time, in the same run.
// Target: ≤ 0.4×.
func BenchmarkRatioMCPListVsInspector(b *testing.B) {
	p := requireMCPPeers(b)
	bin := testbin.Relavium(b)
	dir := b.TempDir()
	home, project, work := filepath.Join(dir, "home"), filepath.Join(dir, "project"), filepath.Join(p.dir, "w")
	for _, d := range []string{home, filepath.Join(project, ".relavium"), work} {
		if err := os.MkdirAll(d, 0o700); err != nil {
			b.Fatal(err)
		}
	}
	cfg := fmt.Sprintf("[[mcp_servers]]\nname = \"everything\"\ntransport = \"stdio\"\ncommand = %q\nargs = [%q, \"stdio\"]\n", p.node, p.everything)
	if err := os.WriteFile(filepath.Join(project, ".relavium", "config.toml"), []byte(cfg), 0o644); err != nil {
		b.Fatal(err)
	}
	env := []string{"RELAVIUM_HOME=" + home, "PATH=" + os.Getenv("PATH"), "HOME=" + home}
	digest := func() string {
		cmd := exec.Command(bin, "consent", "digest", "--json")
		cmd.Dir, cmd.Env = project, env
		out, err := cmd.Output()
		if err != nil {
			b.Fatalf("consent digest: %v %s", err, out)
		}
		var env struct {
			Data struct {
				Servers []struct {
					Digest string `json:"digest"`
				} `json:"servers"`
			} `json:"data"`
		}
		if err := json.Unmarshal(out, &env); err != nil || len(env.Data.Servers) != 1 {
			b.Fatalf("consent digest: %v %s", err, out)
		}
		return env.Data.Servers[0].Digest
	}()
	relavium := func() {
		cmd := exec.Command(bin, "mcp", "ls", "--json", "--allow-mcp-stdio", digest)
		cmd.Dir, cmd.Env = project, env
		if out, err := cmd.Output(); err != nil || !strings.Contains(string(out), `"ok":true`) {
			b.Fatalf("mcp ls: %v %s", err, out)
		}
	}
	inspector := func() {
		// inspector-cli 1.0.3 must run from a subdirectory of a folder with
		// a package.json (it reads ../package.json relative to its working directory).
		cmd := exec.Command(p.inspector, "--cli", p.node, p.everything, "--method", "tools/list")
		cmd.Dir = work
		if out, err := cmd.Output(); err != nil || !strings.Contains(string(out), `"tools"`) {
			b.Fatalf("inspector: %v %s", err, out)
		}
	}
	relavium()
	inspector()
	var tr, ti time.Duration
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		t0 := time.Now()
		relavium()
		t1 := time.Now()
		inspector()
		tr += t1.Sub(t0)
		ti += time.Since(t1)
	}
	b.StopTimer()
	b.ReportMetric(float64(tr.Milliseconds())/float64(b.N), "relavium-ms")
	b.ReportMetric(float64(ti.Milliseconds())/float64(b.N), "inspector-ms")
	b.ReportMetric(float64(tr)/float64(ti), "ratio")
	b.ReportMetric(0.4, "target")
}
