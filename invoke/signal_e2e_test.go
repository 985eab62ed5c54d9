package invoke

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// deafServer is a stdio server that never answers initialize, whose shell
// and both sleeps ignore SIGTERM: one sleep is a grandchild in the server's
// process group from the start, and the shell touches marker when its
// stdin reaches EOF (relavium's teardown has begun) before it becomes the
// other sleep. connect_timeout_ms is ten minutes, so only a signal ends
// the connect phase.
func deafServer(marker string) string {
	return fmt.Sprintf(`[[mcp_servers]]
name = "deaf"
transport = "stdio"
command = "/bin/sh"
args = ["-c", "trap '' TERM; sleep 600 & cat >/dev/null; touch %s; exec sleep 600"]
connect_timeout_ms = 600000
`, marker)
}

// startDeaf starts `relavium mcp ls --json` against the deaf server and
// returns once the server and its grandchild exist, with their process
// group.
func startDeaf(t *testing.T, e *mcpE2E, allow []string) (cmd *exec.Cmd, out, errb *bytes.Buffer, pgid int) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	t.Cleanup(cancel)
	cmd = e.cmd(ctx, append([]string{"mcp", "ls", "--json"}, allow...)...)
	out, errb = &bytes.Buffer{}, &bytes.Buffer{}
	cmd.Stdout, cmd.Stderr = out, errb
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(30 * time.Second)
	for time.Now().Before(deadline) {
		if below := mcpDescendants(cmd.Process.Pid); len(below) >= 2 {
			if pg, err := syscall.Getpgid(below[0]); err == nil && len(runGroupMembers(pg)) >= 2 {
				return cmd, out, errb, pg
			}
		}
		time.Sleep(20 * time.Millisecond)
	}
	_ = cmd.Process.Kill()
	_ = cmd.Wait()
	t.Fatalf("the server and its grandchild never appeared\n%s", errb.String())
	return
}

// groupLeft waits (a liveness bound, not a timing check) for the SIGKILLed
// members of a process group to be gone, and returns those still alive.
func groupLeft(pgid int) []int {
	deadline := time.Now().Add(10 * time.Second)
	for {
		left := runGroupMembers(pgid)
		if len(left) == 0 || time.Now().After(deadline) {
			return left
		}
		time.Sleep(20 * time.Millisecond)
	}
}

func exitCode(err error) int {
	if ee, ok := err.(*exec.ExitError); ok {
		return ee.ExitCode()
	}
	if err != nil {
		return -1
	}
	return 0
}

// TestSignalEndsConnectPhase: SIGTERM while relavium waits for a server
// that never answers initialize ends the command (the connect phase is
// cancelled, the server's process group torn down) long before the ten
// minute connect timeout; a second signal right after the first exits at
// once with 128+signal, every child process group SIGKILLed.
func TestSignalEndsConnectPhase(t *testing.T) {
	e := newMCPE2E(t)
	marker := filepath.Join(e.project, "teardown-began")
	e.declare(t, nil, deafServer(marker))
	r := e.run(t, nil, "mcp", "ls", "--json")
	allow := allowFlags(r.pendingDigests(t))

	t.Run("one SIGTERM", func(t *testing.T) {
		cmd, out, errb, pgid := startDeaf(t, e, allow)
		if err := cmd.Process.Signal(syscall.SIGTERM); err != nil {
			t.Fatal(err)
		}
		// The orderly path: the command returns as cancelled (E511, exit
		// 1) once Close has torn the group down.
		code := exitCode(cmd.Wait())
		if code != 1 || !strings.Contains(out.String(), `"E511"`) {
			t.Errorf("exit %d\nstdout %s\nstderr %s", code, out, errb)
		}
		if left := runGroupMembers(pgid); len(left) > 0 {
			t.Errorf("the server's process group survived: %v", left)
			_ = syscall.Kill(-pgid, syscall.SIGKILL)
		}
	})
	for _, sig := range []syscall.Signal{syscall.SIGTERM, syscall.SIGINT} {
		t.Run("two "+sig.String(), func(t *testing.T) {
			_ = os.Remove(marker)
			cmd, out, errb, pgid := startDeaf(t, e, allow)
			_ = cmd.Process.Signal(sig)
			// Two identical signals sent at once may merge into one: the
			// second goes once the first has started the teardown, which
			// then still waits a second for the group that ignores SIGTERM.
			for deadline := time.Now().Add(30 * time.Second); ; time.Sleep(5 * time.Millisecond) {
				if _, err := os.Stat(marker); err == nil {
					break
				}
				if time.Now().After(deadline) {
					t.Fatalf("the teardown never began\n%s", errb)
				}
			}
			_ = cmd.Process.Signal(sig)
			code := exitCode(cmd.Wait())
			if code != 128+int(sig) || !strings.Contains(errb.String(), "stopped without waiting") {
				t.Errorf("exit %d, want %d\nstdout %s\nstderr %s", code, 128+int(sig), out, errb)
			}
			if left := groupLeft(pgid); len(left) > 0 {
				t.Errorf("the server's process group survived: %v", left)
				_ = syscall.Kill(-pgid, syscall.SIGKILL)
			}
		})
	}
}
