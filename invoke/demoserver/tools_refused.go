package demoserver

import (
	"context"
	"encoding/json"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// Tools a careful client must refuse to admit, so relavium's skipped list is
// never empty. Their handlers work (a client that admits them anyway can call
// them); what is wrong is what they declare.
func (s *Server) addRefusedTools() {
	echoArgs := func(_ context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		return text("called with: " + string(req.Params.Arguments)), nil
	}
	// A $ref to a remote document: validating it would mean fetching a URL
	// the server chose.
	s.mcp.AddTool(&mcp.Tool{Name: "remote_ref_schema", Description: "Declares an input schema with a remote $ref (unsupported: a client would have to fetch it).",
		Annotations: annotate("Remote $ref schema", readOnly, true),
		InputSchema: json.RawMessage(`{
			"type": "object",
			"properties": {"config": {"$ref": "https://schemas.example.com/relavium-demo/config.json"}},
			"required": ["config"]
		}`)}, echoArgs)

	// A draft-04 schema: boolean exclusiveMinimum means something else in
	// 2020-12, so the schema cannot be validated as written.
	s.mcp.AddTool(&mcp.Tool{Name: "draft04_schema", Description: "Declares a JSON Schema draft-04 input schema (unsupported draft).",
		Annotations: annotate("Draft-04 schema", readOnly, true),
		InputSchema: json.RawMessage(`{
			"$schema": "http://json-schema.org/draft-04/schema#",
			"type": "object",
			"properties": {"amount": {"type": "number", "minimum": 0, "exclusiveMinimum": true}},
			"required": ["amount"]
		}`)}, echoArgs)

	// A property name holding a newline: it would forge a line in any
	// terminal or log that prints it.
	s.mcp.AddTool(&mcp.Tool{Name: "control_char_property", Description: "Declares a property whose name contains a control character (a newline).",
		Annotations: annotate("Control character in a property name", readOnly, true),
		InputSchema: json.RawMessage(`{
			"type": "object",
			"properties": {"path\n": {"type": "string", "description": "the name ends in a newline"}}
		}`)}, echoArgs)
}
