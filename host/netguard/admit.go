package netguard

import (
	"context"
	"errors"
	"net"
	"net/url"
	"strconv"
	"strings"

	"github.com/relavium/relavium/fault"
)

// The transports a server declaration may name: the one declaration of
// these names (config checks declarations against them, host connects by
// them). The three network ones are AdmitURL's; stdio never reaches the
// guard. "sse" is the deprecated alias of http that selects the legacy
// HTTP+SSE client.
const (
	TransportStdio     = "stdio"
	TransportHTTP      = "http"      // Streamable HTTP
	TransportSSE       = "sse"       // the legacy HTTP+SSE transport
	TransportWebsocket = "websocket" // local only
)

// AdmitURL checks an authored url for a transport ("http", "sse",
// "websocket") at parse time, before anything is resolved or dialled. Every
// refusal is an *Error with exit code 2. A nil result is not a licence to
// connect: the guard checks every resolved address again at each dial.
func AdmitURL(raw, transport string, allowLocal bool) error {
	if _, err := admit(raw, transport, allowLocal); err != nil {
		return err
	}
	return nil
}

// admit parses and checks an authored url and returns the target it names
// (not yet bound to a guard).
func admit(raw, transport string, allowLocal bool) (*Target, *Error) {
	for i := 0; i < len(raw); i++ {
		if c := raw[i]; c <= ' ' || c == 0x7f {
			return nil, refusal(CodeMalformedURL, ReasonMalformedURL, fault.ExitUsage,
				"the url contains whitespace or a control character at byte %d", i)
		}
	}
	u, err := url.Parse(raw)
	if err != nil {
		var ue *url.Error
		if errors.As(err, &ue) {
			err = ue.Err // the url.Error text repeats the url, userinfo included
		}
		return nil, refusal(CodeMalformedURL, ReasonMalformedURL, fault.ExitUsage, "the url does not parse").because(err)
	}
	secure, web, e := checkScheme(u.Scheme, transport)
	if e != nil {
		return nil, e.at(redact(u), u.Host)
	}
	if u.Opaque != "" || u.Host == "" {
		return nil, refusal(CodeMalformedURL, ReasonMalformedURL, fault.ExitUsage,
			"the url has no host (write it as %s://host[:port]/path)", u.Scheme)
	}
	if u.User != nil {
		return nil, refusal(CodeUserinfo, ReasonUserinfo, fault.ExitUsage,
			"the url carries userinfo (user:password@); credentials never travel in an MCP url").
			at(redact(u), u.Host).fix("remove the user:password@ part")
	}
	port, e := checkPort(u)
	if e != nil {
		return nil, e.at(redact(u), u.Host)
	}
	h, e := parseHost(u.Hostname(), strings.HasPrefix(u.Host, "["))
	if e != nil {
		return nil, e.at(redact(u), u.Host)
	}
	t := &Target{
		scheme:    u.Scheme,
		transport: transport,
		local:     allowLocal,
		secure:    secure,
		websocket: web,
		host:      h,
		port:      port,
	}
	t.shown = redact(u)
	if h.name != "" && h.name != bare(h.name) {
		// A fully qualified name is connected as its dotless form: the
		// same host, and the Host header servers expect (an MCP SDK's
		// DNS-rebinding check refuses "localhost.:8080"). Reports keep
		// the authored spelling.
		host := bare(u.Hostname())
		if p := u.Port(); p != "" {
			host = net.JoinHostPort(host, p)
		}
		u.Host = host
	}
	t.url = u.String() // as authored, scheme lower-cased by url.Parse
	if e := t.admitHost(); e != nil {
		return nil, e
	}
	return t, nil
}

