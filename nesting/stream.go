package nesting

import "bytes"

// MessageDepth bounds one JSON-RPC message a server sends, on any
// transport. The SDK decodes each message with encoding/json, whose own
// limit is 10 000 levels; no MCP message needs more than a few dozen, and
// this is twice the JSONDepth discovery accepts in a schema, so every
// legitimate result has room while a deeper one is refused before anything
// decodes it.
const MessageDepth = 512

// JSONGauge is JSON's depth scan for bytes that arrive in pieces (a stream
// of messages read from a pipe or a response body): the same rule as JSON
// (brackets outside strings nest; a string ends at its first unescaped
// quote), with the string and escape state carried from one Scan to the
// next, so any split of the input gives the same answer at the same byte.
// It keeps three fields whatever the input. The zero value with Max 0
// gauges against MessageDepth.
type JSONGauge struct {
	Max      int // levels allowed (0: MessageDepth)
	depth    int
	inString bool
	escaped  bool
}

// Scan feeds p and returns the index in p of the first byte that opens a
// level past Max, or -1 when every byte of p stays within it. Once it has
// returned an index the caller refuses the stream; the gauge is not meant
// to go on.
func (g *JSONGauge) Scan(p []byte) int {
	limit := g.Max
	if limit <= 0 {
		limit = MessageDepth
	}
	for i := 0; i < len(p); i++ {
		if g.inString {
			end := g.skipString(p, i)
			if end < 0 {
				return -1
			}
			i = end // the closing quote
			g.inString = false
			continue
		}
		switch p[i] {
		case '"':
			g.inString = true
		case '[', '{':
			g.depth++
			if g.depth > limit {
				return i
			}
		case ']', '}':
			if g.depth > 0 {
				g.depth--
			}
		}
	}
	return -1
}

// skipString skips string bytes from p[i] on and returns the index of the
// closing quote, or -1 when the string goes on past p (with the escape
// state kept for the next Scan). Linear in the bytes skipped: each search
// for a quote starts past the last quote found, and backslashes are looked
// for only before it.
func (g *JSONGauge) skipString(p []byte, i int) int {
	if g.escaped {
		if i >= len(p) {
			return -1
		}
		g.escaped = false
		i++ // the escaped byte, whatever it is
	}
	for i < len(p) {
		j := bytes.IndexByte(p[i:], '"')
		end := len(p)
		if j >= 0 {
			end = i + j
		}
		quoteEscaped := false
		for {
			k := bytes.IndexByte(p[i:end], '\\')
			if k < 0 {
				break
			}
			i += k + 1 // the escaped byte
			if i == len(p) {
				g.escaped = true
				return -1
			}
			if i == end {
				quoteEscaped = true
				break
			}
			i++
		}
		if j < 0 {
			return -1
		}
		if !quoteEscaped {
			return end
		}
		i = end + 1 // an escaped quote: look for the next one
	}
	return -1
}

// Depth is the current nesting level.
func (g *JSONGauge) Depth() int { return g.depth }

// Reset starts a new message (a framing that says where one ends, such as
// an SSE event boundary).
func (g *JSONGauge) Reset() { g.depth, g.inString, g.escaped = 0, false, false }
