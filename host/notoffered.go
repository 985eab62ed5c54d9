package host

import (
	"errors"
	"slices"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
)

// A list the server declares but refuses is "not offered", not a failure.
// The MCP capabilities say which lists a server has; within one, some
// implementations answer a list they never registered a handler for with
// JSON-RPC -32601 (method not found): the TypeScript SDK's low-level
// Server declares resources and then refuses resources/templates/list,
// for one. Such a list is taken as empty and the refusal is recorded per
// list (ServerStatus.NotOffered, Definitions.NotOffered, the lock), so a
// person sees which list was refused rather than an empty one.

// methodNotFound reports whether err carries the server's -32601 answer.
func methodNotFound(err error) bool {
	var je *jsonrpc.Error
	return errors.As(err, &je) && je.Code == jsonrpc.CodeMethodNotFound
}

// markNotOffered records that the server answered method with -32601.
func (c *conn) markNotOffered(method string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if i, found := slices.BinarySearch(c.notOffered, method); !found {
		c.notOffered = slices.Insert(c.notOffered, i, method)
	}
}

// listOrNotOffered is err, unless it is the server's -32601 answer to
// method: then the refusal is recorded and the list is empty (nil).
func (c *conn) listOrNotOffered(method string, err error) error {
	if err != nil && methodNotFound(err) {
		c.markNotOffered(method)
		return nil
	}
	return err
}

// notOffered is server's recorded refusals (nil when it is not connected).
func (h *Host) notOffered(server string) []string {
	for _, c := range h.connList() {
		if c.srv.Name == server {
			c.mu.Lock()
			defer c.mu.Unlock()
			return slices.Clone(c.notOffered)
		}
	}
	return nil
}