// checkScheme enforces the scheme set and its agreement with the transport.
func checkScheme(scheme, transport string) (secure, web bool, e *Error) {
	switch scheme {
	case "http", "https", "ws", "wss":
	case "":
		return false, false, refusal(CodeScheme, ReasonScheme, fault.ExitUsage,
			"the url has no scheme; use https:// (or http:// for a local endpoint)")
	default:
		return false, false, refusal(CodeScheme, ReasonScheme, fault.ExitUsage,
			"the scheme %q is not allowed; MCP urls are http, https, ws or wss", scheme)
	}
	secure = scheme == "https" || scheme == "wss"
	web = scheme == "ws" || scheme == "wss"
	switch transport {
	case TransportHTTP, TransportSSE:
		if web {
			return false, false, refusal(CodeTransportScheme, ReasonTransportScheme, fault.ExitUsage,
				"transport %q needs an http or https url, not %s://", transport, scheme).
				fix(`use an https:// url, or declare transport = "websocket" for a local websocket server`)
		}
	case TransportWebsocket:
		if !web {
			return false, false, refusal(CodeTransportScheme, ReasonTransportScheme, fault.ExitUsage,
				"transport \"websocket\" needs a ws or wss url, not %s://", scheme).
				fix(`use a ws:// or wss:// url, or declare transport = "http" (Streamable HTTP)`)
		}
	default:
		return false, false, refusal(CodeTransportScheme, ReasonTransportScheme, fault.ExitUsage,
			"transport %q does not take a url (network transports are http, sse and websocket)", transport)
	}
	return secure, web, nil
}

// checkPort returns the explicit port, or the scheme's default.
func checkPort(u *url.URL) (uint16, *Error) {
	p := u.Port()
	if p == "" {
		if u.Scheme == "https" || u.Scheme == "wss" {
			return 443, nil
		}
		return 80, nil
	}
	n, err := strconv.ParseUint(p, 10, 16)
	if err != nil || n == 0 || p[0] == '0' {
		return 0, refusal(CodeMalformedURL, ReasonMalformedURL, fault.ExitUsage,
			"the port %q is not a port number (1–65535, no leading zeros)", p)
	}
	return uint16(n), nil
}

// admitHost applies the parse-time address policy: metadata and special
// literals always, local literals and localhost names without the opt-in,
// plaintext or websocket to anything not declared local.
func (t *Target) admitHost() *Error {
	if a := t.host.literal; a.IsValid() {
		c := newRanges().classify(a)
		switch c.kind {
		case kindMetadata:
			return metadataRefusal(c).at(t.shown, a.String()).authored()
		case kindSpecial:
			return specialRefusal(c).at(t.shown, a.String()).authored()
		case kindLocal:
			if !t.local {
				return privateRefusal(t, a.String()).authored()
			}
			return nil
		}
		if t.local && !t.secure {
			return localPublicRefusal(t, a.String()).authored()
		}
		if t.websocket {
			return remoteWebsocketRefusal(t, a.String()).authored()
		}
		if !t.secure {
			return plaintextRefusal(t, a.String()).authored()
		}
		return nil
	}
	if isLocalName(t.host.name) {
		if !t.local {
			return privateRefusal(t, t.HostPort()).authored()
		}
		return nil
	}
	if t.local {
		return nil // decided per dial: it must resolve local to keep plaintext
	}
	if t.websocket {
		return remoteWebsocketRefusal(t, t.HostPort()).authored()
	}
	if !t.secure {
		return plaintextRefusal(t, t.HostPort()).authored()
	}
	return nil
}

func (e *Error) authored() *Error {
	e.Exit = fault.ExitUsage
	return e
}

// redact renders a url for reports: scheme, host, port and path; never
// userinfo, query or fragment (they may carry credentials).
func redact(u *url.URL) string {
	r := url.URL{Scheme: u.Scheme, Host: u.Host, Path: u.Path, RawPath: u.RawPath}
	return r.String()
}

// DialTunnel dials target (host:port) for a tunnel a confined server asked
// relavium's guarded-network proxy for (package sandbox): admitted exactly
// as an https url to that host and port would be, then dialled through
// the same pinned, re-checked path as every other connection of the guard.
// allowLocal is the server's allow list naming this target: a local or
// private address may then be reached; a metadata address never.
func (g *Guard) DialTunnel(ctx context.Context, target string, allowLocal bool) (net.Conn, error) {
	host, port, err := net.SplitHostPort(target)
	if err != nil || host == "" || port == "" {
		return nil, refusal(CodeMalformedURL, ReasonMalformedURL, fault.ExitFailure, "%q is not host:port", target)
	}
	t, e := admit("https://"+net.JoinHostPort(host, port)+"/", TransportHTTP, allowLocal)
	if e != nil {
		return nil, e
	}
	t.guard = g
	return g.dial(ctx, t, "tcp", net.JoinHostPort(host, port))
}
