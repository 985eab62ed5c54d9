package direct

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"io"
	"strconv"
	"sync"
	"sync/atomic"

	fastjson "github.com/segmentio/encoding/json"

	"github.com/relavium/relavium/fault"
	"github.com/relavium/relavium/host/failure"
)

// The load path: what `mcp bench` sends. A load generator must never be the
// bottleneck, and the SDK's client spends more CPU per request than a small
// server does (a decoder with a zeroed 32 KiB buffer per message, a
// goroutine hand-off per answer, a context and a timer per call): on two
// cores it measured itself. So on a stdio connection, which relavium reads
// itself, a load run writes its requests straight to the server's stdin
// (under the same lock as the SDK's writes, a line at a time) with ids of
// its own ("relavium-load-K-I"), and their answers are taken off the byte
// stream before the SDK decodes anything — read in the SDK's reading
// goroutine, classified (JSON-RPC error code, a tool's isError) and
// reported, without a goroutine, a channel or a timer per request. The
// handshake, discovery and everything else stay the SDK's. Load traffic
// bypasses the wire recorder both ways: a recording of a bench holds its
// session, not a hundred thousand calls.

// loadMarker begins every load request's id.
const loadMarker = `"relavium-load-`

// maxLoadLine bounds one load answer held to be read (the raw path's bound
// plus room for the envelope). A longer answer goes on to the SDK, which
// drops an answer to an id it never sent; its request then times out.
const maxLoadLine = maxRawResult + 64<<10

// LoadLines sits on a stdio server's stdout: it passes every line through,
// except, while a load pipe is open, the answers to that pipe's requests.
type LoadLines struct {
	rc   io.ReadCloser
	br   *bufio.Reader
	out  []byte // bytes for the next reader not yet read
	line []byte // a line held while a pipe is open (reused)
	hold bool   // inside a held line
	mid  bool   // inside a line passed through (not at a line start)
	err  error

	open  atomic.Int32 // pipes ever opened (0: every byte passes straight through)
	mu    sync.RWMutex // pipes and seq; an answer is reported under the read lock
	pipes map[uint64]*LoadPipe
	seq   uint64 // the last pipe's number on this connection
}

// NewLoadLines sits on rc, a stdio server's stdout.
func NewLoadLines(rc io.ReadCloser) *LoadLines {
	return &LoadLines{rc: rc, br: bufio.NewReaderSize(rc, 64<<10), pipes: map[uint64]*LoadPipe{}}
}

func (l *LoadLines) Close() error { return l.rc.Close() }

func (l *LoadLines) Read(p []byte) (int, error) {
	for len(l.out) == 0 {
		if l.err != nil {
			return 0, l.err
		}
		l.fill()
	}
	n := copy(p, l.out)
	l.out = l.out[n:]
	return n, nil
}

// fill reads the next chunk and decides what the next reader gets of it.
func (l *LoadLines) fill() {
	chunk, err := l.br.ReadSlice('\n')
	complete := err == nil
	if err != nil && err != bufio.ErrBufferFull {
		l.err = err
	}
	if !l.hold && (l.mid || l.open.Load() == 0) {
		l.out = chunk // valid until the next fill, which comes after it was read
		l.mid = !complete
		return
	}
	if len(l.line)+len(chunk) > maxLoadLine {
		l.out = append(l.line, chunk...)
		l.line, l.hold, l.mid = l.line[:0:0], false, !complete
		return
	}
	l.line = append(l.line, chunk...)
	l.hold = true
	if !complete && l.err == nil {
		return
	}
	l.hold = false
	if !l.take(l.line) {
		l.out = l.line
	}
	l.line = l.line[:0]
}

// take reports whether line answers a request of an open pipe (then
// reported to it, not passed on).
func (l *LoadLines) take(line []byte) bool {
	if !bytes.Contains(line, []byte(loadMarker)) {
		return false
	}
	// One pass (segmentio's decoder, which go-sdk already brings, reads a
	// line in a fraction of encoding/json's time); a result that is not an
	// object, or an isError that is not a boolean, is an invalid answer to
	// the request its id names.
	var m struct {
		ID    json.RawMessage `json:"id"`
		Error *struct {
			Code int64 `json:"code"`
		} `json:"error"`
		Result *struct {
			IsError bool `json:"isError"`
		} `json:"result"`
	}
	err := fastjson.Unmarshal(line, &m)
	if err != nil {
		var id struct {
			ID json.RawMessage `json:"id"`
		}
		if json.Unmarshal(line, &id) != nil {
			return false
		}
		m.ID, m.Error, m.Result = id.ID, nil, nil
	}
	k, i, ok := parseLoadID(m.ID)
	if !ok {
		return false
	}
	l.mu.RLock()
	defer l.mu.RUnlock()
	p := l.pipes[k]
	if p == nil {
		return true // a pipe closed since: its answer is nobody's
	}
	key := ""
	switch {
	case m.Error != nil:
		key = "jsonrpc " + strconv.FormatInt(m.Error.Code, 10)
	case err != nil || m.Result == nil:
		key = "invalid answer"
	case p.tool && m.Result.IsError:
		key = "isError"
	}
	p.answer(i, key)
	return true
}

