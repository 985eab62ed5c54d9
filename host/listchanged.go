package host

import (
	"context"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/relavium/relavium/engine"
	"github.com/relavium/relavium/host/discovery"
)

// A server's notifications/tools|prompts|resources/list_changed. A changed
// tool list is walked again exactly as at connect (discovery's bounds and
// checks, every tool pinned and compared with the definition the person
// accepted: a changed one is flagged until accepted), and replaces the
// server's catalogue; a tool whose definition did not change keeps its
// id. Prompts and resources are read on demand, so their notifications
// only tell whoever shows them to read them again. Each is reported as an
// mcp:list_changed event (ListChangedData).

// ListChangedData is the payload of engine.EventListChanged.
type ListChangedData struct {
	Server string `json:"server"`
	List   string `json:"list"` // tools, prompts or resources
	// Tools and Skipped count the refreshed tool list (List "tools").
	Tools   int `json:"tools,omitempty"`
	Skipped int `json:"skipped,omitempty"`
	// Error says why a refreshed tool list could not be read; the
	// catalogue read before stays.
	Error string `json:"error,omitempty"`
}

func (c *conn) onToolsChanged(context.Context, *mcp.ToolListChangedRequest) { c.refreshTools() }

func (c *conn) onPromptsChanged(context.Context, *mcp.PromptListChangedRequest) {
	c.h.em.Emit(engine.Event{Type: engine.EventListChanged, Data: ListChangedData{Server: c.srv.Name, List: "prompts"}})
}

func (c *conn) onResourcesChanged(context.Context, *mcp.ResourceListChangedRequest) {
	c.h.em.Emit(engine.Event{Type: engine.EventListChanged, Data: ListChangedData{Server: c.srv.Name, List: "resources"}})
}

// refreshTools starts a walk of the tool list, or, when one runs, has it
// walk once more when it ends (notifications that come in a burst cost one
// or two walks). It never blocks the SDK's notification goroutine.
func (c *conn) refreshTools() {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.refreshEnded || c.ctx.Err() != nil || c.cat == nil {
		return // not ready yet (the walk at connect is still to come), or ended
	}
	if c.refreshing {
		c.refreshAgain = true
		return
	}
	c.refreshing = true
	c.refreshes.Add(1)
	go c.refreshLoop()
}

func (c *conn) refreshLoop() {
	defer c.refreshes.Done()
	for {
		c.walkAgain()
		c.mu.Lock()
		if !c.refreshAgain || c.ctx.Err() != nil {
			c.refreshing = false
			c.mu.Unlock()
			return
		}
		c.refreshAgain = false
		c.mu.Unlock()
	}
}

// walkAgain walks the tool list under the discovery deadline and, if the
// server is still in the set, puts the new catalogue in place of the old.
func (c *conn) walkAgain() {
	cs := c.session()
	if cs == nil {
		return
	}
	ctx, cancel := context.WithTimeout(c.ctx, c.h.opts.Timeouts.Discovery)
	cat, err := c.discover(ctx, cs)
	cancel()
	if err != nil {
		if c.ctx.Err() == nil {
			c.h.em.Emit(engine.Event{Type: engine.EventListChanged, Data: ListChangedData{Server: c.srv.Name, List: "tools",
				Error: "the changed tool list could not be read; the tools read before stay: " + c.redactText(err.Error())}})
		}
		return
	}
	h := c.h
	h.mu.Lock()
	if h.closing || h.findLocked(c.srv.Name) != c {
		h.mu.Unlock()
		return
	}
	c.mu.Lock()
	old := c.cat
	c.cat = cat
	c.mu.Unlock()
	keepIDs(h.ids, old, cat)
	h.renamespace()
	h.mu.Unlock()
	h.emitSkipped(cat.Skipped)
	c.emit(engine.StateReady, nil) // the new count; faces read the catalogue again
	h.em.Emit(engine.Event{Type: engine.EventListChanged, Data: ListChangedData{Server: c.srv.Name, List: "tools",
		Tools: len(cat.Tools), Skipped: len(cat.Skipped)}})
}

// keepIDs gives each tool of the new catalogue whose definition is the one
// it had the id it had (ids is h.ids, h.mu held).
func keepIDs(ids map[*discovery.Tool]engine.ToolID, old, cat *discovery.Catalogue) {
	if old == nil {
		return
	}
	was := map[string]*discovery.Tool{}
	for _, t := range old.Tools {
		was[t.Def.Tool] = t
	}
	for _, t := range cat.Tools {
		if o := was[t.Def.Tool]; o != nil && discovery.Digest(o.Canonical()) == discovery.Digest(t.Canonical()) {
			if id, ok := ids[o]; ok {
				ids[t] = id
			}
		}
	}
}
