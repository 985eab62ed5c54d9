package netguard

import (
	"context"
	"fmt"
	"net"
	"net/http"
	"net/netip"
	"net/url"
	"strconv"
	"strings"

	"github.com/relavium/relavium/fault"
)

// ProxyConfig is the forward proxy a person's environment names: what
// HTTPS_PROXY, HTTP_PROXY and NO_PROXY (or their lower-case spellings) say.
// The proxy's own address is the person's choice and is never range-checked
// (a corporate proxy is usually private); every target is still admitted by
// name and by local resolution before anything is sent to the proxy.
type ProxyConfig struct {
	HTTPSProxy string // for https and wss targets
	HTTPProxy  string // for http and ws targets
	NoProxy    string // comma-separated exceptions
}

// ProxyFromEnv reads HTTPS_PROXY, HTTP_PROXY and NO_PROXY through lookup,
// each upper case first, then lower case (as Go's own proxy support does).
// ALL_PROXY is not read. A nil lookup means no proxy.
func ProxyFromEnv(lookup func(string) (string, bool)) ProxyConfig {
	get := func(names ...string) string {
		for _, n := range names {
			if v, ok := lookup(n); ok && v != "" {
				return v
			}
		}
		return ""
	}
	if lookup == nil {
		return ProxyConfig{}
	}
	return ProxyConfig{
		HTTPSProxy: get("HTTPS_PROXY", "https_proxy"),
		HTTPProxy:  get("HTTP_PROXY", "http_proxy"),
		NoProxy:    get("NO_PROXY", "no_proxy"),
	}
}

// WithProxy makes the guard reach targets through the proxies p names
// (CONNECT for https and wss; absolute-form requests for http). Without it
// the guard never uses a proxy, whatever the process environment says.
func WithProxy(p ProxyConfig) Option { return func(g *Guard) { g.proxy = p } }

// proxyFor returns the proxy url a target is reached through, nil for a
// direct connection, or the refusal of an unusable proxy setting (E596).
// Loopback targets are never proxied, nor a target NO_PROXY names.
func (p ProxyConfig) proxyFor(t *Target) (*url.URL, *Error) {
	raw, env := p.HTTPProxy, "HTTP_PROXY"
	if t.secure {
		raw, env = p.HTTPSProxy, "HTTPS_PROXY"
	}
	if raw == "" || t.loopback() || noProxy(p.NoProxy, t) {
		return nil, nil
	}
	u, e := parseProxy(raw, env)
	if e != nil {
		return nil, e.at(t.shown, "")
	}
	return u, nil
}

// parseProxy reads a proxy setting: a url with scheme http or https, or a
// bare host:port (http assumed, as curl and Go do). Its userinfo (proxy
// credentials) is kept for the proxy and never shown.
func parseProxy(raw, env string) (*url.URL, *Error) {
	s := raw
	if !strings.Contains(s, "://") {
		s = "http://" + s
	}
	u, err := url.Parse(s)
	switch {
	case err != nil || u.Host == "" || u.Hostname() == "":
		return nil, proxyRefusal(fault.ExitUsage, "%s does not name a proxy (write it as http://host:port)", env).
			fix("fix or unset " + env)
	case u.Scheme != "http" && u.Scheme != "https":
		return nil, proxyRefusal(fault.ExitUsage, "%s uses the %s:// scheme; relavium reaches a proxy over http:// or https:// only", env, u.Scheme).
			fix("name an HTTP proxy in " + env + ", or unset it")
	}
	if p := u.Port(); p != "" {
		if n, err := strconv.ParseUint(p, 10, 16); err != nil || n == 0 {
			return nil, proxyRefusal(fault.ExitUsage, "%s has the port %q, which is not a port number", env, p).fix("fix or unset " + env)
		}
	}
	return u, nil
}

// proxyAddr is the host:port the transport dials for proxy u (the scheme's
// default port when none is given, as net/http computes it).
func proxyAddr(u *url.URL) string {
	port := u.Port()
	if port == "" {
		port = "80"
		if u.Scheme == "https" {
			port = "443"
		}
	}
	return net.JoinHostPort(u.Hostname(), port)
}

// shownProxy is a proxy url for reports: never its userinfo.
func shownProxy(u *url.URL) string { return u.Scheme + "://" + u.Host }

