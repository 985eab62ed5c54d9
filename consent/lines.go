package consent

import (
	"bufio"
	"errors"
	"fmt"
	"io"
)

// lineReadBuffer is the bufio buffer of a lineReader: the most a reader
// holds of the input beyond the current line.
const lineReadBuffer = 64 << 10

// errLineTooLong is what lineReader.next returns for a line longer than its
// cap. The line has been consumed (through its newline) without being kept,
// so a caller that can go on may call next again.
var errLineTooLong = errors.New("line longer than the cap")

// lineReader reads an NDJSON file one line at a time, holding at most one
// line (its cap) plus a fixed read buffer, whatever the file's size or the
// length of any line in it: memory is independent of the input. It is the
// one way relavium reads a line file of the home; a store built on lineFile
// reads through it.
type lineReader struct {
	r        *bufio.Reader
	max      int
	buf      []byte
	no       int  // 1-based number of the line last returned (or refused)
	complete bool // the line last returned ended in '\n'
}

// newLineReader reads r in lines of at most max bytes (the '\n' not
// counted).
func newLineReader(r io.Reader, max int) *lineReader {
	return &lineReader{r: bufio.NewReaderSize(r, lineReadBuffer), max: max}
}

// next returns the next line without its '\n', valid until the following
// call; io.EOF after the last line. A last line with no newline is returned
// too, with complete() false. A line over the cap returns errLineTooLong
// after it has been skipped; line() is its number. Any other read error is
// returned as is.
func (l *lineReader) next() ([]byte, error) {
	l.buf = l.buf[:0]
	for {
		chunk, err := l.r.ReadSlice('\n')
		nl := err == nil
		body := chunk
		if nl {
			body = chunk[:len(chunk)-1]
		}
		if len(l.buf)+len(body) > l.max {
			l.no++
			l.buf = l.buf[:0]
			if !nl {
				if serr := l.skipLine(err); serr != nil {
					return nil, serr
				}
			}
			return nil, errLineTooLong
		}
		if nl && len(l.buf) == 0 {
			// The whole line is in the read buffer, which stays as it is
			// until the next call: no copy.
			l.no++
			l.complete = true
			return body, nil
		}
		l.buf = append(l.buf, body...)
		switch {
		case nl:
			l.no++
			l.complete = true
			return l.buf, nil
		case errors.Is(err, bufio.ErrBufferFull):
			continue
		case errors.Is(err, io.EOF):
			if len(l.buf) == 0 {
				return nil, io.EOF
			}
			l.no++
			l.complete = false
			return l.buf, nil
		default:
			return nil, err
		}
	}
}

// skipLine consumes input through the next '\n' (or the end) without
// keeping it; err is the last ReadSlice error.
func (l *lineReader) skipLine(err error) error {
	for errors.Is(err, bufio.ErrBufferFull) {
		_, err = l.r.ReadSlice('\n')
	}
	if err == nil || errors.Is(err, io.EOF) {
		return nil
	}
	return err
}

// line is the 1-based number of the line next most recently returned or
// refused.
func (l *lineReader) line() int { return l.no }

// lastComplete reports whether the line next most recently returned ended in
// '\n'.
func (l *lineReader) lastComplete() bool { return l.complete }

// readError marks a failure of the underlying reader, as opposed to an error
// the caller's function returned.
type readError struct{ err error }

func (e *readError) Error() string { return e.err.Error() }
func (e *readError) Unwrap() error { return e.err }

// isReadError reports whether readLines failed reading, not in its caller.
func isReadError(err error) bool {
	var re *readError
	return errors.As(err, &re)
}

// readLines calls each with every line of r (see lineReader.next), stopping
// at the first error each returns, which it returns unchanged. A line over
// max is a *lineFault; a failed read is wrapped so isReadError tells it.
func readLines(r io.Reader, max int, each func(line []byte, no int, complete bool) error) error {
	lr := newLineReader(r, max)
	for {
		line, err := lr.next()
		switch {
		case errors.Is(err, io.EOF):
			return nil
		case errors.Is(err, errLineTooLong):
			return &lineFault{Line: lr.line(), Reason: fmt.Sprintf("longer than %d bytes", max)}
		case err != nil:
			return &readError{err}
		}
		if err := each(line, lr.line(), lr.lastComplete()); err != nil {
			return err
		}
	}
}
