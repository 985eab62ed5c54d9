//go:build linux

package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"golang.org/x/sys/unix"

	"github.com/relavium/relavium/internal/testbin"
)

// The network guard end to end, with the built binary resolving names
// through /etc/hosts, inside a private network and mount namespace
// (issue 6): loopback up, /etc/hosts bind-mounted, and no route out, so no
// packet can leave the machine whatever the guard decides.
//
// The test process re-executes itself as the "stage" inside the new
// namespaces (TestMain, main_test.go): it prepares them, starts an MCP
// server on the namespace's loopback, runs relavium there and prints what
// it saw.

// stageCannot is the stage's exit code when the machine would not let it
// prepare the namespaces (a mount or an interface it may not touch): the
// environment's limit, not relavium's failure.
const stageCannot = 3

// stagePort is the MCP server's port on the namespace's own loopback,
// where nothing else listens.
const stagePort = "3826"

// stageRun is one relavium run inside the namespace.
type stageRun struct {
	Exit   int    `json:"exit"`
	Stdout string `json:"stdout"`
	Stderr string `json:"stderr"`
}

func TestGuardInAPrivateNetworkNamespace(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("creating network and mount namespaces needs root (CI runs as root)")
	}
	bin := testbin.Relavium(t)
	serverBin := testbin.Build(t, "./testdata/servers/hostile-discovery")
	root := t.TempDir()
	hosts := filepath.Join(root, "hosts")
	// mcp.example.com looks public and resolves to loopback (a rebinding
	// answer); far.example.com is "declared local" but resolves public.
	writeFile(t, hosts, "127.0.0.1 localhost\n127.0.0.1 mcp.example.com\n93.184.216.34 far.example.com\n")
	projects := map[string]string{
		"public-name-to-loopback": `url = "https://mcp.example.com:` + stagePort + `/mcp"`,
		"declared-local":          `url = "http://mcp.example.com:` + stagePort + `/mcp"` + "\nallow_local_endpoint = true",
		"local-name-to-public":    `url = "http://far.example.com:` + stagePort + `/mcp"` + "\nallow_local_endpoint = true",
	}
	for name, decl := range projects {
		writeFile(t, filepath.Join(root, name, ".relavium", "config.toml"),
			"[[mcp_servers]]\nname = \"s\"\ntransport = \"http\"\n"+decl+"\n")
	}

	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), netnsStageEnv+"=1", "STAGE_BIN="+bin, "STAGE_SERVER="+serverBin,
		"STAGE_HOSTS="+hosts, "STAGE_ROOT="+root, "RELAVIUM_HOME="+filepath.Join(root, "home"))
	cmd.SysProcAttr = &syscall.SysProcAttr{Cloneflags: syscall.CLONE_NEWNET | syscall.CLONE_NEWNS}
	var stderr strings.Builder
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if errors.Is(err, syscall.EPERM) || errors.Is(err, syscall.EINVAL) {
		t.Skipf("this machine does not allow new network namespaces: %v", err)
	}
	var ee *exec.ExitError
	if errors.As(err, &ee) && ee.ExitCode() == stageCannot {
		t.Skipf("this machine does not let the test prepare the namespaces: %s", stderr.String())
	}
	if err != nil {
		t.Fatalf("the stage failed: %v\n%s", err, stderr.String())
	}
	var runs map[string]stageRun
	if err := json.Unmarshal(out, &runs); err != nil {
		t.Fatalf("stage output %q: %v\n%s", out, err, stderr.String())
	}

	type server struct {
		State     string `json:"state"`
		Tools     int    `json:"tools"`
		ErrorCode string `json:"error_code"`
		Refusal   *struct {
			Reason  string `json:"reason"`
			Address string `json:"address"`
		} `json:"refusal"`
	}
	servers := func(name string) server {
		t.Helper()
		var env struct {
			Data struct {
				Servers []server `json:"servers"`
			} `json:"data"`
		}
		r := runs[name]
		if err := json.Unmarshal([]byte(r.Stdout), &env); err != nil || len(env.Data.Servers) != 1 {
			t.Fatalf("%s: exit %d, stdout %q, stderr %s", name, r.Exit, r.Stdout, r.Stderr)
		}
		return env.Data.Servers[0]
	}

	// A public-looking name that resolves to loopback is refused when it is
	// dialled, naming the address, without the opt-in.
	if s := servers("public-name-to-loopback"); runs["public-name-to-loopback"].Exit != 1 || s.ErrorCode != "E560" ||
		s.Refusal == nil || s.Refusal.Address != "127.0.0.1" {
		t.Errorf("public name to loopback: %+v (exit %d)", s, runs["public-name-to-loopback"].Exit)
	}
	// Declared local, it connects to the server on that loopback.
	if s := servers("declared-local"); runs["declared-local"].Exit != 0 || s.State != "ready" || s.Tools != 256 {
		t.Errorf("declared local: %+v (exit %d) %s", s, runs["declared-local"].Exit, runs["declared-local"].Stderr)
	}
	// A name declared local that resolves public is refused, not dialled.
	if s := servers("local-name-to-public"); runs["local-name-to-public"].Exit != 1 || s.ErrorCode != "E558" ||
		s.Refusal == nil || s.Refusal.Address != "93.184.216.34" {
		t.Errorf("local name to public: %+v (exit %d)", s, runs["local-name-to-public"].Exit)
	}
}

