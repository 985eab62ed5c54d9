package discovery

import (
	"bufio"
	"encoding/json"
	"io"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// maxFrameBytes is the longest line the stdio capture holds: the SDK's own
// bound on one inbound frame. A longer line is passed on as it comes and
// the SDK refuses it.
const maxFrameBytes = mcp.DefaultMaxLineLength

// Reader wraps the byte stream of a newline-delimited transport (a stdio
// server's stdout, before mcp.IOTransport reads it) so that the response to
// a captured tools/list request is taken here, before the SDK decodes
// anything: its result goes to the waiting lister as the bytes the server
// sent, and the SDK reads an empty page (stubPage) in its place. Without
// this the SDK would buffer, validate and copy the whole page (up to its
// 16 MiB line bound) twice before discovery saw it, and would refuse, and
// end the session over, a page nested deeper than its decoder allows
// (instead of discovery refusing the one tool that is). Every other line,
// and a tools/list response the SDK itself must read (protocol versions
// where it caches pages), passes through byte for byte; the connection
// capture still sees those.
func (c *Capture) Reader(r io.ReadCloser) io.ReadCloser {
	return &frameReader{c: c, rc: r, br: bufio.NewReaderSize(r, 64<<10), start: true, limit: maxFrameBytes}
}

type frameReader struct {
	c     *Capture
	rc    io.ReadCloser
	br    *bufio.Reader
	out   []byte // bytes for the SDK not yet read
	line  []byte // the line being held
	start bool   // at the start of a line
	limit int    // the longest line held (maxFrameBytes)
	err   error
}

func (f *frameReader) Close() error { return f.rc.Close() }

func (f *frameReader) Read(p []byte) (int, error) {
	for len(f.out) == 0 {
		if f.err != nil {
			return 0, f.err
		}
		f.fill()
	}
	n := copy(p, f.out)
	f.out = f.out[n:]
	return n, nil
}

// fill reads the next chunk and decides what the SDK gets of it.
func (f *frameReader) fill() {
	chunk, err := f.br.ReadSlice('\n')
	complete := err == nil
	if err != nil && err != bufio.ErrBufferFull {
		f.err = err
	}
	hold := f.line != nil || (f.start && f.c.waiting())
	f.start = complete
	if !hold {
		// Not a line that can answer a captured request: straight through
		// (chunk is the reader's buffer, read before the next fill).
		f.out = chunk
		return
	}
	if len(f.line)+len(chunk) > f.limit {
		// Over the SDK's bound: give it what was held and let it refuse
		// (the rest of the line follows straight through).
		f.out = append(f.line, chunk...)
		f.line = nil
		return
	}
	if len(f.line)+len(chunk) > cap(f.line) {
		// Double (append grows a large slice by a quarter: a 14 MiB line
		// would allocate five times its size on the way).
		grown := make([]byte, len(f.line), max(2*cap(f.line), len(f.line)+len(chunk), 4<<10))
		copy(grown, f.line)
		f.line = grown
	}
	f.line = append(f.line, chunk...)
	if !complete && f.err == nil {
		return
	}
	line := f.line
	f.line = nil
	if stub := f.c.intercept(line); stub != nil {
		f.out = stub
		return
	}
	f.out = line
}

// waiting reports whether a tools/list request is waiting for its page.
func (c *Capture) waiting() bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	return len(c.pending) > 0
}

// intercept takes line when it is the successful response to a pending
// tools/list request whose lister accepts a stub page: the slot gets the
// result's bytes (a slice of line, which is not reused) and the returned
// line is what the SDK reads instead. Anything else returns nil and the
// line passes unchanged (including what the SDK would refuse: a line that
// is not one JSON object, a bad version tag; it refuses it as before).
func (c *Capture) intercept(line []byte) []byte {
	var id, result []byte
	ok := true
	counts := map[string]int{}
	end, err := objectMembers(line, 0, func(klit, val []byte) bool {
		key, short := pageKey(klit)
		if !short {
			return true // not a member the SDK reads
		}
		switch key {
		case "jsonrpc":
			s, _, err := decodeString(val)
			ok = ok && val[0] == '"' && err == nil && s == "2.0"
		case "id":
			id = val
		case "result":
			result = val
		case "method", "params", "error":
			ok = false
		}
		counts[key]++
		return ok
	})
	if err != nil || !ok || skipWS(line, end) != len(line) || counts["jsonrpc"] != 1 || counts["id"] != 1 || counts["result"] != 1 {
		return nil
	}
	var v any
	if (id[0] != '"' && id[0] != '-' && (id[0] < '0' || id[0] > '9')) || json.Unmarshal(id, &v) != nil {
		return nil
	}
	rid, err := jsonrpc.MakeID(v)
	if err != nil {
		return nil
	}
	s := c.takeStub(rid)
	if s == nil {
		return nil
	}
	s.deliver(result, nil)
	stub := make([]byte, 0, 64+len(id))
	stub = append(stub, `{"jsonrpc":"2.0","id":`...)
	stub = append(stub, id...)
	stub = append(stub, `,"result":`+stubPage+"}\n"...)
	return stub
}

// takeStub removes and returns the slot waiting for id when its lister
// accepts a stub page (else it stays for the connection capture).
func (c *Capture) takeStub(id jsonrpc.ID) *slot {
	c.mu.Lock()
	defer c.mu.Unlock()
	s := c.pending[id]
	if s == nil || !s.stub {
		return nil
	}
	delete(c.pending, id)
	return s
}
