// Package filelock is the one portable way relavium locks a file between
// processes and opens a file of its home without following a link: the
// consent stores' line files and the project operation lock use it.
//
// Contract: TryLock takes a shared or exclusive lock without waiting and
// says busy when another process holds a conflicting one (callers poll
// with their own deadline); Unlock releases it (closing the file does
// too). On unix the lock is flock(2) and OpenNoFollow refuses a link at
// the last element with O_NOFOLLOW; on Windows the lock is LockFileEx on
// one byte far past any data (Windows locks are mandatory over their
// range, so readers never meet it) and OpenNoFollow refuses a link found
// by Lstat before opening. ModeBitsMeaningful says whether a file's mode
// bits guard it (unix) or were made up by Go (Windows, where ACLs do);
// Owner is a file's uid where there is one.
//
// filelock is a leaf on floor 0: the standard library and
// golang.org/x/sys only.
package filelock
