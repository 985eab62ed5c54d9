package netguard

import (
	"errors"
	"fmt"
	"net/http"
	"net/textproto"
	"strings"

	"github.com/relavium/relavium/fault"
)

// MaxSessionIDLen bounds the Mcp-Session-Id a server may hand relavium.
// The MCP spec asks for visible ASCII (0x21–0x7E) and suggests a UUID, a
// JWT or a cryptographic hash; the SDKs send 26–36 characters (a random
// token, a UUID) and a signed token a few hundred. 1024 leaves every one of
// those room. The id is echoed on every later request and can end up in
// logs and errors, so one that is longer, or holds anything but visible
// ASCII, is refused before the SDK reads it.
const MaxSessionIDLen = 1024

// sessionIDHeader is the Streamable HTTP session header.
const sessionIDHeader = "Mcp-Session-Id"

// checkSessionID refuses a response whose Mcp-Session-Id (any of them, if
// the server sent several) is not 1–MaxSessionIDLen visible ASCII
// characters. An empty value is no session (the SDK ignores it). The
// refusal describes the value (its length, the first offending byte as a
// number) and never quotes it.
func checkSessionID(t *Target, h http.Header) *Error {
	for _, v := range h.Values(sessionIDHeader) {
		what := ""
		switch {
		case len(v) > MaxSessionIDLen:
			what = fmt.Sprintf("is %d bytes long, over the %d-byte bound", len(v), MaxSessionIDLen)
		default:
			for i := 0; i < len(v); i++ {
				if c := v[i]; c < 0x21 || c > 0x7e {
					what = fmt.Sprintf("holds byte 0x%02x at offset %d, where only visible ASCII (0x21–0x7E) is allowed", c, i)
					break
				}
			}
		}
		if what != "" {
			return refusal(CodeSessionID, ReasonSessionID, fault.ExitFailure,
				"the %s header from %s %s", sessionIDHeader, t.HostPort(), what).
				at(t.shown, t.HostPort()).
				fix(sessionIDRemedy)
		}
	}
	return nil
}

// malformedSessionID recognises net/http's own refusal of a response whose
// Mcp-Session-Id holds a byte no header value may hold (a control
// character): net/http quotes the whole line in its error, so it becomes the
// same refusal, which does not.
func malformedSessionID(t *Target, err error) *Error {
	var pe textproto.ProtocolError
	if !errors.As(err, &pe) {
		return nil
	}
	const prefix = `malformed MIME header line: "`
	line, ok := strings.CutPrefix(string(pe), prefix)
	if !ok || len(line) < len(sessionIDHeader)+1 || !strings.EqualFold(line[:len(sessionIDHeader)+1], sessionIDHeader+":") {
		return nil
	}
	return refusal(CodeSessionID, ReasonSessionID, fault.ExitFailure,
		"the %s header from %s holds a control character, where only visible ASCII (0x21–0x7E) is allowed", sessionIDHeader, t.HostPort()).
		at(t.shown, t.HostPort()).
		fix(sessionIDRemedy)
}

const sessionIDRemedy = "the server's session id must be 1–1024 visible ASCII characters (MCP Streamable HTTP); report it to the server's author"
