package demoserver

import (
	"context"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// answeredTransport counts, in f, the calls read from the client and not yet
// answered. Shutdown waits for the count to reach zero before it closes the
// session, which from then on refuses to write: that is how a call cut off
// by shutdown still receives its answer.
type answeredTransport struct {
	mcp.Transport
	f *inflight
}

func (t answeredTransport) Connect(ctx context.Context) (mcp.Connection, error) {
	c, err := t.Transport.Connect(ctx)
	if err != nil {
		return nil, err
	}
	return &answeredConn{Connection: c, f: t.f, open: map[jsonrpc.ID]bool{}}, nil
}

type answeredConn struct {
	mcp.Connection
	f    *inflight
	mu   sync.Mutex
	open map[jsonrpc.ID]bool
}

func (c *answeredConn) Read(ctx context.Context) (jsonrpc.Message, error) {
	msg, err := c.Connection.Read(ctx)
	if req, ok := msg.(*jsonrpc.Request); ok && err == nil && req.IsCall() {
		c.mu.Lock()
		if !c.open[req.ID] {
			c.open[req.ID] = true
			c.f.begin()
		}
		c.mu.Unlock()
	}
	return msg, err
}

func (c *answeredConn) Write(ctx context.Context, msg jsonrpc.Message) error {
	err := c.Connection.Write(ctx, msg)
	if resp, ok := msg.(*jsonrpc.Response); ok {
		c.answered(resp.ID)
	}
	return err
}

func (c *answeredConn) answered(id jsonrpc.ID) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.open[id] {
		delete(c.open, id)
		c.f.end()
	}
}

// Close forgets the calls that will never be answered.
func (c *answeredConn) Close() error {
	err := c.Connection.Close()
	c.mu.Lock()
	defer c.mu.Unlock()
	for id := range c.open {
		delete(c.open, id)
		c.f.end()
	}
	return err
}
