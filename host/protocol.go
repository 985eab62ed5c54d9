package host

import (
	"context"
	"fmt"
	"reflect"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/relavium/relavium/host/era"
	"github.com/relavium/relavium/host/failure"
)

// requested is the protocol the server's declaration asks for ("" is the
// legacy default).
func (c *conn) requested() string {
	if c.srv.Protocol == "" {
		return era.ProtocolLegacy
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
	if want == era.ProtocolAuto {
		version = era.ProtocolModern
		if c.srv.Transport == TransportHTTP || c.srv.Transport == TransportSSE {
			version = era.ProtocolLegacy
		}
	}
	cs, err := c.newClient().Connect(ctx, tr, &mcp.ClientSessionOptions{ProtocolVersion: version})
	if err != nil {
		return nil, err
	}
	got := era.Negotiated(cs)
	switch {
	case want == era.ProtocolModern && got < era.ProtocolModern:
		_ = cs.Close()
		return nil, &era.Refusal{Got: got}
	case want == era.ProtocolAuto && c.srv.Transport == TransportHTTP && got < era.ProtocolModern && cs.ID() == "":
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
	cs, err := c.newClient().Connect(ctx, tr, &mcp.ClientSessionOptions{ProtocolVersion: era.ProtocolModern})
	if err != nil {
		return keepLegacy()
	}
	if era.Negotiated(cs) < era.ProtocolModern {
		_ = cs.Close()
		return keepLegacy()
	}
	_ = legacy.Close()
	return cs
}

func (c *conn) eraFailure(e *era.Refusal) *failure.Error {
	return c.failure0(failure.CodeProtocolEra, fmt.Sprintf("does not speak protocol %s (%s); declare protocol = \"auto\" or \"%s\"", era.ProtocolModern, e.Error(), era.ProtocolLegacy), nil)
}

// logLevelMeta puts the log level on every request of a modern session: in
// that era a server sends log notifications only for a request that
// carries one (logging/setLevel has no effect).
func (c *conn) logLevelMeta(next mcp.MethodHandler) mcp.MethodHandler {
	return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
		if cs, ok := req.GetSession().(*mcp.ClientSession); ok && era.Negotiated(cs) >= era.ProtocolModern {
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
