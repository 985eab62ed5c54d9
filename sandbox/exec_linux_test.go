//go:build linux

package sandbox

import (
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
)

// confined runs script under /bin/sh through this test binary's
// sandbox-exec with p, in the namespaces Isolate asks for, and returns
// its combined output and whether it succeeded.
func confined(t *testing.T, a Applied, script string) (string, bool) {
	t.Helper()
	if s := Probe(); !s.OK() {
		t.Skipf("this kernel cannot confine: %s", s.Reason)
	}
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	argv := Argv(self, a, "/bin/sh", []string{"-c", script})
	cmd := &exec.Cmd{Path: argv[0], Args: argv, Env: []string{"PATH=/usr/bin:/bin"}, SysProcAttr: &syscall.SysProcAttr{}}
	Isolate(cmd.SysProcAttr, a.Policy)
	out, err := cmd.CombinedOutput()
	return string(out), err == nil
}

func systemPolicy(network Network, write ...string) Policy {
	return Policy{Enabled: true, Read: existing(systemRead), Write: write, Network: network}
}

func TestKernelRefusesReadsAndWritesOutsideThePolicy(t *testing.T) {
	dir := t.TempDir()
	secret := filepath.Join(dir, "secret")
	outside := filepath.Join(dir, "outside")
	root := filepath.Join(dir, "root")
	for _, d := range []string{outside, root} {
		if err := os.Mkdir(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(secret, []byte("s3cret"), 0o644); err != nil {
		t.Fatal(err)
	}
	p := systemPolicy(NetOpen, root)
	if out, ok := confined(t, Applied{Policy: p}, "cat "+secret); ok || !strings.Contains(out, "Permission denied") || strings.Contains(out, "s3cret") {
		t.Errorf("read outside the policy: ok=%v %q", ok, out)
	}
	if out, ok := confined(t, Applied{Policy: p}, "echo x > "+filepath.Join(outside, "f")); ok || !strings.Contains(out, "Permission denied") {
		t.Errorf("write outside the roots: ok=%v %q", ok, out)
	}
	if out, ok := confined(t, Applied{Policy: p}, "echo x > "+filepath.Join(root, "f")+" && cat "+filepath.Join(root, "f")); !ok || strings.TrimSpace(out) != "x" {
		t.Errorf("write inside a root: ok=%v %q", ok, out)
	}
	// The private temp dir is writable; the policy's Tmp says so.
	tmp := t.TempDir()
	pt := p
	pt.Tmp = true
	if out, ok := confined(t, Applied{Policy: pt, TmpDir: tmp}, "echo y > "+filepath.Join(tmp, "t")); !ok {
		t.Errorf("write in the private temp dir: %q", out)
	}
	if _, err := os.Stat(filepath.Join(outside, "f")); err == nil {
		t.Error("the refused write happened")
	}
}

// tcpProbe is a shell line that connects to 127.0.0.1:port (bash's
// /dev/tcp) and says whether it could.
func tcpProbe(port int) string {
	return "exec bash -c 'exec 3<>/dev/tcp/127.0.0.1/" + strconv.Itoa(port) + " && echo connected'"
}

func listen(t *testing.T) int {
	t.Helper()
	ln, err := net.Listen("tcp4", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = ln.Close() })
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			_ = c.Close()
		}
	}()
	return ln.Addr().(*net.TCPAddr).Port
}

func TestKernelRefusesConnectionsByNetworkMode(t *testing.T) {
	if _, err := exec.LookPath("bash"); err != nil {
		t.Skip("bash is needed for /dev/tcp")
	}
	port, other := listen(t), listen(t)
	if out, ok := confined(t, Applied{Policy: systemPolicy(NetOpen)}, tcpProbe(port)); !ok || !strings.Contains(out, "connected") {
		t.Errorf("open: %v %q", ok, out)
	}
	if out, ok := confined(t, Applied{Policy: systemPolicy(NetNone)}, tcpProbe(port)); ok || strings.Contains(out, "connected") {
		t.Errorf("none connected: %q", out)
	}
	// Landlock alone (no namespace): the kernel's answer is EACCES.
	self, _ := os.Executable()
	argv := Argv(self, Applied{Policy: systemPolicy(NetNone)}, "/bin/sh", []string{"-c", tcpProbe(port)})
	out, err := (&exec.Cmd{Path: argv[0], Args: argv, Env: []string{"PATH=/usr/bin:/bin"}}).CombinedOutput()
	if err == nil || !strings.Contains(string(out), "Permission denied") {
		t.Errorf("none under Landlock only: %v %q", err, out)
	}
	guarded := Applied{Policy: systemPolicy(NetGuarded), ProxyPort: uint16(port)}
	if out, ok := confined(t, guarded, tcpProbe(port)); !ok || !strings.Contains(out, "connected") {
		t.Errorf("guarded to its proxy: %v %q", ok, out)
	}
	if out, ok := confined(t, guarded, tcpProbe(other)); ok || !strings.Contains(out, "Permission denied") {
		t.Errorf("guarded elsewhere: %v %q", ok, out)
	}
}

func TestSandboxExecRefusesWhatItCannotApply(t *testing.T) {
	for _, args := range [][]string{
		{},
		{"{}", "--", "/bin/true"},
		{`{"policy":{"enabled":true,"network":"sideways"}}`, "--", "/bin/true"},
		{`{"policy":{"enabled":true,"network":"guarded"}}`, "--", "/bin/true"},
		{`not json`, "--", "/bin/true"},
	} {
		if _, _, err := parseArgv(args); err == nil {
			t.Errorf("parseArgv(%q) accepted", args)
		}
	}
}
