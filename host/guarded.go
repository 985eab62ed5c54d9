package host

import (
	"bytes"
	"context"
	"io"
	"net/http"
	"sync/atomic"

	"github.com/coder/websocket"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/relavium/relavium/host/direct"
	"github.com/relavium/relavium/host/headers"
	"github.com/relavium/relavium/host/netguard"
	"github.com/relavium/relavium/host/stream"
)

// networkTransport builds an http, sse or websocket transport. This is the
// only place host reaches the network, and it can only do so through the
// guard: the http client and the websocket dial come from
// Options.Guard for a Target that guard admitted (the guard refuses any
// other). There is no http.Client anywhere else in host.
func (c *conn) networkTransport() (mcp.Transport, error) {
	g, t := c.h.opts.Guard, c.srv.Target
	switch c.srv.Transport {
	case TransportHTTP:
		client := c.guardedClient(g, t)
		// Not wrapped: the SDK feeds the negotiated protocol version and the
		// standalone GET stream to its own connection type through an
		// unexported hook a wrapper would hide. Progress comes through the
		// SDK's notification handler instead (see onProgress).
		return &mcp.StreamableClientTransport{
			Endpoint:     t.URL(),
			HTTPClient:   client,
			MaxEventSize: netguard.MessageLimit,
			OAuthHandler: c.srv.OAuth,
		}, nil
	case TransportSSE:
		c.observed = true
		return &sseTransport{c: c, inner: &mcp.SSEClientTransport{
			Endpoint:     t.URL(),
			HTTPClient:   c.guardedClient(g, t),
			MaxEventSize: netguard.MessageLimit,
		}}, nil
	default: // websocket
		c.observed = true
		return c.rec.Transport(&wsTransport{c: c, g: g, t: t}), nil
	}
}

// guardedClient returns the guard's client for the target and remembers it
// so shutdown can close its idle connections.
func (c *conn) guardedClient(g *netguard.Guard, t *netguard.Target) *http.Client {
	gc := g.HTTPClient(t)
	// The guard's transport does every byte of I/O; cancelCounter only
	// looks at what the SDK posts.
	client := &http.Client{Transport: c.rec.RoundTripper(cancelCounter{inner: liveness{inner: headers.With(c.rec.Exchanges(gc.Transport), c.headers, &c.authStatus), c: c}, c: c}), CheckRedirect: gc.CheckRedirect, Jar: gc.Jar}
	c.mu.Lock()
	c.httpClient = client
	c.mu.Unlock()
	return client
}

// sseTransport ties the legacy SSE stream to the server's lifetime, not to
// the connect context: the SDK holds its hanging GET with the context given
// to Connect, so a connect deadline would otherwise end the session the
// moment it elapsed. The connect deadline still bounds the dial.
type sseTransport struct {
	c     *conn
	inner *mcp.SSEClientTransport
}

func (t *sseTransport) Connect(ctx context.Context) (mcp.Connection, error) {
	type result struct {
		conn mcp.Connection
		err  error
	}
	done := make(chan result, 1)
	go func() {
		// The hanging GET carries the server's stream trap: a refusal on it
		// (the message bound) is what ends the session.
		conn, err := t.inner.Connect(netguard.WithRefusalNote(t.c.ctx, t.c.stream.note))
		done <- result{conn, err}
	}()
	select {
	case r := <-done:
		if r.err != nil {
			return nil, r.err
		}
		return &observedConn{Connection: r.conn, c: t.c}, nil
	case <-ctx.Done():
		t.c.cancel(context.Cause(ctx)) // ends the pending GET
		if r := <-done; r.conn != nil {
			_ = r.conn.Close()
		}
		return nil, context.Cause(ctx)
	}
}

// wsMaxMessage bounds one websocket message (the same bound as a stdio
// frame: a websocket has the application bounds only, docs/mcp-integration.md
// "Discovery and result ingress bounds").
const wsMaxMessage = mcp.DefaultMaxLineLength

