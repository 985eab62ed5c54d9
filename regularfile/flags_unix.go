//go:build unix

package regularfile

import "syscall"

const (
	oNoFollow = syscall.O_NOFOLLOW
	oCloexec  = syscall.O_CLOEXEC
)