// parseLoadID reads "relavium-load-K-I".
func parseLoadID(raw json.RawMessage) (k uint64, i int, ok bool) {
	// The id as relavium wrote it: quoted, no escapes (anything else is
	// not one of ours).
	if len(raw) < 2 || raw[0] != '"' || raw[len(raw)-1] != '"' || bytes.IndexByte(raw, '\\') >= 0 {
		return 0, 0, false
	}
	rest, found := bytes.CutPrefix(raw[1:len(raw)-1], []byte(loadMarker[1:]))
	if !found {
		return 0, 0, false
	}
	ks, is, found := bytes.Cut(rest, []byte("-"))
	if !found {
		return 0, 0, false
	}
	k, err := strconv.ParseUint(string(ks), 10, 64)
	if err != nil {
		return 0, 0, false
	}
	n, err := strconv.Atoi(string(is))
	if err != nil || n < 0 {
		return 0, 0, false
	}
	return k, n, true
}

// SharedStdin is a stdio server's stdin, shared by the SDK and the load
// path: each Write (one or more whole lines) goes out whole.
type SharedStdin struct {
	mu sync.Mutex
	wc io.WriteCloser
}

// NewSharedStdin shares wc, a stdio server's stdin.
func NewSharedStdin(wc io.WriteCloser) *SharedStdin { return &SharedStdin{wc: wc} }

// Write sends p (one or more whole lines) whole.
func (w *SharedStdin) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.wc.Write(p)
}

// Close closes the stdin.
func (w *SharedStdin) Close() error { return w.wc.Close() }

// LoadPipe carries one load run's requests of one method to one server
// (see the top of this file). It satisfies loadtest.Pipe; host opens it
// (Host.LoadPipe) through the connection's LoadLines (Open).
type LoadPipe struct {
	life   context.Context // the connection's lifetime
	server string
	lines  *LoadLines
	w      io.Writer
	k      uint64
	tool   bool // tools/call: a result's isError is a failure
	head   []byte
	mid    []byte
	params []json.RawMessage
	answer func(i int, key string)

	mu     sync.Mutex
	buf    []byte
	closed bool
}

// Send writes requests is, in one write.
func (p *LoadPipe) Send(is []int) error {
	if err := p.life.Err(); err != nil {
		return &failure.Error{Base: fault.Base{ErrCode: failure.CodeServerNotReady, Msg: "is not running", Cause: context.Cause(p.life)}, Server: p.server}
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	b := p.buf[:0]
	for _, i := range is {
		b = append(b, p.head...)
		b = strconv.AppendInt(b, int64(i), 10)
		b = append(b, p.mid...)
		b = append(b, p.params[i%len(p.params)]...)
		b = append(b, "}\n"...)
	}
	p.buf = b
	if _, err := p.w.Write(b); err != nil {
		return &failure.Error{Base: fault.Base{ErrCode: failure.CodeServerNotReady, Msg: "stopped reading its requests", Cause: err}, Server: p.server}
	}
	return nil
}

// Cancel tells the server request i is given up, as the SDK tells it of
// its own (notifications/cancelled).
func (p *LoadPipe) Cancel(i int) {
	if p.life.Err() != nil {
		return
	}
	line := `{"jsonrpc":"2.0","method":"` + MethodCancelled + `","params":{"requestId":` + loadMarker +
		strconv.FormatUint(p.k, 10) + "-" + strconv.Itoa(i) + `","reason":"deadline passed (relavium mcp bench)"}}` + "\n"
	_, _ = p.w.Write([]byte(line))
}

// Close ends the pipe's reporting; its late answers are taken off the
// stream and dropped. The connection stays.
func (p *LoadPipe) Close() {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.closed {
		return
	}
	p.closed = true
	p.lines.mu.Lock()
	p.lines.pipes[p.k] = nil // kept (nil) so late answers are still taken off
	p.lines.mu.Unlock()
}

// Open opens a pipe for method writing to w (the connection's
// SharedStdin): request i carries params[i mod len(params)], and answer is
// told how each ended ("" for success; "jsonrpc CODE", "isError" for a
// tool's error, "invalid answer"). life is the connection's lifetime,
// server its name.
func (l *LoadLines) Open(life context.Context, server string, w io.Writer, method string, params []json.RawMessage, answer func(i int, key string)) (*LoadPipe, error) {
	m, err := json.Marshal(method)
	if err != nil {
		return nil, err
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	l.seq++
	k := l.seq
	p := &LoadPipe{life: life, server: server, lines: l, w: w, k: k, tool: method == "tools/call", params: params, answer: answer,
		head: []byte(`{"jsonrpc":"2.0","id":` + loadMarker + strconv.FormatUint(k, 10) + "-"),
		mid:  append(append([]byte(`","method":`), m...), `,"params":`...)}
	l.pipes[k] = p
	l.open.Add(1)
	return p, nil
}
