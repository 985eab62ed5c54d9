package regularfile

import (
	"fmt"
	"io"
	"io/fs"
	"os"
	"syscall"
)

// NotRegularError is a path that is a directory, a named pipe, a device or
// a socket: never read.
type NotRegularError struct {
	Path string
	Mode fs.FileMode
}

func (e *NotRegularError) Error() string {
	return fmt.Sprintf("%s is %s, not a regular file", e.Path, Kind(e.Mode))
}

// TooLargeError is a regular file over the bound its reader states.
type TooLargeError struct {
	Path  string
	Limit int64
}

func (e *TooLargeError) Error() string {
	return fmt.Sprintf("%s is larger than %s", e.Path, Size(e.Limit))
}

// Kind names what a file of mode m is, for a person.
func Kind(m fs.FileMode) string {
	switch {
	case m.IsRegular():
		return "a regular file"
	case m.IsDir():
		return "a directory"
	case m&fs.ModeNamedPipe != 0:
		return "a named pipe (FIFO)"
	case m&fs.ModeSocket != 0:
		return "a socket"
	case m&fs.ModeCharDevice != 0:
		return "a character device"
	case m&fs.ModeDevice != 0:
		return "a device"
	case m&fs.ModeSymlink != 0:
		return "a symbolic link"
	}
	return "a special file (" + m.Type().String() + ")"
}

// Size writes a bound for a person: "4 MiB", "256 KiB", "300 bytes".
func Size(n int64) string {
	switch {
	case n >= 1<<20 && n%(1<<20) == 0:
		return fmt.Sprintf("%d MiB", n>>20)
	case n >= 1<<10 && n%(1<<10) == 0:
		return fmt.Sprintf("%d KiB", n>>10)
	}
	return fmt.Sprintf("%d bytes", n)
}

// Options change how a file is opened.
type Options struct {
	// NoFollow refuses a symbolic link at the path itself (where the
	// platform can tell: O_NOFOLLOW), as a private store does.
	NoFollow bool
}

// Open opens the regular file at path for reading without blocking on a
// FIFO or a device, and returns it with its information; anything but a
// regular file is a *NotRegularError (the file closed).
func Open(path string, o Options) (*os.File, fs.FileInfo, error) {
	flags := os.O_RDONLY | syscall.O_NONBLOCK | oCloexec
	if o.NoFollow {
		flags |= oNoFollow
	}
	// O_NONBLOCK: opening a FIFO must not wait for a writer; it changes
	// nothing for the regular file that is all that is then read.
	f, err := os.OpenFile(path, flags, 0)
	if err != nil {
		return nil, nil, err
	}
	st, err := f.Stat()
	if err != nil {
		_ = f.Close()
		return nil, nil, err
	}
	if !st.Mode().IsRegular() {
		_ = f.Close()
		return nil, nil, &NotRegularError{Path: path, Mode: st.Mode()}
	}
	return f, st, nil
}

// Read returns the whole of the regular file at path when it holds at
// most limit bytes; more is a *TooLargeError, found by reading at most one
// byte past the bound (a file growing while read is bounded too).
func Read(path string, limit int64, o Options) ([]byte, fs.FileInfo, error) {
	f, st, err := Open(path, o)
	if err != nil {
		return nil, nil, err
	}
	defer f.Close()
	if st.Size() > limit {
		return nil, st, &TooLargeError{Path: path, Limit: limit}
	}
	b, err := io.ReadAll(io.LimitReader(f, limit+1))
	if err != nil {
		return nil, st, err
	}
	if int64(len(b)) > limit {
		return nil, st, &TooLargeError{Path: path, Limit: limit}
	}
	return b, st, nil
}
