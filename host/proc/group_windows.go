//go:build windows

package proc

import (
	"os"
	"syscall"

	"golang.org/x/sys/windows"
)

// signalGroup: Windows has no process-group signals. SIGKILL terminates
// the server's process (its children are not reached: Windows teardown
// is stdin EOF, then the server process alone); SIGTERM has no Windows
// form for a process without a console, so the grace period after EOF is
// the whole polite request.
func signalGroup(pid int, sig syscall.Signal) error {
	if sig != syscall.SIGKILL {
		return nil
	}
	p, err := os.FindProcess(pid)
	if err != nil {
		return err
	}
	defer p.Release()
	return p.Kill()
}

// groupExists reports whether the server's process still runs.
func groupExists(pid int) bool {
	h, err := windows.OpenProcess(windows.PROCESS_QUERY_LIMITED_INFORMATION, false, uint32(pid))
	if err != nil {
		return false
	}
	defer windows.CloseHandle(h)
	var code uint32
	if err := windows.GetExitCodeProcess(h, &code); err != nil {
		return false
	}
	const stillActive = 259
	return code == stillActive
}

// KillChildren kills nothing here: without /proc relavium cannot find its
// children; each server is ended by its own teardown.
func KillChildren() {}
