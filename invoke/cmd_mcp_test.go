package invoke

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/relavium/relavium/fault"
	"github.com/relavium/relavium/internal/testbin"
	"github.com/relavium/relavium/invoke/cmd/mcp"
)

// mcpE2E is a built relavium, the built hostile test server, a temp home
// and a project whose config declares servers of the test's choosing.
type mcpE2E struct {
	bin, hostile, home, project string
}

func newMCPE2E(t *testing.T) *mcpE2E {
	t.Helper()
	e := &mcpE2E{bin: testbin.Relavium(t), hostile: testbin.Build(t, "./testdata/servers/hostile")}
	dir := t.TempDir()
	e.home, e.project = filepath.Join(dir, "home"), filepath.Join(dir, "project")
	for _, d := range []string{e.home, filepath.Join(e.project, ".relavium")} {
		if err := os.MkdirAll(d, 0o700); err != nil {
			t.Fatal(err)
		}
	}
	return e
}

// declare writes the project config: one stdio server per name=mode, plus
// any raw TOML.
func (e *mcpE2E) declare(t *testing.T, servers map[string]string, raw string) {
	t.Helper()
	var b strings.Builder
	for name, mode := range servers {
		fmt.Fprintf(&b, "[[mcp_servers]]\nname = %q\ntransport = \"stdio\"\ncommand = %q\nargs = [\"-mode\", %q]\n\n", name, e.hostile, mode)
	}
	b.WriteString(raw)
	if err := os.WriteFile(filepath.Join(e.project, ".relavium", "config.toml"), []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
}

type mcpRun struct {
	code           int
	stdout, stderr string
	env            map[string]any // the --json envelope, when stdout parses
}

func (e *mcpE2E) cmd(ctx context.Context, args ...string) *exec.Cmd {
	cmd := exec.CommandContext(ctx, e.bin, args...)
	cmd.Dir = e.project
	cmd.Env = []string{"RELAVIUM_HOME=" + e.home, "PATH=" + os.Getenv("PATH"), "HOME=" + e.home}
	return cmd
}

func (e *mcpE2E) run(t *testing.T, extraEnv []string, args ...string) mcpRun {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	cmd := e.cmd(ctx, args...)
	cmd.Env = append(cmd.Env, extraEnv...)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	r := mcpRun{stdout: out.String(), stderr: errb.String()}
	if ee, ok := err.(*exec.ExitError); ok {
		r.code = ee.ExitCode()
	} else if err != nil {
		t.Fatalf("run %v: %v", args, err)
	}
	if json.Unmarshal(out.Bytes(), &r.env) != nil {
		r.env = nil
	}
	return r
}

func (r mcpRun) errCode() fault.Code {
	if e, ok := r.env["error"].(map[string]any); ok {
		return fault.Code(fmt.Sprint(e["code"]))
	}
	return ""
}

// pendingDigests reads the digests of an E301 envelope.
func (r mcpRun) pendingDigests(t *testing.T) []string {
	t.Helper()
	data, _ := r.env["data"].(map[string]any)
	pending, _ := data["pending"].([]any)
	var out []string
	for _, p := range pending {
		out = append(out, fmt.Sprint(p.(map[string]any)["digest"]))
	}
	if len(out) == 0 {
		t.Fatalf("no pending digests in %s", r.stdout)
	}
	return out
}

func allowFlags(digests []string) []string {
	var out []string
	for _, d := range digests {
		out = append(out, "--allow-mcp-stdio", d)
	}
	return out
}

func TestMCPListAndCallEndToEnd(t *testing.T) {
	e := newMCPE2E(t)
	e.declare(t, map[string]string{"ok": "ok", "two": "ok"}, "")

	// Headless without consent: exit 2 with every digest, nothing spawned.
	r := e.run(t, nil, "mcp", "ls", "--json")
	if r.code != 2 || r.errCode() != "E301" {
		t.Fatalf("ls without consent: %d %s\n%s", r.code, r.stdout, r.stderr)
	}
	allow := allowFlags(r.pendingDigests(t))

	r = e.run(t, nil, append([]string{"mcp", "ls", "--json"}, allow...)...)
	if r.code != 0 {
		t.Fatalf("ls: %d %s %s", r.code, r.stdout, r.stderr)
	}
	var ls struct {
		Data mcp.MCPList `json:"data"`
	}
	if err := json.Unmarshal([]byte(r.stdout), &ls); err != nil {
		t.Fatal(err)
	}
	if len(ls.Data.Servers) != 2 || ls.Data.Servers[0].State != "ready" || ls.Data.Servers[0].Protocol != "2025-11-25" ||
		ls.Data.Servers[0].PID == 0 || ls.Data.Servers[0].ConnectMS <= 0 {
		t.Errorf("servers = %+v", ls.Data.Servers)
	}
	var add *mcp.MCPTool
	for i, tool := range ls.Data.Tools {
		if tool.Name == "mcp_ok_add" {
			add = &ls.Data.Tools[i]
		}
	}
	if add == nil || !add.Annotations.IsReadOnly() || len(add.Args) != 2 || add.Args[0].Name != "a" || !add.Args[0].Required || add.Args[0].Type != "number" {
		t.Errorf("mcp_ok_add row = %+v", add)
	}
	if len(ls.Data.Skipped) == 0 || ls.Data.Skipped[0].Code == "" {
		t.Errorf("skipped = %+v (the hostile server offers one bad tool)", ls.Data.Skipped)
	}
	if r.stderr != "" {
		t.Errorf("--json wrote to stderr: %s", r.stderr)
	}

	// Human form.
	r = e.run(t, nil, append([]string{"mcp", "ls"}, allow...)...)
	for _, want := range []string{"SERVERS", "● ok", "2025-11-25", "TOOLS", "mcp_two_echo", "read-only", "message*:string", "SKIPPED"} {
		if !strings.Contains(r.stdout, want) {
			t.Errorf("human ls lacks %q:\n%s", want, r.stdout)
		}
	}

	// A call: the result on stdout; schema-aware KEY=VALUE.
	r = e.run(t, nil, append([]string{"mcp", "call", "mcp_ok_add", "a=2", "b=3.5", "--yes"}, allow...)...)
	if r.code != 0 || r.stdout != "5.5\n" {
		t.Errorf("call add: %d %q %s", r.code, r.stdout, r.stderr)
	}
	r = e.run(t, nil, append([]string{"mcp", "call", "mcp_ok_echo", "message=42", "--json", "--yes"}, allow...)...)
	if data, _ := r.env["data"].(map[string]any); r.code != 0 || !strings.Contains(r.stdout, `"text":"42"`) || data["server"] != "ok" {
		t.Errorf("echo 42 (a string property keeps the string): %d %s", r.code, r.stdout)
	}
	r = e.run(t, nil, append([]string{"mcp", "call", "mcp_ok_echo", "--yes", "--args", `{"message":"json args"}`}, allow...)...)
	if r.stdout != "json args\n" {
		t.Errorf("--args: %q %s", r.stdout, r.stderr)
	}
	// Progress on stderr, result on stdout. (The event bus may coalesce
	// progress for a slow printer; the latest is never lost.)
	r = e.run(t, nil, append([]string{"mcp", "call", "mcp_ok_progress", "steps=3", "delay_ms=20", "--yes", "--events"}, allow...)...)
	if r.code != 0 || r.stdout != "3 steps\n" || !strings.Contains(r.stderr, `"type":"agent:tool_progress","time":`) ||
		!strings.Contains(r.stderr, `"call_id":"call-1","progress":3,"total":3`) {
		t.Errorf("progress --events: %d %q\n%s", r.code, r.stdout, r.stderr)
	}

	for _, tc := range []struct {
		name string
		args []string
		code int
		err  fault.Code
	}{
		{"tool error", []string{"mcp_ok_fail", "--yes"}, 1, "E543"},
		{"not read-only without --yes", []string{"mcp_ok_fail"}, 2, "E542"},
		{"annotated read-only without --yes", []string{"mcp_ok_echo", "message=x"}, 2, "E542"},
		{"unknown tool", []string{"mcp_ok_ech"}, 2, "E540"},
		{"no such server prefix", []string{"mcp_nope_x"}, 2, "E540"},
		{"bad KEY=VALUE", []string{"mcp_ok_echo", "message"}, 2, "E541"},
		{"args twice", []string{"mcp_ok_echo", "a=1", "--args", "{}"}, 2, "E541"},
		{"invalid arguments", []string{"mcp_ok_add", "a=x", "b=1"}, 2, "E588"},
		{"invalid arguments are said before --yes is asked for", []string{"mcp_ok_slow", "ms=soon"}, 2, "E588"},
		{"deadline", []string{"mcp_ok_slow", "ms=30000", "--yes", "--timeout", "300ms"}, 1, "E510"},
		{"oversized result", []string{"mcp_ok_big", "bytes=1048577", "--yes"}, 1, "E512"},
		{"server dies mid-call", []string{"mcp_ok_crash", "--yes"}, 1, "E505"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := e.run(t, nil, append(append([]string{"mcp", "call", "--json"}, tc.args...), allow...)...)
			if r.code != tc.code || r.errCode() != tc.err {
				t.Errorf("%v: exit %d code %s, want %d %s\n%s\n%s", tc.args, r.code, r.errCode(), tc.code, tc.err, r.stdout, r.stderr)
			}
		})
	}
}

