package inbound

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"

	"github.com/relavium/relavium/fault"
	"github.com/relavium/relavium/nesting"
)

// MaxStdioLineBytes bounds one line (one JSON-RPC message) a client sends to
// `mcp serve --transport stdio` or `replay`, the same 4 MiB as an HTTP body. relavium's
// own client bounds what servers send the same way.
const MaxStdioLineBytes = 4 << 20

// Stdio line refusals: the line is answered with a JSON-RPC error (id null)
// and the session goes on with the next line.
const (
	CodeStdioNotMessage fault.Code = "E428" // a line that is not JSON (-32700) or not a JSON-RPC message (-32600)
	CodeStdioLineTooBig fault.Code = "E429" // a line over MaxStdioLineBytes, discarded unread (-32600)
	CodeStdioTooDeep    fault.Code = "E430" // a line nesting deeper than nesting.MessageDepth, refused before decoding (-32600)
)

// stdioReadChunk is how much of a line is read at a time.
const stdioReadChunk = 64 << 10

// StdioFilter stands between the client's stdin and the SDK's stdio
// transport, which ends the whole session (with a message that carries no
// code) at the first line it cannot decode. The filter reads one line at a
// time and hands the SDK only lines that are one well-formed JSON-RPC
// message (or batch); every other line is answered on stdout with a
// JSON-RPC error (id null, the E-code leading the message and in
// data.code) and the next line is read:
//
//   - a line over MaxStdioLineBytes is consumed without being kept (E429);
//   - a line nested past nesting.MessageDepth is refused as its bytes
//     arrive, before anything decodes it, and the rest is discarded (E430);
//   - a line that is not JSON (-32700) or not a JSON-RPC message (-32600)
//     is E428.
//
// Blank lines are skipped. The SDK's writes and the refusals share one
// writer (LockedWriter), so they never interleave.
type StdioFilter struct {
	in      *bufio.Reader
	out     *LockedWriter
	line    []byte // the line being read (kept only while it is in bounds)
	pending []byte // a checked line (with its newline) the SDK has not read yet
	gauge   nesting.JSONGauge
	err     error
	drain   drain
}

// drain holds the end of the input back until the requests passed are
// answered (Drain): ctx and wait bound it; zero wait is no drain.
type drain struct {
	ctx  context.Context
	wait time.Duration
}

// NewStdioFilter reads the client's lines from in and answers the refused
// ones on out (the writer the server's own answers go through).
func NewStdioFilter(in io.Reader, out *LockedWriter) *StdioFilter {
	return &StdioFilter{in: bufio.NewReaderSize(in, stdioReadChunk), out: out}
}

// Drain makes the end of the input wait until every request the filter
// passed has been answered on out (or cancelled by the client), at most
// wait and never past ctx: the SDK ends the session at the end of its
// input, and a request whose line came just before it would lose its
// answer. It returns f.
func (f *StdioFilter) Drain(ctx context.Context, wait time.Duration) *StdioFilter {
	f.drain = drain{ctx: ctx, wait: wait}
	f.out.track()
	return f
}

// Read hands the SDK the next checked line; at the end of the input, once
// the requests in flight are answered (Drain).
func (f *StdioFilter) Read(p []byte) (int, error) {
	for len(f.pending) == 0 {
		if f.err != nil {
			if f.drain.wait > 0 {
				f.out.settle(f.drain.ctx, f.drain.wait)
				f.drain.wait = 0
			}
			return 0, f.err
		}
		f.next()
	}
	n := copy(p, f.pending)
	f.pending = f.pending[n:]
	return n, nil
}

// Close is the SDK's: stdin itself stays the process's.
func (f *StdioFilter) Close() error { return nil }

// next reads one line and either queues it for the SDK or answers it.
func (f *StdioFilter) next() {
	if cap(f.line) > stdioReadChunk*4 {
		f.line = nil // do not hold a big line's buffer between lines
	}
	f.line = f.line[:0]
	f.gauge.Reset()
	size := 0
	var refusal *fault.Error
	rpcCode := InvalidRequest
	for {
		chunk, err := f.in.ReadSlice('\n')
		size += len(chunk)
		content := size // the line's bytes so far, without its newline
		if len(chunk) > 0 && chunk[len(chunk)-1] == '\n' {
			content--
		}
		switch {
		case refusal != nil: // discarding the rest of a refused line
		case content > MaxStdioLineBytes:
			refusal = &fault.Error{ErrCode: CodeStdioLineTooBig,
				Msg: fmt.Sprintf("a line longer than %d bytes was discarded unread; send each JSON-RPC message on one line of at most that size", MaxStdioLineBytes)}
			f.line = f.line[:0]
		default:
			if f.gauge.Scan(chunk) >= 0 {
				refusal = &fault.Error{ErrCode: CodeStdioTooDeep,
					Msg: fmt.Sprintf("a line nesting arrays and objects deeper than %d levels was refused before decoding", nesting.MessageDepth)}
				f.line = f.line[:0]
				break
			}
			f.line = append(f.line, chunk...)
		}
		if errors.Is(err, bufio.ErrBufferFull) {
			continue
		}
		if err != nil {
			f.err = err // io.EOF: the last line (if any) is still judged
			if size == 0 {
				return
			}
		}
		break
	}
	if refusal == nil {
		trimmed := bytes.TrimSpace(f.line)
		if len(trimmed) == 0 {
			return
		}
		var msgs []jsonrpc.Message
		if msgs, refusal, rpcCode = checkMessage(trimmed); refusal == nil {
			f.out.passed(msgs)
			f.pending = append(trimmed, '\n') // within f.line, which waits until the SDK has read it
			return
		}
	}
	_, _ = f.out.Write(append(ErrorDoc(rpcCode, refusal), '\n'))
}

