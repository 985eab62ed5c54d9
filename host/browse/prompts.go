package browse

import (
	"context"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// ListPrompts lists the session's prompts (empty when it offers none).
func ListPrompts(ctx context.Context, cs *mcp.ClientSession, notOffered NotOffered) ([]Prompt, error) {
	out := []Prompt{}
	if Capabilities(cs).Prompts == nil {
		return out, nil
	}
	err := notOffered("prompts/list", Pages("prompts/list", func(cursor string) (string, error) {
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
	return out, err
}

// GetPrompt renders prompt name with args, its contents converted by
// convert.
func GetPrompt(ctx context.Context, cs *mcp.ClientSession, name string, args map[string]string, convert Convert) (*PromptResult, error) {
	res, err := cs.GetPrompt(ctx, &mcp.GetPromptParams{Name: name, Arguments: args})
	if err != nil {
		return nil, err
	}
	wrapped := &mcp.CallToolResult{}
	var roles []string
	for _, m := range res.Messages {
		if m != nil && m.Content != nil {
			wrapped.Content = append(wrapped.Content, m.Content)
			roles = append(roles, string(m.Role))
		}
	}
	conv, err := convert("prompts/get "+name, wrapped)
	if err != nil {
		return nil, err
	}
	out := &PromptResult{Description: res.Description, Messages: []PromptMessage{}}
	// convert keeps the order and drops only kinds it does not know; pair
	// roles with contents by walking both in step.
	j := 0
	for i, c := range wrapped.Content {
		if !convertible(c) {
			continue
		}
		out.Messages = append(out.Messages, PromptMessage{Role: roles[i], Content: conv.Content[j]})
		j++
	}
	return out, nil
}

// convertible reports whether host's conversion keeps a content of c's kind.
func convertible(c mcp.Content) bool {
	switch v := c.(type) {
	case *mcp.TextContent, *mcp.ImageContent, *mcp.AudioContent, *mcp.ResourceLink:
		return true
	case *mcp.EmbeddedResource:
		return v.Resource != nil
	}
	return false
}
