package host

import (
	"context"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/relavium/relavium/host/clientside"
)

// onElicit answers a server's elicitation/create on c (clientside.Elicit).
func (c *conn) onElicit(ctx context.Context, req *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
	return clientside.Elicit(ctx, clientside.Elicitation{Server: c.srv.Name, Elicitor: c.h.opts.Elicitor, URL: c.h.opts.URLElicitation,
		Orders: &c.fieldOrders, Text: c.redactText, Raw: c.redactJSON, Emit: c.h.em.Emit,
		Hold: func() func() { return c.h.client.hold(c) }, Life: c.ctx}, req)
}
