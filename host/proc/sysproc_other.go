//go:build unix && !linux

package proc

import "syscall"

// childSysProcAttr puts the child in its own process group so the group can
// be signalled whole.
func childSysProcAttr() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Setpgid: true}
}

// BecomeSubreaper does nothing here: only Linux has child subreapers. A
// stdio server's grandchild that leaves its process group (setsid)
// survives the server's teardown on this system.
func BecomeSubreaper() error { return nil }

// signalExact sends sig to pid if it still names the process that started
// at start. Without /proc (no start time) nothing is recorded to signal.
func signalExact(pid int, start uint64, sig syscall.Signal) {
	if st, ok := ReadProcStat(pid); ok && st.Start == start {
		_ = syscall.Kill(pid, sig)
	}
}

// reapExact reaps nothing here: without a subreaper no orphan is
// relavium's child.
func reapExact(int) bool { return false }
