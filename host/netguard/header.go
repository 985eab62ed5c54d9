package netguard

import (
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"
)

// The bounds of a server's static headers (config `headers`, `--header`):
// a person declares a few credentials, not a request of their own.
const (
	MaxHeaders         = 32    // headers per server
	MaxHeaderNameLen   = 128   // bytes of one name
	MaxHeaderValueLen  = 8192  // bytes of one value, after its secrets are resolved
	MaxHeaderTotalSize = 32768 // bytes of every name and value of one server
)

// HeaderFault says what is wrong with a static header.
type HeaderFault int

// What CheckHeaderName and CheckHeaderValue find.
const (
	HeaderOK       HeaderFault = iota
	HeaderBadName              // not an HTTP token, empty or too long
	HeaderReserved             // a header the transport, the guard or the protocol sets itself
	HeaderBadValue             // a control character (CR, LF, NUL…), edge white space, or too long
)

// reservedHeaders are the names a person may not set on a target's
// requests, lower-case. Each would change how a request is framed or routed
// (Host would move it to another virtual host of the pinned address, a
// Proxy-* header talks to a proxy, the hop-by-hop ones to the connection),
// or override what the MCP transport itself sends (the session, the
// negotiated version, the media types, stream resumption) or what the
// guard's bounds count (a compressed body is not the bytes the bound sees).
var reservedHeaders = map[string]string{
	"host":                  "it would send the request to another virtual host than the admitted url's",
	"content-length":        "it frames the request body",
	"transfer-encoding":     "it frames the request body",
	"connection":            "it is hop-by-hop",
	"keep-alive":            "it is hop-by-hop",
	"upgrade":               "it is hop-by-hop",
	"te":                    "it is hop-by-hop",
	"trailer":               "it frames the request body",
	"expect":                "it changes how the request body is sent",
	"content-type":          "the MCP transport sets it",
	"content-encoding":      "it frames the request body",
	"accept":                "the MCP transport sets it",
	"accept-encoding":       "the guard's message bound counts the bytes as sent, uncompressed",
	"last-event-id":         "the MCP transport sets it to resume a stream",
	"mcp-session-id":        "the protocol sets it: the server assigns the session",
	"mcp-protocol-version":  "the protocol sets it: the version is negotiated",
	"http2-settings":        "it is hop-by-hop",
	"sec-websocket-key":     "the websocket handshake sets it",
	"sec-websocket-version": "the websocket handshake sets it",
}

// CheckHeaderName reports whether name may be a static header of a network
// server, and why not (a malformed name is not repeated in the reason): an HTTP token (RFC 9110 tchar) of at most
// MaxHeaderNameLen bytes, none of the reserved names (hop-by-hop and
// framing headers, Host, Proxy-*, Sec-WebSocket-*, the protocol's own
// Mcp-Session-Id and MCP-Protocol-Version, the media types the transport
// sets). The reason never quotes a value.
func CheckHeaderName(name string) (HeaderFault, string) {
	switch {
	case name == "":
		return HeaderBadName, "a header name cannot be empty"
	case len(name) > MaxHeaderNameLen:
		return HeaderBadName, fmt.Sprintf("a header name is at most %d bytes", MaxHeaderNameLen)
	}
	for i := 0; i < len(name); i++ {
		if !isTokenChar(name[i]) {
			// The name is not repeated: a malformed one may be a pasted
			// "Authorization: Bearer …" line, credential and all.
			return HeaderBadName, fmt.Sprintf("not an HTTP header name: %q at byte %d is not allowed (letters, digits and !#$%%&'*+-.^_`|~ only)", rune(name[i]), i)
		}
	}
	l := strings.ToLower(name)
	if why, ok := reservedHeaders[l]; ok {
		return HeaderReserved, fmt.Sprintf("%s cannot be set: %s", name, why)
	}
	switch {
	case strings.HasPrefix(l, "proxy-"):
		return HeaderReserved, fmt.Sprintf("%s cannot be set: a Proxy-* header is addressed to a proxy, not the server (a proxy's credentials go in HTTPS_PROXY)", name)
	case strings.HasPrefix(l, "sec-websocket-"):
		return HeaderReserved, fmt.Sprintf("%s cannot be set: the websocket handshake sets it", name)
	}
	return HeaderOK, ""
}

// CheckHeaderValue reports whether v may be sent as a header value: no
// control character but horizontal tab — C0 (CR, LF and NUL would split or
// end the request), DEL, and C1 (U+0085 NEL is a line break to some
// readers) — no line or paragraph separator (U+2028, U+2029), valid UTF-8
// (a lone byte 0x85 is NEL to a Latin-1 reader), no leading or trailing
// white space (a secret pasted with its newline), at most
// MaxHeaderValueLen bytes. The reason never quotes v.
func CheckHeaderValue(v string) (HeaderFault, string) {
	if len(v) > MaxHeaderValueLen {
		return HeaderBadValue, fmt.Sprintf("the value is %d bytes; a header value is at most %d", len(v), MaxHeaderValueLen)
	}
	for i := 0; i < len(v); {
		r, size := utf8.DecodeRuneInString(v[i:])
		switch {
		case r == '\r':
			return HeaderBadValue, fmt.Sprintf("the value holds a carriage return (CR) at byte %d", i)
		case r == '\n':
			return HeaderBadValue, fmt.Sprintf("the value holds a line feed (LF) at byte %d", i)
		case r == 0:
			return HeaderBadValue, fmt.Sprintf("the value holds a NUL byte at byte %d", i)
		case r == utf8.RuneError && size == 1:
			return HeaderBadValue, fmt.Sprintf("the value holds the byte 0x%02x at byte %d, which is not UTF-8", v[i], i)
		case r == 0x85:
			return HeaderBadValue, fmt.Sprintf("the value holds the control character U+0085 (NEL, a line break) at byte %d", i)
		case r == 0x2028 || r == 0x2029:
			return HeaderBadValue, fmt.Sprintf("the value holds the separator U+%04X (a line break) at byte %d", r, i)
		case unicode.IsControl(r) && r != '\t':
			return HeaderBadValue, fmt.Sprintf("the value holds the control character U+%04X at byte %d", r, i)
		}
		i += size
	}
	if v != strings.Trim(v, " \t") {
		return HeaderBadValue, "the value begins or ends with white space (a secret pasted with its newline or a blank?)"
	}
	return HeaderOK, ""
}

// isTokenChar is RFC 9110's tchar.
func isTokenChar(c byte) bool {
	switch {
	case 'a' <= c && c <= 'z', 'A' <= c && c <= 'Z', '0' <= c && c <= '9':
		return true
	}
	return strings.IndexByte("!#$%&'*+-.^_`|~", c) >= 0
}