// noProxy reports whether NO_PROXY exempts the target: "*" exempts all; an
// IP address or CIDR range matches an IP-literal target; a name matches
// itself and every name below it (".example.com" and "*.example.com" only
// the names below); an entry with :port matches that port only.
func noProxy(list string, t *Target) bool {
	host := bare(t.hostString())
	for _, e := range strings.Split(list, ",") {
		e = strings.ToLower(strings.TrimSpace(e))
		if e == "" {
			continue
		}
		if e == "*" {
			return true
		}
		if pfx, err := netip.ParsePrefix(e); err == nil {
			if t.host.literal.IsValid() && pfx.Contains(t.host.literal) {
				return true
			}
			continue
		}
		name, port := e, ""
		if h, p, err := net.SplitHostPort(e); err == nil {
			name, port = h, p
		} else if a, err := netip.ParseAddr(strings.Trim(e, "[]")); err == nil {
			name = a.String()
		}
		if port != "" && port != strconv.Itoa(int(t.port)) {
			continue
		}
		name = bare(name)
		if a, err := netip.ParseAddr(name); err == nil {
			if t.host.literal.IsValid() && a == t.host.literal {
				return true
			}
			continue
		}
		sub := strings.HasPrefix(name, ".") || strings.HasPrefix(name, "*.")
		name = strings.TrimPrefix(strings.TrimPrefix(name, "*"), ".")
		if name == "" || t.host.literal.IsValid() {
			continue
		}
		if host == name && !sub || strings.HasSuffix(host, "."+name) {
			return true
		}
	}
	return false
}

// loopback reports whether the target is this machine (a loopback literal
// or an RFC 6761 localhost name): never sent through a proxy.
func (t *Target) loopback() bool {
	if t.host.literal.IsValid() {
		return t.host.literal.Unmap().IsLoopback()
	}
	return isLocalName(t.host.name)
}

// proxied makes base reach t through proxy u: the transport dials only the
// proxy's address, and only after the target was resolved here and its
// every answer passed the range policy (the same decision a direct dial
// makes), so a name that resolves to a metadata, special or (without the
// opt-in) private address is refused with nothing sent, not even to the
// proxy. The proxy then resolves the name itself: that answer the guard
// does not see (docs/security.md). A name that resolves here to this
// machine only is connected directly, through the pinned dial: the proxy's
// loopback is not this machine's.
func (g *Guard) proxied(base *http.Transport, t *Target, u *url.URL) {
	addr := proxyAddr(u)
	base.Proxy = func(req *http.Request) (*url.URL, error) {
		if g.resolvesToLoopback(req.Context(), t) {
			return nil, nil
		}
		return u, nil
	}
	base.DialContext = func(ctx context.Context, network, address string) (net.Conn, error) {
		if !strings.EqualFold(address, addr) {
			return g.dial(ctx, t, network, address) // direct: scope, resolution, ranges and pin as ever
		}
		if e := g.admitResolved(ctx, t); e != nil {
			return nil, t.note(ctx, e)
		}
		var d net.Dialer
		return d.DialContext(ctx, network, addr)
	}
	base.OnProxyConnectResponse = func(ctx context.Context, _ *url.URL, _ *http.Request, resp *http.Response) error {
		if resp.StatusCode >= 200 && resp.StatusCode < 300 {
			return nil
		}
		fix := "ask the proxy's administrator to allow " + t.HostPort() + ", or list it in NO_PROXY if it is reachable directly"
		if resp.StatusCode == http.StatusProxyAuthRequired {
			fix = "give the proxy's credentials in the proxy url (http://user:password@host:port)"
		}
		return t.note(ctx, proxyRefusal(fault.ExitFailure, "the proxy %s refused to connect %s: %s", shownProxy(u), t.HostPort(), resp.Status).
			at(t.shown, shownProxy(u)).fix(fix))
	}
}

// resolvesToLoopback reports whether every answer for the target's name is
// a loopback address (false on any failure: the proxied path then refuses
// with the resolution's own reason).
func (g *Guard) resolvesToLoopback(ctx context.Context, t *Target) bool {
	if t.host.literal.IsValid() {
		return t.host.literal.Unmap().IsLoopback()
	}
	answers, err := g.resolver.LookupNetIP(ctx, "ip", bare(t.host.name))
	if err != nil || len(answers) == 0 {
		return false
	}
	for _, a := range answers {
		if !a.Unmap().IsLoopback() {
			return false
		}
	}
	return true
}

// admitResolved is the range decision of a dial without the dial: the
// target's name resolved once, here, and every answer checked.
func (g *Guard) admitResolved(ctx context.Context, t *Target) *Error {
	answers := []netip.Addr{t.host.literal}
	if !t.host.literal.IsValid() {
		var err error
		answers, err = g.resolver.LookupNetIP(ctx, "ip", bare(t.host.name))
		if err != nil {
			return resolutionRefusal(t, err)
		}
		if len(answers) == 0 {
			return resolutionRefusal(t, nil)
		}
	}
	_, e := g.ranges.decide(t, answers)
	return e
}

func proxyRefusal(exit int, format string, a ...any) *Error {
	return refusal(CodeProxy, ReasonProxy, exit, format, a...)
}

// String keeps a ProxyConfig's credentials out of every rendering.
func (p ProxyConfig) String() string {
	show := func(raw string) string {
		if raw == "" {
			return "-"
		}
		if u, err := url.Parse(raw); err == nil && u.Host != "" {
			return shownProxy(u)
		}
		return "(unparsed)"
	}
	return fmt.Sprintf("https=%s http=%s no_proxy=%q", show(p.HTTPSProxy), show(p.HTTPProxy), p.NoProxy)
}
