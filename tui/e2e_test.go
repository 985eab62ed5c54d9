package tui

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/relavium/relavium/internal/testbin"
	"github.com/relavium/relavium/tui/dialog"
	"github.com/relavium/relavium/tui/render"
)

// The end-to-end test runs the built binary in a real terminal: tmux runs
// `relavium demo` with a temp RELAVIUM_HOME; send-keys drives it and
// capture-pane asserts each screen. It approves consent, calls the progress
// tool (asked once: always for this definition), cancels a call (and sees the server report the cancellation),
// answers an elicitation, opens help, resizes, exports, quits — and walks
// /proc to show that no child process is left.

// requireTmux skips a terminal test under -short (it builds and drives
// the binary) and fails it when tmux is missing.
func requireTmux(t *testing.T) {
	t.Helper()
	if testing.Short() {
		t.Skip("builds and drives the binary in tmux")
	}
	if _, err := exec.LookPath("tmux"); err != nil {
		t.Fatal("tmux is required for the terminal test (apt-get install tmux; .ci/run installs it)")
	}
}

// startTmux runs script (through sh) in a tmux server of the test's own,
// on a w×h terminal whose working directory is dir; the server, and what
// runs in it, is killed when the test ends.
func startTmux(t *testing.T, name string, w, h int, dir, script string) *tmuxTerm {
	t.Helper()
	// A server of its own per test run (the fresh temp dir's random name):
	// with -count N, a run reusing the last one's socket raced that server's
	// exit ("server exited unexpectedly").
	run := filepath.Base(filepath.Dir(t.TempDir()))
	tm := &tmuxTerm{t: t, socket: fmt.Sprintf("relavium-%s-%d-%s", name, os.Getpid(), run), dir: dir}
	tm.run("new-session", "-d", "-s", "e2e", "-x", strconv.Itoa(w), "-y", strconv.Itoa(h), "-c", dir, "sh", "-c", "exec sh -c '"+script+"'")
	t.Cleanup(func() { _ = exec.Command("tmux", "-L", tm.socket, "kill-server").Run() })
	return tm
}

type tmuxTerm struct {
	t      *testing.T
	socket string
	dir    string
}

func (tm *tmuxTerm) run(args ...string) string {
	tm.t.Helper()
	cmd := exec.Command("tmux", append([]string{"-L", tm.socket}, args...)...)
	out, err := cmd.CombinedOutput()
	if err != nil {
		tm.t.Fatalf("tmux %v: %v\n%s", args, err, out)
	}
	return string(out)
}

// keys sends each key on its own, a moment apart: an Escape followed at
// once by a letter would reach the program as alt+letter.
func (tm *tmuxTerm) keys(keys ...string) {
	for _, k := range keys {
		tm.run("send-keys", "-t", "e2e", k)
		time.Sleep(80 * time.Millisecond)
	}
}
func (tm *tmuxTerm) text(s string) { tm.run("send-keys", "-t", "e2e", "-l", s) }

// answer sends keys to a dialog the way a person does: after reading it
// (a key of a burst begun before the dialog had been on screen for its
// grace is not taken as an answer).
func (tm *tmuxTerm) answer(keys ...string) {
	time.Sleep(dialog.ModalGrace + dialog.BurstGap)
	tm.keys(keys...)
}
func (tm *tmuxTerm) pane() string { return tm.run("capture-pane", "-p", "-t", "e2e") }

// waitFor polls the screen until it contains every want (or fails).
func (tm *tmuxTerm) waitFor(what string, want ...string) string {
	tm.t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for {
		screen := tm.pane()
		ok := true
		for _, w := range want {
			ok = ok && strings.Contains(screen, w)
		}
		if ok {
			return screen
		}
		if time.Now().After(deadline) {
			tm.t.Fatalf("timed out waiting for %s (%q); screen:\n%s", what, want, screen)
		}
		time.Sleep(100 * time.Millisecond)
	}
}

