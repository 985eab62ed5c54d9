package host

import (
	"slices"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/relavium/relavium/fault"
	"github.com/relavium/relavium/host/clientside"
	"github.com/relavium/relavium/host/failure"
)

// Roots offered to servers (what a root is: host/clientside).

// Roots is the list offered now (nil when the host offers no roots).
func (h *Host) Roots() []clientside.Root {
	h.client.mu.Lock()
	defer h.client.mu.Unlock()
	return slices.Clone(h.client.roots)
}

// SetRoots replaces the offered roots with dirs (all of them resolved
// first: one bad directory changes nothing) and tells every connected
// server (notifications/roots/list_changed). It is refused (E905) on a
// host started without roots: the capability was not declared.
func (h *Host) SetRoots(dirs []string) error {
	if h.opts.Roots == nil {
		return &failure.Error{Base: fault.Base{ErrCode: failure.CodeBadRoot, Msg: "this session offers no roots", Exit: fault.ExitUsage}}
	}
	roots, err := clientside.ResolveRoots(dirs)
	if err != nil {
		return err
	}
	cs := &h.client
	cs.mu.Lock()
	old := cs.roots
	cs.roots = roots
	clients := make([]*mcp.Client, 0, len(cs.clients))
	for _, cl := range cs.clients {
		clients = append(clients, cl)
	}
	cs.mu.Unlock()
	var gone []string
	for _, r := range old {
		if !slices.Contains(roots, r) {
			gone = append(gone, r.URI)
		}
	}
	var added []*mcp.Root
	for _, r := range roots {
		if !slices.Contains(old, r) {
			added = append(added, r.MCP())
		}
	}
	for _, cl := range clients { // each change notifies that client's session
		if len(gone) > 0 {
			cl.RemoveRoots(gone...)
		}
		if len(added) > 0 {
			cl.AddRoots(added...)
		}
	}
	return nil
}
