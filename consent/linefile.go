package consent

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"time"

	"github.com/relavium/relavium/fault"
	"github.com/relavium/relavium/filelock"
)

// defaultLockWait bounds how long a reader or writer waits for another
// process's lock before reporting the file busy.
const defaultLockWait = 10 * time.Second

// lineFile is an append-only NDJSON file in the relavium home: the grant
// store, and any other store of the home built the same way. Lines are only
// ever appended, each in one write under an exclusive flock, then fsync'd;
// the file is never rewritten. It is created 0600 in a 0700 home; a symlink
// at the path is refused, as is a file that is not regular, not ours, or
// readable or writable by anyone else, and a home CheckHome refuses. It is
// read under a shared flock through a lineReader: one line at a time, each
// at most maxLine bytes, at most maxBytes in all, so reading costs the same
// memory whatever the file holds. A lineFile holds no open file between
// calls and is safe for concurrent use.
//
// Its refusals are *Error values with refusedCode and its I/O failures
// ioCode (the grant store's: E310, E312), their messages naming the file as
// name. The home's own refusal is CheckHome's (E318).
type lineFile struct {
	home        string
	path        string
	name        string     // what the file is, for messages ("grant store")
	refusedCode fault.Code // a symlink, not a regular file, not ours, not 0600
	ioCode      fault.Code // reading, writing or locking failed
	maxLine     int        // bytes in one line, the '\n' not counted
	maxBytes    int64      // bytes in the whole file
	lockWait    time.Duration
}

// lineFault is a line file that cannot be read as lines: the whole file
// over maxBytes (Line 0) or one line over maxLine. The store built on the
// lineFile turns it into its own coded error.
type lineFault struct {
	Line   int
	Reason string
}

func (e *lineFault) Error() string {
	if e.Line == 0 {
		return e.Reason
	}
	return fmt.Sprintf("line %d: %s", e.Line, e.Reason)
}

// scan reads the file as it was under a shared lock and calls each with
// every line in order (without its '\n', valid only during the call;
// complete is false for a last line with no newline). A missing home or file reads as empty.
// It stops at the first error each returns and returns it unchanged; a file
// over maxBytes or a line over maxLine is a *lineFault; an unsafe home or
// file is refused before anything is read.
func (f *lineFile) scan(each func(line []byte, no int, complete bool) error) error {
	if err := CheckHome(f.home); err != nil {
		return err
	}
	file, err := filelock.OpenNoFollow(f.path, os.O_RDONLY, 0)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return nil
		}
		return f.openError(err)
	}
	defer file.Close()
	// The shared lock is held only to take the size: no writer is mid-line
	// while we hold it, and every later write appends beyond that size (a
	// write cut short is cut back to where it began), so the bytes before
	// it never change and are read after the lock is released. Readers
	// folding a long file never starve a writer.
	if err := f.lock(file, false); err != nil {
		return err
	}
	st, err := f.checkFile(file)
	filelock.Unlock(file) //nolint:errcheck // closing releases it anyway
	if err != nil {
		return err
	}
	if st.Size() > f.maxBytes {
		return &lineFault{Reason: fmt.Sprintf("the file is %d bytes, over the %d MiB bound a %s may have", st.Size(), f.maxBytes>>20, f.name)}
	}
	// Read what was there when the lock was taken, never more.
	err = readLines(io.LimitReader(file, st.Size()), f.maxLine, each)
	if isReadError(err) {
		return f.ioError("cannot read", errors.Unwrap(err))
	}
	return err
}

