package demoserver

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// noArgs is the input of a tool that takes no arguments.
type noArgs struct{}

// conformanceTools are the conformance suite's fixture tools (the scenarios
// of @modelcontextprotocol/conformance 0.1.16). Texts follow the suite's
// scenario descriptions.
func conformanceTools() []newTool {
	return []newTool{
		simpleTextTool, imageContentTool, audioContentTool, embeddedResourceTool, multipleContentTypesTool,
		toolWithLoggingTool, toolWithProgressTool, errorHandlingTool, samplingTool, elicitationTool,
		elicitationDefaultsTool, elicitationEnumsTool, jsonSchema202012Tool, reconnectionTool,
	}
}

func simpleTextTool(*Server) tool {
	return typed(&mcp.Tool{Name: "test_simple_text", Description: "Returns one text block (conformance fixture).",
		Annotations: annotate("Simple text", readOnly, true)},
		func(context.Context, *mcp.CallToolRequest, noArgs) (*mcp.CallToolResult, any, error) {
			return text("This is a simple text response for testing."), nil, nil
		})
}

func imageContentTool(*Server) tool {
	return typed(&mcp.Tool{Name: "test_image_content", Description: "Returns an image/png block (conformance fixture).",
		Annotations: annotate("Image content", readOnly, true)},
		func(context.Context, *mcp.CallToolRequest, noArgs) (*mcp.CallToolResult, any, error) {
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.ImageContent{Data: pngData(), MIMEType: "image/png"}}}, nil, nil
		})
}

func audioContentTool(*Server) tool {
	return typed(&mcp.Tool{Name: "test_audio_content", Description: "Returns an audio/wav block (conformance fixture).",
		Annotations: annotate("Audio content", readOnly, true)},
		func(context.Context, *mcp.CallToolRequest, noArgs) (*mcp.CallToolResult, any, error) {
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.AudioContent{Data: wavData(), MIMEType: "audio/wav"}}}, nil, nil
		})
}

func embeddedResourceTool(*Server) tool {
	return typed(&mcp.Tool{Name: "test_embedded_resource", Description: "Returns an embedded text resource (conformance fixture).",
		Annotations: annotate("Embedded resource", readOnly, true)},
		func(context.Context, *mcp.CallToolRequest, noArgs) (*mcp.CallToolResult, any, error) {
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.EmbeddedResource{Resource: &mcp.ResourceContents{
				URI: "test://embedded-resource", MIMEType: "text/plain", Text: "This is an embedded resource content.",
			}}}}, nil, nil
		})
}

func multipleContentTypesTool(*Server) tool {
	return typed(&mcp.Tool{Name: "test_multiple_content_types", Description: "Returns text, image and an embedded resource (conformance fixture).",
		Annotations: annotate("Mixed content", readOnly, true)},
		func(context.Context, *mcp.CallToolRequest, noArgs) (*mcp.CallToolResult, any, error) {
			return &mcp.CallToolResult{Content: []mcp.Content{
				&mcp.TextContent{Text: "Multiple content types test:"},
				&mcp.ImageContent{Data: pngData(), MIMEType: "image/png"},
				&mcp.EmbeddedResource{Resource: &mcp.ResourceContents{
					URI: "test://mixed-content-resource", MIMEType: "application/json", Text: `{"test":"data","value":123}`,
				}},
			}}, nil, nil
		})
}

func toolWithLoggingTool(s *Server) tool {
	return typed(&mcp.Tool{Name: "test_tool_with_logging", Description: "Sends three info log messages 50 ms apart (conformance fixture).",
		Annotations: annotate("Logging", readOnly, true)},
		func(ctx context.Context, req *mcp.CallToolRequest, _ noArgs) (*mcp.CallToolResult, any, error) {
			msgs := []string{"Tool execution started", "Tool processing data", "Tool execution completed"}
			for i, m := range msgs {
				if i > 0 {
					if err := s.sleep(ctx, 50*time.Millisecond); err != nil {
						return nil, nil, err
					}
				}
				_ = req.Session.Log(ctx, &mcp.LoggingMessageParams{Level: "info", Logger: Name, Data: m})
			}
			return text("Tool with logging executed successfully"), nil, nil
		})
}

