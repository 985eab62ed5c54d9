package host

import (
	"os"
	"strconv"
	"syscall"
)

// KillChildren SIGKILLs every child of this process and, for a child that
// leads its own process group (every stdio server does: see
// childSysProcAttr), the whole group, grandchildren included. It is for an
// exit that cannot wait for Close (a second Ctrl-C, a phase that does not
// end when its context is cancelled); Close remains the orderly teardown.
// It never signals this process's own group. Children are found in /proc;
// where there is none it does nothing, and only the kernel's parent-death
// signal (Linux) is left to end the servers.
func KillChildren() {
	self := os.Getpid()
	own, _ := syscall.Getpgid(self)
	for _, pid := range childrenOf(self) {
		if pgid, err := syscall.Getpgid(pid); err == nil && pgid == pid && pgid != own {
			_ = syscall.Kill(-pgid, syscall.SIGKILL)
		}
		_ = syscall.Kill(pid, syscall.SIGKILL)
	}
}

// childrenOf lists the processes whose parent is pid, from /proc.
func childrenOf(pid int) []int {
	d, err := os.Open("/proc")
	if err != nil {
		return nil
	}
	defer d.Close()
	names, err := d.Readdirnames(-1)
	if err != nil {
		return nil
	}
	var out []int
	for _, n := range names {
		p, err := strconv.Atoi(n)
		if err != nil {
			continue
		}
		if st, ok := readProcStat(p); ok && st.ppid == pid {
			out = append(out, p)
		}
	}
	return out
}
