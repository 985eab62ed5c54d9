package host

import (
	"context"
	"encoding/json"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/relavium/relavium/engine"
	"github.com/relavium/relavium/host/browse"
	"github.com/relavium/relavium/host/discovery"
)

// discover walks the server's tools/list through package discovery (paged
// under the bounds, sanitized, schemas compiled) and compares what it
// admitted with the tools pinned on earlier connects.
//
// A server that does not declare tools is never asked for them, and one
// that declares them but answers tools/list with -32601 offers none: either
// way its catalogue is empty and the server is ready (a resources-only or
// prompts-only server is usable everywhere).
func (c *conn) discover(ctx context.Context, cs *mcp.ClientSession) (*discovery.Catalogue, error) {
	if browse.Capabilities(cs).Tools == nil {
		return &discovery.Catalogue{Server: c.srv.Name}, nil
	}
	cat, err := discovery.Discover(ctx, c.srv.Name, discovery.NewLister(cs, c.capture), discovery.Options{
		Allowlist: c.srv.ToolsAllowlist,
		Denylist:  c.srv.ToolsDenylist,
		Deadline:  c.h.opts.Timeouts.Discovery,
	})
	if err != nil && methodNotFound(err) {
		c.markNotOffered("tools/list")
		return &discovery.Catalogue{Server: c.srv.Name}, nil
	}
	if err != nil {
		return nil, err
	}
	if c.h.opts.Home != "" && c.srv.memory == nil {
		if perr := discovery.NewPinStore(c.h.opts.Home).Observe(c.identity(), cat); perr != nil {
			// The tools are still usable; the person is told the pins are not.
			c.h.em.Emit(engine.Event{Type: engine.EventToolLog, Data: engine.ToolLogData{LogEntry: engine.LogEntry{
				Server: c.srv.Name, Level: "warning", Logger: "relavium", Data: jsonString(perr.Error()),
			}}})
		}
	}
	return cat, nil
}

// identity is what the server's tool pins are keyed by.
func (c *conn) identity() discovery.ServerIdentity {
	id := discovery.ServerIdentity{Name: c.srv.Name, Transport: c.srv.Transport}
	switch {
	case c.srv.Stdio != nil:
		id.Target = c.srv.Stdio.CommandLine()
	case c.srv.Target != nil:
		id.Target = c.srv.shownURL()
	}
	return id
}

// namespace names every admitted tool mcp_{server}_{tool} across all the
// servers of the session (discovery.Namespace: a residual collision skips
// every colliding tool) and counts each server's admitted and skipped tools.
func namespace(conns []*conn) ([]*toolEntry, []engine.SkippedTool) {
	var cats []*discovery.Catalogue
	owner := map[*discovery.Catalogue]*conn{}
	for _, c := range conns {
		c.mu.Lock()
		cat := c.cat
		c.mu.Unlock()
		if cat != nil {
			cats = append(cats, cat)
			owner[cat] = c
		}
	}
	discovery.Namespace(cats)
	var tools []*toolEntry
	var skipped []engine.SkippedTool
	for _, cat := range cats {
		c := owner[cat]
		for _, t := range cat.Tools {
			def := t.Def
			def.Digest = discovery.Digest(t.Canonical())
			tools = append(tools, &toolEntry{def: def, conn: c, tool: t, validate: t.Validate})
		}
		skipped = append(skipped, cat.Skipped...)
		c.mu.Lock()
		c.admitted, c.skipped = len(cat.Tools), len(cat.Skipped)
		c.mu.Unlock()
	}
	return tools, skipped
}

func jsonString(s string) json.RawMessage {
	b, _ := json.Marshal(s)
	return b
}
