package discovery

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"go.uber.org/goleak"

	"github.com/relavium/relavium/engine/sanitize"
)

// hostileBin is the hostile-discovery server, built once for the package.
var hostileBin string

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "relavium-discovery-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	hostileBin = filepath.Join(dir, "hostile-discovery")
	build := exec.Command("go", "build", "-o", hostileBin, "../../testdata/servers/hostile-discovery")
	build.Stdout, build.Stderr = os.Stderr, os.Stderr
	if err := build.Run(); err != nil {
		fmt.Fprintln(os.Stderr, "building the hostile server:", err)
		os.RemoveAll(dir)
		os.Exit(1)
	}
	goleak.VerifyTestMain(cleanupM{m: m, dir: dir})
}

// cleanupM removes the build directory after the tests, before goleak
// checks for leaks and exits.
type cleanupM struct {
	m   *testing.M
	dir string
}

func (c cleanupM) Run() int {
	code := c.m.Run()
	os.RemoveAll(c.dir)
	return code
}

// transportKind names how a test reaches the hostile server.
type transportKind string

const (
	viaStdio   transportKind = "stdio"
	viaHTTP    transportKind = "http"
	viaHTTPSSE transportKind = "http-sse"
)

var allTransports = []transportKind{viaStdio, viaHTTP, viaHTTPSSE}

// session is a live client session to one hostile server process.
type session struct {
	cs      *mcp.ClientSession
	capture *Capture
	lister  *countingLister
}

type countingLister struct {
	inner Lister
	calls int
}

func (c *countingLister) ListToolsRaw(ctx context.Context, cursor string) (json.RawMessage, error) {
	c.calls++
	return c.inner.ListToolsRaw(ctx, cursor)
}

// connect starts the hostile server with args over kind, connects an SDK
// client through WrapTransport and registers a cleanup that closes the
// session and proves the child process is gone.
func connect(t testing.TB, kind transportKind, args ...string) *session {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	client := mcp.NewClient(&mcp.Implementation{Name: "relavium-test", Version: "0"}, nil)
	var base mcp.Transport
	var cmd *exec.Cmd
	var stopHTTP func()
	switch kind {
	case viaStdio:
		cmd = exec.Command(hostileBin, args...)
		base = &mcp.CommandTransport{Command: cmd, TerminateDuration: 2 * time.Second}
	default:
		hargs := append([]string{"-http", "127.0.0.1:0"}, args...)
		if kind == viaHTTPSSE {
			hargs = append(hargs, "-sse")
		}
		cmd = exec.Command(hostileBin, hargs...)
		stdin, err := cmd.StdinPipe()
		if err != nil {
			t.Fatal(err)
		}
		stdout, err := cmd.StdoutPipe()
		if err != nil {
			t.Fatal(err)
		}
		cmd.Stderr = os.Stderr
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		url, err := bufio.NewReader(stdout).ReadString('\n')
		if err != nil {
			_ = cmd.Process.Kill()
			_ = cmd.Wait()
			t.Fatalf("reading the server URL: %v", err)
		}
		tr := &http.Transport{}
		base = &mcp.StreamableClientTransport{Endpoint: strings.TrimSpace(url), HTTPClient: &http.Client{Transport: tr}}
		stopHTTP = func() {
			tr.CloseIdleConnections()
			_ = stdin.Close()
			done := make(chan error, 1)
			go func() { done <- cmd.Wait() }()
			select {
			case <-done:
			case <-time.After(10 * time.Second):
				_ = cmd.Process.Kill()
				<-done
				t.Errorf("the HTTP server did not exit after stdin closed")
			}
		}
	}
	wrapped, capture := WrapTransport(base)
	cs, err := client.Connect(ctx, wrapped, &mcp.ClientSessionOptions{ProtocolVersion: "2025-11-25"})
	if err != nil {
		if stopHTTP != nil {
			stopHTTP()
		}
		t.Fatalf("connect over %s: %v", kind, err)
	}
	s := &session{cs: cs, capture: capture, lister: &countingLister{inner: NewLister(cs, capture)}}
	t.Cleanup(func() {
		_ = cs.Close()
		if stopHTTP != nil {
			stopHTTP()
		}
		if cmd.ProcessState == nil {
			t.Errorf("the server process (pid %d) outlived its session", cmd.Process.Pid)
			_ = cmd.Process.Kill()
			_ = cmd.Wait()
		}
		capture.mu.Lock()
		n := len(capture.pending)
		capture.mu.Unlock()
		if n != 0 {
			t.Errorf("capture still holds %d pending requests", n)
		}
	})
	return s
}

// assertDisplaySafe fails when s holds a character a display would act on.
func assertDisplaySafe(t testing.TB, s string) {
	t.Helper()
	if sanitize.Check(s) != nil {
		t.Errorf("not display-safe: %q", s)
	}
}
