//go:build windows

package proc

import "syscall"

// childSysProcAttr starts the child in a process group of its own, so a
// Ctrl-C at relavium's console is not delivered to the server too.
func childSysProcAttr() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{CreationFlags: syscall.CREATE_NEW_PROCESS_GROUP}
}

// BecomeSubreaper does nothing here: only Linux has child subreapers.
func BecomeSubreaper() error { return nil }

// signalExact signals nothing here: without /proc no descendant of a
// server is recorded.
func signalExact(int, uint64, syscall.Signal) {}

// reapExact reaps nothing here.
func reapExact(int) bool { return false }
