//go:build linux

package sandbox

import (
	"os"
	"syscall"
)

// Isolate adds to attr what p needs before sandbox-exec starts: for network
// "none", a user namespace (so no privilege is needed) holding a network
// namespace of its own, where no interface is up, so UDP and every socket
// family Landlock does not cover reach nothing either. The person's uid and
// gid map to themselves.
func Isolate(attr *syscall.SysProcAttr, p Policy) {
	if !p.Enabled || p.Network != NetNone {
		return
	}
	attr.Cloneflags |= syscall.CLONE_NEWUSER | syscall.CLONE_NEWNET
	attr.UidMappings = []syscall.SysProcIDMap{{ContainerID: os.Getuid(), HostID: os.Getuid(), Size: 1}}
	attr.GidMappings = []syscall.SysProcIDMap{{ContainerID: os.Getgid(), HostID: os.Getgid(), Size: 1}}
	attr.GidMappingsEnableSetgroups = false
}

// Isolated reports whether attr asks for the namespaces of Isolate.
func Isolated(attr *syscall.SysProcAttr) bool {
	return attr.Cloneflags&syscall.CLONE_NEWNET != 0
}

// Unisolate takes them out again: a kernel that refuses an unprivileged
// user namespace still confines the network with Landlock's TCP rules.
func Unisolate(attr *syscall.SysProcAttr) {
	attr.Cloneflags &^= syscall.CLONE_NEWUSER | syscall.CLONE_NEWNET
	attr.UidMappings, attr.GidMappings = nil, nil
}
