package host

import (
	"context"
	"errors"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/relavium/relavium/engine"
	"github.com/relavium/relavium/fault"
	"github.com/relavium/relavium/host/browse"
	"github.com/relavium/relavium/host/deadline"
	"github.com/relavium/relavium/host/failure"
)

// Browsing a server's resources and prompts (the TUI's resources and
// prompts tabs). Every request is bounded like a tools/call: the call
// deadline, the host's and the server's lifetimes, the 1 MiB text bound
// (contents are converted by convertResult), and a page cap on listings
// (host/browse holds the requests as they run on the session).

// The browse types (host/browse).
type (
	Resource         = browse.Resource
	ResourceTemplate = browse.ResourceTemplate
	ResourceList     = browse.ResourceList
	PromptArgument   = browse.PromptArgument
	Prompt           = browse.Prompt
	PromptMessage    = browse.PromptMessage
	PromptResult     = browse.PromptResult
)

// browse runs fn on server's session under the call deadline, tracked like
// a call so that Close cancels it first and waits for it.
func (h *Host) browse(ctx context.Context, server, what string, fn func(context.Context, *conn, *mcp.ClientSession) error) error {
	h.mu.Lock()
	if h.closing {
		h.mu.Unlock()
		return &failure.Error{Base: fault.Base{ErrCode: failure.CodeHostClosed, Msg: "the MCP host is closed"}}
	}
	var c *conn
	for _, x := range h.conns {
		if x.srv.Name == server {
			c = x
		}
	}
	if c == nil {
		h.mu.Unlock()
		return &failure.Error{Base: fault.Base{ErrCode: failure.CodeServerNotReady, Msg: "is not connected in this session"}, Server: server}
	}
	h.calls.Add(1)
	h.mu.Unlock()
	defer h.calls.Done()

	if f := c.failure(); f != nil {
		return &failure.Error{Base: fault.Base{ErrCode: failure.CodeServerNotReady, Msg: "is not running", Cause: f}, Server: server}
	}
	cs := c.session()
	if cs == nil {
		return &failure.Error{Base: fault.Base{ErrCode: failure.CodeServerNotReady, Msg: "has no session"}, Server: server}
	}
	callCtx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	stop := context.AfterFunc(c.ctx, func() { cancel(context.Cause(c.ctx)) })
	defer stop()
	deadline := &deadline.Cause{What: what, D: h.opts.Timeouts.Call}
	tctx, tcancel := context.WithTimeoutCause(callCtx, h.opts.Timeouts.Call, deadline)
	defer tcancel()
	tctx = c.trapRefusals(tctx)
	endLogs := c.logs.Begin(0, nil) // in flight: a log now may be its, so it is no call's
	err := fn(tctx, c, cs)
	endLogs()
	if he := (*failure.Error)(nil); errors.As(err, &he) && (he.ErrCode == failure.CodeNotOffered || he.ErrCode == failure.CodeNoRawPath) {
		return he // refused before anything was sent
	}
	if err != nil {
		return c.callFailure(ctx, tctx, deadline, what, err)
	}
	return nil
}

// Resources lists server's resources and resource templates.
func (h *Host) Resources(ctx context.Context, server string) (*ResourceList, error) {
	out := &ResourceList{Resources: []Resource{}, Templates: []ResourceTemplate{}}
	err := h.browse(ctx, server, "resources/list", func(ctx context.Context, c *conn, cs *mcp.ClientSession) error {
		return browse.ListResources(ctx, cs, out, c.listOrNotOffered)
	})
	if err != nil {
		return nil, err
	}
	for _, m := range h.notOffered(server) {
		if m == "resources/list" || m == "resources/templates/list" {
			out.NotOffered = append(out.NotOffered, m)
		}
	}
	return out, nil
}

// ReadResource reads one resource. Each part comes back as a "resource"
// content (text or blob), under the 1 MiB text bound of a tool result.
func (h *Host) ReadResource(ctx context.Context, server, uri string) ([]engine.Content, error) {
	var out []engine.Content
	err := h.browse(ctx, server, "resources/read "+uri, func(ctx context.Context, _ *conn, cs *mcp.ClientSession) (err error) {
		out, err = browse.ReadResource(ctx, cs, uri, convertResult)
		return err
	})
	if err != nil {
		return nil, browse.UnwrapBound(err)
	}
	return out, nil
}

// Prompts lists server's prompts (empty when it offers none).
func (h *Host) Prompts(ctx context.Context, server string) ([]Prompt, error) {
	var out []Prompt
	err := h.browse(ctx, server, "prompts/list", func(ctx context.Context, c *conn, cs *mcp.ClientSession) (err error) {
		out, err = browse.ListPrompts(ctx, cs, c.listOrNotOffered)
		return err
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// GetPrompt renders prompt name with args, under the 1 MiB text bound.
func (h *Host) GetPrompt(ctx context.Context, server, name string, args map[string]string) (*PromptResult, error) {
	var out *PromptResult
	err := h.browse(ctx, server, "prompts/get "+name, func(ctx context.Context, _ *conn, cs *mcp.ClientSession) (err error) {
		out, err = browse.GetPrompt(ctx, cs, name, args, convertResult)
		return err
	})
	if err != nil {
		return nil, browse.UnwrapBound(err)
	}
	return out, nil
}
