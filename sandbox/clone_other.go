//go:build !linux

package sandbox

import "syscall"

// Isolate does nothing where nothing is confined.
func Isolate(attr *syscall.SysProcAttr, p Policy) {}

// Isolated is false where nothing is confined.
func Isolated(attr *syscall.SysProcAttr) bool { return false }

// Unisolate does nothing where nothing is confined.
func Unisolate(attr *syscall.SysProcAttr) {}
