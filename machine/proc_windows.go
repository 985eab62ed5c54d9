//go:build windows

package machine

import (
	"os"
	"syscall"
)

// childProcAttr starts a command's child in a process group of its own,
// so a Ctrl-C at the server's console does not reach it too.
func childProcAttr() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{CreationFlags: syscall.CREATE_NEW_PROCESS_GROUP}
}

// killGroup: Windows has no group signals; SIGKILL terminates the child
// (the child is relavium itself, which starts no process of its own for
// a machine request), SIGTERM has no form for a process without a console.
func killGroup(pid int, sig syscall.Signal) {
	if sig != syscall.SIGKILL {
		return
	}
	if p, err := os.FindProcess(pid); err == nil {
		_ = p.Kill()
		_ = p.Release()
	}
}