func TestMCPStartFailureListsEveryServer(t *testing.T) {
	e := newMCPE2E(t)
	e.declare(t, map[string]string{"good": "ok", "early": "exit-early"}, "")
	r := e.run(t, nil, "mcp", "ls", "--json")
	allow := allowFlags(r.pendingDigests(t))
	r = e.run(t, nil, append([]string{"mcp", "ls", "--json"}, allow...)...)
	if r.code != 1 || r.errCode() != "E500" {
		t.Fatalf("exit %d %s", r.code, r.stdout)
	}
	data, _ := r.env["data"].(map[string]any)
	servers, _ := data["servers"].([]any)
	states := map[string]string{}
	for _, s := range servers {
		m := s.(map[string]any)
		states[fmt.Sprint(m["name"])] = fmt.Sprint(m["state"])
		if m["name"] == "early" && (m["error_code"] != "E503" || !strings.Contains(fmt.Sprint(m["stderr_tail"]), "on purpose")) {
			t.Errorf("early = %v", m)
		}
	}
	if states["good"] != "ready" || states["early"] != "failed" {
		t.Errorf("states = %v", states)
	}
	r = e.run(t, nil, append([]string{"mcp", "ls"}, allow...)...)
	if !strings.Contains(r.stderr, "E500") || !strings.Contains(r.stderr, "cannot start (this is on purpose)") {
		t.Errorf("human failure:\n%s", r.stderr)
	}
}

