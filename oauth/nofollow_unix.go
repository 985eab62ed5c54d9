//go:build unix

package oauth

import "syscall"

const oNoFollow = syscall.O_NOFOLLOW
