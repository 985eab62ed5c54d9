package discovery

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"mime"
	"net/http"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

const methodListTools = "tools/list"

// maxCaptureBytes bounds what the HTTP capture buffers for one message; the
// network guard's 4 MiB message bound normally applies first.
const maxCaptureBytes = 32 << 20

// Capture records the raw JSON result of every tools/list request issued
// through a SessionLister, so discovery reads each page exactly as the
// server sent it. Other traffic passes through untouched.
//
// Requests are matched by a context value the lister attaches, never by
// guessing: the SDK threads the caller's context to Connection.Write and
// to the HTTP request, so concurrent calls cannot be confused.
type Capture struct {
	mu      sync.Mutex
	pending map[jsonrpc.ID]*slot
}

// WrapTransport returns a transport that feeds c. For Streamable HTTP the
// HTTP client is wrapped instead of the connection, because the SDK's
// streamable connection receives session updates (protocol version header,
// standalone stream) through an unexported interface a wrapper would hide;
// every other transport (stdio, SSE, in-memory, custom) is wrapped at the
// connection, and an mcp.IOTransport's reader too (see Reader). t itself is
// not modified.
func WrapTransport(t mcp.Transport) (mcp.Transport, *Capture) {
	c := &Capture{pending: map[jsonrpc.ID]*slot{}}
	if st, ok := t.(*mcp.StreamableClientTransport); ok {
		cp := *st
		cp.HTTPClient = c.WrapHTTPClient(st.HTTPClient)
		return &cp, c
	}
	if it, ok := t.(*mcp.IOTransport); ok {
		// A newline-delimited stream: the page is also taken off the
		// bytes, before the SDK decodes them (Reader).
		cp := *it
		cp.Reader = c.Reader(it.Reader)
		t = &cp
	}
	return &captureTransport{inner: t, c: c}, c
}

// WrapHTTPClient returns a copy of hc (http.DefaultClient when nil) whose
// transport feeds c. It is what WrapTransport uses for Streamable HTTP.
func (c *Capture) WrapHTTPClient(hc *http.Client) *http.Client {
	if hc == nil {
		hc = http.DefaultClient
	}
	cp := *hc
	base := hc.Transport
	if base == nil {
		base = http.DefaultTransport
	}
	cp.Transport = &captureRoundTripper{base: base}
	return &cp
}

// slot receives the raw result of one tools/list request.
type slot struct {
	// stub asks a connection-level capture to hand the SDK an empty page in
	// place of the result it captured (see stubPage).
	stub   bool
	mu     sync.Mutex
	id     jsonrpc.ID
	hasID  bool
	done   bool
	result json.RawMessage
	rpcErr error
}

type slotKey struct{}

func withSlot(ctx context.Context, s *slot) context.Context {
	return context.WithValue(ctx, slotKey{}, s)
}

func slotFrom(ctx context.Context) *slot {
	s, _ := ctx.Value(slotKey{}).(*slot)
	return s
}

// expect records the request id; it reports false when the slot already
// belongs to another request (a second tools/list under the same context).
func (s *slot) expect(id jsonrpc.ID) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.hasID {
		return s.id == id
	}
	s.id, s.hasID = id, true
	return true
}

func (s *slot) expected() (jsonrpc.ID, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.id, s.hasID
}

func (s *slot) deliver(result json.RawMessage, rpcErr error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if !s.done {
		s.done, s.result, s.rpcErr = true, result, rpcErr
	}
}

func (s *slot) get() (json.RawMessage, error, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.result, s.rpcErr, s.done
}

func (c *Capture) register(id jsonrpc.ID, s *slot) {
	c.mu.Lock()
	c.pending[id] = s
	c.mu.Unlock()
}

func (c *Capture) take(id jsonrpc.ID) *slot {
	c.mu.Lock()
	defer c.mu.Unlock()
	s := c.pending[id]
	delete(c.pending, id)
	return s
}

// forget drops a slot whose request was abandoned (cancelled, failed).
func (c *Capture) forget(s *slot) {
	if id, ok := s.expected(); ok {
		c.mu.Lock()
		if c.pending[id] == s {
			delete(c.pending, id)
		}
		c.mu.Unlock()
	}
}

// captureTransport wraps a transport's connection.
type captureTransport struct {
	inner mcp.Transport
	c     *Capture
}

func (t *captureTransport) Connect(ctx context.Context) (mcp.Connection, error) {
	conn, err := t.inner.Connect(ctx)
	if err != nil {
		return nil, err
	}
	return &captureConn{Connection: conn, c: t.c}, nil
}

type captureConn struct {
	mcp.Connection
	c *Capture
}

func (cc *captureConn) Write(ctx context.Context, msg jsonrpc.Message) error {
	if s := slotFrom(ctx); s != nil {
		if r, ok := msg.(*jsonrpc.Request); ok && r.IsCall() && r.Method == methodListTools && s.expect(r.ID) {
			cc.c.register(r.ID, s)
		}
	}
	return cc.Connection.Write(ctx, msg)
}

