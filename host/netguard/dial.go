package netguard

import (
	"context"
	"net"
	"net/netip"
	"slices"
	"syscall"

	"github.com/relavium/relavium/fault"
)

// pinKey carries the validated addresses of one dial to the connect-time
// check (net.Dialer.ControlContext sees the context passed to DialContext).
type pinKey struct{}

// pinSet is what one dial validated.
type pinSet struct {
	t     *Target
	addrs []netip.AddrPort
}

// dial is the DialContext of every transport the guard builds: it checks the
// address is the admitted host:port, resolves it once, applies the policy to
// every answer, and dials only the validated addresses, in resolver order.
func (g *Guard) dial(ctx context.Context, t *Target, network, address string) (net.Conn, error) {
	host, port, err := net.SplitHostPort(address)
	if err != nil || !t.sameHostPort(host, port) {
		return nil, t.note(ctx, scopeRefusal(t, "a connection to", address))
	}
	var answers []netip.Addr
	if t.host.literal.IsValid() {
		answers = []netip.Addr{t.host.literal}
	} else {
		// The dotless form is resolved: the same name, and the one the
		// hosts file knows ("localhost." is in no /etc/hosts).
		answers, err = g.resolver.LookupNetIP(ctx, "ip", bare(t.host.name))
		if err != nil {
			return nil, t.note(ctx, resolutionRefusal(t, err))
		}
		if len(answers) == 0 {
			return nil, t.note(ctx, resolutionRefusal(t, nil))
		}
	}
	addrs, e := g.ranges.decide(t, answers)
	if e != nil {
		return nil, t.note(ctx, e)
	}
	pins := &pinSet{t: t}
	for _, a := range addrs {
		pins.addrs = append(pins.addrs, netip.AddrPortFrom(a, t.port))
	}
	ctx = context.WithValue(ctx, pinKey{}, pins)
	var first error
	for _, p := range pins.addrs {
		conn, err := g.dialer.DialContext(ctx, network, p.String())
		if err == nil {
			return conn, nil
		}
		if r, ok := AsRefusal(err); ok {
			return nil, t.note(ctx, r)
		}
		if first == nil {
			first = err
		}
		if ctx.Err() != nil {
			break
		}
	}
	return nil, first
}

// pinnedDialer is the default Dialer: a plain net.Dialer whose Control hook
// is the second check, run on the socket address just before connect().
type pinnedDialer struct {
	d      net.Dialer
	ranges ranges
}

func newPinnedDialer(r ranges) *pinnedDialer {
	p := &pinnedDialer{ranges: r}
	p.d.ControlContext = p.control
	return p
}

func (p *pinnedDialer) DialContext(ctx context.Context, network, address string) (net.Conn, error) {
	return p.d.DialContext(ctx, network, address)
}

// control refuses a connect to anything but an address the same dial
// validated, and re-applies the range policy to it.
func (p *pinnedDialer) control(ctx context.Context, network, address string, _ syscall.RawConn) error {
	pins, _ := ctx.Value(pinKey{}).(*pinSet)
	if pins == nil {
		return pinMismatch(nil, address, "no validated address travels with this dial (the dialer was used outside the guard)")
	}
	if network != "tcp4" && network != "tcp6" {
		return pins.t.note(ctx, pinMismatch(pins.t, address, "network "+network+" is not tcp"))
	}
	ap, err := netip.ParseAddrPort(address)
	if err != nil {
		return pins.t.note(ctx, pinMismatch(pins.t, address, "the address does not parse"))
	}
	ap = netip.AddrPortFrom(ap.Addr().Unmap(), ap.Port())
	if !slices.Contains(pins.addrs, ap) {
		return pins.t.note(ctx, pinMismatch(pins.t, address, "it is not the address this dial validated"))
	}
	switch c := p.ranges.classify(ap.Addr()); {
	case c.kind == kindPublic, c.kind == kindLocal && pins.t.local:
		return nil
	default:
		return pins.t.note(ctx, pinMismatch(pins.t, address, "the range policy refuses it"))
	}
}

func pinMismatch(t *Target, address, why string) *Error {
	shown := ""
	if t != nil {
		shown = t.shown
	}
	return refusal(CodePinMismatch, ReasonPinMismatch, fault.ExitFailure,
		"connect to %s refused at the socket: %s", address, why).at(shown, address)
}
