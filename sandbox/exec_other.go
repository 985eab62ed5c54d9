//go:build !linux

package sandbox

import "errors"

// Exec refuses: only Linux can confine a server.
func Exec(args []string, env []string) error {
	return errors.New("relavium sandbox-exec runs on Linux only (" + Probe().Reason + ")")
}