func (cc *captureConn) Read(ctx context.Context) (jsonrpc.Message, error) {
	msg, err := cc.Connection.Read(ctx)
	if r, ok := msg.(*jsonrpc.Response); ok && err == nil {
		if s := cc.c.take(r.ID); s != nil {
			s.deliver(r.Result, r.Error)
			if s.stub && r.Error == nil {
				r.Result = json.RawMessage(stubPage)
			}
		}
	}
	return msg, err
}

// stubPage is what the SDK decodes in place of a captured tools/list page.
// Discovery reads the page from the capture and ignores the SDK's typed
// copy, so decoding and re-validating a megabyte of schemas a second time
// would only add latency (about as much as the whole discovery budget).
// Only the connection-level capture swaps the page; the Streamable HTTP tee
// passes the body through unchanged.
const stubPage = `{"tools":[]}`

// captureRoundTripper tees the response of a tools/list POST (and of any
// stream the SDK resumes for it, which carries the same context).
type captureRoundTripper struct {
	base http.RoundTripper
}

func (rt *captureRoundTripper) RoundTrip(req *http.Request) (*http.Response, error) {
	s := slotFrom(req.Context())
	if s == nil {
		return rt.base.RoundTrip(req)
	}
	if req.Method == http.MethodPost {
		if !rt.claim(req, s) {
			return rt.base.RoundTrip(req)
		}
	} else if _, ok := s.expected(); !ok {
		return rt.base.RoundTrip(req)
	}
	resp, err := rt.base.RoundTrip(req)
	if err != nil || resp == nil || resp.Body == nil {
		return resp, err
	}
	mt, _, _ := mime.ParseMediaType(resp.Header.Get("Content-Type"))
	switch mt {
	case "application/json":
		resp.Body = &teeBody{rc: resp.Body, s: s}
	case "text/event-stream":
		resp.Body = &teeBody{rc: resp.Body, s: s, sse: true}
	}
	return resp, nil
}

// claim reports whether req's body is a tools/list call and records its id.
func (rt *captureRoundTripper) claim(req *http.Request, s *slot) bool {
	if req.GetBody == nil {
		return false
	}
	body, err := req.GetBody()
	if err != nil {
		return false
	}
	defer body.Close()
	data, err := io.ReadAll(io.LimitReader(body, 1<<20))
	if err != nil {
		return false
	}
	msg, err := jsonrpc.DecodeMessage(data)
	if err != nil {
		return false
	}
	r, ok := msg.(*jsonrpc.Request)
	return ok && r.IsCall() && r.Method == methodListTools && s.expect(r.ID)
}

// teeBody passes the body through to the SDK and, on the side, finds the
// JSON-RPC response to the slot's request: the whole body for
// application/json, each event's data for text/event-stream (lines end at
// LF, CRLF or a lone CR; a blank line ends an event).
type teeBody struct {
	rc       io.ReadCloser
	s        *slot
	sse      bool
	buf      []byte // JSON body, or the current SSE line
	data     []byte // SSE: the current event's data
	afterCR  bool
	overflow bool
}

func (t *teeBody) Read(p []byte) (int, error) {
	n, err := t.rc.Read(p)
	if n > 0 {
		t.feed(p[:n])
	}
	if err == io.EOF && !t.sse {
		t.dispatch(t.buf)
		t.buf = nil
	}
	return n, err
}

func (t *teeBody) Close() error { return t.rc.Close() }

func (t *teeBody) feed(p []byte) {
	if !t.sse {
		if len(t.buf)+len(p) > maxCaptureBytes {
			t.overflow = true
			t.buf = nil
		}
		if !t.overflow {
			t.buf = append(t.buf, p...)
		}
		return
	}
	for _, c := range p {
		if t.afterCR && c == '\n' {
			t.afterCR = false
			continue
		}
		t.afterCR = false
		if c == '\r' || c == '\n' {
			t.afterCR = c == '\r'
			t.line()
			continue
		}
		if len(t.buf) < maxCaptureBytes {
			t.buf = append(t.buf, c)
		} else {
			t.overflow = true
		}
	}
}

// line handles one complete SSE line in t.buf.
func (t *teeBody) line() {
	l := t.buf
	t.buf = t.buf[:0]
	if len(l) == 0 {
		if len(t.data) > 0 && !t.overflow {
			t.dispatch(t.data)
		}
		t.data, t.overflow = t.data[:0], false
		return
	}
	if v, ok := bytes.CutPrefix(l, []byte("data:")); ok {
		v, _ = bytes.CutPrefix(v, []byte(" "))
		if len(t.data) > 0 {
			t.data = append(t.data, '\n')
		}
		if len(t.data)+len(v) > maxCaptureBytes {
			t.overflow = true
			return
		}
		t.data = append(t.data, v...)
	}
}

func (t *teeBody) dispatch(data []byte) {
	if len(data) == 0 {
		return
	}
	id, ok := t.s.expected()
	if !ok {
		return
	}
	msg, err := jsonrpc.DecodeMessage(data)
	if err != nil {
		return
	}
	if r, ok := msg.(*jsonrpc.Response); ok && r.ID == id {
		t.s.deliver(bytes.Clone(r.Result), r.Error)
	}
}