func toolWithProgressTool(s *Server) tool {
	return typed(&mcp.Tool{Name: "test_tool_with_progress", Description: "Reports progress 0, 50 and 100 of 100, 50 ms apart (conformance fixture).",
		Annotations: annotate("Progress", readOnly, true)},
		func(ctx context.Context, req *mcp.CallToolRequest, _ noArgs) (*mcp.CallToolResult, any, error) {
			tok := req.Params.GetProgressToken()
			for i, p := range []float64{0, 50, 100} {
				if i > 0 {
					if err := s.sleep(ctx, 50*time.Millisecond); err != nil {
						return nil, nil, err
					}
				}
				if tok != nil {
					_ = req.Session.NotifyProgress(ctx, &mcp.ProgressNotificationParams{ProgressToken: tok, Progress: p, Total: 100,
						Message: fmt.Sprintf("step %d of 3", i+1)})
				}
			}
			return text(fmt.Sprintf("Progress reported for token %v", tok)), nil, nil
		})
}

func errorHandlingTool(*Server) tool {
	return typed(&mcp.Tool{Name: "test_error_handling", Description: "Always returns an isError result (conformance fixture).",
		Annotations: annotate("Error result", readOnly, true)},
		func(context.Context, *mcp.CallToolRequest, noArgs) (*mcp.CallToolResult, any, error) {
			return errorResult("This tool intentionally returns an error for testing"), nil, nil
		})
}

func samplingTool(*Server) tool {
	type samplingIn struct {
		Prompt string `json:"prompt" jsonschema:"the prompt to send to the client's model"`
	}
	return typed(&mcp.Tool{Name: "test_sampling", Description: "Asks the client's model to complete a prompt (sampling/createMessage, maxTokens 100; conformance fixture).",
		Annotations: annotate("Sampling", readOnly, false)},
		func(_ context.Context, req *mcp.CallToolRequest, in samplingIn) (*mcp.CallToolResult, any, error) {
			if answer, ok := sampled(req, "completion"); ok {
				return text("LLM response: " + answer), nil, nil
			}
			if r := missingCapability(req, "sampling"); r != nil {
				return r, nil, nil
			}
			return ask("completion", &mcp.CreateMessageParams{
				Messages:  []*mcp.SamplingMessage{{Role: "user", Content: &mcp.TextContent{Text: in.Prompt}}},
				MaxTokens: 100,
			}), nil, nil
		})
}

func elicitationTool(*Server) tool {
	type elicitIn struct {
		Message string `json:"message" jsonschema:"the message to show the user"`
	}
	return typed(&mcp.Tool{Name: "test_elicitation", Description: "Asks the user for a username and an email (elicitation/create; conformance fixture).",
		Annotations: annotate("Elicitation", readOnly, false)},
		func(_ context.Context, req *mcp.CallToolRequest, in elicitIn) (*mcp.CallToolResult, any, error) {
			if r, ok := elicited(req, "user"); ok {
				return text(describeElicit("User response:", r)), nil, nil
			}
			if r := missingCapability(req, "elicitation"); r != nil {
				return r, nil, nil
			}
			return ask("user", &mcp.ElicitParams{Message: in.Message, RequestedSchema: json.RawMessage(`{
				"type": "object",
				"properties": {
					"username": {"type": "string", "description": "User's response"},
					"email": {"type": "string", "description": "User's email address"}
				},
				"required": ["username", "email"]
			}`)}), nil, nil
		})
}

func elicitationDefaultsTool(*Server) tool {
	return typed(&mcp.Tool{Name: "test_elicitation_sep1034_defaults", Description: "Elicits one field of every primitive type, each with a default (SEP-1034; conformance fixture).",
		Annotations: annotate("Elicitation defaults", readOnly, false)},
		func(_ context.Context, req *mcp.CallToolRequest, _ noArgs) (*mcp.CallToolResult, any, error) {
			if r, ok := elicited(req, "defaults"); ok {
				return text(describeElicit("Elicitation completed:", r)), nil, nil
			}
			if r := missingCapability(req, "elicitation"); r != nil {
				return r, nil, nil
			}
			return ask("defaults", &mcp.ElicitParams{Message: "Review these defaults", RequestedSchema: json.RawMessage(`{
				"type": "object",
				"properties": {
					"name": {"type": "string", "description": "User name", "default": "John Doe"},
					"age": {"type": "integer", "description": "User age", "default": 30},
					"score": {"type": "number", "description": "User score", "default": 95.5},
					"status": {"type": "string", "description": "User status", "enum": ["active", "inactive", "pending"], "default": "active"},
					"verified": {"type": "boolean", "description": "Verification status", "default": true}
				}
			}`)}), nil, nil
		})
}

