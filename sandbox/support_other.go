//go:build !linux

package sandbox

import "runtime"

// Probe reports that only Linux can confine a server (Landlock).
func Probe() Support {
	return Support{Reason: "the sandbox uses Landlock, which is Linux's; this is " + runtime.GOOS}
}
