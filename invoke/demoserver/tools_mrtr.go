package demoserver

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// mrtrTools are the fixtures of the 2026-07-28 scenarios of the conformance
// suite: multi round-trip requests (SEP-2322: input-required results, one or
// several questions per round, several rounds, signed request state) and the
// stateless era's diagnostics (SEP-2575: a missing client capability, a
// response stream, a log only for a request that carries a level). Each
// works in both eras: for a 2025-11-25 client the SDK asks the questions
// itself and calls the handler again.
func mrtrTools() []newTool {
	return []newTool{irElicitationTool, irSamplingTool, irListRootsTool, irRequestStateTool, irMultipleInputsTool,
		irMultiRoundTool, irTamperedStateTool, irCapabilitiesTool, missingCapabilityTool, streamingTool, loggingTool, paramHeaderTool}
}

// accepted is the content of an accepted elicitation answer named key.
func accepted(req *mcp.CallToolRequest, key string) map[string]any {
	if r, ok := elicited(req, key); ok && r.Action == "accept" {
		return r.Content
	}
	return nil
}

func objectSchema(prop, typ string) *jsonschema.Schema {
	return &jsonschema.Schema{Type: "object", Properties: map[string]*jsonschema.Schema{prop: {Type: typ}}, Required: []string{prop}}
}

func askName(message string) *mcp.ElicitParams {
	return &mcp.ElicitParams{Message: message, RequestedSchema: objectSchema("name", "string")}
}

func askConfirm() *mcp.ElicitParams {
	return &mcp.ElicitParams{Message: "Please confirm", RequestedSchema: objectSchema("ok", "boolean")}
}

func askSample(prompt string, maxTokens int64) *mcp.CreateMessageParams {
	return &mcp.CreateMessageParams{Messages: []*mcp.SamplingMessage{{Role: "user", Content: &mcp.TextContent{Text: prompt}}}, MaxTokens: maxTokens}
}

func irTool(name, description string, h mcp.ToolHandlerFor[noArgs, any]) tool {
	return typed(&mcp.Tool{Name: name, Description: description + " (SEP-2322; conformance fixture).",
		Annotations: annotate(strings.ReplaceAll(strings.TrimPrefix(name, "test_"), "_", " "), readOnly, true)}, h)
}

func irElicitationTool(*Server) tool {
	return irTool("test_input_required_result_elicitation", "Asks for a name as an input request (elicitation) and greets it",
		func(_ context.Context, req *mcp.CallToolRequest, _ noArgs) (*mcp.CallToolResult, any, error) {
			if name, _ := accepted(req, "user_name")["name"].(string); name != "" {
				return text(fmt.Sprintf("Hello, %s!", name)), nil, nil
			}
			return ask("user_name", askName("What is your name?")), nil, nil
		})
}

func irSamplingTool(*Server) tool {
	return irTool("test_input_required_result_sampling", "Asks the client's model a question as an input request (sampling)",
		func(_ context.Context, req *mcp.CallToolRequest, _ noArgs) (*mcp.CallToolResult, any, error) {
			if answer, ok := sampled(req, "sample_request"); ok {
				return text("Sampling result: " + answer), nil, nil
			}
			return ask("sample_request", askSample("What is the capital of France?", 100)), nil, nil
		})
}

func irListRootsTool(*Server) tool {
	return irTool("test_input_required_result_list_roots", "Asks for the client's roots as an input request (roots/list)",
		func(_ context.Context, req *mcp.CallToolRequest, _ noArgs) (*mcp.CallToolResult, any, error) {
			if r, ok := req.Params.InputResponses["roots_request"].(*mcp.ListRootsResult); ok && r != nil {
				return text(fmt.Sprintf("Found %d root(s)", len(r.Roots))), nil, nil
			}
			return ask("roots_request", &mcp.ListRootsParams{}), nil, nil
		})
}

