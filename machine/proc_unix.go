//go:build unix

package machine

import "syscall"

// childProcAttr starts a command's child as the leader of its own process
// group, so the group can be signalled whole.
func childProcAttr() *syscall.SysProcAttr { return &syscall.SysProcAttr{Setpgid: true} }

// killGroup signals the child's whole process group.
func killGroup(pgid int, sig syscall.Signal) { _ = syscall.Kill(-pgid, sig) }
