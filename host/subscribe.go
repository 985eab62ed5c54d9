package host

import (
	"context"
	"fmt"
	"slices"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/relavium/relavium/engine"
	"github.com/relavium/relavium/fault"
	"github.com/relavium/relavium/host/browse"
	"github.com/relavium/relavium/host/failure"
)

// Resource subscriptions (resources/subscribe, resources/unsubscribe) and
// the notifications/resources/updated they bring. An update is reported
// (mcp:resource_updated) only for a uri this session subscribed to on that
// server: a server cannot make the workbench refresh, or show, a uri the
// person never chose.

// maxSubscriptions bounds one server's subscriptions in a session.
const maxSubscriptions = 256

// ResourceUpdatedData is the payload of mcp:resource_updated. URI is the
// subscribed uri, exactly as the person subscribed to it.
type ResourceUpdatedData struct {
	Server string `json:"server"`
	URI    string `json:"uri"`
}

// Subscribe asks server for notifications/resources/updated about uri. A
// server that does not declare resources.subscribe is refused before
// anything is sent (E920); past 256 subscriptions on one server, E922.
func (h *Host) Subscribe(ctx context.Context, server, uri string) error {
	return h.browse(ctx, server, "resources/subscribe "+uri, func(ctx context.Context, c *conn, cs *mcp.ClientSession) error {
		if r := browse.Capabilities(cs).Resources; r == nil || !r.Subscribe {
			return &failure.Error{Base: fault.Base{ErrCode: failure.CodeNotOffered, Msg: "does not offer resource subscriptions (no resources.subscribe capability)"}, Server: server}
		}
		c.mu.Lock()
		n, had := len(c.subs), slices.Contains(c.subs, uri)
		c.mu.Unlock()
		if had {
			return nil
		}
		if n >= maxSubscriptions {
			return &failure.Error{Base: fault.Base{ErrCode: failure.CodeTooManySubscriptions, Msg: fmt.Sprintf("has %d subscriptions already, the most one server may have; unsubscribe from one first", n)}, Server: server}
		}
		if err := cs.Subscribe(ctx, &mcp.SubscribeParams{URI: uri}); err != nil {
			return err
		}
		c.mu.Lock()
		if !slices.Contains(c.subs, uri) {
			c.subs = append(c.subs, uri)
		}
		c.mu.Unlock()
		return nil
	})
}

// Unsubscribe ends a subscription to uri (a uri not subscribed is a no-op:
// nothing is sent).
func (h *Host) Unsubscribe(ctx context.Context, server, uri string) error {
	return h.browse(ctx, server, "resources/unsubscribe "+uri, func(ctx context.Context, c *conn, cs *mcp.ClientSession) error {
		c.mu.Lock()
		had := slices.Contains(c.subs, uri)
		c.mu.Unlock()
		if !had {
			return nil
		}
		// Forgotten first: whatever the server answers, no more updates
		// of uri are reported.
		c.mu.Lock()
		c.subs = slices.DeleteFunc(c.subs, func(s string) bool { return s == uri })
		c.mu.Unlock()
		return cs.Unsubscribe(ctx, &mcp.UnsubscribeParams{URI: uri})
	})
}

// Subscriptions lists the uris this session subscribed to on server, in
// the order subscribed.
func (h *Host) Subscriptions(server string) []string {
	c := h.connNamed(server)
	if c == nil {
		return nil
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	return slices.Clone(c.subs)
}

// connNamed is server's connection, or nil.
func (h *Host) connNamed(server string) *conn {
	h.mu.Lock()
	defer h.mu.Unlock()
	for _, c := range h.conns {
		if c.srv.Name == server {
			return c
		}
	}
	return nil
}

// onResourceUpdated is the SDK's handler of notifications/resources/updated.
// It never blocks: Emit does not.
func (c *conn) onResourceUpdated(_ context.Context, req *mcp.ResourceUpdatedNotificationRequest) {
	if req == nil || req.Params == nil {
		return
	}
	c.mu.Lock()
	subscribed := slices.Contains(c.subs, req.Params.URI)
	c.mu.Unlock()
	if subscribed {
		c.h.em.Emit(engine.Event{Type: engine.EventResourceUpdated, Data: ResourceUpdatedData{Server: c.srv.Name, URI: req.Params.URI}})
	}
}
