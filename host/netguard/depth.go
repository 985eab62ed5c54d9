package netguard

import "bytes"

// MaxMessageDepth caps how deeply one JSON-RPC message from a server may
// nest arrays and objects. The SDK decodes each message with encoding/json,
// whose own limit is 10 000 levels: a few kilobytes of brackets would build
// a tree that deep. No MCP message needs more than a few dozen levels;
// discovery already refuses a schema nested past 256, so 512 leaves every
// legitimate result room while the message is refused before any decoding.
const MaxMessageDepth = 512

// DepthGauge follows the nesting of a stream of JSON values as its bytes
// arrive, without building anything: a counter and the string/escape state.
// For well-formed JSON the depth is exact; malformed JSON is refused by the
// decoder anyway, so the gauge only has to be right where the JSON is.
// The zero value with Max 0 means MaxMessageDepth.
type DepthGauge struct {
	Max      int // levels allowed (0: MaxMessageDepth)
	depth    int
	inString bool
	escaped  bool
}

// Scan feeds p and returns the index of the first byte that opens a level
// past Max, or -1 when every byte of p stays within it. Once over, the
// gauge stays over: the caller refuses the stream.
func (g *DepthGauge) Scan(p []byte) int {
	limit := g.Max
	if limit <= 0 {
		limit = MaxMessageDepth
	}
	for i := 0; i < len(p); i++ {
		if g.inString {
			// Skip to the next quote or backslash in one call.
			j := bytes.IndexAny(p[i:], `"\`)
			if g.escaped {
				g.escaped = false
				continue // the escaped byte, whatever it is
			}
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
func (g *DepthGauge) Depth() int { return g.depth }

// Reset starts a new message.
func (g *DepthGauge) Reset() { g.depth, g.inString, g.escaped = 0, false, false }

// depthScanner is the depth check of one response body.
type depthScanner interface {
	scan(p []byte) int // index of the first byte past the cap, or -1
}

// jsonDepth gauges an application/json body: one message (or one batch).
type jsonDepth struct{ g DepthGauge }

func (d *jsonDepth) scan(p []byte) int { return d.g.Scan(p) }

// SSE line states of sseDepth.
const (
	sseField = iota // reading a field name at the start of a line
	sseData         // inside the value of a data field: JSON
	sseSkip         // inside the value of any other field, or a comment
)

// sseDepth gauges the JSON carried by a text/event-stream body whose line
// endings are already LF (eolNormalizer). Only data field values are JSON;
// the data lines of one event are one message (the SDK joins them with
// LF), and a blank line ends the event and starts a new message.
type sseDepth struct {
	g       DepthGauge
	state   int
	nameLen int  // bytes of the current line's field name so far
	isData  bool // the field name read so far is a prefix of "data"
}

func (d *sseDepth) scan(p []byte) int {
	for i := 0; i < len(p); i++ {
		c := p[i]
		switch d.state {
		case sseData:
			j := bytes.IndexByte(p[i:], '\n')
			end := len(p)
			if j >= 0 {
				end = i + j
			}
			if k := d.g.Scan(p[i:end]); k >= 0 {
				return i + k
			}
			if j < 0 {
				return -1
			}
			i = end
			d.g.Scan(p[i : i+1]) // the LF that joins data lines
			d.state, d.nameLen, d.isData = sseField, 0, true
		case sseSkip:
			j := bytes.IndexByte(p[i:], '\n')
			if j < 0 {
				return -1
			}
			i += j
			d.state, d.nameLen, d.isData = sseField, 0, true
		default: // sseField
			switch {
			case c == '\n':
				if d.nameLen == 0 {
					d.g.Reset() // a blank line: the event ends
				}
				d.nameLen, d.isData = 0, true
			case c == ':':
				if d.nameLen == len("data") && d.isData {
					d.state = sseData
				} else {
					d.state = sseSkip
				}
			default:
				if d.nameLen >= len("data") || c != "data"[d.nameLen] {
					d.isData = false
				}
				d.nameLen++
			}
		}
	}
	return -1
}

// newSSEDepth starts at the beginning of a line.
func newSSEDepth() *sseDepth { return &sseDepth{isData: true} }
