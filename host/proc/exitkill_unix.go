//go:build unix

package proc

import (
	"os"
	"syscall"
)

// KillChildren SIGKILLs every child of this process and, for a child that
// leads its own process group (every stdio server does: see
// childSysProcAttr), the whole group, grandchildren included. It is for an
// exit that cannot wait for Close (a second Ctrl-C, a phase that does not
// end when its context is cancelled); Close remains the orderly teardown.
// It never signals this process's own group. Children are found in /proc
// (with relavium a subreaper, a server's orphans are among them);
// where there is none it does nothing, and only the kernel's parent-death
// signal (Linux) is left to end the servers.
func KillChildren() {
	self := os.Getpid()
	own, _ := syscall.Getpgid(self)
	for _, pid := range procChildren(self) {
		if pgid, err := syscall.Getpgid(pid); err == nil && pgid == pid && pgid != own {
			_ = syscall.Kill(-pgid, syscall.SIGKILL)
		}
		_ = syscall.Kill(pid, syscall.SIGKILL)
	}
}
