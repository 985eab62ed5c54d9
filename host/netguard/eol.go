package netguard

import "bytes"

// eolNormalizer rewrites the line endings of a text/event-stream body to LF
// as it is read. The SSE format ends a line with CRLF, LF or a lone CR; the
// go-sdk's event scanner splits lines at LF only, so a stream whose events
// end in CR CR would reach it as one endless line. Every CR becomes LF and
// an LF right after a CR (the second half of a CRLF, even when the two
// arrive in different reads) is dropped. Nothing is held back: a CR is
// answered at once, so an event ended by CR CR is seen by the SDK as soon
// as its last byte arrives.
type eolNormalizer struct {
	afterCR bool // the last byte seen was a CR
}

// apply normalises p in place and returns how many bytes of p are the
// normalised output (never more than len(p)).
func (e *eolNormalizer) apply(p []byte) int {
	if len(p) == 0 {
		return 0
	}
	if !e.afterCR && bytes.IndexByte(p, '\r') < 0 {
		return len(p) // LF-only text passes untouched
	}
	w, r := 0, 0
	if e.afterCR && len(p) > 0 && p[0] == '\n' {
		r = 1 // the LF of a CRLF split across reads
	}
	e.afterCR = false
	for r < len(p) {
		i := bytes.IndexByte(p[r:], '\r')
		if i < 0 {
			w += copy(p[w:], p[r:])
			break
		}
		w += copy(p[w:], p[r:r+i])
		p[w] = '\n'
		w++
		r += i + 1
		switch {
		case r == len(p):
			e.afterCR = true // an LF may start the next read
		case p[r] == '\n':
			r++ // the LF of this CRLF
		}
	}
	return w
}