// A one-shot command signalled mid-call tears everything down: the child,
// and the grandchild it spawned that ignores SIGTERM.
func TestMCPCallSignalReapsChildrenAndGrandchildren(t *testing.T) {
	e := newMCPE2E(t)
	e.declare(t, map[string]string{"gc": "grandchild"}, "")
	r := e.run(t, nil, "mcp", "ls", "--json")
	allow := allowFlags(r.pendingDigests(t))
	for _, sig := range []syscall.Signal{syscall.SIGTERM, syscall.SIGINT, syscall.SIGHUP, syscall.SIGQUIT} {
		t.Run(sig.String(), func(t *testing.T) {
			ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
			defer cancel()
			cmd := e.cmd(ctx, append([]string{"mcp", "call", "mcp_gc_slow", "ms=60000", "--yes", "--json"}, allow...)...)
			var out, errb bytes.Buffer
			cmd.Stdout, cmd.Stderr = &out, &errb
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			// Wait for the server and its grandchild to exist.
			var below []int
			deadline := time.Now().Add(30 * time.Second)
			for len(below) < 2 && time.Now().Before(deadline) {
				time.Sleep(20 * time.Millisecond)
				below = mcpDescendants(cmd.Process.Pid)
			}
			if len(below) < 2 {
				_ = cmd.Process.Kill()
				_ = cmd.Wait()
				t.Fatalf("child and grandchild never appeared: %v\n%s", below, errb.String())
			}
			time.Sleep(200 * time.Millisecond) // the call is in flight
			if err := cmd.Process.Signal(sig); err != nil {
				t.Fatal(err)
			}
			err := cmd.Wait()
			code := 0
			if ee, ok := err.(*exec.ExitError); ok {
				code = ee.ExitCode()
			}
			if code != 1 || !strings.Contains(out.String(), `"E511"`) {
				t.Errorf("exit %d, stdout %s\nstderr %s", code, out.String(), errb.String())
			}
			for _, pid := range below {
				if mcpProcAlive(pid) {
					t.Errorf("process %d survived %s", pid, sig)
					_ = syscall.Kill(pid, syscall.SIGKILL)
				}
			}
		})
	}
}

