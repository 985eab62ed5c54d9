package inbound

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"sync"

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
}

// NewStdioFilter reads the client's lines from in and answers the refused
// ones on out (the writer the server's own answers go through).
func NewStdioFilter(in io.Reader, out *LockedWriter) *StdioFilter {
	return &StdioFilter{in: bufio.NewReaderSize(in, stdioReadChunk), out: out}
}

// Read hands the SDK the next checked line.
func (f *StdioFilter) Read(p []byte) (int, error) {
	for len(f.pending) == 0 {
		if f.err != nil {
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
		if refusal, rpcCode = checkMessage(trimmed); refusal == nil {
			f.pending = append(trimmed, '\n') // within f.line, which waits until the SDK has read it
			return
		}
	}
	_, _ = f.out.Write(append(ErrorDoc(rpcCode, refusal), '\n'))
}

// checkMessage accepts one JSON-RPC message, or a non-empty batch of them,
// as the SDK's stdio transport reads them; otherwise the refusal and its
// JSON-RPC code.
func checkMessage(line []byte) (*fault.Error, int) {
	if !json.Valid(line) {
		return &fault.Error{ErrCode: CodeStdioNotMessage, Msg: "the line is not JSON; send one JSON-RPC message per line"}, ParseError
	}
	msgs := []json.RawMessage{line}
	if line[0] == '[' {
		msgs = nil
		if json.Unmarshal(line, &msgs) != nil || len(msgs) == 0 {
			return &fault.Error{ErrCode: CodeStdioNotMessage, Msg: "the line is an empty batch or not a batch of JSON-RPC messages"}, InvalidRequest
		}
	}
	for _, m := range msgs {
		if _, err := jsonrpc.DecodeMessage(m); err != nil {
			return &fault.Error{ErrCode: CodeStdioNotMessage, Msg: "the line is JSON but not a JSON-RPC 2.0 request, notification or response"}, InvalidRequest
		}
	}
	return nil, 0
}

// LockedWriter serialises whole writes to the process's stdout, which stays
// open when the session closes.
type LockedWriter struct {
	mu sync.Mutex
	w  io.Writer
}

// NewLockedWriter serialises the writes to w.
func NewLockedWriter(w io.Writer) *LockedWriter { return &LockedWriter{w: w} }

func (l *LockedWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Write(p)
}

// Close leaves the underlying writer open.
func (l *LockedWriter) Close() error { return nil }
