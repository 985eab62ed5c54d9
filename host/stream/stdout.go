package stream

import (
	"fmt"
	"io"
	"strconv"
	"sync"

	"github.com/relavium/relavium/engine/sanitize"
	"github.com/relavium/relavium/fault"
)

// Stray stdout lines. A stdio server's stdout is the JSON-RPC stream, yet
// many servers print a banner there (a console.log before connecting, a
// debug line mid-call). The reference clients skip such a line and go on;
// so does relavium: a line whose first non-blank byte cannot begin a
// JSON-RPC message ('{': MCP dropped JSON-RPC batches in 2025-06-18, and
// "[INFO] started" is a common banner) is taken off the stream before the SDK
// decodes anything, kept with the server's stderr (so it shows where the
// server's own output shows), and reported once as a warning. The stream is
// bounded: past maxStrayLines lines or maxStrayBytes bytes of them the
// server is failed (E519), and a server that exits during initialize after
// such a line is told apart from one that just exited.

const (
	maxStrayLines = 1000
	maxStrayBytes = 1 << 20
	strayKeep     = 200 // bytes of the first stray line kept for messages
)

// Stray records the stray lines of one child. Its zero value is ready.
type Stray struct {
	mu    sync.Mutex
	lines int
	bytes int
	first string // the first line, cut to strayKeep bytes, sanitized
}

// FirstLine reports the first stray line and how many there were.
func (s *Stray) FirstLine() (string, int) {
	if s == nil {
		return "", 0
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.first, s.lines
}

// stdoutFilter passes the JSON-RPC messages of r and takes stray lines off
// it. A message may span lines (a pretty-printed one): a line is judged
// only where no value is open.
type stdoutFilter struct {
	r      io.ReadCloser
	out    io.Writer // where a stray line's bytes go (the stderr ring)
	stray  *Stray
	warn   func(text string)  // the first stray line's warning (nil: none)
	refuse func(*fault.Error) // the bound was passed (nil: only the read fails)

	buf   []byte // read from r, not yet handed on
	chunk []byte // what buf is read into
	err   error  // r's error, returned once buf is drained
	fail  error  // the bound was passed: every read fails

	// Where the scan is: at the start of a line, inside a value (depth,
	// string and escape state), or in a stray line.
	lineStart bool
	straying  bool
	depth     int
	inString  bool
	escaped   bool
	cur       []byte // the stray line being read (at most strayKeep bytes)
	curLen    int
}

// NewStdoutFilter filters r, a stdio server's stdout: stray lines go to out
// (each prefixed "[stdout] ") and are counted in s; the first one is
// reported through warn; past the bound every read fails with E519, which
// refuse is told first.
func NewStdoutFilter(r io.ReadCloser, out io.Writer, s *Stray, warn func(text string), refuse func(*fault.Error)) io.ReadCloser {
	return &stdoutFilter{r: r, out: out, stray: s, warn: warn, refuse: refuse, lineStart: true}
}

func (f *stdoutFilter) Read(p []byte) (int, error) {
	for {
		if f.fail != nil {
			return 0, f.fail
		}
		if len(f.buf) == 0 {
			if f.err != nil {
				return 0, f.err
			}
			// One read buffer for the filter's life: buf is drained before
			// the next read (a fresh 32 KiB buffer per read cost a loaded client
			// much of its CPU).
			if f.chunk == nil {
				f.chunk = make([]byte, 32<<10)
			}
			n, err := f.r.Read(f.chunk[:min(len(p), len(f.chunk))])
			f.buf, f.err = f.chunk[:n], err
			if n == 0 && err == nil {
				continue
			}
		}
		n := f.scan(p)
		if n > 0 || f.fail != nil {
			return n, nil
		}
	}
}

// scan moves bytes of buf into p, dropping stray lines, and returns how
// many it wrote.
func (f *stdoutFilter) scan(p []byte) int {
	n := 0
	i := 0
	for ; i < len(f.buf) && n < len(p); i++ {
		b := f.buf[i]
		if f.straying {
			if b == '\n' {
				f.endStray()
				continue
			}
			if len(f.cur) < strayKeep {
				f.cur = append(f.cur, b)
			}
			f.curLen++
			if f.curLen > maxStrayBytes {
				f.endStray()
				i++
				break
			}
			continue
		}
		if f.lineStart && f.depth == 0 {
			switch b {
			case ' ', '\t', '\r', '\n':
				p[n] = b
				n++
				continue
			case '{':
				f.lineStart = false
			default:
				f.straying, f.cur, f.curLen = true, f.cur[:0], 1
				f.cur = append(f.cur, b)
				continue
			}
		}
		p[n] = b
		n++
		f.track(b)
	}
	f.buf = f.buf[i:]
	return n
}

// track follows JSON nesting so a line is judged only between values.
func (f *stdoutFilter) track(b byte) {
	switch {
	case f.inString:
		switch {
		case f.escaped:
			f.escaped = false
		case b == '\\':
			f.escaped = true
		case b == '"':
			f.inString = false
		}
	case b == '"':
		f.inString = true
	case b == '{' || b == '[':
		f.depth++
	case b == '}' || b == ']':
		if f.depth > 0 {
			f.depth--
		}
	case b == '\n':
		if f.depth == 0 {
			f.lineStart = true
		}
	}
}

// endStray ends the stray line being read: it joins the server's output,
// is counted against the bounds and, the first time, reported.
func (f *stdoutFilter) endStray() {
	line := f.cur
	f.straying, f.lineStart = false, true
	s := f.stray
	s.mu.Lock()
	s.lines++
	s.bytes += f.curLen
	first := s.lines == 1
	if first {
		s.first = sanitize.Line(string(line))
	}
	lines, total := s.lines, s.bytes
	s.mu.Unlock()
	if f.out != nil {
		_, _ = f.out.Write(append(append([]byte("[stdout] "), line...), '\n'))
	}
	if first && f.warn != nil {
		f.warn("the server wrote a line that is not JSON-RPC on stdout (skipped; kept with its stderr): " + strconv.Quote(s.first))
	}
	if lines > maxStrayLines || total > maxStrayBytes {
		e := &fault.Error{ErrCode: CodeStrayStdout, Msg: fmt.Sprintf(
			"wrote more than %d lines or %d KiB of non-JSON output on stdout (the first: %q); stdout is the JSON-RPC stream: log to stderr",
			maxStrayLines, maxStrayBytes>>10, s.first)}
		if f.refuse != nil {
			f.refuse(e)
		}
		f.fail = e
	}
}

func (f *stdoutFilter) Close() error { return f.r.Close() }
