package invoke

import (
	"bytes"
	"context"
	"os/exec"
	"strings"
	"syscall"
	"testing"
	"time"
)

// deafServer is a stdio server that never answers initialize, whose shell
// and both sleeps ignore SIGTERM: one sleep is the server's own process, the
// other a grandchild in its process group. connect_timeout_ms is ten
// minutes, so only a signal ends the connect phase.
const deafServer = `[[mcp_servers]]
name = "deaf"
transport = "stdio"
command = "/bin/sh"
args = ["-c", "trap '' TERM; sleep 600 & exec sleep 600"]
connect_timeout_ms = 600000
`

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
	e.declare(t, nil, deafServer)
	r := e.run(t, nil, "mcp", "ls", "--json")
	allow := allowFlags(r.pendingDigests(t))

	t.Run("one SIGTERM", func(t *testing.T) {
		cmd, out, errb, pgid := startDeaf(t, e, allow)
		if err := cmd.Process.Signal(syscall.SIGTERM); err != nil {
			t.Fatal(err)
		}
		// The orderly path: the command returns as cancelled (E511, exit
		// 1) once Close has torn the group down (about a second: the group
		// ignores SIGTERM until SIGKILL). On a machine so loaded that this
		// takes past the 5 s grace, the forced exit (143) is right too.
		code := exitCode(cmd.Wait())
		orderly := code == 1 && strings.Contains(out.String(), `"E511"`)
		forced := code == 143 && strings.Contains(errb.String(), "stopped without waiting")
		if !orderly && !forced {
			t.Errorf("exit %d\nstdout %s\nstderr %s", code, out, errb)
		}
		if left := groupLeft(pgid); len(left) > 0 {
			t.Errorf("the server's process group survived: %v", left)
			_ = syscall.Kill(-pgid, syscall.SIGKILL)
		}
	})
	// Two identical signals sent together may merge into one (the kernel
	// keeps one pending instance of each): the pair is SIGINT and SIGTERM,
	// which never merge, in either order.
	for _, pair := range [][2]syscall.Signal{{syscall.SIGINT, syscall.SIGTERM}, {syscall.SIGTERM, syscall.SIGINT}} {
		t.Run(pair[0].String()+" then "+pair[1].String(), func(t *testing.T) {
			cmd, out, errb, pgid := startDeaf(t, e, allow)
			_ = cmd.Process.Signal(pair[0])
			_ = cmd.Process.Signal(pair[1])
			// The second signal seen decides the code: the one sent second,
			// or SIGTERM if both were pending at once (lower numbers first).
			code := exitCode(cmd.Wait())
			if (code != 128+int(syscall.SIGINT) && code != 128+int(syscall.SIGTERM)) || !strings.Contains(errb.String(), "stopped without waiting") {
				t.Errorf("exit %d, want 130 or 143 from the forced exit\nstdout %s\nstderr %s", code, out, errb)
			}
			if left := groupLeft(pgid); len(left) > 0 {
				t.Errorf("the server's process group survived: %v", left)
				_ = syscall.Kill(-pgid, syscall.SIGKILL)
			}
		})
	}
}
