package netguard

import (
	"errors"
	"fmt"
	"io"

	"github.com/relavium/relavium/fault"
)

// Refusal codes, one per reason (E550–E579). Every one is a refusal by the
// guard, never an ordinary connection failure: a dial that the guard admitted
// and that then failed (connection refused, TLS error, timeout) surfaces as the
// network's own error, without a netguard code.
const (
	CodeMalformedURL        fault.Code = "E550" // the url does not parse, has no host, or has a bad port
	CodeScheme              fault.Code = "E551" // scheme other than http, https, ws, wss
	CodeTransportScheme     fault.Code = "E552" // scheme does not match the transport (websocket ⇔ ws/wss)
	CodeUserinfo            fault.Code = "E553" // user:password@ in the authority
	CodeZoneID              fault.Code = "E554" // an IPv6 zone id (%eth0) in the host
	CodeNonASCIIHost        fault.Code = "E555" // a host with non-ASCII characters
	CodeNumericHost         fault.Code = "E556" // a numeric-looking host that is not a plain IP (127.1, 0x7f.1, 2130706433)
	CodePlaintextRemote     fault.Code = "E557" // http/ws to a remote (public) target
	CodeLocalResolvedPublic fault.Code = "E558" // declared local (allow_local_endpoint), resolves to a public address
	CodeRemoteWebsocket     fault.Code = "E559" // a websocket server that is not local and opted in
	CodePrivateAddress      fault.Code = "E560" // a local/private address without allow_local_endpoint
	CodeMetadata            fault.Code = "E561" // a cloud metadata endpoint (refused always)
	CodeSpecialAddress      fault.Code = "E562" // special-purpose space no opt-in lifts (link-local, mapped, multicast…)
	CodeMixedResolution     fault.Code = "E563" // the name resolved to public and private addresses at once
	CodeResolution          fault.Code = "E564" // the name did not resolve (error, NXDOMAIN, no answers)
	CodeRedirect            fault.Code = "E565" // a 3xx response; redirects are refused, never followed
	CodeMessageBound        fault.Code = "E566" // one message over the 4 MiB transport bound
	CodeScope               fault.Code = "E567" // a request or dial outside the admitted scheme://host:port
	CodeNotAdmitted         fault.Code = "E568" // a Target the guard did not admit (zero value, other guard, wrong transport)
	CodePinMismatch         fault.Code = "E569" // the connect-time check saw an address other than the validated pin
	CodeHostName            fault.Code = "E570" // a host that is not a clean DNS name (empty label, bad character, escape)
	CodeSessionID           fault.Code = "E571" // an Mcp-Session-Id that is not 1–1024 visible ASCII characters
	CodeMessageDepth        fault.Code = "E572" // a message nesting arrays and objects deeper than 512 levels
	CodeProxy               fault.Code = "E596" // a proxy setting the guard cannot use, or a proxy that refused to connect a target
)

// Stable reasons, the machine-readable twin of each code (ErrorData "reason").
const (
	ReasonMalformedURL        = "malformed-url"
	ReasonScheme              = "scheme"
	ReasonTransportScheme     = "transport-scheme"
	ReasonUserinfo            = "userinfo"
	ReasonZoneID              = "zone-id"
	ReasonNonASCIIHost        = "non-ascii-host"
	ReasonNumericHost         = "numeric-host"
	ReasonPlaintextRemote     = "plaintext-remote"
	ReasonLocalResolvedPublic = "local-resolved-public"
	ReasonRemoteWebsocket     = "remote-websocket"
	ReasonPrivateAddress      = "private-address"
	ReasonMetadata            = "metadata"
	ReasonSpecialAddress      = "special-address"
	ReasonMixedResolution     = "mixed-resolution"
	ReasonResolution          = "resolution"
	ReasonRedirect            = "redirect"
	ReasonMessageBound        = "message-bound"
	ReasonScope               = "scope"
	ReasonNotAdmitted         = "not-admitted"
	ReasonPinMismatch         = "pin-mismatch"
	ReasonHostName            = "host-name"
	ReasonSessionID           = "session-id"
	ReasonMessageDepth        = "message-depth"
	ReasonProxy               = "proxy"
)

// Error is a refusal by the guard. It carries the refused address where there
// is one, so a per-server report (`mcp ls --json`) can name it. The code,
// message, cause and exit (2 for authored refusals, 1 for refusals while
// connecting) are fault.Base's; its envelope data is built from the extras.
type Error struct {
	fault.Base
	Reason  string // one of the Reason* constants
	URL     string // the target url, without userinfo, query or fragment
	Address string // the refused address (ip, ip:port, host:port or url), if any
	Remedy  string // what the author can do about it, if anything
}

// Data is the envelope payload of a refusal (ErrorData).
type Data struct {
	Reason  string `json:"reason"`
	URL     string `json:"url,omitempty"`
	Address string `json:"address,omitempty"`
	Remedy  string `json:"remedy,omitempty"`
}

// Error renders "CODE: message: cause" with the cause's text whole (Base
// would trim a cause's repeated code; a refusal always showed it).
func (e *Error) Error() string {
	s := string(e.ErrCode) + ": " + e.Msg
	if e.Cause != nil {
		s += ": " + e.Cause.Error()
	}
	return s
}

// ErrorData returns the reason, url, refused address and remedy.
func (e *Error) ErrorData() any {
	return Data{Reason: e.Reason, URL: e.URL, Address: e.Address, Remedy: e.Remedy}
}

// WriteHuman renders the refusal for a person: the message, the refused
// address and the remedy on their own lines.
func (e *Error) WriteHuman(w io.Writer) error {
	if _, err := fmt.Fprintf(w, "relavium: %s: refused: %s\n", e.ErrCode, e.Msg); err != nil {
		return err
	}
	if e.Address != "" {
		if _, err := fmt.Fprintf(w, "  address: %s\n", e.Address); err != nil {
			return err
		}
	}
	if e.Cause != nil {
		if _, err := fmt.Fprintf(w, "  cause:   %v\n", e.Cause); err != nil {
			return err
		}
	}
	if e.Remedy != "" {
		if _, err := fmt.Fprintf(w, "  remedy:  %s\n", e.Remedy); err != nil {
			return err
		}
	}
	return nil
}

// AsRefusal reports whether err is (or wraps) a guard refusal and returns it.
// Anything else is an ordinary connection failure.
func AsRefusal(err error) (*Error, bool) {
	var e *Error
	if errors.As(err, &e) {
		return e, true
	}
	return nil, false
}

func refusal(code fault.Code, reason string, exit int, format string, a ...any) *Error {
	return &Error{Base: fault.Base{ErrCode: code, Exit: exit, Msg: fmt.Sprintf(format, a...)}, Reason: reason}
}

func (e *Error) at(url, addr string) *Error {
	e.URL, e.Address = url, addr
	return e
}

func (e *Error) fix(remedy string) *Error {
	e.Remedy = remedy
	return e
}

func (e *Error) because(cause error) *Error {
	e.Cause = cause
	return e
}
