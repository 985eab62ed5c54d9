package demoserver_test

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/relavium/relavium/fault"
	"github.com/relavium/relavium/internal/testbin"
)

// processesOf lists the pids whose command line starts with bin (a path
// unique to one test process, which runs TestBinary alone).
func processesOf(bin string) []string {
	var pids []string
	entries, _ := os.ReadDir("/proc")
	for _, e := range entries {
		cmdline, err := os.ReadFile(filepath.Join("/proc", e.Name(), "cmdline"))
		if err == nil && bytes.HasPrefix(cmdline, []byte(bin+"\x00")) {
			pids = append(pids, e.Name())
		}
	}
	return pids
}

// relaviumCmd is the binary with a temp home and no CI variable.
func relaviumCmd(t *testing.T, bin string, args ...string) *exec.Cmd {
	cmd := exec.Command(bin, args...)
	cmd.Env = append(os.Environ(), "RELAVIUM_HOME="+t.TempDir())
	return cmd
}

// waitExit waits for a started command and returns its exit code; a process
// still alive after 30 s is killed and fails the test.
func waitExit(t *testing.T, cmd *exec.Cmd) int {
	t.Helper()
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case err := <-done:
		var ee *exec.ExitError
		if errors.As(err, &ee) {
			return ee.ExitCode()
		}
		if err != nil {
			t.Fatalf("wait: %v", err)
		}
		return 0
	case <-time.After(30 * time.Second):
		_ = cmd.Process.Kill()
		<-done
		t.Fatal("relavium demo-server did not exit within 30 s")
		return -1
	}
}

