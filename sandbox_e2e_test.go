//go:build linux

package main

import (
	"encoding/json"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/relavium/relavium/internal/testbin"
	"github.com/relavium/relavium/sandbox"
)

// The sandbox end to end (docs/sandbox.md), black-box: the built binary
// spawns real servers through its own sandbox-exec, and the kernel
// answers what they try.

type sandboxE2E struct {
	bin, home, project string
	env                []string
}

func newSandboxE2E(t testing.TB) *sandboxE2E {
	t.Helper()
	if s := sandbox.Probe(); !s.OK() {
		t.Skipf("this kernel cannot confine: %s", s.Reason)
	}
	dir := t.TempDir()
	e := &sandboxE2E{bin: testbin.Relavium(t), home: filepath.Join(dir, "home"), project: filepath.Join(dir, "project")}
	for _, d := range []string{e.home, filepath.Join(e.project, ".relavium")} {
		if err := os.MkdirAll(d, 0o700); err != nil {
			t.Fatal(err)
		}
	}
	e.env = []string{"RELAVIUM_HOME=" + e.home, "PATH=" + os.Getenv("PATH"), "HOME=" + e.home}
	return e
}

// declare writes the project's config.toml.
func (e *sandboxE2E) declare(t testing.TB, toml string) {
	t.Helper()
	if err := os.WriteFile(filepath.Join(e.project, ".relavium", "config.toml"), []byte(toml), 0o600); err != nil {
		t.Fatal(err)
	}
}

func (e *sandboxE2E) demo(sandboxLine string) string {
	return fmt.Sprintf("[[mcp_servers]]\nname = \"demo\"\ntransport = \"stdio\"\ncommand = %q\nargs = [\"demo-server\"]\n%s\n", e.bin, sandboxLine)
}

