package wire

import (
	"bytes"
	"context"
	"io"
	"mime"
	"net/http"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// lineTap splits a newline-delimited stream into messages, holding at
// most MaxMessage bytes of one line (a longer line is recorded by size).
type lineTap struct {
	r    *Recorder
	dir  string
	buf  []byte
	size int
}

func (t *lineTap) feed(p []byte) {
	for len(p) > 0 {
		i := bytes.IndexByte(p, '\n')
		chunk := p
		if i >= 0 {
			chunk = p[:i]
		}
		t.size += len(chunk)
		if t.size <= MaxMessage {
			t.buf = append(t.buf, chunk...)
		}
		if i < 0 {
			return
		}
		t.flush()
		p = p[i+1:]
	}
}

func (t *lineTap) flush() {
	switch {
	case t.size > MaxMessage:
		t.r.hub.add(Record{Time: t.r.hub.now().UTC(), Server: t.r.server, Dir: t.dir, Kind: KindInvalid, Size: t.size, Truncated: true})
	case len(trimSpace(t.buf)) > 0:
		t.r.Observe(t.dir, t.buf)
	}
	t.buf, t.size = t.buf[:0], 0
}

// Lines taps a newline-delimited stream read from a server (a stdio
// child's stdout): every byte passes through unchanged.
func (r *Recorder) Lines(rc io.ReadCloser) io.ReadCloser {
	if r == nil {
		return rc
	}
	return &lineReader{rc: rc, tap: &lineTap{r: r, dir: Recv}}
}

type lineReader struct {
	rc  io.ReadCloser
	tap *lineTap
}

func (l *lineReader) Read(p []byte) (int, error) {
	n, err := l.rc.Read(p)
	if n > 0 {
		l.tap.feed(p[:n])
	}
	return n, err
}

func (l *lineReader) Close() error { return l.rc.Close() }

// LineWriter taps a newline-delimited stream written to a server (a stdio
// child's stdin).
func (r *Recorder) LineWriter(wc io.WriteCloser) io.WriteCloser {
	if r == nil {
		return wc
	}
	return &lineWriter{wc: wc, tap: &lineTap{r: r, dir: Send}}
}

type lineWriter struct {
	wc  io.WriteCloser
	tap *lineTap
}

// Write records p before writing it: a server may answer before Write
// returns, and the request must be recorded before its response.
func (l *lineWriter) Write(p []byte) (int, error) {
	l.tap.feed(p)
	return l.wc.Write(p)
}

func (l *lineWriter) Close() error { return l.wc.Close() }

// RoundTripper taps an HTTP client's JSON-RPC bodies: what it posts, and
// each JSON body or SSE event it receives. Headers are never recorded.
func (r *Recorder) RoundTripper(base http.RoundTripper) http.RoundTripper {
	if r == nil {
		return base
	}
	return &roundTripper{r: r, base: base}
}

type roundTripper struct {
	r    *Recorder
	base http.RoundTripper
}

func (rt *roundTripper) RoundTrip(req *http.Request) (*http.Response, error) {
	if req.Method == http.MethodPost && req.GetBody != nil {
		if body, err := req.GetBody(); err == nil {
			data, _ := io.ReadAll(io.LimitReader(body, MaxMessage+1))
			body.Close()
			rt.r.observeBatch(Send, data)
		}
	}
	resp, err := rt.base.RoundTrip(req)
	if err != nil || resp == nil || resp.Body == nil {
		return resp, err
	}
	mt, _, _ := mime.ParseMediaType(resp.Header.Get("Content-Type"))
	switch mt {
	case "application/json":
		resp.Body = &bodyTap{rc: resp.Body, r: rt.r}
	case "text/event-stream":
		resp.Body = &bodyTap{rc: resp.Body, r: rt.r, sse: true}
	}
	return resp, nil
}

// bodyTap passes a response body through and records its messages: the
// whole body (JSON) at its end, or each SSE event's data.
type bodyTap struct {
	rc    io.ReadCloser
	r     *Recorder
	sse   bool
	buf   []byte // JSON body, or the current SSE line
	data  []byte // SSE: the current event's data
	over  bool
	ended bool
}

func (b *bodyTap) Read(p []byte) (int, error) {
	n, err := b.rc.Read(p)
	if n > 0 {
		b.feed(p[:n])
	}
	if err == io.EOF {
		b.end()
	}
	return n, err
}

func (b *bodyTap) Close() error {
	b.end()
	return b.rc.Close()
}

func (b *bodyTap) end() {
	if b.ended {
		return
	}
	b.ended = true
	if !b.sse && !b.over && len(b.buf) > 0 {
		b.r.observeBatch(Recv, b.buf)
	}
}

func (b *bodyTap) feed(p []byte) {
	if !b.sse {
		if len(b.buf)+len(p) > MaxMessage {
			b.over, b.buf = true, nil
		}
		if !b.over {
			b.buf = append(b.buf, p...)
		}
		return
	}
	for _, c := range p {
		if c == '\r' {
			continue // CRLF and LF end a line alike
		}
		if c != '\n' {
			if len(b.buf) < MaxMessage {
				b.buf = append(b.buf, c)
			}
			continue
		}
		line := b.buf
		b.buf = b.buf[:0]
		if len(line) == 0 {
			if len(b.data) > 0 {
				b.r.observeBatch(Recv, b.data)
			}
			b.data = b.data[:0]
			continue
		}
		if v, ok := bytes.CutPrefix(line, []byte("data:")); ok {
			v, _ = bytes.CutPrefix(v, []byte(" "))
			if len(b.data) > 0 {
				b.data = append(b.data, '\n')
			}
			if len(b.data)+len(v) <= MaxMessage {
				b.data = append(b.data, v...)
			}
		}
	}
}

// Transport taps a transport at its connection (websocket, in-process).
func (r *Recorder) Transport(t mcp.Transport) mcp.Transport {
	if r == nil {
		return t
	}
	return &transport{inner: t, r: r}
}

type transport struct {
	inner mcp.Transport
	r     *Recorder
}

func (t *transport) Connect(ctx context.Context) (mcp.Connection, error) {
	c, err := t.inner.Connect(ctx)
	if err != nil {
		return nil, err
	}
	return &connection{Connection: c, r: t.r}, nil
}

type connection struct {
	mcp.Connection
	r *Recorder
}

func (c *connection) Read(ctx context.Context) (jsonrpc.Message, error) {
	msg, err := c.Connection.Read(ctx)
	if err == nil {
		if b, eerr := jsonrpc.EncodeMessage(msg); eerr == nil {
			c.r.Observe(Recv, b)
		}
	}
	return msg, err
}

func (c *connection) Write(ctx context.Context, msg jsonrpc.Message) error {
	if b, err := jsonrpc.EncodeMessage(msg); err == nil {
		c.r.Observe(Send, b)
	}
	return c.Connection.Write(ctx, msg)
}
