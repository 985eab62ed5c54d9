package netguard

import (
	"context"
	"net/http"

	"github.com/coder/websocket"
)

// DialWebsocket is the only way host opens a websocket connection: it dials
// an admitted websocket Target through the guard (one resolution, every
// answer range-checked, pinned connect, TLS verification with the hostname as
// SNI, WithProxy's proxy if any, 3xx refused). Admission already refused a websocket without
// allow_local_endpoint; here a target that resolves public is refused too, so
// only a local, opted-in server is ever reached. The handshake uses HTTP/1.1;
// opts.HTTPClient and opts.Host are replaced (the guard's client, the
// admitted host).
//
// A websocket stream has the application bounds only (docs/mcp-integration.md
// "Discovery and result ingress bounds"); set a read limit on the returned conn.
func (g *Guard) DialWebsocket(ctx context.Context, t *Target, opts *websocket.DialOptions) (*websocket.Conn, *http.Response, error) {
	if e := g.owns(t, true); e != nil {
		return nil, nil, e
	}
	var o websocket.DialOptions
	if opts != nil {
		o = *opts
	}
	rt, e := g.roundTripper(t)
	if e != nil {
		return nil, nil, e
	}
	// The upgraded connection is owned by the websocket.Conn; anything left
	// idle in this one-dial pool (a refused handshake) is closed with it.
	defer rt.CloseIdleConnections()
	o.HTTPClient = &http.Client{Transport: rt, CheckRedirect: refuseRedirects}
	o.Host = ""
	return websocket.Dial(ctx, t.url, &o)
}
