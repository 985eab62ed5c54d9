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
			if g.escaped {
				g.escaped = false
				continue // the escaped byte, whatever it is
			}
			j := bytes.IndexAny(p[i:], `"\`)
			if j < 0 {
				return -1
			}
			i += j
			if p[i] == '\\' {
				g.escaped = true
			} else {
				g.inString = false
			}
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

// Depth is the current nesting level.
func (g *JSONGauge) Depth() int { return g.depth }

// Reset starts a new message (a framing that says where one ends, such as
// an SSE event boundary).
func (g *JSONGauge) Reset() { g.depth, g.inString, g.escaped = 0, false, false }
