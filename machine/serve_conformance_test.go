package machine

import (
	"bytes"
	"context"
	"fmt"
	"io"
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
	"strings"
	"sync"
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
	traffic := &trafficLog{}
	proxy.Transport = traffic.wrap(bearer{"conformance-token", tr})
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
			mark := traffic.mark()
			if err := cmd.Run(); err != nil {
				// What the proxy saw and what mcp serve said: a scenario that
				// hangs shows which request never got its answer.
				t.Fatalf("scenario %s failed (%v):\n%s\nrequests through the proxy:\n%s\nmcp serve's stderr:\n%s",
					sc, err, out.String(), traffic.since(mark), srv.stderr())
			}
			m := passedLine.FindSubmatch(out.Bytes())
			if m == nil || string(m[1]) != string(m[2]) || string(m[1]) == "0" {
				t.Fatalf("scenario %s: not every check passed:\n%s", sc, out.String())
			}
			t.Logf("%s", bytes.TrimSpace(out.Bytes()))
		})
	}
}

// trafficLog records each request through the test's proxy: when it
// started, its method and path, and when and how it ended.
type trafficLog struct {
	mu    sync.Mutex
	lines []string
	t0    time.Time
}

func (l *trafficLog) add(format string, a ...any) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.t0.IsZero() {
		l.t0 = time.Now()
	}
	l.lines = append(l.lines, fmt.Sprintf("%8.3fs ", time.Since(l.t0).Seconds())+fmt.Sprintf(format, a...))
}

func (l *trafficLog) mark() int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return len(l.lines)
}

func (l *trafficLog) since(n int) string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return strings.Join(l.lines[n:], "\n")
}

func (l *trafficLog) wrap(rt http.RoundTripper) http.RoundTripper {
	return roundTripFunc(func(r *http.Request) (*http.Response, error) {
		id := fmt.Sprintf("%p", r)
		l.add("%s → %s %s (session %q)", id, r.Method, r.URL.Path, r.Header.Get("Mcp-Session-Id"))
		res, err := rt.RoundTrip(r)
		if err != nil {
			l.add("%s ← error %v", id, err)
			return nil, err
		}
		l.add("%s ← %d %s", id, res.StatusCode, res.Header.Get("Content-Type"))
		res.Body = &loggedBody{ReadCloser: res.Body, end: func(how string) { l.add("%s ← body %s", id, how) }}
		return res, nil
	})
}

type roundTripFunc func(*http.Request) (*http.Response, error)

func (f roundTripFunc) RoundTrip(r *http.Request) (*http.Response, error) { return f(r) }

// loggedBody says once when a response body ended, and how.
type loggedBody struct {
	io.ReadCloser
	end  func(string)
	once sync.Once
	n    int
}

func (b *loggedBody) Read(p []byte) (int, error) {
	n, err := b.ReadCloser.Read(p)
	b.n += n
	if err != nil {
		b.once.Do(func() { b.end(fmt.Sprintf("ended after %d bytes (%v)", b.n, err)) })
	}
	return n, err
}

func (b *loggedBody) Close() error {
	b.once.Do(func() { b.end(fmt.Sprintf("closed after %d bytes", b.n)) })
	return b.ReadCloser.Close()
}
