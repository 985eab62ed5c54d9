package consent

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	"golang.org/x/sys/unix"
)

// StoreFile is the grant store's file name inside the relavium home.
const StoreFile = "mcp-consent.ndjson"

// maxStoreBytes bounds what a fold reads (about 800 000 grant lines): a larger
// file fails the fold closed instead of exhausting memory.
const maxStoreBytes = 256 << 20

// defaultLockWait bounds how long a reader or writer waits for another
// process's lock before reporting the store busy.
const defaultLockWait = 10 * time.Second

// Store is the append-only grant store <home>/mcp-consent.ndjson. Lines are
// only ever appended (grants and revocation tombstones), under an exclusive
// flock, each in one write, then fsync'd; the file is never rewritten. It is
// created 0600 in a 0700 directory; a symlink at the path is refused, as is a
// file or directory that another user could write. A Store holds no open file
// between calls and is safe for concurrent use.
type Store struct {
	home     string
	path     string
	lockWait time.Duration
}

// Open returns the store under home. Nothing is touched until a read or write.
func Open(home string) *Store {
	return &Store{home: home, path: filepath.Join(home, StoreFile), lockWait: defaultLockWait}
}

// Path is the store's file path.
func (s *Store) Path() string { return s.path }

// Grant appends a grant line for r: its digest, and bounded comparison
// metadata (command, args, env names and kinds — never values — and cwd).
func (s *Store) Grant(r *Resolved, now time.Time) error {
	line, err := encodeGrant(r, now)
	if err != nil {
		return err
	}
	return s.appendLine(line)
}

// Revoke appends a revocation tombstone for digest.
func (s *Store) Revoke(digest string, now time.Time) error {
	line, err := encodeRevoke(digest, now)
	if err != nil {
		return err
	}
	return s.appendLine(line)
}

// appendLine writes one complete line: nothing or everything (a write cut
// short is cut back to the old size). If the file
// does not end in a newline (a writer died mid-line) a newline is written
// first in the same write, so the new line stays whole; the damaged line
// still fails the fold closed until a person repairs it.
func (s *Store) appendLine(line []byte) error {
	if err := s.ensureHome(); err != nil {
		return err
	}
	f, err := os.OpenFile(s.path, os.O_RDWR|os.O_APPEND|os.O_CREATE|unix.O_NOFOLLOW|unix.O_NONBLOCK|unix.O_CLOEXEC, 0o600)
	if err != nil {
		return s.openError(err)
	}
	defer f.Close()
	st, err := s.checkFile(f)
	if err != nil {
		return err
	}
	if err := s.lock(f, unix.LOCK_EX); err != nil {
		return err
	}
	defer unix.Flock(int(f.Fd()), unix.LOCK_UN) //nolint:errcheck // closing releases it anyway
	if st, err = f.Stat(); err != nil {         // the size may have moved while we waited
		return s.ioError("cannot stat", err)
	}
	size := st.Size()
	if size > 0 {
		last := make([]byte, 1)
		if _, err := f.ReadAt(last, size-1); err != nil {
			return s.ioError("cannot read", err)
		}
		if last[0] != '\n' {
			line = append([]byte{'\n'}, line...)
		}
	}
	n, err := f.Write(line)
	if err != nil || n != len(line) {
		if err == nil {
			err = io.ErrShortWrite
		}
		// A full disk or a size limit can store part of the line before
		// failing. Cut exactly what this write added (we hold the only
		// write lock), so no torn line fails every later fold closed.
		if terr := f.Truncate(size); terr != nil {
			return s.ioError("cannot append to", fmt.Errorf("%w; and removing the partial line failed too, so the store's last line is torn until it is removed by hand: %v", err, terr))
		}
		return s.ioError("cannot append to", err)
	}
	if err := f.Sync(); err != nil {
		return s.ioError("cannot sync", err)
	}
	return nil
}

// read returns the whole file under a shared lock; a missing file or home is
// ("", nil).
func (s *Store) read() (string, error) {
	if err := s.checkHome(false); err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return "", nil
		}
		return "", err
	}
	f, err := os.OpenFile(s.path, os.O_RDONLY|unix.O_NOFOLLOW|unix.O_NONBLOCK|unix.O_CLOEXEC, 0)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return "", nil
		}
		return "", s.openError(err)
	}
	defer f.Close()
	if err := s.lock(f, unix.LOCK_SH); err != nil {
		return "", err
	}
	st, err := s.checkFile(f) // after the lock: the size no writer can move now
	if err != nil {
		return "", err
	}
	if st.Size() > maxStoreBytes {
		return "", &FoldError{Path: s.path, Reason: fmt.Sprintf("the file is %d bytes, over the %d MiB bound a grant store may have", st.Size(), maxStoreBytes>>20)}
	}
	defer unix.Flock(int(f.Fd()), unix.LOCK_UN) //nolint:errcheck // closing releases it anyway
	// Read straight into a strings.Builder: the fold slices every field out of
	// this one string, so the file is copied once, not twice.
	var sb strings.Builder
	sb.Grow(int(st.Size()) + 1)
	if _, err := io.Copy(&sb, f); err != nil {
		return "", s.ioError("cannot read", err)
	}
	return sb.String(), nil
}