// run runs relavium in the project and decodes its --json envelope.
func (e *sandboxE2E) run(t testing.TB, args ...string) map[string]any {
	t.Helper()
	cmd := exec.Command(e.bin, args...)
	cmd.Dir, cmd.Env = e.project, e.env
	out, _ := cmd.Output()
	var env map[string]any
	if err := json.Unmarshal(out, &env); err != nil {
		t.Fatalf("relavium %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return env
}

// digests are the declared stdio servers' digests, by name.
func (e *sandboxE2E) digests(t testing.TB) map[string]string {
	t.Helper()
	env := e.run(t, "consent", "digest", "--json")
	out := map[string]string{}
	for _, s := range env["data"].(map[string]any)["servers"].([]any) {
		m := s.(map[string]any)
		out[m["server"].(string)] = m["digest"].(string)
	}
	return out
}

// allow is --allow-mcp-stdio for every declared server.
func (e *sandboxE2E) allow(t testing.TB) []string {
	var out []string
	for _, d := range e.digests(t) {
		out = append(out, "--allow-mcp-stdio", d)
	}
	return out
}

// probe calls the demo server's sandbox_probe and returns its text and
// whether the tool reported an error.
func (e *sandboxE2E) probe(t *testing.T, action, target string) (string, bool) {
	t.Helper()
	args := append([]string{"mcp", "call", "mcp_demo_sandbox_probe", "action=" + action, "target=" + target, "--yes", "--json"}, e.allow(t)...)
	env := e.run(t, args...)
	b, _ := json.Marshal(env)
	data, _ := env["data"].(map[string]any)
	if data == nil {
		t.Fatalf("call failed: %s", b)
	}
	res, _ := data["result"].(map[string]any)
	isErr, _ := res["isError"].(bool)
	return string(b), isErr
}

func TestSandboxDemoServerRefusedByTheKernel(t *testing.T) {
	e := newSandboxE2E(t)
	outside := t.TempDir()
	secret := filepath.Join(outside, "secret")
	if err := os.WriteFile(secret, []byte("s3cret"), 0o644); err != nil {
		t.Fatal(err)
	}
	e.declare(t, e.demo(""))

	// The server runs sandboxed by default, and says so.
	ls := e.run(t, append([]string{"mcp", "ls", "--json"}, e.allow(t)...)...)
	srv := ls["data"].(map[string]any)["servers"].([]any)[0].(map[string]any)
	sb, _ := srv["sandbox"].(map[string]any)
	if srv["state"] != "ready" || sb == nil || sb["sandboxed"] != true || sb["policy"].(map[string]any)["network"] != "open" {
		t.Fatalf("mcp ls: %v", srv)
	}

	if out, isErr := e.probe(t, "read", secret); !isErr || !strings.Contains(out, "permission denied") || strings.Contains(out, "s3cret") {
		t.Errorf("read outside the policy: %s", out)
	}
	if out, isErr := e.probe(t, "write", filepath.Join(outside, "planted")); !isErr || !strings.Contains(out, "permission denied") {
		t.Errorf("write outside the roots: %s", out)
	}
	if _, err := os.Stat(filepath.Join(outside, "planted")); err == nil {
		t.Error("the refused write happened")
	}
	inside := filepath.Join(e.project, "note.txt")
	if out, isErr := e.probe(t, "write", inside); isErr {
		t.Errorf("write inside the root (the project): %s", out)
	}
	if out, isErr := e.probe(t, "read", inside); isErr {
		t.Errorf("read inside the project: %s", out)
	}

	// network none: the kernel refuses the connection.
	ln, err := net.Listen("tcp4", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	go acceptAll(ln)
	target := ln.Addr().String()
	if out, isErr := e.probe(t, "connect", target); isErr {
		t.Errorf("network open refused %s: %s", target, out)
	}
	e.declare(t, e.demo(`sandbox = { network = "none" }`))
	if out, isErr := e.probe(t, "connect", target); !isErr || strings.Contains(out, "connected to") {
		t.Errorf("network none connected: %s", out)
	}
}

func acceptAll(ln net.Listener) {
	for {
		c, err := ln.Accept()
		if err != nil {
			return
		}
		_ = c.Close()
	}
}

func TestSandboxGuardedNetwork(t *testing.T) {
	e := newSandboxE2E(t)
	ln, err := net.Listen("tcp4", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	go acceptAll(ln)
	allowed := ln.Addr().String()
	e.declare(t, e.demo(fmt.Sprintf(`sandbox = { network = "guarded", allow = [%q] }`, allowed)))
	if out, isErr := e.probe(t, "connect", allowed); isErr || !strings.Contains(out, "through the proxy") {
		t.Errorf("guarded to an allowed loopback origin: %s", out)
	}
	// A private address: the guard refuses it at the proxy.
	if out, isErr := e.probe(t, "connect", "10.0.0.1:80"); !isErr || !strings.Contains(out, "403") {
		t.Errorf("guarded to a private address: %s", out)
	}
	// Loopback not in allow: refused too.
	other, err := net.Listen("tcp4", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer other.Close()
	go acceptAll(other)
	if out, isErr := e.probe(t, "connect", other.Addr().String()); !isErr {
		t.Errorf("guarded to loopback not allowed: %s", out)
	}
}

func TestSandboxDigestChangesWhenThePolicyLoosens(t *testing.T) {
	e := newSandboxE2E(t)
	e.declare(t, e.demo(`sandbox = { network = "none" }`))
	none := e.digests(t)["demo"]
	e.declare(t, e.demo(`sandbox = { network = "open" }`))
	open := e.digests(t)["demo"]
	e.declare(t, e.demo(`sandbox = false`))
	off := e.digests(t)["demo"]
	if none == open || open == off || none == off {
		t.Errorf("digests none %s open %s off %s: the policy is not in the digest", none, open, off)
	}
}

// Real servers from npm run sandboxed by default and work.
func TestSandboxRealServersRunConfined(t *testing.T) {
	peers := os.Getenv("RELAVIUM_PEERS")
	if peers == "" {
		if os.Getenv("RELAVIUM_REQUIRE_PEERS") == "1" {
			t.Fatal("RELAVIUM_REQUIRE_PEERS=1 but RELAVIUM_PEERS is unset (run make peers)")
		}
		t.Skip("peers not installed: run make peers")
	}
	node, err := exec.LookPath("node")
	if err != nil {
		t.Skip("node is not on PATH")
	}
	e := newSandboxE2E(t)
	mod := filepath.Join(peers, "node_modules", "@modelcontextprotocol")
	if err := os.WriteFile(filepath.Join(e.project, "hello.txt"), []byte("hello from the project"), 0o644); err != nil {
		t.Fatal(err)
	}
	e.declare(t, fmt.Sprintf(`[[mcp_servers]]
name = "fs"
transport = "stdio"
command = %q
args = [%q, %q]

[[mcp_servers]]
name = "everything"
transport = "stdio"
command = %q
args = [%q, "stdio"]
`, node, filepath.Join(mod, "server-filesystem", "dist", "index.js"), e.project, node, filepath.Join(mod, "server-everything", "dist", "index.js")))
	ls := e.run(t, append([]string{"mcp", "ls", "--json"}, e.allow(t)...)...)
	servers, _ := ls["data"].(map[string]any)["servers"].([]any)
	if len(servers) != 2 {
		t.Fatalf("mcp ls: %v", ls)
	}
	for _, s := range servers {
		m := s.(map[string]any)
		sb, _ := m["sandbox"].(map[string]any)
		if m["state"] != "ready" || sb == nil || sb["sandboxed"] != true {
			t.Errorf("%s: state %v, sandbox %v", m["name"], m["state"], sb)
		}
	}
	call := func(args ...string) string {
		env := e.run(t, append(append([]string{"mcp", "call"}, args...), append([]string{"--yes", "--json"}, e.allow(t)...)...)...)
		b, _ := json.Marshal(env)
		if env["ok"] != true {
			t.Errorf("mcp call %v: %s", args, b)
		}
		return string(b)
	}
	if out := call("mcp_fs_read_text_file", "path="+filepath.Join(e.project, "hello.txt")); !strings.Contains(out, "hello from the project") {
		t.Errorf("server-filesystem read: %s", out)
	}
	if out := call("mcp_fs_write_file", "path="+filepath.Join(e.project, "out.txt"), "content=written"); !strings.Contains(out, "ok") {
		t.Errorf("server-filesystem write in the root: %s", out)
	}
	if b, err := os.ReadFile(filepath.Join(e.project, "out.txt")); err != nil || string(b) != "written" {
		t.Errorf("the file server-filesystem wrote: %q %v", b, err)
	}
	if out := call("mcp_everything_echo", "message=confined"); !strings.Contains(out, "confined") {
		t.Errorf("server-everything echo: %s", out)
	}
}