// A usage mistake in mcp call's own arguments exits 2 before anything is
// spawned: the server is never started for a call that cannot be made.
func TestMCPCallUsageMistakesExitTwoBeforeAnySpawn(t *testing.T) {
	e := newMCPE2E(t)
	e.declare(t, map[string]string{"ok": "ok"}, "")
	r := e.run(t, nil, "mcp", "ls", "--json")
	allow := allowFlags(r.pendingDigests(t))
	for _, tc := range []struct {
		name string
		args []string
		err  fault.Code
	}{
		{"not KEY=VALUE", []string{"mcp_ok_echo", "message"}, "E541"},
		{"empty key", []string{"mcp_ok_echo", "=x"}, "E541"},
		{"key twice", []string{"mcp_ok_echo", "message=a", "message=b"}, "E541"},
		{"--args not JSON", []string{"mcp_ok_echo", "--args", "nope"}, "E541"},
		{"--args not an object", []string{"mcp_ok_echo", "--args", "[1]"}, "E541"},
		{"negative --timeout", []string{"mcp_ok_echo", "message=a", "--timeout", "-1s"}, "E102"},
		{"zero --timeout", []string{"mcp_ok_echo", "message=a", "--timeout", "0s"}, "E102"},
		{"--args 100000 deep", []string{"mcp_ok_echo", "--args", strings.Repeat("[", 100000)}, "E105"},
		{"--args objects 20000 deep", []string{"mcp_ok_echo", "--args", strings.Repeat(`{"a":`, 20000)}, "E105"},
		{"KEY=VALUE 30000 deep", []string{"mcp_ok_echo", "message=" + strings.Repeat("[", 30000) + strings.Repeat("]", 30000)}, "E105"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := e.run(t, nil, append(append([]string{"mcp", "call", "--json"}, tc.args...), allow...)...)
			if r.code != 2 || r.errCode() != tc.err {
				t.Errorf("exit %d code %s, want 2 %s\n%s\n%s", r.code, r.errCode(), tc.err, r.stdout, r.stderr)
			}
			if strings.Contains(r.stderr, "ready") || strings.Contains(r.stderr, "pid") {
				t.Errorf("a server was started for a call that could not be made:\n%s", r.stderr)
			}
		})
	}
}

// One server failing (it exits before initialize) or one missing command
// does not hide the healthy server's tools: mcp ls lists them beside the
// failed row (stdout), says the failure (stderr) and still exits non-zero.
func TestMCPListShowsHealthyServersBesideAFailedOne(t *testing.T) {
	e := newMCPE2E(t)
	e.declare(t, map[string]string{"ok": "ok", "bad": "exit-early"}, "[[mcp_servers]]\nname = \"gone\"\ntransport = \"stdio\"\ncommand = \"/nonexistent/server\"\n")
	for _, name := range []string{"ok", "bad"} {
		if r := e.run(t, nil, "consent", "grant", name, "--yes"); r.code != 0 {
			t.Fatalf("grant %s: %+v", name, r)
		}
	}
	r := e.run(t, nil, "mcp", "ls")
	if r.code == 0 {
		t.Fatalf("a failed server exited 0:\n%s", r.stdout)
	}
	for _, want := range []string{"● ok", "✗ bad", "✗ gone", "E304", "TOOLS", "mcp_ok_add"} {
		if !strings.Contains(r.stdout, want) {
			t.Errorf("human ls lacks %q:\nstdout:\n%s\nstderr:\n%s", want, r.stdout, r.stderr)
		}
	}
	if !strings.Contains(r.stderr, "relavium: ") {
		t.Errorf("the failure is not said on stderr: %q", r.stderr)
	}
	// --json keeps its one error envelope.
	r = e.run(t, nil, "mcp", "ls", "--json")
	if r.code == 0 || r.errCode() == "" {
		t.Errorf("--json: %d %s", r.code, r.stdout)
	}
}

// A tool's short name calls it when exactly one declared server offers it;
// offered by two, it is a did-you-mean naming both.
func TestMCPCallByUniqueShortName(t *testing.T) {
	e := newMCPE2E(t)
	e.declare(t, map[string]string{"ok": "ok"}, "")
	allow := allowFlags(e.run(t, nil, "mcp", "ls", "--json").pendingDigests(t))
	r := e.run(t, nil, append([]string{"mcp", "call", "add", "a=2", "b=3", "--yes"}, allow...)...)
	if r.code != 0 || r.stdout != "5\n" {
		t.Fatalf("call add: %d %q %s", r.code, r.stdout, r.stderr)
	}
	e.declare(t, map[string]string{"ok": "ok", "two": "ok"}, "")
	allow = allowFlags(e.run(t, nil, "mcp", "ls", "--json").pendingDigests(t))
	r = e.run(t, nil, append([]string{"mcp", "call", "add", "a=2", "b=3", "--yes", "--json"}, allow...)...)
	if r.code != 2 || r.errCode() != "E540" || !strings.Contains(r.stdout, "did you mean mcp_ok_add or mcp_two_add?") {
		t.Fatalf("ambiguous short name: %d %s", r.code, r.stdout)
	}
}