// checkMessage accepts one JSON-RPC message, or a non-empty batch of them,
// as the SDK's stdio transport reads them (and returns them decoded);
// otherwise the refusal and its JSON-RPC code.
func checkMessage(line []byte) ([]jsonrpc.Message, *fault.Error, int) {
	if !json.Valid(line) {
		return nil, &fault.Error{ErrCode: CodeStdioNotMessage, Msg: "the line is not JSON; send one JSON-RPC message per line"}, ParseError
	}
	raw := []json.RawMessage{line}
	if line[0] == '[' {
		raw = nil
		if json.Unmarshal(line, &raw) != nil || len(raw) == 0 {
			return nil, &fault.Error{ErrCode: CodeStdioNotMessage, Msg: "the line is an empty batch or not a batch of JSON-RPC messages"}, InvalidRequest
		}
	}
	msgs := make([]jsonrpc.Message, 0, len(raw))
	for _, m := range raw {
		msg, err := jsonrpc.DecodeMessage(m)
		if err != nil {
			return nil, &fault.Error{ErrCode: CodeStdioNotMessage, Msg: "the line is JSON but not a JSON-RPC 2.0 request, notification or response"}, InvalidRequest
		}
		msgs = append(msgs, msg)
	}
	return msgs, nil, 0
}

// LockedWriter serialises whole writes to the process's stdout, which stays
// open when the session closes. With a draining filter it also keeps the
// ids of the requests passed to the server that it has not yet seen
// answered (the SDK writes one whole message per Write).
type LockedWriter struct {
	mu       sync.Mutex
	w        io.Writer
	tracking bool
	open     map[jsonrpc.ID]bool
	answered chan struct{} // a request was answered or cancelled (capacity 1)
}

// NewLockedWriter serialises the writes to w.
func NewLockedWriter(w io.Writer) *LockedWriter { return &LockedWriter{w: w} }

func (l *LockedWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.tracking && len(l.open) > 0 {
		if msg, err := jsonrpc.DecodeMessage(bytes.TrimSpace(p)); err == nil {
			if r, ok := msg.(*jsonrpc.Response); ok {
				l.closeLocked(r.ID)
			}
		}
	}
	return l.w.Write(p)
}

// Close leaves the underlying writer open.
func (l *LockedWriter) Close() error { return nil }

func (l *LockedWriter) track() {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.tracking, l.open, l.answered = true, map[jsonrpc.ID]bool{}, make(chan struct{}, 1)
}

// passed notes the requests of a line handed to the server, and the
// requests a notifications/cancelled among them withdraws (they may get no
// answer).
func (l *LockedWriter) passed(msgs []jsonrpc.Message) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if !l.tracking {
		return
	}
	for _, m := range msgs {
		req, ok := m.(*jsonrpc.Request)
		switch {
		case !ok:
		case req.IsCall():
			l.open[req.ID] = true
		case req.Method == "notifications/cancelled":
			var p struct {
				RequestID any `json:"requestId"`
			}
			if json.Unmarshal(req.Params, &p) == nil {
				if id, err := jsonrpc.MakeID(p.RequestID); err == nil {
					l.closeLocked(id)
				}
			}
		}
	}
}

func (l *LockedWriter) closeLocked(id jsonrpc.ID) {
	if l.open[id] {
		delete(l.open, id)
		select {
		case l.answered <- struct{}{}:
		default:
		}
	}
}

// settle waits until no request passed is unanswered, at most wait and
// never past ctx.
func (l *LockedWriter) settle(ctx context.Context, wait time.Duration) {
	t := time.NewTimer(wait)
	defer t.Stop()
	for {
		l.mu.Lock()
		n := len(l.open)
		l.mu.Unlock()
		if n == 0 {
			return
		}
		select {
		case <-l.answered:
		case <-t.C:
			return
		case <-ctx.Done():
			return
		}
	}
}
