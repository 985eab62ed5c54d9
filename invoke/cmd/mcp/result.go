package mcp

import (
	"encoding/json"
	"strings"

	"github.com/relavium/relavium/engine"
)

// CallToolResult is a call's result in MCP's own shape (the schema's
// CallToolResult): content blocks as MCP names them, structuredContent,
// isError and _meta, so a jq filter written for MCP's JSON (its docs, the
// Inspector CLI) works on mcp call --json's data.result.
type CallToolResult struct {
	Content           []ContentBlock  `json:"content"`
	StructuredContent json.RawMessage `json:"structuredContent,omitempty"`
	IsError           bool            `json:"isError"`
	Meta              json.RawMessage `json:"_meta,omitempty"`
}

// ContentBlock is one MCP content block: text, image, audio (data in
// base64), resource_link, or resource (an embedded resource).
type ContentBlock struct {
	Type     string            `json:"type"`
	Text     *string           `json:"text,omitempty"`
	Data     []byte            `json:"data,omitempty"`
	MIMEType string            `json:"mimeType,omitempty"`
	URI      string            `json:"uri,omitempty"`
	Name     string            `json:"name,omitempty"`
	Resource *EmbeddedResource `json:"resource,omitempty"`
}

// EmbeddedResource is a resource block's contents: text or a blob.
type EmbeddedResource struct {
	URI      string  `json:"uri"`
	MIMEType string  `json:"mimeType,omitempty"`
	Text     *string `json:"text,omitempty"`
	Blob     []byte  `json:"blob,omitempty"`
}

// mcpResult is r in MCP's shape (nil for nil).
func mcpResult(r *engine.ToolResult) *CallToolResult {
	if r == nil {
		return nil
	}
	out := &CallToolResult{Content: []ContentBlock{}, StructuredContent: r.Structured, IsError: r.IsError, Meta: r.Meta}
	for _, c := range r.Content {
		text := c.Text
		switch c.Type {
		case engine.ContentText:
			out.Content = append(out.Content, ContentBlock{Type: string(c.Type), Text: &text})
		case engine.ContentResource:
			er := &EmbeddedResource{URI: c.URI, MIMEType: c.MIMEType}
			if c.Data != nil {
				er.Blob = c.Data
			} else {
				er.Text = &text
			}
			out.Content = append(out.Content, ContentBlock{Type: string(c.Type), Resource: er})
		case engine.ContentResourceLink:
			out.Content = append(out.Content, ContentBlock{Type: string(c.Type), URI: c.URI, Name: c.Name, MIMEType: c.MIMEType})
		default: // image, audio
			out.Content = append(out.Content, ContentBlock{Type: string(c.Type), Data: c.Data, MIMEType: c.MIMEType})
		}
	}
	return out
}

// Text joins the result's text blocks.
func (r *CallToolResult) Text() string {
	var b strings.Builder
	for _, c := range r.Content {
		if c.Type == string(engine.ContentText) && c.Text != nil {
			b.WriteString(*c.Text)
		}
	}
	return b.String()
}
