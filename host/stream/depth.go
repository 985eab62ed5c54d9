package stream

import (
	"fmt"
	"io"

	"github.com/relavium/relavium/fault"
	"github.com/relavium/relavium/nesting"
)

// depthReader gauges the nesting of every JSON-RPC message a stdio server
// writes, as the bytes arrive and before the SDK's decoder sees them (the
// decoder's own limit is 10 000 levels). The SDK reads the stream as a
// sequence of JSON values, so the gauge runs over the whole stream: between
// two well-formed messages it is back at depth 0. A message past
// nesting.MessageDepth ends the stream: the bytes before it are
// delivered (earlier messages in the same read still count), then every
// read fails with E518, which the connection keeps as the reason the
// session ended.
type depthReader struct {
	r      io.ReadCloser
	gauge  nesting.JSONGauge
	err    error
	refuse func(*fault.Error) // told the refusal, which is kept for classification
}

// NewDepthReader gauges r; refuse is told the refusal before any read
// fails with it.
func NewDepthReader(r io.ReadCloser, refuse func(*fault.Error)) io.ReadCloser {
	return &depthReader{r: r, refuse: refuse}
}

func (d *depthReader) Read(p []byte) (int, error) {
	if d.err != nil {
		return 0, d.err
	}
	n, err := d.r.Read(p)
	if i := d.gauge.Scan(p[:n]); i >= 0 {
		e := &fault.Error{ErrCode: CodeMessageDepth, Msg: fmt.Sprintf("sent a message nesting arrays and objects deeper than %d levels; it was refused before decoding", nesting.MessageDepth)}
		d.refuse(e)
		d.err = e
		if i == 0 {
			return 0, e
		}
		return i, nil
	}
	return n, err
}

func (d *depthReader) Close() error { return d.r.Close() }