func irRequestStateTool(s *Server) tool {
	const name = "test_input_required_result_request_state"
	return irTool(name, "Asks for a confirmation with a signed requestState and checks it on the retry",
		func(_ context.Context, req *mcp.CallToolRequest, _ noArgs) (*mcp.CallToolResult, any, error) {
			if req.Params.RequestState != "" {
				if _, err := s.open(req.Params.RequestState, name); err != nil {
					return nil, nil, err
				}
				if ok, _ := accepted(req, "confirm")["ok"].(bool); ok {
					return text("state-ok: requestState validated"), nil, nil
				}
			}
			res := ask("confirm", askConfirm())
			res.RequestState = s.seal(roundState{Tool: name, Round: 1})
			return res, nil, nil
		})
}

func irMultipleInputsTool(s *Server) tool {
	const name = "test_input_required_result_multiple_inputs"
	return irTool(name, "Asks for a name, a sampled greeting and the roots in one round",
		func(_ context.Context, req *mcp.CallToolRequest, _ noArgs) (*mcp.CallToolResult, any, error) {
			if req.Params.RequestState != "" {
				if _, err := s.open(req.Params.RequestState, name); err != nil {
					return nil, nil, err
				}
				who, _ := accepted(req, "user_name")["name"].(string)
				greeting, sampledOK := sampled(req, "greeting")
				roots, rootsOK := req.Params.InputResponses["client_roots"].(*mcp.ListRootsResult)
				if who != "" && sampledOK && rootsOK && roots != nil {
					return text(fmt.Sprintf("Name: %s; Greeting: %s; Roots: %d", who, greeting, len(roots.Roots))), nil, nil
				}
			}
			return &mcp.CallToolResult{
				InputRequests: mcp.InputRequestMap{
					"user_name":    askName("What is your name?"),
					"greeting":     askSample("Generate a greeting", 50),
					"client_roots": &mcp.ListRootsParams{},
				},
				RequestState: s.seal(roundState{Tool: name, Round: 1}),
			}, nil, nil
		})
}

func irMultiRoundTool(s *Server) tool {
	const name = "test_input_required_result_multi_round"
	first := func() *mcp.CallToolResult {
		res := ask("step1", askName("Step 1: What is your name?"))
		res.RequestState = s.seal(roundState{Tool: name, Round: 1})
		return res
	}
	return irTool(name, "Two rounds of questions, the progress carried in a signed requestState",
		func(_ context.Context, req *mcp.CallToolRequest, _ noArgs) (*mcp.CallToolResult, any, error) {
			if req.Params.RequestState == "" {
				return first(), nil, nil
			}
			st, err := s.open(req.Params.RequestState, name)
			if err != nil {
				return nil, nil, err
			}
			switch who, _ := accepted(req, "step1")["name"].(string); {
			case st.Round == 1 && who != "":
				res := ask("step2", &mcp.ElicitParams{Message: "Step 2: What is your favorite color?", RequestedSchema: objectSchema("color", "string")})
				res.RequestState = s.seal(roundState{Tool: name, Round: 2, Name: who})
				return res, nil, nil
			case st.Round == 2:
				if color, _ := accepted(req, "step2")["color"].(string); color != "" {
					return text(fmt.Sprintf("Multi-round complete for %s who likes %s", st.Name, color)), nil, nil
				}
			}
			return first(), nil, nil
		})
}

func irTamperedStateTool(s *Server) tool {
	const name = "test_input_required_result_tampered_state"
	return irTool(name, "Refuses a retry whose requestState fails its integrity check",
		func(_ context.Context, req *mcp.CallToolRequest, _ noArgs) (*mcp.CallToolResult, any, error) {
			if req.Params.RequestState != "" {
				if _, err := s.open(req.Params.RequestState, name); err != nil {
					return nil, nil, err
				}
				if accepted(req, "confirm") != nil {
					return text("integrity-ok: state verified"), nil, nil
				}
			}
			res := ask("confirm", askConfirm())
			res.RequestState = s.seal(roundState{Tool: name, Round: 1})
			return res, nil, nil
		})
}