// wsTransport dials a local websocket server through the guard; one
// websocket message carries one JSON-RPC message.
type wsTransport struct {
	c *conn
	g *netguard.Guard
	t *netguard.Target
}

func (t *wsTransport) Connect(ctx context.Context) (mcp.Connection, error) {
	// The handshake is an exchange of the network view (its timings, the
	// header names sent; never a value).
	ctx, traced := t.c.rec.Trace(ctx, http.MethodGet, t.t.URL())
	sent := t.c.headers.Clone()
	ws, resp, err := t.g.DialWebsocket(ctx, t.t, &websocket.DialOptions{Subprotocols: []string{"mcp"}, HTTPHeader: sent})
	traced(sent, resp, err, "")
	if resp != nil && resp.Body != nil {
		_ = resp.Body.Close()
	}
	if resp != nil && len(t.c.headers) > 0 && (resp.StatusCode == http.StatusUnauthorized || resp.StatusCode == http.StatusForbidden) {
		t.c.authStatus.Store(int32(resp.StatusCode)) // the handshake's answer to the static headers
	}
	if err != nil {
		return nil, err
	}
	ws.SetReadLimit(wsMaxMessage)
	t.c.mu.Lock()
	t.c.everLive = true
	t.c.mu.Unlock()
	return &observedConn{Connection: stream.NewWSConn(ws), c: t.c}, nil
}

// cancelCounter counts the notifications/cancelled POSTed to a Streamable
// HTTP or SSE server (see conn.cancelsSent): the SDK connection of
// Streamable HTTP cannot be wrapped, so the count is taken from the body
// of each POST (the SDK's bodies are in memory; GetBody returns a copy).
type cancelCounter struct {
	inner http.RoundTripper
	c     *conn
}

func (cc cancelCounter) RoundTrip(req *http.Request) (*http.Response, error) {
	isCancel := false
	if req.Method == http.MethodPost && req.GetBody != nil && req.ContentLength > 0 && req.ContentLength < 4096 && cc.c.srv.Transport == TransportHTTP {
		if body, err := req.GetBody(); err == nil {
			b, _ := io.ReadAll(io.LimitReader(body, 4096))
			_ = body.Close()
			isCancel = bytes.Contains(b, []byte(`"`+direct.MethodCancelled+`"`))
		}
	}
	resp, err := cc.inner.RoundTrip(req)
	if isCancel && err == nil {
		cc.c.cancelsSent.Add(1)
	}
	return resp, err
}

// CloseIdleConnections reaches the guard's connection pool.
func (cc cancelCounter) CloseIdleConnections() {
	if ci, ok := cc.inner.(interface{ CloseIdleConnections() }); ok {
		ci.CloseIdleConnections()
	}
}

// refusalTrap keeps the first refusal the guard met for the requests of one
// context (netguard.WithRefusalNote). The SDK transports do not keep the
// typed cause of a response they could not read (Streamable HTTP reports
// "request terminated without response", the legacy SSE stream just ends),
// so a call or a stream learns from its trap that the guard refused it.
type refusalTrap struct {
	first atomic.Pointer[netguard.Error]
}

func (r *refusalTrap) note(e *netguard.Error) { r.first.CompareAndSwap(nil, e) }

// refused returns the trapped refusal, or nil.
func (r *refusalTrap) refused() *netguard.Error { return r.first.Load() }

type trapKey struct{}

// trapRefusals returns ctx carrying a fresh trap for a network server's
// requests made with it (a stdio or in-memory server has no guard).
func (c *conn) trapRefusals(ctx context.Context) context.Context {
	if c.srv.Target == nil {
		return ctx
	}
	tr := &refusalTrap{}
	return context.WithValue(netguard.WithRefusalNote(ctx, tr.note), trapKey{}, tr)
}

// trappedRefusal is the refusal the guard met for ctx's requests, or nil.
func trappedRefusal(ctx context.Context) *netguard.Error {
	if tr, ok := ctx.Value(trapKey{}).(*refusalTrap); ok {
		return tr.refused()
	}
	return nil
}
