//go:build linux

package sandbox

import (
	"fmt"

	ll "github.com/landlock-lsm/go-landlock/landlock/syscall"
)

// Probe asks the kernel which Landlock ABI it offers.
func Probe() Support {
	v, err := ll.LandlockGetABIVersion()
	if err != nil {
		return Support{Reason: fmt.Sprintf("this kernel offers no Landlock (%v): enable CONFIG_SECURITY_LANDLOCK and lsm=landlock", err)}
	}
	if v < minABI {
		return Support{ABI: v, Reason: fmt.Sprintf("this kernel's Landlock ABI is %d; confining the network needs ABI %d (Linux 6.7 or later)", v, minABI)}
	}
	return Support{ABI: v}
}