func irCapabilitiesTool(s *Server) tool {
	const name = "test_input_required_result_capabilities"
	return irTool(name, "Asks only for the input the client declared capabilities for",
		func(_ context.Context, req *mcp.CallToolRequest, _ noArgs) (*mcp.CallToolResult, any, error) {
			if len(req.Params.InputResponses) > 0 {
				keys := make([]string, 0, len(req.Params.InputResponses))
				for k := range req.Params.InputResponses {
					keys = append(keys, k)
				}
				slices.Sort(keys)
				return text("capabilities-ok: received " + strings.Join(keys, ",")), nil, nil
			}
			caps := req.ClientCapabilities()
			reqs := mcp.InputRequestMap{}
			if caps != nil && caps.Elicitation != nil {
				reqs["elicit_input"] = &mcp.ElicitParams{Message: "Elicitation input", RequestedSchema: objectSchema("value", "string")}
			}
			if caps != nil && caps.Sampling != nil {
				reqs["sample_input"] = askSample("Sample request", 50)
			}
			if len(reqs) == 0 {
				return text("No supported capabilities declared"), nil, nil
			}
			return &mcp.CallToolResult{InputRequests: reqs, RequestState: s.seal(roundState{Tool: name, Round: 1})}, nil, nil
		})
}

func missingCapabilityTool(*Server) tool {
	return typed(&mcp.Tool{Name: "test_missing_capability",
		Description: "Needs the client's sampling capability: without it the call is refused with -32021 (HTTP 400), naming it (SEP-2575; conformance fixture).",
		Annotations: annotate("Missing capability", readOnly, true)},
		func(_ context.Context, req *mcp.CallToolRequest, _ noArgs) (*mcp.CallToolResult, any, error) {
			if caps := req.ClientCapabilities(); caps != nil && caps.Sampling != nil {
				return text("The client declared sampling; the tool ran."), nil, nil
			}
			data, _ := json.Marshal(mcp.MissingRequiredClientCapabilityData{
				RequiredCapabilities: &mcp.ClientCapabilities{Sampling: &mcp.SamplingCapabilities{}}})
			return nil, nil, &jsonrpc.Error{Code: mcp.CodeMissingRequiredClientCapabilities,
				Message: "this tool needs the client's sampling capability, which the request did not declare", Data: data}
		})
}

func streamingTool(*Server) tool {
	return typed(&mcp.Tool{Name: "test_streaming_elicitation",
		Description: "Answers on its response stream, which carries notifications and the result only, never a request of the server's (SEP-2575; conformance fixture).",
		Annotations: annotate("Response stream", readOnly, true)},
		func(ctx context.Context, req *mcp.CallToolRequest, _ noArgs) (*mcp.CallToolResult, any, error) {
			if tok := req.Params.GetProgressToken(); tok != nil {
				_ = req.Session.NotifyProgress(ctx, &mcp.ProgressNotificationParams{ProgressToken: tok, Progress: 50, Total: 100})
			}
			return text("Streaming complete"), nil, nil
		})
}

func loggingTool(*Server) tool {
	return typed(&mcp.Tool{Name: "test_logging_tool",
		Description: "Logs one message, which reaches the client only when its request carries a log level (SEP-2575; conformance fixture).",
		Annotations: annotate("Logging", readOnly, true)},
		func(ctx context.Context, req *mcp.CallToolRequest, _ noArgs) (*mcp.CallToolResult, any, error) {
			_ = req.Session.Log(ctx, &mcp.LoggingMessageParams{Level: "info", Logger: Name, Data: "test_logging_tool ran"})
			return text("Logging evaluated"), nil, nil
		})
}

func paramHeaderTool(*Server) tool {
	type headerIn struct {
		Region string `json:"region,omitempty"`
		Level  int    `json:"level,omitempty"`
	}
	return typed(&mcp.Tool{Name: "test_x_mcp_header",
		Description: "Its region argument is mirrored into the Mcp-Param-Region header, which the server checks against the body (SEP-2243; conformance fixture).",
		Annotations: annotate("Parameter header", readOnly, true),
		InputSchema: json.RawMessage(`{"type": "object", "properties": {
			"region": {"type": "string", "description": "mirrored into Mcp-Param-Region", "x-mcp-header": "Region"},
			"level": {"type": "integer", "description": "not mirrored"}
		}}`)},
		func(_ context.Context, _ *mcp.CallToolRequest, in headerIn) (*mcp.CallToolResult, any, error) {
			return text("region=" + in.Region), nil, nil
		})
}
