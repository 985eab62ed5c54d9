package host

import (
	"context"
	"errors"
	"fmt"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/relavium/relavium/engine"
	"github.com/relavium/relavium/fault"
	"github.com/relavium/relavium/host/deadline"
	"github.com/relavium/relavium/host/failure"
)

// Browsing a server's resources and prompts (the TUI's resources and
// prompts tabs). Every request is bounded like a tools/call: the call
// deadline, the host's and the server's lifetimes, the 1 MiB text bound
// (contents are converted by convertResult), and a page cap on listings.

// browseMaxPages caps a resources/list, resources/templates/list or
// prompts/list walk (a server repeating cursors cannot hold the caller).
const browseMaxPages = 100

// Resource is one resource a server lists. Text fields are the server's,
// unsanitized: whoever shows them sanitizes them.
type Resource struct {
	URI         string `json:"uri"`
	Name        string `json:"name"`
	Title       string `json:"title,omitempty"`
	Description string `json:"description,omitempty"`
	MIMEType    string `json:"mime_type,omitempty"`
	Size        int64  `json:"size,omitempty"`
}

// ResourceTemplate is one RFC 6570 resource template a server lists.
type ResourceTemplate struct {
	URITemplate string `json:"uri_template"`
	Name        string `json:"name"`
	Title       string `json:"title,omitempty"`
	Description string `json:"description,omitempty"`
	MIMEType    string `json:"mime_type,omitempty"`
}

// ResourceList is what a server offers to read. Offered is false when the
// server does not declare the resources capability (the lists are empty).
// NotOffered names the lists it declared but answered -32601
// (resources/list, resources/templates/list): each is empty, not a failure.
type ResourceList struct {
	Offered    bool               `json:"offered"`
	Resources  []Resource         `json:"resources"`
	Templates  []ResourceTemplate `json:"templates"`
	NotOffered []string           `json:"not_offered,omitempty"`
}

// PromptArgument is one argument of a prompt.
type PromptArgument struct {
	Name        string `json:"name"`
	Title       string `json:"title,omitempty"`
	Description string `json:"description,omitempty"`
	Required    bool   `json:"required,omitempty"`
}

// Prompt is one prompt a server lists.
type Prompt struct {
	Name        string           `json:"name"`
	Title       string           `json:"title,omitempty"`
	Description string           `json:"description,omitempty"`
	Arguments   []PromptArgument `json:"arguments,omitempty"`
}

// PromptMessage is one message of a rendered prompt.
type PromptMessage struct {
	Role    string         `json:"role"`
	Content engine.Content `json:"content"`
}

// PromptResult is a rendered prompt.
type PromptResult struct {
	Description string          `json:"description,omitempty"`
	Messages    []PromptMessage `json:"messages"`
}

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

// capabilities returns the server's declared capabilities (never nil).
func capabilities(cs *mcp.ClientSession) *mcp.ServerCapabilities {
	if res := cs.InitializeResult(); res != nil && res.Capabilities != nil {
		return res.Capabilities
	}
	return &mcp.ServerCapabilities{}
}