func TestE2ETmuxDemo(t *testing.T) {
	requireTmux(t)
	bin := testbin.Relavium(t)
	dir := t.TempDir()
	home := filepath.Join(dir, "home")
	pidFile := filepath.Join(dir, "pid")
	exitFile := filepath.Join(dir, "exit")
	// The shell records its pid, then runs relavium; CI and NO_COLOR are
	// dropped so that someone can be asked (a TTY, no CI).
	script := fmt.Sprintf(`echo $$ > %s; env -u CI -u NO_COLOR RELAVIUM_HOME=%s TERM=xterm-256color %s demo; echo $? > %s; sleep 600`,
		pidFile, home, bin, exitFile)
	tm := startTmux(t, "e2e", 120, 32, dir, script)

	// Consent: the modal shows the full command, cwd and digest.
	screen := tm.waitFor("the consent dialog", "Start a local program?", "demo-server", "digest", "[A] Approve & remember")
	if !strings.Contains(screen, filepath.Dir(bin)) {
		t.Fatalf("the consent dialog does not show the cwd %s:\n%s", filepath.Dir(bin), screen)
	}
	shellPID := readPID(t, pidFile)
	tm.answer("A")
	tm.waitFor("the demo server ready", "● demo", " tools · ", "✓ long_operation")
	// relavium and, below it, the demo server it spawned.
	procs := descendants(shellPID)
	if len(procs) < 2 {
		t.Fatalf("want relavium and its demo-server child below the shell (pid %d), found %v", shellPID, procs)
	}
	// The grant was remembered through package consent.
	if b, err := os.ReadFile(filepath.Join(home, "mcp-consent.ndjson")); err != nil || !bytes.Contains(b, []byte(`"args":["demo-server"]`)) {
		t.Fatalf("no grant in the store after approve & remember: %v %s", err, b)
	}

	// The progress tool: a form with defaults, progress bar, result.
	tm.keys("Tab", "/")
	tm.text("long_operation")
	tm.keys("Enter", "Enter")
	tm.waitFor("the long_operation form", "CALL · mcp_demo_long_operation", "steps", "duration_ms")
	tm.keys("C-s")
	// Annotated read-only, it is still asked about (once): "always for this
	// definition" is remembered in the approval store.
	tm.waitFor("the call confirmation", "Call mcp_demo_long_operation?", "read-only", "[A] Always for this definition")
	tm.answer("A")
	tm.waitFor("progress", "running", "step 1 of 5", "█")
	tm.waitFor("the result", "Long operation finished: 5 steps", "done in")
	if b, err := os.ReadFile(filepath.Join(home, "tool-approvals.ndjson")); err != nil || !bytes.Contains(b, []byte(`"server":"demo","tool":"long_operation","digest":"sha256:`)) {
		t.Fatalf("no approval in the store after always for this definition: %v %s", err, b)
	}

	// Cancel: a long call, then c; the server says the cancel arrived.
	tm.keys("Enter", "C-u")
	tm.text("100")
	tm.keys("Down", "C-u")
	tm.text("60000")
	tm.keys("C-s") // remembered: not asked again
	tm.waitFor("the long call running", "running", "step 2 of 100")
	tm.keys("c")
	tm.waitFor("the call cancelled", "cancelled", "E511")

	// Elicitation: ask_user asks through a form; the answer comes back.
	tm.keys("BTab", "/", "C-u")
	tm.text("ask_user")
	tm.keys("Enter", "Enter", "C-s")
	tm.waitFor("the call confirmation", "Call mcp_demo_ask_user?", "[y] This call")
	tm.answer("y")
	screen = tm.waitFor("the elicitation dialog", "demo asks for input", "Tell the demo server about yourself.", "Name*", "[ctrl+s] Accept")
	// The fields in the server's order (the go-sdk hands host a map).
	if n, e, c := strings.Index(screen, "Name*"), strings.Index(screen, "Email"), strings.Index(screen, "Favourite colour"); !(n >= 0 && n < e && e < c) {
		t.Fatalf("elicitation fields not in the server's order (name, email, colour):\n%s", screen)
	}
	time.Sleep(dialog.ModalGrace + dialog.BurstGap)
	tm.text("Ada") // the first field has the focus
	tm.keys("C-s")
	tm.waitFor("the greeting", "Hello, Ada!")

	// Help.
	tm.keys("Escape", "?")
	tm.waitFor("the help dialog", "Keys · CALL", "in call", "everywhere", "reconnect")
	tm.answer("G") // the legend, below the keys
	tm.waitFor("the legend", "advisory", "Every call asks first")
	tm.keys("Escape")

	// Resize to the smallest supported size: one pane, every line in bounds.
	tm.run("resize-window", "-t", "e2e", "-x", "60", "-y", "16")
	screen = tm.waitFor("the narrow layout", "SERVERS │ TOOLS │")
	for i, l := range strings.Split(strings.TrimRight(screen, "\n"), "\n") {
		if w := render.Width(l); w > 60 {
			t.Fatalf("line %d is %d cells wide at 60 columns: %q", i, w, l)
		}
	}
	tm.run("resize-window", "-t", "e2e", "-x", "120", "-y", "32")
	tm.waitFor("the wide layout again", "SERVERS 1", "│  TOOLS of demo")

	// Export: the session as JSONL, with the server's own report of the
	// cancellation (a log notification sent after notifications/cancelled
	// reached it).
	tm.keys("e")
	tm.waitFor("the export", "session exported to")
	exported := readExport(t, filepath.Join(home, "sessions"))
	if !strings.Contains(exported, "long_operation cancelled by the client") {
		t.Fatalf("the export has no server report of the cancellation:\n%s", exported)
	}
	for _, want := range []string{`"type":"mcp:server"`, `"type":"agent:tool_call"`, `"type":"agent:tool_result"`, `"Hello, Ada!`} {
		if !strings.Contains(exported, want) {
			t.Fatalf("the export lacks %s", want)
		}
	}

	// Quit: every server torn down, no child left.
	tm.keys("q")
	deadline := time.Now().Add(15 * time.Second)
	for {
		if b, err := os.ReadFile(exitFile); err == nil && len(bytes.TrimSpace(b)) > 0 {
			if code := strings.TrimSpace(string(b)); code != "0" {
				t.Fatalf("relavium exited %s", code)
			}
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("relavium did not exit after q; screen:\n%s", tm.pane())
		}
		time.Sleep(50 * time.Millisecond)
	}
	for _, pid := range procs {
		if alive(pid) {
			t.Fatalf("process %d (relavium or its child) is still running after quit", pid)
		}
	}
}

