//go:build unix && !linux

package host

import "syscall"

// childSysProcAttr puts the child in its own process group so the group can
// be signalled whole.
func childSysProcAttr() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Setpgid: true}
}

// noFollow refuses to open a symlink.
const noFollow = syscall.O_NOFOLLOW
