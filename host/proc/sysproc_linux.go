package proc

import (
	"syscall"

	"golang.org/x/sys/unix"
)

// childSysProcAttr puts the child in its own process group (so the group can
// be signalled whole) and, as the last resort for exit paths that cannot run
// a teardown (relavium itself SIGKILLed), asks the kernel to SIGKILL the
// child when relavium dies. Grandchildren are reached by the group signal in
// Close, and those that left the group by the server's lineage (lineage.go).
func childSysProcAttr() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
}

// BecomeSubreaper makes the calling process a child subreaper
// (PR_SET_CHILD_SUBREAPER): a process whose parent dies is reparented to
// its nearest subreaper ancestor instead of init, so the orphans a stdio
// server leaves behind (a setsid grandchild whose parent exited) stay below
// relavium, where the server's teardown finds, kills and reaps them. It is
// process-wide: the command's main calls it once, at start, before any
// server is spawned; host never calls it itself.
func BecomeSubreaper() error {
	return unix.Prctl(unix.PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0)
}

// signalExact sends sig to pid only if pid still names the process that
// started at start: through a pidfd, so the check and the signal are about
// the same process even if the pid is reused in between.
func signalExact(pid int, start uint64, sig syscall.Signal) {
	fd, err := unix.PidfdOpen(pid, 0)
	if err != nil {
		if err == unix.ENOSYS {
			if st, ok := ReadProcStat(pid); ok && st.Start == start {
				_ = syscall.Kill(pid, sig)
			}
		}
		return
	}
	defer unix.Close(fd)
	if st, ok := ReadProcStat(pid); !ok || st.Start != start {
		return // the pid names another process now
	}
	_ = unix.PidfdSendSignal(fd, sig, nil, 0)
}

// reapExact collects pid if it is a zombie child of relavium, without
// blocking and without touching any other child. It reports whether pid
// was reaped.
func reapExact(pid int) bool {
	var info unix.Siginfo
	err := unix.Waitid(unix.P_PID, pid, &info, unix.WEXITED|unix.WNOHANG, nil)
	return err == nil && info.Signo != 0
}
