package netguard

import (
	"context"
	"net"
	"net/netip"
	"net/url"
	"strconv"
	"strings"
	"sync/atomic"
)

// Target is one admitted url with its opt-in. Only (*Guard).Admit makes a
// usable one; host's http, sse and websocket constructors take a *Target, and
// the guard refuses (E568) one it did not admit itself.
type Target struct {
	scheme    string // http | https | ws | wss
	transport string // http | sse | websocket
	local     bool   // allow_local_endpoint, for this exact host:port
	secure    bool   // https or wss
	websocket bool   // ws or wss
	host      hostForm
	port      uint16
	url       string // the url to connect to, as authored (a fully qualified host without its dot)
	shown     string // the url for reports: no userinfo, query or fragment

	guard   *Guard
	refusal atomic.Pointer[Error] // the first refusal met while connecting
}

// URL returns the admitted url, as authored (for the SDK transport's Endpoint
// or websocket.Dial); a fully qualified host ("mcp.example.com.") is given
// without its trailing dot, the same host under the Host header servers
// expect.
func (t *Target) URL() string { return t.url }

// Redacted returns the url without query or fragment, for reports and logs.
func (t *Target) Redacted() string { return t.shown }

// Transport returns the transport the url was admitted for.
func (t *Target) Transport() string { return t.transport }

// AllowLocal reports whether the target carries the allow_local_endpoint opt-in.
func (t *Target) AllowLocal() bool { return t.local }

// HostPort returns the admitted host:port, the exact scope of the opt-in.
func (t *Target) HostPort() string {
	return net.JoinHostPort(t.hostString(), strconv.Itoa(int(t.port)))
}

func (t *Target) hostString() string {
	if t.host.literal.IsValid() {
		return t.host.literal.String()
	}
	return t.host.name
}

// Refusal returns the first refusal the guard recorded while connecting this
// target (dial, redirect, scope or message bound), or nil. The SDK transports
// do not always keep the cause of a failed read or request (the legacy SSE
// client formats it with %v; a broken stream only closes the session), so
// host reads the typed reason from here when the SDK's error has lost it.
func (t *Target) Refusal() *Error { return t.refusal.Load() }

// note records the first refusal, reports it to the observer the request's
// context carries (WithRefusalNote), and returns it.
func (t *Target) note(ctx context.Context, e *Error) *Error {
	t.refusal.CompareAndSwap(nil, e)
	if f, ok := ctx.Value(refusalNoteKey{}).(func(*Error)); ok && f != nil {
		f(e)
	}
	return e
}

// refusalNoteKey carries a caller's refusal observer in a context.
type refusalNoteKey struct{}

// WithRefusalNote returns ctx carrying note: every refusal the guard meets
// for a request made with ctx (or a stream opened with it) — its dial, a
// redirect, its scope, the message bound on its response — is also passed
// to note. A caller whose SDK transport drops the typed cause (a broken
// response stream reads as "request terminated", a broken legacy SSE stream
// only ends the session) classifies its own failure from what note saw,
// which, unlike Target.Refusal, belongs to that request alone. note must
// not block; it may be called more than once.
func WithRefusalNote(ctx context.Context, note func(*Error)) context.Context {
	return context.WithValue(ctx, refusalNoteKey{}, note)
}

// httpScheme is the scheme requests carry on the wire (coder/websocket turns
// ws into http and wss into https for the handshake).
func (t *Target) httpScheme() string {
	if t.secure {
		return "https"
	}
	return "http"
}

// inScope reports whether a request url is on the admitted origin: same
// scheme (ws ≡ http, wss ≡ https), host and port; never userinfo.
func (t *Target) inScope(u *url.URL) bool {
	if u == nil || u.User != nil {
		return false
	}
	scheme := strings.ToLower(u.Scheme)
	if scheme != t.scheme && scheme != t.httpScheme() {
		return false
	}
	port := u.Port()
	if port == "" {
		port = "80"
		if scheme == "https" || scheme == "wss" {
			port = "443"
		}
	}
	return t.sameHostPort(u.Hostname(), port)
}

// sameHostPort compares a host (no brackets) and port with the target's. A
// name and its fully qualified spelling (one trailing dot) are one host.
func (t *Target) sameHostPort(host, port string) bool {
	if port != strconv.Itoa(int(t.port)) {
		return false
	}
	if t.host.literal.IsValid() {
		a, err := netip.ParseAddr(host)
		return err == nil && a == t.host.literal
	}
	return strings.EqualFold(bare(host), bare(t.host.name))
}

// SameOrigin reports whether u (a url as a refusal reports it) is at t's
// scheme and host:port. A nil Target has no origin.
func (t *Target) SameOrigin(u string) bool {
	if t == nil || u == "" {
		return false
	}
	a, errA := url.Parse(u)
	b, errB := url.Parse(t.shown)
	return errA == nil && errB == nil && strings.EqualFold(a.Scheme, b.Scheme) && strings.EqualFold(a.Host, b.Host)
}
