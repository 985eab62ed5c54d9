package netguard

import (
	"bytes"
	"fmt"
	"io"
	"mime"

	"github.com/relavium/relavium/fault"
	"github.com/relavium/relavium/nesting"
)

// counter counts one response's raw bytes against the per-message bound.
// feed reports true once a message is over the limit.
type counter interface {
	feed(p []byte) (over bool)
}

// newCounter picks the framing from the response's content type: on
// text/event-stream a message is one SSE event; anything else is one message,
// delimiters and whitespace included.
func newCounter(contentType string, limit int64) counter {
	if mt, _, err := mime.ParseMediaType(contentType); err == nil && mt == "text/event-stream" {
		return &sseCounter{limit: limit}
	}
	return &bodyCounter{limit: limit}
}

// bodyCounter treats the whole body as one message.
type bodyCounter struct{ n, limit int64 }

func (c *bodyCounter) feed(p []byte) bool {
	c.n += int64(len(p))
	return c.n > c.limit
}

// CR states of the SSE counter.
const (
	crNone     = iota
	crLine     // a CR ended a line with content; an LF next is the same line ending
	crBoundary // a CR ended a blank line; an LF next still belongs to that event
)

// sseCounter counts the raw bytes of the current SSE event, its line endings
// included, and resets after each event boundary: a blank line ended by \n,
// \r\n or a lone \r. A \r\n is one line ending even when the \r and the \n
// arrive in different reads, so "x\r\n" repeated never looks like a blank line.
type sseCounter struct {
	n, limit   int64
	hasContent bool  // the current line has at least one byte that is not a line ending
	cr         int   // crNone, crLine or crBoundary
	events     int64 // event boundaries seen (blank lines), for the tests' reference check
}

func (c *sseCounter) feed(p []byte) bool {
	// Next CR and LF at or after pos: -2 not searched yet, -1 none left. Each
	// byte is scanned at most once per character, whatever the line endings.
	nextCR, nextLF := -2, -2
	for pos := 0; pos < len(p); {
		if c.cr != crNone {
			boundary := c.cr == crBoundary
			c.cr = crNone
			if p[pos] == '\n' {
				c.n++
				if c.n > c.limit {
					return true
				}
				if boundary {
					c.n = 0
				}
				pos++
				continue
			}
			if boundary {
				c.n = 0
			}
		}
		if nextCR != -1 && nextCR < pos {
			nextCR = indexFrom(p, pos, '\r')
		}
		if nextLF != -1 && nextLF < pos {
			nextLF = indexFrom(p, pos, '\n')
		}
		i := len(p)
		if nextCR >= 0 {
			i = nextCR
		}
		if nextLF >= 0 && nextLF < i {
			i = nextLF
		}
		if i > pos {
			c.n += int64(i - pos)
			c.hasContent = true
			if c.n > c.limit {
				return true
			}
		}
		if i == len(p) {
			return false
		}
		c.n++ // the line ending belongs to the event it ends
		if c.n > c.limit {
			return true
		}
		switch {
		case c.hasContent && p[i] == '\r':
			c.hasContent, c.cr = false, crLine
		case c.hasContent:
			c.hasContent = false
		case p[i] == '\r':
			c.cr = crBoundary // reset once we know whether an LF follows
			c.events++
		default:
			c.n = 0
			c.events++
		}
		pos = i + 1
	}
	return false
}

// indexFrom is the index of b in p at or after from, or -1.
func indexFrom(p []byte, from int, b byte) int {
	if i := bytes.IndexByte(p[from:], b); i >= 0 {
		return from + i
	}
	return -1
}

// boundedBody enforces the bound on a response body as it is read. Once over,
// every read fails with the same typed error and no byte of the offending
// read is returned. On text/event-stream it also rewrites every line ending
// to LF (eolNormalizer: the SDK's scanner knows LF only), after the bound
// has counted the raw bytes. On JSON and SSE bodies it gauges each
// message's nesting (depth.go): a message past nesting.MessageDepth is refused
// with the bytes before it delivered, so messages earlier in the same read
// still reach the SDK.
type boundedBody struct {
	rc    io.ReadCloser
	count counter
	norm  *eolNormalizer // nil: not an event stream
	depth depthScanner   // nil: not JSON
	err   error
	over  func() error // the bound's refusal
	deep  func() error // the depth refusal
}

// newBoundedBody frames rc by its content type.
func newBoundedBody(rc io.ReadCloser, contentType string, limit int64, over, deep func() error) *boundedBody {
	b := &boundedBody{rc: rc, count: newCounter(contentType, limit), over: over, deep: deep}
	mt, _, err := mime.ParseMediaType(contentType)
	switch {
	case err != nil:
	case mt == "text/event-stream":
		b.norm = &eolNormalizer{}
		b.depth = newSSEDepth()
	case mt == "application/json":
		b.depth = &jsonDepth{}
	}
	return b
}

func (b *boundedBody) Read(p []byte) (int, error) {
	if b.err != nil {
		return 0, b.err
	}
	for {
		n, err := b.rc.Read(p)
		if n > 0 && b.count.feed(p[:n]) {
			b.err = b.over()
			return 0, b.err
		}
		raw := n
		if b.norm != nil {
			n = b.norm.apply(p[:n])
		}
		if b.depth != nil && n > 0 {
			if i := b.depth.scan(p[:n]); i >= 0 {
				b.err = b.deep()
				if i == 0 {
					return 0, b.err
				}
				return i, nil // the next read returns the refusal
			}
		}
		if n == 0 && raw > 0 && err == nil {
			continue // the read held only the LF of a split CRLF
		}
		return n, err
	}
}

func (b *boundedBody) Close() error { return b.rc.Close() }

func boundRefusal(t *Target, contentType string, limit int64) *Error {
	what := "the response body (one message: not text/event-stream)"
	if _, ok := newCounter(contentType, limit).(*sseCounter); ok {
		what = "one server-sent event"
	}
	return refusal(CodeMessageBound, ReasonMessageBound, fault.ExitFailure,
		"%s from %s exceeded the transport bound of %s", what, t.HostPort(), sizeString(limit)).
		at(t.shown, t.HostPort())
}

func depthRefusal(t *Target) *Error {
	return refusal(CodeMessageDepth, ReasonMessageDepth, fault.ExitFailure,
		"a message from %s nests arrays and objects deeper than %d levels; it was refused before decoding", t.HostPort(), nesting.MessageDepth).
		at(t.shown, t.HostPort())
}

func sizeString(n int64) string {
	if n >= 1<<20 && n%(1<<20) == 0 {
		return fmt.Sprintf("%d MiB", n>>20)
	}
	return fmt.Sprintf("%d bytes", n)
}