// appendLine writes one complete line (ending in '\n'): nothing or
// everything (a write cut short is cut back to the old size). If the file
// does not end in a newline (a writer died mid-line) a newline is written
// first in the same write, so the new line stays whole; the damaged line
// stays for a person to judge.
func (f *lineFile) appendLine(line []byte) error {
	if len(line) == 0 || line[len(line)-1] != '\n' || len(line)-1 > f.maxLine {
		return &Error{ErrCode: f.ioCode, Msg: fmt.Sprintf("refusing to append a line of %d bytes to the %s %s (not one line of at most %d bytes)",
			len(line), f.name, quoteArg(f.path), f.maxLine)}
	}
	if err := os.MkdirAll(f.home, 0o700); err != nil {
		return f.ioError("cannot create the relavium home for", err)
	}
	if err := CheckHome(f.home); err != nil {
		return err
	}
	file, err := filelock.OpenNoFollow(f.path, os.O_RDWR|os.O_APPEND|os.O_CREATE, 0o600)
	if err != nil {
		return f.openError(err)
	}
	defer file.Close()
	if _, err := f.checkFile(file); err != nil {
		return err
	}
	if err := f.lock(file, true); err != nil {
		return err
	}
	defer filelock.Unlock(file) //nolint:errcheck // closing releases it anyway
	st, err := file.Stat()      // the size may have moved while we waited
	if err != nil {
		return f.ioError("cannot stat", err)
	}
	size := st.Size()
	if size > 0 {
		last := make([]byte, 1)
		if _, err := file.ReadAt(last, size-1); err != nil {
			return f.ioError("cannot read", err)
		}
		if last[0] != '\n' {
			line = append([]byte{'\n'}, line...)
		}
	}
	n, err := file.Write(line)
	if err != nil || n != len(line) {
		if err == nil {
			err = io.ErrShortWrite
		}
		// A full disk or a size limit can store part of the line before
		// failing. Cut exactly what this write added (we hold the only
		// write lock), so no torn line fails every later read closed.
		if terr := file.Truncate(size); terr != nil {
			return f.ioError("cannot append to", fmt.Errorf("%w; and removing the partial line failed too, so the last line is torn until it is removed by hand: %v", err, terr))
		}
		return f.ioError("cannot append to", err)
	}
	if err := file.Sync(); err != nil {
		return f.ioError("cannot sync", err)
	}
	return nil
}

// checkFile refuses anything but a regular file of ours with mode 0600 or
// stricter.
func (f *lineFile) checkFile(file *os.File) (fs.FileInfo, error) {
	st, err := file.Stat()
	if err != nil {
		return nil, f.ioError("cannot stat", err)
	}
	if !st.Mode().IsRegular() {
		return nil, f.refused("%s is not a regular file (%s)", quoteArg(f.path), st.Mode().Type())
	}
	if perm := st.Mode().Perm(); filelock.ModeBitsMeaningful && perm&0o077 != 0 {
		return nil, f.refused("%s has mode %04o; the %s must be 0600 (chmod 600 %s)", quoteArg(f.path), perm, f.name, quoteArg(f.path))
	}
	if uid, ok := filelock.Owner(st); ok && uid != os.Geteuid() {
		return nil, f.refused("%s is owned by uid %d, not by you (uid %d)", quoteArg(f.path), uid, os.Geteuid())
	}
	return st, nil
}

// lock takes the file's lock (exclusive to write, shared to read), polling
// so a stuck process cannot hang us forever. The lock itself is the
// system's (package filelock: flock, or LockFileEx on Windows).
func (f *lineFile) lock(file *os.File, exclusive bool) error {
	deadline := time.Now().Add(f.lockWait)
	wait := time.Millisecond
	for {
		busy, err := filelock.TryLock(file, exclusive)
		if err != nil {
			return f.ioError("cannot lock", err)
		}
		if !busy {
			return nil
		}
		if time.Now().After(deadline) {
			return &Error{ErrCode: f.ioCode, Msg: fmt.Sprintf("%s is locked by another process (waited %s)", quoteArg(f.path), f.lockWait)}
		}
		time.Sleep(wait)
		wait = min(wait*2, 50*time.Millisecond)
	}
}

func (f *lineFile) openError(err error) error {
	if filelock.IsLinkRefusal(err) {
		return f.refused("%s is a symlink; the %s is never read or written through a link (remove it)", quoteArg(f.path), f.name)
	}
	return f.ioError("cannot open", err)
}

func (f *lineFile) refused(format string, a ...any) error {
	return &Error{ErrCode: f.refusedCode, Msg: f.name + " refused: " + fmt.Sprintf(format, a...)}
}

func (f *lineFile) ioError(what string, err error) error {
	return &Error{ErrCode: f.ioCode, Msg: fmt.Sprintf("%s the %s %s", what, f.name, quoteArg(f.path)), Cause: err}
}
