package demoserver

import (
	"context"
	"encoding/json"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// refusedTools are tools a careful client must refuse to admit, so
// relavium's skipped list is never empty. Their handlers work (a client that
// admits them anyway can call them); what is wrong is what they declare.
func refusedTools() []newTool {
	return []newTool{remoteRefSchemaTool, draft04SchemaTool, controlCharPropertyTool}
}

// echoArgs answers with the arguments as sent.
func echoArgs(_ context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	return text("called with: " + string(req.Params.Arguments)), nil
}

// remoteRefSchemaTool declares a $ref to a remote document: validating it
// would mean fetching a URL the server chose.
func remoteRefSchemaTool(*Server) tool {
	return raw(&mcp.Tool{Name: "remote_ref_schema", Description: "Declares an input schema with a remote $ref (unsupported: a client would have to fetch it).",
		Annotations: annotate("Remote $ref schema", readOnly, true),
		InputSchema: json.RawMessage(`{
			"type": "object",
			"properties": {"config": {"$ref": "https://schemas.example.com/relavium-demo/config.json"}},
			"required": ["config"]
		}`)}, echoArgs)
}

// draft04SchemaTool declares a draft-04 schema: boolean exclusiveMinimum
// means something else in 2020-12, so the schema cannot be validated as
// written.
func draft04SchemaTool(*Server) tool {
	return raw(&mcp.Tool{Name: "draft04_schema", Description: "Declares a JSON Schema draft-04 input schema (unsupported draft).",
		Annotations: annotate("Draft-04 schema", readOnly, true),
		InputSchema: json.RawMessage(`{
			"$schema": "http://json-schema.org/draft-04/schema#",
			"type": "object",
			"properties": {"amount": {"type": "number", "minimum": 0, "exclusiveMinimum": true}},
			"required": ["amount"]
		}`)}, echoArgs)
}

// controlCharPropertyTool declares a property name holding a newline: it
// would forge a line in any terminal or log that prints it.
func controlCharPropertyTool(*Server) tool {
	return raw(&mcp.Tool{Name: "control_char_property", Description: "Declares a property whose name contains a control character (a newline).",
		Annotations: annotate("Control character in a property name", readOnly, true),
		InputSchema: json.RawMessage(`{
			"type": "object",
			"properties": {"path\n": {"type": "string", "description": "the name ends in a newline"}}
		}`)}, echoArgs)
}
