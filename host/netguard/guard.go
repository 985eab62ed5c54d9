package netguard

import (
	"context"
	"crypto/x509"
	"net"
	"net/netip"
)

// MessageLimit is the transport bound: one message on an http/sse transport,
// counted on raw bytes before anything parses them (docs/mcp-integration.md
// "Discovery and result ingress bounds"). Host should also set the SDK transports'
// MaxEventSize to it so the SDK's own line buffer is bounded the same way.
const MessageLimit = 4 << 20

// Resolver resolves a host name once per dial. *net.Resolver satisfies it;
// tests inject a fake.
type Resolver interface {
	LookupNetIP(ctx context.Context, network, host string) ([]netip.Addr, error)
}

// Dialer opens the connection to one validated address ("ip:port"). The
// default is a net.Dialer whose ControlContext re-checks the address just
// before connect(); tests inject a fake that records and never opens a socket.
type Dialer interface {
	DialContext(ctx context.Context, network, address string) (net.Conn, error)
}

// Guard is the one network primitive: it admits urls into Targets and is the
// only source of http clients and websocket dials for them. A Guard is
// immutable after New and safe for concurrent use.
type Guard struct {
	resolver Resolver
	dialer   Dialer
	roots    *x509.CertPool // nil: the system roots
	limit    int64          // MessageLimit; smaller only in this package's tests
	ranges   ranges
	proxy    ProxyConfig // WithProxy; zero: never a proxy
}

// Option configures a Guard.
type Option func(*Guard)

// WithResolver injects the resolver (default: the system resolver).
func WithResolver(r Resolver) Option { return func(g *Guard) { g.resolver = r } }

// WithDialer injects the dialer (default: a net.Dialer with the connect-time
// Control check). An injected dialer receives only validated addresses.
func WithDialer(d Dialer) Option { return func(g *Guard) { g.dialer = d } }

// WithRootCAs sets the certificate roots TLS verifies against (default: the
// system roots). Verification itself can never be turned off.
func WithRootCAs(pool *x509.CertPool) Option { return func(g *Guard) { g.roots = pool } }

// New returns a guard.
func New(opts ...Option) *Guard {
	g := &Guard{limit: MessageLimit, ranges: newRanges()}
	for _, o := range opts {
		o(g)
	}
	if g.resolver == nil {
		g.resolver = systemResolver{r: net.DefaultResolver}
	}
	if g.dialer == nil {
		g.dialer = newPinnedDialer(g.ranges)
	}
	return g
}

// Admit checks an authored url exactly as AdmitURL does and returns the
// Target that host's network transports require.
func (g *Guard) Admit(raw, transport string, allowLocal bool) (*Target, error) {
	t, e := admit(raw, transport, allowLocal)
	if e != nil {
		return nil, e
	}
	if _, e := g.proxy.proxyFor(t); e != nil {
		return nil, e // an unusable proxy setting is refused before anything is dialled
	}
	t.guard = g
	return t, nil
}

// owns reports whether t is a target this guard admitted, for the transport
// family asked for.
func (g *Guard) owns(t *Target, websocket bool) *Error {
	switch {
	case t == nil:
		return notAdmitted("nil target")
	case t.guard == nil:
		return notAdmitted("a zero Target; obtain one from (*Guard).Admit")
	case t.guard != g:
		return notAdmitted("the target belongs to another guard")
	case websocket && !t.websocket:
		return notAdmitted(t.transport + " target given to the websocket dialer; use (*Guard).HTTPClient")
	case !websocket && t.websocket:
		return notAdmitted("websocket target given to the http client; use (*Guard).DialWebsocket")
	}
	return nil
}

// systemResolver is the default resolver. The system resolver may hand an
// IPv4 answer back in its IPv4-mapped IPv6 form; it is unmapped so the policy
// sees the address that will actually be reached.
type systemResolver struct{ r *net.Resolver }

func (s systemResolver) LookupNetIP(ctx context.Context, network, host string) ([]netip.Addr, error) {
	addrs, err := s.r.LookupNetIP(ctx, network, host)
	for i, a := range addrs {
		addrs[i] = a.Unmap()
	}
	return addrs, err
}
