package netguard

import (
	"bytes"

	"github.com/relavium/relavium/nesting"
)

// Every JSON message a network server sends is gauged for nesting while its
// bytes arrive (nesting.JSONGauge), before the SDK decodes it: an
// application/json body is one message (or one batch), the data lines of
// one SSE event are one message. Past nesting.MessageDepth the body is
// refused (E572).

// depthScanner is the depth check of one response body.
type depthScanner interface {
	scan(p []byte) int // index of the first byte past the cap, or -1
}

// jsonDepth gauges an application/json body: one message (or one batch).
type jsonDepth struct{ g nesting.JSONGauge }

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
	g       nesting.JSONGauge
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