// runNetnsStage runs inside the new namespaces: it makes mounts private,
// brings loopback up, puts the test's hosts file over /etc/hosts, starts
// the MCP server on loopback and runs `relavium mcp ls --json` in each
// project, printing every run as one JSON object on stdout.
func runNetnsStage() int {
	fail := func(format string, a ...any) int {
		fmt.Fprintf(os.Stderr, "stage: "+format+"\n", a...)
		return 1
	}
	cannot := func(format string, a ...any) int {
		fmt.Fprintf(os.Stderr, "stage: "+format+"\n", a...)
		return stageCannot
	}
	if err := unix.Mount("", "/", "", unix.MS_REC|unix.MS_PRIVATE, ""); err != nil {
		return cannot("make mounts private: %v", err)
	}
	if err := loopbackUp(); err != nil {
		return cannot("bring lo up: %v", err)
	}
	if err := unix.Mount(os.Getenv("STAGE_HOSTS"), "/etc/hosts", "", unix.MS_BIND, ""); err != nil {
		return cannot("bind /etc/hosts: %v", err)
	}
	srv := exec.Command(os.Getenv("STAGE_SERVER"), "-case", "bench", "-http", "127.0.0.1:"+stagePort)
	srv.Stderr = os.Stderr
	stop, err := srv.StdinPipe() // the server serves until its stdin closes
	if err != nil {
		return fail("%v", err)
	}
	if err := srv.Start(); err != nil {
		return fail("start the server: %v", err)
	}
	defer func() { _ = stop.Close(); _ = srv.Wait() }()
	deadline := time.Now().Add(20 * time.Second)
	for {
		c, err := net.DialTimeout("tcp", "127.0.0.1:"+stagePort, time.Second)
		if err == nil {
			c.Close()
			break
		}
		if time.Now().After(deadline) {
			return fail("the server never listened: %v", err)
		}
		time.Sleep(20 * time.Millisecond)
	}
	root := os.Getenv("STAGE_ROOT")
	entries, err := os.ReadDir(root)
	if err != nil {
		return fail("%v", err)
	}
	runs := map[string]stageRun{}
	for _, e := range entries {
		if !e.IsDir() || e.Name() == "home" {
			continue
		}
		cmd := exec.Command(os.Getenv("STAGE_BIN"), "--project", filepath.Join(root, e.Name()), "mcp", "ls", "--json")
		cmd.Env = append(os.Environ(), "CI=1")
		var so, se strings.Builder
		cmd.Stdout, cmd.Stderr = &so, &se
		err := cmd.Run()
		code := 0
		var ee *exec.ExitError
		if errors.As(err, &ee) {
			code = ee.ExitCode()
		} else if err != nil {
			return fail("run relavium: %v", err)
		}
		runs[e.Name()] = stageRun{Exit: code, Stdout: so.String(), Stderr: se.String()}
	}
	if err := json.NewEncoder(os.Stdout).Encode(runs); err != nil {
		return fail("%v", err)
	}
	return 0
}

// loopbackUp sets IFF_UP on lo (a new network namespace starts with it down).
func loopbackUp() error {
	fd, err := unix.Socket(unix.AF_INET, unix.SOCK_DGRAM|unix.SOCK_CLOEXEC, 0)
	if err != nil {
		return err
	}
	defer unix.Close(fd)
	ifr, err := unix.NewIfreq("lo")
	if err != nil {
		return err
	}
	if err := unix.IoctlIfreq(fd, unix.SIOCGIFFLAGS, ifr); err != nil {
		return err
	}
	ifr.SetUint16(ifr.Uint16() | unix.IFF_UP)
	return unix.IoctlIfreq(fd, unix.SIOCSIFFLAGS, ifr)
}

func writeFile(t *testing.T, path, body string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
}
