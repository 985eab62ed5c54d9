package host

import (
	"context"
	"errors"
	"io"
	"net/http"
	"strings"
	"syscall"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"

	"github.com/relavium/relavium/engine"
	"github.com/relavium/relavium/fault"
	"github.com/relavium/relavium/host/era"
	"github.com/relavium/relavium/host/failure"
)

// A network server that goes away is seen at once, not after the SDK's
// retries of its stream: the first request the server refuses to connect
// (the server is down) or answers 404 for the session it gave (it no
// longer knows it: restarted, or the session expired) ends the session.
// watch (conn_end.go) then marks the server failed, its calls in flight
// fail with this failure's code, and a network server is dialled again
// with backoff when the host reconnects (reconnect.go).

// liveness watches the guard's HTTP exchanges of one server.
type liveness struct {
	inner http.RoundTripper
	c     *conn
}

func (l liveness) RoundTrip(req *http.Request) (*http.Response, error) {
	resp, err := l.inner.RoundTrip(req)
	switch {
	case err != nil && errors.Is(err, syscall.ECONNREFUSED):
		l.c.noteLost(failure.CodeConnectionLost, "refused the connection: the server is not running at its url any more", nil)
	case err != nil && req.Context().Err() == nil:
		// The connection broke (EOF, reset) with no one calling it off:
		// is the server still there?
		l.c.probe()
	case err == nil && resp.StatusCode == http.StatusNotFound && req.Header.Get("Mcp-Session-Id") != "":
		l.c.noteLost(failure.CodeSessionGone, "no longer knows the session (HTTP 404 for its Mcp-Session-Id: the server restarted or the session expired)", nil)
	case err == nil:
		resp.Body = &brokenBody{ReadCloser: resp.Body, req: req, c: l.c}
	}
	return resp, err
}

// brokenBody notices a response stream (a POST's answer, the standalone
// GET stream) that breaks rather than ends: the server may have died.
type brokenBody struct {
	io.ReadCloser
	req *http.Request
	c   *conn
}

func (b *brokenBody) Read(p []byte) (int, error) {
	n, err := b.ReadCloser.Read(p)
	if err != nil && !errors.Is(err, io.EOF) && b.req.Context().Err() == nil {
		b.c.probe()
	}
	return n, err
}

// probe asks a live Streamable HTTP server whose connection broke whether
// it is still there, once at a time, without blocking the caller: one ping
// POSTed on the session through the guard's client, beside the SDK (whose
// own requests may be held up by the broken one). A server that is gone
// refuses the connection, one that restarted answers 404 for the session:
// liveness then ends the session. Any other answer leaves it be.
func (c *conn) probe() {
	c.mu.Lock()
	defer c.mu.Unlock()
	client := c.httpClient
	if c.refreshEnded || c.probing || c.state != engine.StateReady || c.fail != nil || client == nil || c.srv.Transport != TransportHTTP {
		return
	}
	c.probing = true
	c.refreshes.Add(1)
	go func() {
		defer c.refreshes.Done()
		_ = c.pingDirect(client)
		c.mu.Lock()
		c.probing = false
		c.mu.Unlock()
	}()
}

// pingDirect reports whether the server answered at all (any HTTP
// status but a 404 for the session).
func (c *conn) pingDirect(client *http.Client) bool {
	cs := c.session()
	if cs == nil {
		return false
	}
	ctx, cancel := context.WithTimeout(c.ctx, 5*time.Second)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, c.srv.Target.URL(),
		strings.NewReader(`{"jsonrpc":"2.0","id":"relavium-liveness","method":"ping"}`))
	if err != nil {
		return false
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	if id := cs.ID(); id != "" {
		req.Header.Set("Mcp-Session-Id", id)
	}
	if v := era.Negotiated(cs); v != "" {
		req.Header.Set("Mcp-Protocol-Version", v)
	}
	resp, err := client.Do(req)
	if err != nil {
		return false
	}
	_ = resp.Body.Close()
	return resp.StatusCode != http.StatusNotFound
}

// CloseIdleConnections reaches the guard's connection pool.
func (l liveness) CloseIdleConnections() {
	if ci, ok := l.inner.(interface{ CloseIdleConnections() }); ok {
		ci.CloseIdleConnections()
	}
}

// noteLost ends a live session for the reason given: watch takes it from
// here. Before the server is ready (a refusal during connect is the
// connect's own failure) and after it ended, nothing happens.
func (c *conn) noteLost(code fault.Code, msg string, cause error) {
	c.mu.Lock()
	live := c.state == engine.StateReady && c.fail == nil
	c.mu.Unlock()
	if !live {
		return
	}
	e := c.failure0(code, msg, cause)
	select {
	case c.lost <- e:
		c.lostWhy.CompareAndSwap(nil, e)
	default: // one reason is enough
	}
}

// probeLost asks a Streamable HTTP server whose call just failed for a
// reason the transport did not name whether it is still there (pingDirect)
// and returns the session's end when it is gone (nil when it answered, or
// is another transport), waiting at most d.
func (c *conn) probeLost(d time.Duration) *failure.Error {
	c.mu.Lock()
	client := c.httpClient
	c.mu.Unlock()
	if c.srv.Transport != TransportHTTP || client == nil {
		return nil
	}
	if c.pingDirect(client) {
		return nil // it answered: the call failed for another reason
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-c.ctx.Done():
	case <-t.C:
		return nil
	}
	return c.lostWhy.Load() // nil when the session ended for another reason
}

// isRPCError reports whether err is the server's own JSON-RPC error answer
// (the server is there: nothing to probe). The SDK's own local errors
// (-32003 client closing, -32004 server closing, -32005 rejected by the
// transport) are not answers.
func isRPCError(err error) bool {
	var re *jsonrpc.Error
	return errors.As(err, &re) && (re.Code > -32003 || re.Code < -32005)
}
