package browse

import (
	"context"
	"errors"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/relavium/relavium/engine"
	"github.com/relavium/relavium/host/failure"
)

// Convert turns a result into relavium's, under the 1 MiB text bound of a
// tool result (host's convertResult).
type Convert func(tool string, res *mcp.CallToolResult) (*engine.ToolResult, error)

// NotOffered is err, unless it is the server's -32601 answer to method:
// then the caller records the refusal and the list is empty (nil).
type NotOffered func(method string, err error) error

// ListResources lists the session's resources and resource templates into
// out (a server that does not declare resources leaves it not offered).
func ListResources(ctx context.Context, cs *mcp.ClientSession, out *ResourceList, notOffered NotOffered) error {
	if Capabilities(cs).Resources == nil {
		return nil
	}
	out.Offered = true
	err := notOffered("resources/list", Pages("resources/list", func(cursor string) (string, error) {
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
	return notOffered("resources/templates/list", Pages("resources/templates/list", func(cursor string) (string, error) {
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
}

// ReadResource reads one resource. Each part comes back as a "resource"
// content (text or blob), converted by convert.
func ReadResource(ctx context.Context, cs *mcp.ClientSession, uri string, convert Convert) ([]engine.Content, error) {
	res, err := cs.ReadResource(ctx, &mcp.ReadResourceParams{URI: uri})
	if err != nil {
		return nil, err
	}
	wrapped := &mcp.CallToolResult{}
	for _, rc := range res.Contents {
		if rc != nil {
			wrapped.Content = append(wrapped.Content, &mcp.EmbeddedResource{Resource: rc})
		}
	}
	conv, err := convert("resources/read "+uri, wrapped)
	if err != nil {
		return nil, err
	}
	return conv.Content, nil
}

// UnwrapBound returns the 1 MiB refusal itself rather than a call failure
// wrapping it.
func UnwrapBound(err error) error {
	var e *failure.Error
	if errors.As(err, &e) && e.ErrCode == failure.CodeCallFailed {
		var inner *failure.Error
		if errors.As(e.Cause, &inner) && inner.ErrCode == failure.CodeResultTooLarge {
			return inner
		}
	}
	return err
}
