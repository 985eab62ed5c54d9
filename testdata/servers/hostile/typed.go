package main

import (
	"context"
	"encoding/json"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// typedSchema declares the field shapes a person's KEY=VALUE text is typed
// against: a union with null, an integer, a nested object behind a $ref
// and an array.
const typedSchema = `{"type":"object","properties":{
	"msg":{"type":["string","null"]},
	"n":{"type":"integer"},
	"pt":{"$ref":"#/$defs/Point"},
	"tags":{"type":"array","items":{"type":"integer"}}},
	"$defs":{"Point":{"type":"object","properties":{"y":{"type":"integer"},"x":{"type":"integer"}}}}}`

// addTypedTools (-mode typed) adds "args", which answers with the
// arguments exactly as they arrived.
func addTypedTools(s *mcp.Server) {
	s.AddTool(&mcp.Tool{Name: "args", Description: "the arguments as received", InputSchema: json.RawMessage(typedSchema),
		Annotations: &mcp.ToolAnnotations{ReadOnlyHint: true}},
		func(_ context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			return text(string(req.Params.Arguments)), nil
		})
}
