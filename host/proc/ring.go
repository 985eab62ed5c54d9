package proc

import (
	"strings"
	"sync"

	"github.com/relavium/relavium/engine/sanitize"
	"github.com/relavium/relavium/redact"
)

// Bounds of what is kept of a stdio server's stderr.
const (
	stderrKeepBytes = 64 << 10 // the ring
	tailLines       = 20       // lines shown on failure
	tailBytes       = 4 << 10  // at most this much of them
)

// StderrRing keeps the last stderrKeepBytes a child wrote to stderr. Writes
// never block and never fail; older bytes fall off the front.
type StderrRing struct {
	mu      sync.Mutex
	buf     []byte
	dropped bool // bytes fell off the front: the first line may be partial
}

// Write appends p, discarding the oldest bytes beyond the bound.
func (r *StderrRing) Write(p []byte) (int, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if len(p) >= stderrKeepBytes {
		r.buf = append(r.buf[:0], p[len(p)-stderrKeepBytes:]...)
		r.dropped = true
		return len(p), nil
	}
	if over := len(r.buf) + len(p) - stderrKeepBytes; over > 0 {
		r.buf = append(r.buf[:0], r.buf[over:]...)
		r.dropped = true
	}
	r.buf = append(r.buf, p...)
	return len(p), nil
}

// Tail returns the last lines of what was written, with every secret value
// replaced by its {{secrets.NAME}} reference, cleaned for display (a server's
// terminal control sequences, bidi and invisible characters removed: the tail
// is shown to a person by mcp ls, the TUI and every failure report), as valid
// UTF-8.
func (r *StderrRing) Tail(set *redact.Set) string {
	r.mu.Lock()
	s := string(r.buf)
	dropped := r.dropped
	r.mu.Unlock()
	if dropped { // never show half a line (it could be half a secret)
		if i := strings.IndexByte(s, '\n'); i >= 0 {
			s = s[i+1:]
		} else {
			s = ""
		}
	}
	s = sanitize.Text(set.Text(s))
	s = strings.TrimRight(s, "\n")
	lines := strings.Split(s, "\n")
	if len(lines) > tailLines {
		lines = lines[len(lines)-tailLines:]
	}
	s = strings.Join(lines, "\n")
	if len(s) > tailBytes {
		s = s[len(s)-tailBytes:]
		if i := strings.IndexByte(s, '\n'); i >= 0 {
			s = s[i+1:]
		}
	}
	return strings.ToValidUTF8(s, "\uFFFD")
}
