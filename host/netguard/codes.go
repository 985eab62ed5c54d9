package netguard

import (
	"slices"

	"github.com/relavium/relavium/fault"
)

// Codes registers the error codes package netguard owns: each code's exit class
// and what it means (the error-code table in docs/error-codes.md says the same to a
// person; the repository's codes test holds the two together).
func Codes() fault.Table { return slices.Clone(codes) }

var codes = fault.Table{
	{Code: CodeMalformedURL, Class: fault.Varies, Meaning: "the url does not parse, has no host, or has a bad port"},
	{Code: CodeScheme, Class: fault.Varies, Meaning: "scheme other than http, https, ws, wss"},
	{Code: CodeTransportScheme, Class: fault.Varies, Meaning: "scheme does not match the transport (websocket ⇔ ws/wss)"},
	{Code: CodeUserinfo, Class: fault.Varies, Meaning: "user:password@ in the authority"},
	{Code: CodeZoneID, Class: fault.Varies, Meaning: "an IPv6 zone id (%eth0) in the host"},
	{Code: CodeNonASCIIHost, Class: fault.Varies, Meaning: "a host with non-ASCII characters"},
	{Code: CodeNumericHost, Class: fault.Varies, Meaning: "a numeric-looking host that is not a plain IP (127.1, 0x7f.1, 2130706433)"},
	{Code: CodePlaintextRemote, Class: fault.Varies, Meaning: "http/ws to a remote (public) target"},
	{Code: CodeLocalResolvedPublic, Class: fault.Varies, Meaning: "declared local (allow_local_endpoint), resolves to a public address"},
	{Code: CodeRemoteWebsocket, Class: fault.Varies, Meaning: "a websocket server that is not local and opted in"},
	{Code: CodePrivateAddress, Class: fault.Varies, Meaning: "a local/private address without allow_local_endpoint"},
	{Code: CodeMetadata, Class: fault.Varies, Meaning: "a cloud metadata endpoint (refused always)"},
	{Code: CodeSpecialAddress, Class: fault.Varies, Meaning: "special-purpose space no opt-in lifts (link-local, mapped, multicast…)"},
	{Code: CodeMixedResolution, Class: fault.Varies, Meaning: "the name resolved to public and private addresses at once"},
	{Code: CodeResolution, Class: fault.Varies, Meaning: "the name did not resolve (error, NXDOMAIN, no answers)"},
	{Code: CodeRedirect, Class: fault.Varies, Meaning: "a 3xx response; redirects are refused, never followed"},
	{Code: CodeMessageBound, Class: fault.Varies, Meaning: "one message over the 4 MiB transport bound"},
	{Code: CodeScope, Class: fault.Varies, Meaning: "a request or dial outside the admitted scheme://host:port"},
	{Code: CodeNotAdmitted, Class: fault.Varies, Meaning: "a Target the guard did not admit (zero value, other guard, wrong transport)"},
	{Code: CodePinMismatch, Class: fault.Varies, Meaning: "the connect-time check saw an address other than the validated pin"},
	{Code: CodeHostName, Class: fault.Varies, Meaning: "a host that is not a clean DNS name (empty label, bad character, escape)"},
	{Code: CodeSessionID, Class: fault.Varies, Meaning: "an Mcp-Session-Id from a server that is not 1–1024 visible ASCII characters (0x21–0x7E); the value is never shown"},
	{Code: CodeProxy, Class: fault.Varies, Meaning: "HTTPS_PROXY / HTTP_PROXY that does not parse or is not an http:// or https:// proxy (exit 2), or a proxy that answered CONNECT for a target with other than 2xx (exit 1); proxy credentials are never shown"},
	{Code: CodeMessageDepth, Class: fault.Varies, Meaning: "a message from a network server nests arrays and objects deeper than 512 levels (refused before decoding)"},
}