// Resources lists server's resources and resource templates.
func (h *Host) Resources(ctx context.Context, server string) (*ResourceList, error) {
	out := &ResourceList{Resources: []Resource{}, Templates: []ResourceTemplate{}}
	err := h.browse(ctx, server, "resources/list", func(ctx context.Context, c *conn, cs *mcp.ClientSession) error {
		if capabilities(cs).Resources == nil {
			return nil
		}
		out.Offered = true
		err := c.listOrNotOffered("resources/list", listPages("resources/list", func(cursor string) (string, error) {
			res, err := cs.ListResources(ctx, &mcp.ListResourcesParams{Cursor: cursor})
			if err != nil {
				return "", err
			}
			for _, r := range res.Resources {
				if r != nil {
					out.Resources = append(out.Resources, Resource{URI: r.URI, Name: r.Name, Title: r.Title,
						Description: r.Description, MIMEType: r.MIMEType, Size: r.Size})
				}
			}
			return res.NextCursor, nil
		}))
		if err != nil {
			return err
		}
		return c.listOrNotOffered("resources/templates/list", listPages("resources/templates/list", func(cursor string) (string, error) {
			res, err := cs.ListResourceTemplates(ctx, &mcp.ListResourceTemplatesParams{Cursor: cursor})
			if err != nil {
				return "", err
			}
			for _, t := range res.ResourceTemplates {
				if t != nil {
					out.Templates = append(out.Templates, ResourceTemplate{URITemplate: t.URITemplate, Name: t.Name,
						Title: t.Title, Description: t.Description, MIMEType: t.MIMEType})
				}
			}
			return res.NextCursor, nil
		}))
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

// listPages walks a paginated listing: page fetches the page at cursor
// ("" first) and returns the next cursor, "" after the last page. A walk
// longer than browseMaxPages is an error naming method.
func listPages(method string, page func(cursor string) (next string, err error)) error {
	cursor := ""
	for n := 0; ; n++ {
		if n == browseMaxPages {
			return fmt.Errorf("%s: more than %d pages", method, browseMaxPages)
		}
		next, err := page(cursor)
		if err != nil {
			return err
		}
		if cursor = next; cursor == "" {
			return nil
		}
	}
}

// ReadResource reads one resource. Each part comes back as a "resource"
// content (text or blob), under the 1 MiB text bound of a tool result.
func (h *Host) ReadResource(ctx context.Context, server, uri string) ([]engine.Content, error) {
	var out []engine.Content
	err := h.browse(ctx, server, "resources/read "+uri, func(ctx context.Context, _ *conn, cs *mcp.ClientSession) error {
		res, err := cs.ReadResource(ctx, &mcp.ReadResourceParams{URI: uri})
		if err != nil {
			return err
		}
		wrapped := &mcp.CallToolResult{}
		for _, rc := range res.Contents {
			if rc != nil {
				wrapped.Content = append(wrapped.Content, &mcp.EmbeddedResource{Resource: rc})
			}
		}
		conv, cerr := convertResult("resources/read "+uri, wrapped)
		if cerr != nil {
			return cerr
		}
		out = conv.Content
		return nil
	})
	if err != nil {
		return nil, unwrapBound(err)
	}
	return out, nil
}

// Prompts lists server's prompts (empty when it offers none).
func (h *Host) Prompts(ctx context.Context, server string) ([]Prompt, error) {
	out := []Prompt{}
	err := h.browse(ctx, server, "prompts/list", func(ctx context.Context, c *conn, cs *mcp.ClientSession) error {
		if capabilities(cs).Prompts == nil {
			return nil
		}
		return c.listOrNotOffered("prompts/list", listPages("prompts/list", func(cursor string) (string, error) {
			res, err := cs.ListPrompts(ctx, &mcp.ListPromptsParams{Cursor: cursor})
			if err != nil {
				return "", err
			}
			for _, p := range res.Prompts {
				if p == nil {
					continue
				}
				pr := Prompt{Name: p.Name, Title: p.Title, Description: p.Description}
				for _, a := range p.Arguments {
					if a != nil {
						pr.Arguments = append(pr.Arguments, PromptArgument{Name: a.Name, Title: a.Title, Description: a.Description, Required: a.Required})
					}
				}
				out = append(out, pr)
			}
			return res.NextCursor, nil
		}))
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// GetPrompt renders prompt name with args, under the 1 MiB text bound.
func (h *Host) GetPrompt(ctx context.Context, server, name string, args map[string]string) (*PromptResult, error) {
	var out *PromptResult
	err := h.browse(ctx, server, "prompts/get "+name, func(ctx context.Context, _ *conn, cs *mcp.ClientSession) error {
		res, err := cs.GetPrompt(ctx, &mcp.GetPromptParams{Name: name, Arguments: args})
		if err != nil {
			return err
		}
		wrapped := &mcp.CallToolResult{}
		var roles []string
		for _, m := range res.Messages {
			if m != nil && m.Content != nil {
				wrapped.Content = append(wrapped.Content, m.Content)
				roles = append(roles, string(m.Role))
			}
		}
		conv, cerr := convertResult("prompts/get "+name, wrapped)
		if cerr != nil {
			return cerr
		}
		out = &PromptResult{Description: res.Description, Messages: []PromptMessage{}}
		// convertResult keeps the order and drops only kinds it does not
		// know; pair roles with contents by walking both in step.
		j := 0
		for i, c := range wrapped.Content {
			if !convertible(c) {
				continue
			}
			out.Messages = append(out.Messages, PromptMessage{Role: roles[i], Content: conv.Content[j]})
			j++
		}
		return nil
	})
	if err != nil {
		return nil, unwrapBound(err)
	}
	return out, nil
}

// convertible reports whether convertResult keeps a content of c's kind.
func convertible(c mcp.Content) bool {
	switch v := c.(type) {
	case *mcp.TextContent, *mcp.ImageContent, *mcp.AudioContent, *mcp.ResourceLink:
		return true
	case *mcp.EmbeddedResource:
		return v.Resource != nil
	}
	return false
}

// unwrapBound returns the 1 MiB refusal itself rather than a call failure
// wrapping it.
func unwrapBound(err error) error {
	var e *failure.Error
	if errors.As(err, &e) && e.ErrCode == failure.CodeCallFailed {
		var inner *failure.Error
		if errors.As(e.Cause, &inner) && inner.ErrCode == failure.CodeResultTooLarge {
			return inner
		}
	}
	return err
}
