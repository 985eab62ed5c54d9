//go:build unix

package proc

import (
	"errors"
	"syscall"
)

// signalGroup sends sig to the whole process group pgid (a stdio server
// leads its own: childSysProcAttr).
func signalGroup(pgid int, sig syscall.Signal) error { return syscall.Kill(-pgid, sig) }

// groupExists is kill(-pgid, 0): does any process of the group exist
// (zombies included).
func groupExists(pgid int) bool { return !errors.Is(syscall.Kill(-pgid, 0), syscall.ESRCH) }
