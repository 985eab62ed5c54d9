package host

import (
	"context"
	"fmt"
	"reflect"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// Protocol eras. A server's declaration asks for one of these (Endpoint.Protocol):
//
//   - ProtocolLegacy (2025-11-25, the default): the classic initialize
//     handshake; a server that answers an older version is accepted.
//   - ProtocolModern (2026-07-28): server/discover, nothing else; a server
//     that does not speak it fails its connect (E597), naming what it
//     answered, rather than being quietly run in the legacy era.
//   - ProtocolAuto: whichever the server speaks, asked for in the order
//     that costs a stateful server no extra round trip (handshake below).
const (
	ProtocolLegacy = "2025-11-25"
	ProtocolModern = "2026-07-28"
	ProtocolAuto   = "auto"
)

// Protocols are the values a declaration's protocol and --protocol accept.
func Protocols() []string { return []string{ProtocolLegacy, ProtocolModern, ProtocolAuto} }

// ValidProtocol reports whether p is one of Protocols, or "" (the default).
func ValidProtocol(p string) bool {
	return p == "" || p == ProtocolLegacy || p == ProtocolModern || p == ProtocolAuto
}

// Era names a negotiated protocol version's era and what the era means for
// the features that differ between the two: elicitation, server logs and
// sampling. mcp ls and the TUI show it beside the version.
type Era struct {
	Name string `json:"name"` // "legacy" or "modern"
	// Summary says the three in one line (the TUI's server details).
	Summary     string `json:"summary"`
	Elicitation string `json:"elicitation"`
	Logs        string `json:"logs"`
	Sampling    string `json:"sampling"`
}

// EraOf is the era of a negotiated protocol version ("" for none yet).
func EraOf(version string) *Era {
	switch {
	case version == "":
		return nil
	case version >= ProtocolModern:
		return &Era{
			Name:        "modern",
			Summary:     "elicitation and sampling come back as input requests; logs only for requests carrying a level",
			Elicitation: "returned with the tool result as an input request; relavium asks you, then retries the call with your answer",
			Logs:        "sent only for requests that carry a log level (relavium puts its level on each request); no standalone stream",
			Sampling:    "returned with the tool result as an input request, answered like elicitation, then the call is retried",
		}
	}
	return &Era{
		Name:        "legacy",
		Summary:     "elicitation and sampling are asked mid-call; logs stream live",
		Elicitation: "the server asks mid-call (elicitation/create); the call waits for your answer",
		Logs:        "streamed live once logging/setLevel is sent (relavium sends it after connecting)",
		Sampling:    "the server asks mid-call (sampling/createMessage); the call waits for the answer",
	}
}

// requested is the protocol the server's declaration asks for ("" is the
// legacy default).
func (c *conn) requested() string {
	if c.srv.Protocol == "" {
		return ProtocolLegacy
	}
	return c.srv.Protocol
}

// handshake opens the session in the era the declaration asks for.
//
// auto asks for the modern era first only where that costs a server that
// turns out to be stateful no extra network round trip: over stdio, a
// websocket (and in memory) the server/discover refusal of a legacy server
// is one more message on the stream already open, answered at once; no
// connection is opened twice and no HTTP request is added. Over Streamable HTTP a stateful server refuses discover
// with a whole extra POST, so auto starts legacy there and moves to the
// modern era only when the answer shows a stateless server (no
// Mcp-Session-Id): such a server keeps no session for the first handshake,
// and only it pays the second. The legacy SSE transport has only the
// legacy handshake.
func (c *conn) handshake(ctx context.Context, tr mcp.Transport) (*mcp.ClientSession, error) {
	want := c.requested()
	version := want
	if want == ProtocolAuto {
		version = ProtocolModern
		if c.srv.Transport == TransportHTTP || c.srv.Transport == TransportSSE {
			version = ProtocolLegacy
		}
	}
	cs, err := c.newClient().Connect(ctx, tr, &mcp.ClientSessionOptions{ProtocolVersion: version})
	if err != nil {
		return nil, err
	}
	got := negotiated(cs)
	switch {
	case want == ProtocolModern && got < ProtocolModern:
		_ = cs.Close()
		return nil, &eraError{got: got}
	case want == ProtocolAuto && c.srv.Transport == TransportHTTP && got < ProtocolModern && cs.ID() == "":
		return c.upgrade(ctx, cs), nil
	}
	return cs, nil
}

// upgrade tries the modern era on a stateless Streamable HTTP server that
// answered a legacy handshake: when it speaks it, the legacy session (of
// which the server kept nothing) is closed and the modern one is kept;
// otherwise the legacy one stays.
func (c *conn) upgrade(ctx context.Context, legacy *mcp.ClientSession) *mcp.ClientSession {
	c.mu.Lock()
	capture, client := c.capture, c.httpClient
	c.mu.Unlock()
	keepLegacy := func() *mcp.ClientSession {
		// The legacy session's transport stays the one discovery reads.
		c.mu.Lock()
		c.capture, c.httpClient = capture, client
		c.mu.Unlock()
		return legacy
	}
	tr, err := c.transport()
	if err != nil {
		return keepLegacy()
	}
	cs, err := c.newClient().Connect(ctx, tr, &mcp.ClientSessionOptions{ProtocolVersion: ProtocolModern})
	if err != nil {
		return keepLegacy()
	}
	if negotiated(cs) < ProtocolModern {
		_ = cs.Close()
		return keepLegacy()
	}
	_ = legacy.Close()
	return cs
}

func negotiated(cs *mcp.ClientSession) string {
	if res := cs.InitializeResult(); res != nil {
		return res.ProtocolVersion
	}
	return ""
}

// eraError is a server that does not speak the era its declaration asks for.
type eraError struct{ got string }

func (e *eraError) Error() string {
	return fmt.Sprintf("the server refused server/discover and answered protocol %s", e.got)
}

func (c *conn) eraFailure(e *eraError) *Error {
	return c.failure0(CodeProtocolEra, fmt.Sprintf("does not speak protocol %s (%s); declare protocol = \"auto\" or \"%s\"", ProtocolModern, e.Error(), ProtocolLegacy), nil)
}

// logLevelMeta puts the log level on every request of a modern session: in
// that era a server sends log notifications only for a request that
// carries one (logging/setLevel has no effect).
func (c *conn) logLevelMeta(next mcp.MethodHandler) mcp.MethodHandler {
	return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
		if cs, ok := req.GetSession().(*mcp.ClientSession); ok && negotiated(cs) >= ProtocolModern {
			if p := req.GetParams(); p != nil && !reflect.ValueOf(p).IsNil() {
				m := p.GetMeta()
				if m == nil {
					m = map[string]any{}
				}
				if _, set := m[mcp.MetaKeyLogLevel]; !set {
					m[mcp.MetaKeyLogLevel] = c.level()
					p.SetMeta(m)
				}
			}
		}
		return next(ctx, method, req)
	}
}
