//go:build unix

package filelock

import (
	"errors"
	"io/fs"
	"os"
	"syscall"

	"golang.org/x/sys/unix"
)

// ModeBitsMeaningful: on unix a file's mode bits say who may read, write
// and run it.
const ModeBitsMeaningful = true

// OpenFlags never follow a link at the last element (ELOOP instead), never
// block on a FIFO, and close on exec.
const OpenFlags = unix.O_NOFOLLOW | unix.O_NONBLOCK | unix.O_CLOEXEC

// OpenNoFollow opens path with flags|OpenFlags: a link at path is refused
// (IsLinkRefusal).
func OpenNoFollow(path string, flags int, perm fs.FileMode) (*os.File, error) {
	return os.OpenFile(path, flags|OpenFlags, perm)
}

// IsLinkRefusal reports an OpenNoFollow refused because path is a link.
func IsLinkRefusal(err error) bool { return errors.Is(err, unix.ELOOP) }

// TryLock takes an flock without waiting: busy when another process holds
// a conflicting one (or a signal cut the call short: try again).
func TryLock(file *os.File, exclusive bool) (busy bool, err error) {
	how := unix.LOCK_SH
	if exclusive {
		how = unix.LOCK_EX
	}
	err = unix.Flock(int(file.Fd()), how|unix.LOCK_NB)
	if errors.Is(err, unix.EWOULDBLOCK) || errors.Is(err, unix.EINTR) {
		return true, nil
	}
	return false, err
}

// Unlock releases the lock (closing the file releases it too).
func Unlock(file *os.File) error { return unix.Flock(int(file.Fd()), unix.LOCK_UN) }

// Owner is the uid owning a file.
func Owner(st fs.FileInfo) (int, bool) {
	if sys, ok := st.Sys().(*syscall.Stat_t); ok {
		return int(sys.Uid), true
	}
	return 0, false
}