// ensureHome creates the home 0700 when missing and checks it.
func (s *Store) ensureHome() error {
	if err := os.MkdirAll(s.home, 0o700); err != nil {
		return s.ioError("cannot create the relavium home for", err)
	}
	return s.checkHome(true)
}

// checkHome refuses a home that is not a directory, is owned by another user,
// or is writable by group or others (anyone who can write it can replace the
// store). A symlinked home is followed: only the store file itself must not be
// a symlink.
func (s *Store) checkHome(writing bool) error {
	st, err := os.Stat(s.home)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) && !writing {
			return err
		}
		return s.ioError("cannot stat the relavium home of", err)
	}
	if !st.IsDir() {
		return s.refused("the relavium home %s is not a directory", quoteArg(s.home))
	}
	if perm := st.Mode().Perm(); perm&0o022 != 0 {
		return s.refused("the relavium home %s has mode %04o: group or others can write it and so replace the store (chmod 700 %s)",
			quoteArg(s.home), perm, quoteArg(s.home))
	}
	if uid, ok := ownerOf(st); ok && uid != os.Geteuid() {
		return s.refused("the relavium home %s is owned by uid %d, not by you (uid %d)", quoteArg(s.home), uid, os.Geteuid())
	}
	return nil
}

// checkFile refuses anything but a regular file of ours with mode 0600 or
// stricter.
func (s *Store) checkFile(f *os.File) (fs.FileInfo, error) {
	st, err := f.Stat()
	if err != nil {
		return nil, s.ioError("cannot stat", err)
	}
	if !st.Mode().IsRegular() {
		return nil, s.refused("%s is not a regular file (%s)", quoteArg(s.path), st.Mode().Type())
	}
	if perm := st.Mode().Perm(); perm&0o077 != 0 {
		return nil, s.refused("%s has mode %04o; the grant store must be 0600 (chmod 600 %s)", quoteArg(s.path), perm, quoteArg(s.path))
	}
	if uid, ok := ownerOf(st); ok && uid != os.Geteuid() {
		return nil, s.refused("%s is owned by uid %d, not by you (uid %d)", quoteArg(s.path), uid, os.Geteuid())
	}
	return st, nil
}

func ownerOf(st fs.FileInfo) (int, bool) {
	if sys, ok := st.Sys().(*syscall.Stat_t); ok {
		return int(sys.Uid), true
	}
	return 0, false
}

// lock takes an flock, polling so a stuck process cannot hang us forever.
func (s *Store) lock(f *os.File, how int) error {
	deadline := time.Now().Add(s.lockWait)
	wait := time.Millisecond
	for {
		err := unix.Flock(int(f.Fd()), how|unix.LOCK_NB)
		if err == nil {
			return nil
		}
		if !errors.Is(err, unix.EWOULDBLOCK) && !errors.Is(err, unix.EINTR) {
			return s.ioError("cannot lock", err)
		}
		if time.Now().After(deadline) {
			return &Error{ErrCode: CodeStoreIO, Msg: fmt.Sprintf("%s is locked by another process (waited %s)", quoteArg(s.path), s.lockWait)}
		}
		time.Sleep(wait)
		wait = min(wait*2, 50*time.Millisecond)
	}
}

func (s *Store) openError(err error) error {
	if errors.Is(err, unix.ELOOP) {
		return s.refused("%s is a symlink; the grant store is never read or written through a link (remove it)", quoteArg(s.path))
	}
	return s.ioError("cannot open", err)
}

func (s *Store) refused(format string, a ...any) error {
	return &Error{ErrCode: CodeStoreRefused, Msg: "grant store refused: " + fmt.Sprintf(format, a...)}
}

func (s *Store) ioError(what string, err error) error {
	return &Error{ErrCode: CodeStoreIO, Msg: fmt.Sprintf("%s the grant store %s", what, quoteArg(s.path)), Cause: err}
}
