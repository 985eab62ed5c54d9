package host

import "syscall"

// childSysProcAttr puts the child in its own process group (so the group can
// be signalled whole) and, as the last resort for exit paths that cannot run
// a teardown (relavium itself SIGKILLed), asks the kernel to SIGKILL the
// child when relavium dies. Grandchildren are reached by the group signal in
// Close.
func childSysProcAttr() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
}

// noFollow refuses to open a symlink.
const noFollow = syscall.O_NOFOLLOW