func TestBinary(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary")
	}
	bin := testbin.Relavium(t)
	// Process probe: when every subtest is done, no process of this
	// binary (a server spawned by a test or by the inspector) is left.
	t.Cleanup(func() {
		deadline := time.Now().Add(10 * time.Second)
		for {
			left := processesOf(bin)
			if len(left) == 0 {
				return
			}
			if time.Now().After(deadline) {
				t.Errorf("processes of the test binary outlived their tests: %v", left)
				return
			}
			time.Sleep(50 * time.Millisecond)
		}
	})

	t.Run("http serves until SIGINT", func(t *testing.T) {
		cmd := relaviumCmd(t, bin, "demo-server", "--transport", "http", "--port", "0")
		stderr, err := cmd.StderrPipe()
		if err != nil {
			t.Fatal(err)
		}
		var stdout bytes.Buffer
		cmd.Stdout = &stdout
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		sc := bufio.NewScanner(stderr)
		var url string
		for sc.Scan() {
			if u, ok := strings.CutPrefix(sc.Text(), "relavium demo-server: listening on "); ok {
				url = u
				break
			}
		}
		if url == "" {
			_ = cmd.Process.Kill()
			_ = cmd.Wait()
			t.Fatal("no 'listening on' line on stderr")
		}
		rest := make(chan string, 1)
		go func() {
			var b strings.Builder
			for sc.Scan() {
				b.WriteString(sc.Text() + "\n")
			}
			rest <- b.String()
		}()
		cs := httpClient(t, url, "")
		wantText("binary")(t, call(t, cs, "echo", map[string]any{"message": "binary"}))
		sigAt := time.Now()
		defer func() { t.Logf("exited %v after SIGINT", time.Since(sigAt)) }()
		if err := cmd.Process.Signal(syscall.SIGINT); err != nil {
			t.Fatal(err)
		}
		if code := waitExit(t, cmd); code != 0 {
			t.Fatalf("exit %d after SIGINT, want 0; stderr: %s", code, <-rest)
		}
		if stdout.Len() != 0 {
			t.Errorf("stdout is not empty: %q", stdout.String())
		}
		if s := <-rest; s != "" {
			t.Errorf("unexpected stderr after the url: %q", s)
		}
		addr := strings.TrimSuffix(strings.TrimPrefix(url, "http://"), "/mcp")
		if c, err := net.DialTimeout("tcp", addr, time.Second); err == nil {
			c.Close()
			t.Fatal("the port is still open after exit")
		}
	})

	t.Run("stdio ends when the client closes", func(t *testing.T) {
		cmd := relaviumCmd(t, bin, "demo-server")
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		c := mcp.NewClient(&mcp.Implementation{Name: "binary-test", Version: "1"}, nil)
		cs, err := c.Connect(context.Background(), &mcp.CommandTransport{Command: cmd, TerminateDuration: 10 * time.Second}, nil)
		if err != nil {
			t.Fatal(err)
		}
		if v := cs.InitializeResult().ServerInfo; v.Name != "relavium-demo" {
			t.Errorf("serverInfo %+v", v)
		}
		tools, err := cs.ListTools(context.Background(), nil)
		if err != nil || len(tools.Tools) < 20 {
			t.Fatalf("tools/list: %v", err)
		}
		start := time.Now()
		if err := cs.Close(); err != nil {
			t.Fatalf("close: %v (the server had to be signalled); stderr: %s", err, stderr.String())
		}
		if cmd.ProcessState == nil || !cmd.ProcessState.Success() {
			t.Fatalf("process state %v", cmd.ProcessState)
		}
		if d := time.Since(start); d >= 10*time.Second {
			t.Fatalf("the server exited only when signalled (%v)", d)
		}
		if stderr.Len() != 0 {
			t.Errorf("stderr: %q", stderr.String())
		}
	})

	t.Run("stdio ends on SIGTERM", func(t *testing.T) {
		cmd := relaviumCmd(t, bin, "demo-server")
		stdin, err := cmd.StdinPipe() // held open: only the signal ends it
		if err != nil {
			t.Fatal(err)
		}
		defer stdin.Close()
		stdout, err := cmd.StdoutPipe()
		if err != nil {
			t.Fatal(err)
		}
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		// Signalled once it answers (its signal handler is in place before
		// it reads a request): a sleep instead lost the race under load,
		// the default action ending it with 143.
		if _, err := io.WriteString(stdin, `{"jsonrpc":"2.0","id":1,"method":"ping"}`+"\n"); err != nil {
			t.Fatal(err)
		}
		if _, err := bufio.NewReader(stdout).ReadString('\n'); err != nil {
			t.Fatalf("no answer before the signal: %v", err)
		}
		if err := cmd.Process.Signal(syscall.SIGTERM); err != nil {
			t.Fatal(err)
		}
		if code := waitExit(t, cmd); code != 0 {
			t.Fatalf("exit %d after SIGTERM, want 0", code)
		}
	})

	// A third-party client (the MCP inspector CLI, node) drives the binary
	// over stdio: tools, resources and prompts.
	t.Run("inspector-cli over stdio", func(t *testing.T) {
		dir := peers(t)
		cli := peerFile(t, dir, "node_modules", ".bin", "mcp-inspector-cli")
		inspect := func(args ...string) map[string]any {
			t.Helper()
			ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
			defer cancel()
			cmd := exec.CommandContext(ctx, cli, append([]string{"--cli", bin, "demo-server"}, args...)...)
			cmd.Dir = peerFile(t, dir, "w") // inspector-cli 1.0.3 fails unless its working directory has a ../package.json
			cmd.Env = append(os.Environ(), "RELAVIUM_HOME="+t.TempDir())
			cmd.WaitDelay = 5 * time.Second
			var stderr bytes.Buffer
			cmd.Stderr = &stderr
			out, err := cmd.Output()
			if err != nil {
				t.Fatalf("inspector %v: %v\n%s", args, err, stderr.String())
			}
			var m map[string]any
			if err := json.Unmarshal(out, &m); err != nil {
				t.Fatalf("inspector %v: %v\n%s", args, err, out)
			}
			return m
		}
		if tools, _ := inspect("--method", "tools/list")["tools"].([]any); len(tools) < 20 {
			t.Errorf("tools/list: %d tools", len(tools))
		}
		res := inspect("--method", "tools/call", "--tool-name", "add_numbers", "--tool-arg", "a=2", "--tool-arg", "b=3")
		if sc, _ := res["structuredContent"].(map[string]any); sc["sum"] != 5.0 {
			t.Errorf("add_numbers: %v", res)
		}
		res = inspect("--method", "resources/read", "--uri", "test://static-text")
		if c, _ := res["contents"].([]any); len(c) != 1 || !strings.Contains(fmt.Sprint(c[0]), "static text resource") {
			t.Errorf("resources/read: %v", res)
		}
		res = inspect("--method", "prompts/get", "--prompt-name", "test_prompt_with_arguments", "--prompt-args", "arg1=a", "arg2=b")
		if !strings.Contains(fmt.Sprint(res["messages"]), "arg1='a', arg2='b'") {
			t.Errorf("prompts/get: %v", res)
		}
	})

	t.Run("refusals", func(t *testing.T) {
		ln, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		defer ln.Close()
		busy := fmt.Sprint(ln.Addr().(*net.TCPAddr).Port)
		cases := []struct {
			args []string
			exit int
			code fault.Code
		}{
			{[]string{"--port", "70000"}, 2, "E800"},
			{[]string{"--host", "0.0.0.0"}, 2, "E801"},
			{[]string{"--port", busy}, 1, "E802"},
		}
		for _, c := range cases {
			args := append([]string{"demo-server", "--transport", "http"}, c.args...)
			cmd := relaviumCmd(t, bin, args...)
			var stdout, stderr bytes.Buffer
			cmd.Stdout, cmd.Stderr = &stdout, &stderr
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			if code := waitExit(t, cmd); code != c.exit || !strings.Contains(stderr.String(), string(c.code)) {
				t.Errorf("%v: exit %d, stderr %q; want exit %d naming %s", c.args, code, stderr.String(), c.exit, c.code)
			}
			if stdout.Len() != 0 {
				t.Errorf("%v: stdout %q", c.args, stdout.String())
			}
		}

		// --json: exactly one envelope on stdout, exit 2, nothing served.
		cmd := relaviumCmd(t, bin, "demo-server", "--json")
		var stdout, stderr bytes.Buffer
		cmd.Stdout, cmd.Stderr = &stdout, &stderr
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		if code := waitExit(t, cmd); code != 2 {
			t.Fatalf("--json: exit %d", code)
		}
		var env struct {
			OK    bool `json:"ok"`
			Error struct {
				Code    string `json:"code"`
				Message string `json:"message"`
			} `json:"error"`
		}
		dec := json.NewDecoder(&stdout)
		if err := dec.Decode(&env); err != nil || env.OK || env.Error.Code != "E804" || dec.More() {
			t.Fatalf("--json envelope %+v (%v), stdout %q", env, err, stdout.String())
		}
	})
}