func elicitationEnumsTool(*Server) tool {
	return typed(&mcp.Tool{Name: "test_elicitation_sep1330_enums", Description: "Elicits the five enum schema variants (SEP-1330; conformance fixture).",
		Annotations: annotate("Elicitation enums", readOnly, false)},
		func(_ context.Context, req *mcp.CallToolRequest, _ noArgs) (*mcp.CallToolResult, any, error) {
			if r, ok := elicited(req, "enums"); ok {
				return text(describeElicit("Elicitation completed:", r)), nil, nil
			}
			if r := missingCapability(req, "elicitation"); r != nil {
				return r, nil, nil
			}
			return ask("enums", &mcp.ElicitParams{Message: "Pick some options", RequestedSchema: json.RawMessage(`{
				"type": "object",
				"properties": {
					"untitledSingle": {"type": "string", "enum": ["option1", "option2", "option3"]},
					"titledSingle": {"type": "string", "oneOf": [
						{"const": "value1", "title": "First Option"},
						{"const": "value2", "title": "Second Option"},
						{"const": "value3", "title": "Third Option"}]},
					"legacyEnum": {"type": "string", "enum": ["opt1", "opt2", "opt3"], "enumNames": ["Option One", "Option Two", "Option Three"]},
					"untitledMulti": {"type": "array", "minItems": 1, "maxItems": 3,
						"items": {"type": "string", "enum": ["option1", "option2", "option3"]}},
					"titledMulti": {"type": "array", "minItems": 1, "maxItems": 3,
						"items": {"anyOf": [
							{"const": "value1", "title": "First Choice"},
							{"const": "value2", "title": "Second Choice"},
							{"const": "value3", "title": "Third Choice"}]}}
				}
			}`)}), nil, nil
		})
}

func jsonSchema202012Tool(*Server) tool {
	return raw(&mcp.Tool{Name: "json_schema_2020_12_tool", Description: "Declares an input schema using JSON Schema 2020-12 keywords ($defs, $anchor, allOf/anyOf, if/then/else), served as authored (SEP-1613, SEP-2106; conformance fixture).",
		Annotations: annotate("JSON Schema 2020-12", readOnly, true),
		InputSchema: json.RawMessage(`{
			"$schema": "https://json-schema.org/draft/2020-12/schema",
			"type": "object",
			"$defs": {"address": {"$anchor": "addressDef", "type": "object", "properties": {"street": {"type": "string"}, "city": {"type": "string"}}}},
			"properties": {
				"name": {"type": "string"},
				"address": {"$ref": "#/$defs/address"},
				"contactMethod": {"type": "string", "enum": ["phone", "email"]},
				"phone": {"type": "string"},
				"email": {"type": "string"}
			},
			"allOf": [{"anyOf": [{"required": ["phone"]}, {"required": ["email"]}]}],
			"if": {"properties": {"contactMethod": {"const": "phone"}}, "required": ["contactMethod"]},
			"then": {"required": ["phone"]},
			"else": {"required": ["email"]},
			"additionalProperties": false
		}`)},
		func(_ context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			return text("JSON Schema 2020-12 tool called with: " + string(req.Params.Arguments)), nil
		})
}

func reconnectionTool(s *Server) tool {
	return typed(&mcp.Tool{Name: "test_reconnection", Description: "Closes its SSE stream mid-call and answers after the client reconnects (SEP-1699; conformance fixture).",
		Annotations: annotate("Reconnection", readOnly, true)},
		func(ctx context.Context, req *mcp.CallToolRequest, _ noArgs) (*mcp.CallToolResult, any, error) {
			// Close the stream only for a client that can resume it (a
			// priming event id is sent from 2025-11-25 on); an older one
			// would lose the result.
			if req.Extra != nil && req.Extra.CloseSSEStream != nil && req.Extra.Header.Get("Mcp-Protocol-Version") >= "2025-11-25" {
				req.Extra.CloseSSEStream(mcp.CloseSSEStreamArgs{RetryAfter: 100 * time.Millisecond})
			}
			if err := s.sleep(ctx, 200*time.Millisecond); err != nil {
				return nil, nil, err
			}
			return text("Reconnection test completed successfully."), nil, nil
		})
}
