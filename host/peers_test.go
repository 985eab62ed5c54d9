package host

import (
	"context"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/relavium/relavium/consent"
	"github.com/relavium/relavium/engine"
	"github.com/relavium/relavium/host/netguard"
)

// Real third-party peers from npm (installed by .ci/peers.sh), by the project's
// convention: RELAVIUM_PEERS is a directory holding node_modules (make
// peers). Unset, the tests skip — unless RELAVIUM_REQUIRE_PEERS=1, which
// turns a missing peer into a failure.

type peerSet struct {
	node, everything, filesystem string
}

func requirePeers(t testing.TB) peerSet {
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
	p := peerSet{
		everything: filepath.Join(dir, "node_modules", "@modelcontextprotocol", "server-everything", "dist", "index.js"),
		filesystem: filepath.Join(dir, "node_modules", "@modelcontextprotocol", "server-filesystem", "dist", "index.js"),
	}
	for _, f := range []string{p.everything, p.filesystem} {
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

func peerServer(t *testing.T, name, node string, args ...string) Endpoint {
	t.Helper()
	r, err := consent.Resolve(consent.Declaration{Name: name, Command: node, Args: args, Cwd: t.TempDir()}, "")
	if err != nil {
		t.Fatal(err)
	}
	return Endpoint{Name: name, Transport: TransportStdio, Stdio: r}
}

func TestPeerServerEverythingStdio(t *testing.T) {
	p := requirePeers(t)
	rec := &recorder{}
	h := startHost(t, Options{Emitter: rec, Environ: os.Environ(), Servers: []Endpoint{peerServer(t, "everything", p.node, p.everything, "stdio")}})
	names := strings.Join(toolNames(h), " ")
	for _, want := range []string{"mcp_everything_echo", "mcp_everything_get-sum", "mcp_everything_trigger-long-running-operation"} {
		if !strings.Contains(names, want) {
			t.Errorf("%s not admitted: %s", want, names)
		}
	}
	if got := callText(t, h, "mcp_everything_echo", `{"message":"hi"}`); got != "Echo: hi" {
		t.Errorf("echo = %q", got)
	}
	if got := callText(t, h, "mcp_everything_get-sum", `{"a":2,"b":3}`); !strings.Contains(got, "5") {
		t.Errorf("get-sum = %q", got)
	}
	var n atomic.Int64
	res, err := callTool(t, h, context.Background(), "mcp_everything_trigger-long-running-operation", `{"duration":1,"steps":5}`,
		engine.CallOptions{OnProgress: func(engine.Progress) { n.Add(1) }})
	if err != nil || res.IsError {
		t.Fatalf("long-running: %v %v", res, err)
	}
	if n.Load() != 5 {
		t.Errorf("%d progress notifications, want all 5 (all arrive before the result; a client must not lose the last)", n.Load())
	}
	st := h.Servers()[0]
	if st.Protocol != ProtocolVersion || st.ServerName == "" {
		t.Errorf("status %+v", st)
	}
	_ = h.Close()
	assertNoProcesses(t, st.PID)
}

func TestPeerServerEverythingStreamableHTTP(t *testing.T) {
	p := requirePeers(t)
	port := freePort(t)
	cmd := exec.Command(p.node, p.everything, "streamableHttp")
	cmd.Env = append(os.Environ(), fmt.Sprintf("PORT=%d", port))
	cmd.Dir = t.TempDir()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cmd.Process.Kill(); _ = cmd.Wait() })
	addr := fmt.Sprintf("127.0.0.1:%d", port)
	deadline := time.Now().Add(30 * time.Second)
	for {
		c, err := net.DialTimeout("tcp", addr, time.Second)
		if err == nil {
			c.Close()
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("server-everything never listened on %s", addr)
		}
		time.Sleep(50 * time.Millisecond)
	}
	g := netguard.New()
	h := startHost(t, Options{Guard: g, Servers: []Endpoint{networkServer(t, g, "everything", TransportHTTP, "http://"+addr+"/mcp")}})
	if got := callText(t, h, "mcp_everything_echo", `{"message":"over http"}`); got != "Echo: over http" {
		t.Errorf("echo = %q", got)
	}
	var n atomic.Int64
	if _, err := callTool(t, h, context.Background(), "mcp_everything_trigger-long-running-operation", `{"duration":1,"steps":4}`,
		engine.CallOptions{OnProgress: func(engine.Progress) { n.Add(1) }}); err != nil {
		t.Fatal(err)
	}
	if n.Load() == 0 {
		t.Error("no progress over Streamable HTTP")
	}
	if st := h.Servers()[0]; st.Protocol != ProtocolVersion {
		t.Errorf("status %+v", st)
	}
}

func TestPeerServerFilesystemStdio(t *testing.T) {
	p := requirePeers(t)
	root := t.TempDir()
	if err := os.WriteFile(filepath.Join(root, "a.txt"), []byte("hello from a file\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	h := startHost(t, Options{Environ: os.Environ(), Servers: []Endpoint{peerServer(t, "fs", p.node, p.filesystem, root)}})
	if got := callText(t, h, "mcp_fs_list_allowed_directories", `{}`); !strings.Contains(got, root) {
		t.Errorf("allowed directories = %q, want %s (relavium offers no roots, so the CLI dirs stand)", got, root)
	}
	if got := callText(t, h, "mcp_fs_read_text_file", fmt.Sprintf(`{"path":%q}`, filepath.Join(root, "a.txt"))); !strings.Contains(got, "hello from a file") {
		t.Errorf("read_text_file = %q", got)
	}
	res, err := callTool(t, h, context.Background(), "mcp_fs_read_text_file", `{"path":"/etc/passwd"}`, engine.CallOptions{})
	if err != nil || !res.IsError || !strings.Contains(res.Text(), "Access denied") {
		t.Errorf("outside the root: %v %v", res, err)
	}
	for _, d := range h.Tools() {
		if d.Tool == "write_file" && d.Annotations.IsReadOnly() {
			t.Error("write_file admitted as read-only")
		}
	}
}

func freePort(t *testing.T) int {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	return ln.Addr().(*net.TCPAddr).Port
}