func readPID(t *testing.T, path string) int {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for time.Now().Before(deadline) {
		if b, err := os.ReadFile(path); err == nil {
			if pid, err := strconv.Atoi(strings.TrimSpace(string(b))); err == nil {
				return pid
			}
		}
		time.Sleep(20 * time.Millisecond)
	}
	t.Fatal("no pid file")
	return 0
}

func readExport(t *testing.T, dir string) string {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(dir, "session-*.jsonl"))
	if err != nil || len(files) != 1 {
		t.Fatalf("want one session export in %s, got %v (%v)", dir, files, err)
	}
	b, err := os.ReadFile(files[0])
	if err != nil {
		t.Fatal(err)
	}
	sc := bufio.NewScanner(bytes.NewReader(b))
	sc.Buffer(make([]byte, 0, 1<<20), 8<<20)
	for sc.Scan() {
		if !json.Valid(sc.Bytes()) {
			t.Fatalf("export line is not JSON: %s", sc.Text())
		}
	}
	if st, err := os.Stat(files[0]); err != nil || st.Mode().Perm() != 0o600 {
		t.Fatalf("export mode: %v %v", st.Mode(), err)
	}
	return string(b)
}

// procStat reads a process's parent pid, process group and state.
func procStat(pid int) (ppid, pgid int, state string, ok bool) {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return 0, 0, "", false
	}
	s := string(b)
	i := strings.LastIndexByte(s, ')')
	if i < 0 {
		return 0, 0, "", false
	}
	f := strings.Fields(s[i+1:])
	if len(f) < 3 {
		return 0, 0, "", false
	}
	ppid, _ = strconv.Atoi(f[1])
	pgid, _ = strconv.Atoi(f[2])
	return ppid, pgid, f[0], true
}

// descendants walks /proc for every process below pid.
func descendants(pid int) []int {
	entries, _ := os.ReadDir("/proc")
	parent := map[int]int{}
	for _, e := range entries {
		p, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		if pp, _, _, ok := procStat(p); ok {
			parent[p] = pp
		}
	}
	var out []int
	for p := range parent {
		for q := parent[p]; q > 1; q = parent[q] {
			if q == pid {
				out = append(out, p)
				break
			}
		}
	}
	return out
}

// alive reports whether pid exists and is not a zombie.
func alive(pid int) bool {
	_, _, state, ok := procStat(pid)
	return ok && state != "Z"
}
