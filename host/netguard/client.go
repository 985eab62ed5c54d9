package netguard

import (
	"context"
	"crypto/tls"
	"fmt"
	"net"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/relavium/relavium/fault"
)

// HTTPClient returns the only http client host may use for an http or sse
// target (go-sdk StreamableClientTransport.HTTPClient or
// SSEClientTransport.HTTPClient). Every request it makes:
//   - must stay on the admitted scheme://host:port (so the legacy SSE
//     `endpoint` event cannot move the session to another origin), else E567;
//   - dials through the guard: one resolution per dial, every answer
//     range-checked, connect pinned to a validated address, the hostname kept
//     as SNI with TLS verification on; or, when WithProxy names a proxy for
//     the target, the same resolution and range decision and then a
//     connection to the proxy only (CONNECT for https, proxy.go);
//   - gets any 3xx as a typed error (E565) after exactly one request;
//   - has its response body bounded at MessageLimit per message (E566);
//   - gets a response whose Mcp-Session-Id is not 1–MaxSessionIDLen visible
//     ASCII characters as a typed error (E571), before the SDK reads it.
//
// The client has no Timeout (it would kill the long-lived SSE stream); the
// caller's context bounds each request. Each call builds a fresh connection
// pool: take one client per connection and CloseIdleConnections at teardown.
// A Target this guard did not admit yields a client whose every request fails
// with E568.
func (g *Guard) HTTPClient(t *Target) *http.Client {
	if e := g.owns(t, false); e != nil {
		return &http.Client{Transport: refuseAll{e}, CheckRedirect: refuseRedirects}
	}
	rt, e := g.roundTripper(t)
	if e != nil {
		return &http.Client{Transport: refuseAll{e}, CheckRedirect: refuseRedirects}
	}
	return &http.Client{Transport: rt, CheckRedirect: refuseRedirects}
}

// roundTripper builds the guarded transport of one target: direct, or
// through the proxy the guard was given for it (proxy.go).
func (g *Guard) roundTripper(t *Target) (*guardedTransport, *Error) {
	base := &http.Transport{
		Proxy: nil, // direct: the pin is the connection
		DialContext: func(ctx context.Context, network, addr string) (net.Conn, error) {
			return g.dial(ctx, t, network, addr)
		},
		// DialTLSContext stays unset: the transport wraps the pinned conn in
		// TLS with ServerName = the url's host, and verifies the chain.
		TLSClientConfig:        &tls.Config{MinVersion: tls.VersionTLS12, RootCAs: g.roots},
		TLSHandshakeTimeout:    10 * time.Second,
		ForceAttemptHTTP2:      !t.websocket,
		DisableCompression:     true, // the bound counts the bytes on the wire
		MaxIdleConns:           8,
		IdleConnTimeout:        90 * time.Second,
		ExpectContinueTimeout:  time.Second,
		MaxResponseHeaderBytes: 1 << 20,
	}
	if t.websocket {
		// The upgrade needs HTTP/1.1: never negotiate h2.
		base.TLSNextProto = map[string]func(string, *tls.Conn) http.RoundTripper{}
	}
	u, e := g.proxy.proxyFor(t)
	if e != nil {
		return nil, e
	}
	if u != nil {
		g.proxied(base, t, u)
	}
	return &guardedTransport{t: t, base: base, limit: g.limit}, nil
}

// guardedTransport checks the origin of every request, refuses redirects and
// bounds every response body.
type guardedTransport struct {
	t     *Target
	base  *http.Transport
	limit int64
}

func (rt *guardedTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	if !rt.t.inScope(req.URL) {
		closeRequestBody(req)
		return nil, rt.t.note(req.Context(), scopeRefusal(rt.t, "a request to", redactURL(req.URL)))
	}
	resp, err := rt.base.RoundTrip(req)
	if err != nil {
		if e := malformedSessionID(rt.t, err); e != nil {
			return nil, rt.t.note(req.Context(), e)
		}
		return nil, err
	}
	if resp.StatusCode >= 300 && resp.StatusCode < 400 {
		loc := resp.Header.Get("Location")
		_ = resp.Body.Close()
		return nil, rt.t.note(req.Context(), redirectRefusal(rt.t, req.URL, resp.StatusCode, loc))
	}
	if e := checkSessionID(rt.t, resp.Header); e != nil {
		_ = resp.Body.Close()
		return nil, rt.t.note(req.Context(), e)
	}
	if rt.t.websocket && resp.StatusCode == http.StatusSwitchingProtocols {
		return resp, nil // the upgraded stream: websocket has application bounds only
	}
	ct := resp.Header.Get("Content-Type")
	resp.Body = newBoundedBody(resp.Body, ct, rt.limit,
		func() error { return rt.t.note(req.Context(), boundRefusal(rt.t, ct, rt.limit)) },
		func() error { return rt.t.note(req.Context(), depthRefusal(rt.t)) })
	return resp, nil
}

// CloseIdleConnections lets http.Client.CloseIdleConnections reach the pool.
func (rt *guardedTransport) CloseIdleConnections() { rt.base.CloseIdleConnections() }

// refuseAll is the transport of a client for a target the guard did not admit.
type refuseAll struct{ e *Error }

func (r refuseAll) RoundTrip(req *http.Request) (*http.Response, error) {
	closeRequestBody(req)
	return nil, r.e
}

// refuseRedirects backs up the transport's 3xx refusal: http.Client never
// follows a redirect from a guarded client.
func refuseRedirects(req *http.Request, via []*http.Request) error {
	return refusal(CodeRedirect, ReasonRedirect, fault.ExitFailure, "redirect to %s refused", redactURL(req.URL))
}

func redirectRefusal(t *Target, from *url.URL, status int, location string) *Error {
	to := "(no Location header)"
	if location != "" {
		if u, err := from.Parse(location); err == nil {
			to = redactURL(u)
		} else {
			to = fmt.Sprintf("%q", truncate(location, 200))
		}
	}
	e := refusal(CodeRedirect, ReasonRedirect, fault.ExitFailure,
		"%s answered %d %s redirecting to %s; an MCP server is the exact url its author declared, so redirects are refused, not followed",
		t.HostPort(), status, http.StatusText(status), to).at(t.shown, to)
	if location != "" {
		e.Remedy = fmt.Sprintf("if %s is the server you mean, declare that final url instead of %s", to, t.shown)
	} else {
		e.Remedy = "declare the server's final url"
	}
	return e
}

func closeRequestBody(req *http.Request) {
	if req.Body != nil {
		_ = req.Body.Close()
	}
}

// redactURL renders a request url without userinfo, query or fragment.
func redactURL(u *url.URL) string {
	if u == nil {
		return "(no url)"
	}
	return redact(u)
}

func truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return strings.ToValidUTF8(s[:n], "") + "…"
}
