package machine

import (
	"bytes"
	"context"
	"net"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"testing"
	"time"
)

// conformanceScenarios are the official conformance suite's server
// scenarios that apply to a server without the suite's fixture tools.
var conformanceScenarios = [...]string{"server-initialize", "ping", "tools-list", "logging-set-level",
	"dns-rebinding-protection", "server-sse-multiple-streams"}

// passedLine is the suite's summary: "Passed: N/M, F failed".
var passedLine = regexp.MustCompile(`Passed: (\d+)/(\d+), 0 failed`)

// peersDir is $RELAVIUM_PEERS, else <repo>/.peers (.ci/peers.sh installs it).
func peersDir() string {
	if p := os.Getenv("RELAVIUM_PEERS"); p != "" {
		return p
	}
	abs, _ := filepath.Abs(filepath.Join("..", ".peers"))
	return abs
}

// TestConformanceServerScenarios runs the official suite against `relavium
// mcp serve --transport http`. The suite's client cannot send a bearer
// token, so it talks to a loopback reverse proxy that adds the token and
// forwards Host and Origin unchanged (the DNS-rebinding checks still run in
// relavium).
func TestConformanceServerScenarios(t *testing.T) {
	peers := peersDir()
	node := filepath.Join(peers, "node22", "node_modules", ".bin", "node")
	suite := filepath.Join(peers, "node_modules", "@modelcontextprotocol", "conformance", "dist", "index.js")
	for _, p := range []string{node, suite} {
		if _, err := os.Stat(p); err != nil {
			t.Skipf("conformance peers not installed (%s); run .ci/peers.sh", p)
		}
	}
	f := newServeFixture(t)
	srv := startServe(t, f, []string{"RELAVIUM_MCP_TOKEN=conformance-token"}, "--transport", "http")
	target, err := url.Parse(srv.url)
	if err != nil {
		t.Fatal(err)
	}
	tr := &http.Transport{}
	defer tr.CloseIdleConnections()
	proxy := httputil.NewSingleHostReverseProxy(&url.URL{Scheme: target.Scheme, Host: target.Host})
	proxy.Transport = bearer{"conformance-token", tr}
	proxy.FlushInterval = -1
	front := httptest.NewServer(proxy)
	defer front.Close()
	endpoint := "http://localhost:" + strconv.Itoa(front.Listener.Addr().(*net.TCPAddr).Port) + target.Path

	for _, sc := range conformanceScenarios {
		t.Run(sc, func(t *testing.T) {
			ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
			defer cancel()
			cmd := exec.CommandContext(ctx, node, suite, "server", "--url", endpoint, "--scenario", sc, "-o", t.TempDir())
			cmd.Dir = t.TempDir()
			var out bytes.Buffer
			cmd.Stdout, cmd.Stderr = &out, &out
			if err := cmd.Run(); err != nil {
				t.Fatalf("scenario %s failed (%v):\n%s", sc, err, out.String())
			}
			m := passedLine.FindSubmatch(out.Bytes())
			if m == nil || string(m[1]) != string(m[2]) || string(m[1]) == "0" {
				t.Fatalf("scenario %s: not every check passed:\n%s", sc, out.String())
			}
			t.Logf("%s", bytes.TrimSpace(out.Bytes()))
		})
	}
}
