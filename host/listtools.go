package host

import (
	"context"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// ListTools asks server for its tools now, every page, and returns how
// many it listed. Nothing is admitted or changed: the session's tools stay
// those discovery admitted (this is the request `mcp bench --method
// tools/list` loads a server with).
func (h *Host) ListTools(ctx context.Context, server string) (int, error) {
	n := 0
	err := h.browse(ctx, server, "tools/list", func(ctx context.Context, _ *conn, cs *mcp.ClientSession) error {
		for _, err := range cs.Tools(ctx, nil) {
			if err != nil {
				return err
			}
			n++
		}
		return nil
	})
	return n, err
}
