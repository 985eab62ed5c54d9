package invoke

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
)

// Probes for the end-to-end run tests: a real terminal (tmux) and the
// process table (/proc).

// tmuxPane is relavium running in a real terminal: a detached tmux
// session on its own server socket, killed when the test ends.
type tmuxPane struct{ socket string }

func (e *runE2E) tmux(t *testing.T, args ...string) *tmuxPane {
	t.Helper()
	if _, err := exec.LookPath("tmux"); err != nil {
		t.Fatal("tmux is required for the terminal tests (.ci/run installs it)")
	}
	p := &tmuxPane{socket: fmt.Sprintf("relavium-run-%d-%d", os.Getpid(), time.Now().UnixNano())}
	words := []string{"env", "-u", "CI", "RELAVIUM_HOME=" + e.home, "PATH=" + os.Getenv("PATH"), "TERM=xterm-256color",
		e.bin, "--project", e.project}
	quoted := make([]string, 0, len(words)+len(args))
	for _, w := range append(words, args...) {
		quoted = append(quoted, "'"+strings.ReplaceAll(w, "'", `'\''`)+"'")
	}
	script := strings.Join(quoted, " ") + `; echo "EXIT=$?"; sleep 60`
	out, err := exec.Command("tmux", "-L", p.socket, "-f", "/dev/null", "new-session", "-d", "-x", "160", "-y", "40", "sh", "-c", script).CombinedOutput()
	if err != nil {
		t.Fatalf("tmux new-session: %v\n%s", err, out)
	}
	t.Cleanup(func() { _ = exec.Command("tmux", "-L", p.socket, "kill-server").Run() })
	return p
}

func (p *tmuxPane) capture(t *testing.T) string {
	t.Helper()
	out, err := exec.Command("tmux", "-L", p.socket, "capture-pane", "-p", "-J").CombinedOutput()
	if err != nil {
		t.Fatalf("tmux capture-pane: %v\n%s", err, out)
	}
	return string(out)
}

func (p *tmuxPane) send(t *testing.T, keys ...string) {
	t.Helper()
	if out, err := exec.Command("tmux", append([]string{"-L", p.socket, "send-keys"}, keys...)...).CombinedOutput(); err != nil {
		t.Fatalf("tmux send-keys: %v\n%s", err, out)
	}
}

func (p *tmuxPane) waitFor(t *testing.T, text string) string {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for {
		screen := p.capture(t)
		if strings.Contains(screen, text) {
			return screen
		}
		if time.Now().After(deadline) {
			t.Fatalf("%q never appeared on the terminal:\n%s", text, screen)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// lockedBuffer is a bytes.Buffer safe to read while a process writes it.
type lockedBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *lockedBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *lockedBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

// runChildrenOf lists the live children of pid (from /proc).
func runChildrenOf(pid int) []int {
	var out []int
	for _, p := range runProcs() {
		if p.ppid == pid && p.state != "Z" {
			out = append(out, p.pid)
		}
	}
	return out
}

func runProcAlive(pid int) bool {
	for _, p := range runProcs() {
		if p.pid == pid && p.state != "Z" {
			return true
		}
	}
	return false
}

func runGroupMembers(pgid int) []int {
	var out []int
	for _, p := range runProcs() {
		if p.pgid == pgid && p.state != "Z" {
			out = append(out, p.pid)
		}
	}
	return out
}

type runProcInfo struct {
	pid, ppid, pgid int
	state           string
}

func runProcs() []runProcInfo {
	entries, _ := os.ReadDir("/proc")
	var out []runProcInfo
	for _, d := range entries {
		pid, err := strconv.Atoi(d.Name())
		if err != nil {
			continue
		}
		b, err := os.ReadFile(filepath.Join("/proc", d.Name(), "stat"))
		if err != nil {
			continue
		}
		// pid (comm) state ppid pgrp …; comm may hold spaces and parens.
		s := string(b)
		i := strings.LastIndexByte(s, ')')
		if i < 0 {
			continue
		}
		f := strings.Fields(s[i+1:])
		if len(f) < 3 {
			continue
		}
		ppid, _ := strconv.Atoi(f[1])
		pgid, _ := strconv.Atoi(f[2])
		out = append(out, runProcInfo{pid: pid, ppid: ppid, pgid: pgid, state: f[0]})
	}
	return out
}
