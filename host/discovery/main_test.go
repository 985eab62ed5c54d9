package discovery

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"go.uber.org/goleak"

	"github.com/relavium/relavium/engine/sanitize"
	"github.com/relavium/relavium/internal/testbin"
)

// hostileBin is the hostile-discovery server, built once for the package
// through testbin, which removes it at exit.
var hostileBin string

func TestMain(m *testing.M) {
	var err error
	if hostileBin, err = testbin.Program("./testdata/servers/hostile-discovery"); err != nil {
		fmt.Fprintln(os.Stderr, "building the hostile server:", err)
		testbin.Exit(1)
	}
	goleak.VerifyTestMain(m, goleak.Cleanup(testbin.Exit))
}

// transportKind names how a test reaches the hostile server.
type transportKind string

const (
	// viaStdio reads the server's stdout through mcp.IOTransport, as host
	// does, so a tools/list page is taken off the byte stream (Reader).
	viaStdio transportKind = "stdio"
	// viaStdioSDK lets the SDK own the pipes (mcp.CommandTransport): only
	// the connection-level capture sees the page.
	viaStdioSDK transportKind = "stdio-sdk"
	viaHTTP     transportKind = "http"
	viaHTTPSSE  transportKind = "http-sse"
)

var allTransports = []transportKind{viaStdio, viaStdioSDK, viaHTTP, viaHTTPSSE}

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
	case viaStdioSDK:
		cmd = exec.Command(hostileBin, args...)
		base = &mcp.CommandTransport{Command: cmd, TerminateDuration: 2 * time.Second}
	case viaStdio:
		cmd = exec.Command(hostileBin, args...)
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
		base = &mcp.IOTransport{Reader: stdout, Writer: stdin}
		stopHTTP = func() { waitExit(t, cmd, stdin) }
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
			waitExit(t, cmd, stdin)
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

// waitExit closes the server's stdin and waits for it to exit (it does at
// EOF), killing it after 10 s.
func waitExit(t testing.TB, cmd *exec.Cmd, stdin io.Closer) {
	_ = stdin.Close()
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		_ = cmd.Process.Kill()
		<-done
		t.Errorf("the server did not exit after stdin closed")
	}
}

// assertDisplaySafe fails when s holds a character a display would act on.
func assertDisplaySafe(t testing.TB, s string) {
	t.Helper()
	if sanitize.Check(s) != nil {
		t.Errorf("not display-safe: %q", s)
	}
}
