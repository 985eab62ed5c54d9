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
	if !e.afterCR && bytes.IndexByte(p, '\r') < 0 {
		return len(p) // LF-only text passes untouched
	}
	w := 0
	for _, c := range p {
		switch {
		case c == '\r':
			p[w] = '\n'
			w++
			e.afterCR = true
			continue
		case c == '\n' && e.afterCR:
			// the LF of a CRLF: already written as the CR's LF
		default:
			p[w] = c
			w++
		}
		e.afterCR = false
	}
	return w
}
