//go:build windows

package filelock

import (
	"errors"
	"fmt"
	"io/fs"
	"os"

	"golang.org/x/sys/windows"
)

// ModeBitsMeaningful: Windows guards files with ACLs, and Go reports mode
// bits it made up (0666 or 0444, 0777 for a directory), so they prove
// nothing either way and are not checked. A home under the user's profile
// is the user's by the profile's ACL.
const ModeBitsMeaningful = false

// OpenFlags: Windows has no O_NOFOLLOW, O_NONBLOCK or O_CLOEXEC (handles are
// not inherited unless asked); OpenNoFollow refuses a link itself.
const OpenFlags = 0

// errLink is an open refused because the path is a link (a symlink or a
// junction).
var errLink = errors.New("the path is a link")

// OpenNoFollow refuses a link at path, found by Lstat, then opens it.
// Between the two a link could be put in place only by someone who can
// write the directory, which its ACL rules out for the home.
func OpenNoFollow(path string, flags int, perm fs.FileMode) (*os.File, error) {
	if st, err := os.Lstat(path); err == nil && st.Mode()&(fs.ModeSymlink|fs.ModeIrregular) != 0 {
		return nil, fmt.Errorf("%s: %w", path, errLink)
	}
	return os.OpenFile(path, flags, perm)
}

// IsLinkRefusal reports an OpenNoFollow refused because path is a link.
func IsLinkRefusal(err error) bool { return errors.Is(err, errLink) }

// lockOffsetHigh places the lock on one byte far past any data: Windows
// locks are mandatory over their range, and readers and writers of a
// file's bytes must meet only each other's locks, never the lock itself.
const lockOffsetHigh = 0x7fffffff

// TryLock takes a LockFileEx lock without waiting: busy when another
// handle holds a conflicting one.
func TryLock(file *os.File, exclusive bool) (busy bool, err error) {
	flags := uint32(windows.LOCKFILE_FAIL_IMMEDIATELY)
	if exclusive {
		flags |= windows.LOCKFILE_EXCLUSIVE_LOCK
	}
	ol := &windows.Overlapped{OffsetHigh: lockOffsetHigh}
	err = windows.LockFileEx(windows.Handle(file.Fd()), flags, 0, 1, 0, ol)
	if errors.Is(err, windows.ERROR_LOCK_VIOLATION) || errors.Is(err, windows.ERROR_IO_PENDING) {
		return true, nil
	}
	return false, err
}

// Unlock releases the lock (closing the file releases it too).
func Unlock(file *os.File) error {
	ol := &windows.Overlapped{OffsetHigh: lockOffsetHigh}
	return windows.UnlockFileEx(windows.Handle(file.Fd()), 0, 1, 0, ol)
}

// Owner: a Windows file's owner is a SID, not a uid.
func Owner(fs.FileInfo) (int, bool) { return 0, false }
