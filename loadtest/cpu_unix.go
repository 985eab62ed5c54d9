//go:build unix

package loadtest

import (
	"syscall"
	"time"
)

// cpuTime is the CPU time (user and system) relavium's own process has
// used: the client's cost, which a run divides by its requests. A stdio
// server is a child and is not counted.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
