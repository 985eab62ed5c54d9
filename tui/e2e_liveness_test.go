package tui

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/relavium/relavium/internal/testbin"
)

// Ping and the protocol era in a real terminal, on the demo server: p on
// the servers pane puts the round trip on the status line; i shows the
// era the connection runs and what it means.
func TestE2ETmuxPingAndEra(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and drives the binary in tmux")
	}
	if _, err := exec.LookPath("tmux"); err != nil {
		t.Fatal("tmux is required for the terminal test (apt-get install tmux; .ci/run installs it)")
	}
	bin := testbin.Relavium(t)
	dir := t.TempDir()
	home := filepath.Join(dir, "home")
	tm := &tmuxTerm{t: t, socket: fmt.Sprintf("relavium-e2e-ping-%d", os.Getpid()), dir: dir}
	script := fmt.Sprintf(`env -u CI -u NO_COLOR RELAVIUM_HOME=%s TERM=xterm-256color %s demo; sleep 600`, home, bin)
	tm.run("new-session", "-d", "-s", "e2e", "-x", "120", "-y", "32", "-c", dir, "sh", "-c", "exec sh -c '"+script+"'")
	t.Cleanup(func() { _ = exec.Command("tmux", "-L", tm.socket, "kill-server").Run() })

	tm.waitFor("the consent dialog", "Start a local program?", "[o] Approve once")
	tm.answer("o")
	tm.waitFor("the demo server ready", "● demo", "tools admitted")
	tm.keys("p")
	tm.waitFor("the round trip", "ping demo: ", " ms")
	tm.keys("i")
	tm.waitFor("the era", "protocol 2025-11-25 · legacy era", "elicitation: the server asks mid-call")
	tm.keys("Escape", "q")
}
