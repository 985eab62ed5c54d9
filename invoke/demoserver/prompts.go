package demoserver

import (
	"context"
	"fmt"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// requireArgs refuses a prompts/get that lacks a required argument (the SDK
// does not check them) with an invalid-params error naming them.
func requireArgs(req *mcp.GetPromptRequest, names ...string) error {
	var missing []string
	for _, n := range names {
		if req.Params.Arguments[n] == "" {
			missing = append(missing, n)
		}
	}
	if len(missing) == 0 {
		return nil
	}
	return &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams,
		Message: fmt.Sprintf("prompt %q needs the argument(s) %s", req.Params.Name, strings.Join(missing, ", "))}
}

func (s *Server) addPrompts() {
	s.mcp.AddPrompt(&mcp.Prompt{Name: "test_input_required_result_prompt", Title: "Prompt that asks",
		Description: "Asks for context as an input request (elicitation), then returns a message with it (SEP-2322; conformance fixture)"},
		func(_ context.Context, req *mcp.GetPromptRequest) (*mcp.GetPromptResult, error) {
			if r, ok := req.Params.InputResponses["user_context"].(*mcp.ElicitResult); ok && r != nil && r.Action == "accept" {
				if c, _ := r.Content["context"].(string); c != "" {
					return &mcp.GetPromptResult{Description: "A prompt with elicited context", Messages: []*mcp.PromptMessage{
						{Role: "user", Content: &mcp.TextContent{Text: "Prompt with context: " + c}},
					}}, nil
				}
			}
			return &mcp.GetPromptResult{InputRequests: mcp.InputRequestMap{
				"user_context": &mcp.ElicitParams{Message: "What context should the prompt use?", RequestedSchema: objectSchema("context", "string")},
			}}, nil
		})

	addSimplePrompt(s.mcp)

	s.mcp.AddPrompt(&mcp.Prompt{Name: "test_prompt_with_arguments", Title: "Prompt with arguments",
		Description: "A prompt with two required arguments; arg1 completes (conformance fixture)",
		Arguments: []*mcp.PromptArgument{
			{Name: "arg1", Description: "First test argument", Required: true},
			{Name: "arg2", Description: "Second test argument", Required: true},
		}},
		func(_ context.Context, req *mcp.GetPromptRequest) (*mcp.GetPromptResult, error) {
			if err := requireArgs(req, "arg1", "arg2"); err != nil {
				return nil, err
			}
			a := req.Params.Arguments
			return &mcp.GetPromptResult{Description: "A prompt with arguments", Messages: []*mcp.PromptMessage{
				{Role: "user", Content: &mcp.TextContent{Text: fmt.Sprintf("Prompt with arguments: arg1='%s', arg2='%s'", a["arg1"], a["arg2"])}},
			}}, nil
		})

	s.mcp.AddPrompt(&mcp.Prompt{Name: "test_prompt_with_embedded_resource", Title: "Prompt with an embedded resource",
		Description: "A prompt embedding the resource named by resourceUri (conformance fixture)",
		Arguments: []*mcp.PromptArgument{
			{Name: "resourceUri", Description: "URI of the resource to embed", Required: true},
		}},
		func(_ context.Context, req *mcp.GetPromptRequest) (*mcp.GetPromptResult, error) {
			if err := requireArgs(req, "resourceUri"); err != nil {
				return nil, err
			}
			return &mcp.GetPromptResult{Description: "A prompt with an embedded resource", Messages: []*mcp.PromptMessage{
				{Role: "user", Content: &mcp.EmbeddedResource{Resource: &mcp.ResourceContents{
					URI: req.Params.Arguments["resourceUri"], MIMEType: "text/plain", Text: "Embedded resource content for testing.",
				}}},
				{Role: "user", Content: &mcp.TextContent{Text: "Please process the embedded resource above."}},
			}}, nil
		})

	s.mcp.AddPrompt(&mcp.Prompt{Name: "test_prompt_with_image", Title: "Prompt with an image",
		Description: "A prompt holding an image/png (conformance fixture)"},
		func(context.Context, *mcp.GetPromptRequest) (*mcp.GetPromptResult, error) {
			return &mcp.GetPromptResult{Description: "A prompt with an image", Messages: []*mcp.PromptMessage{
				{Role: "user", Content: &mcp.ImageContent{Data: pngData(), MIMEType: "image/png"}},
				{Role: "user", Content: &mcp.TextContent{Text: "Please analyze the image above."}},
			}}, nil
		})

	s.mcp.AddPrompt(&mcp.Prompt{Name: "review_code", Title: "Review code",
		Description: "Asks for a careful review of a piece of code; language completes",
		Arguments: []*mcp.PromptArgument{
			{Name: "code", Description: "the code to review", Required: true},
			{Name: "language", Description: "its language (optional)"},
		}},
		func(_ context.Context, req *mcp.GetPromptRequest) (*mcp.GetPromptResult, error) {
			if err := requireArgs(req, "code"); err != nil {
				return nil, err
			}
			lang := req.Params.Arguments["language"]
			if lang == "" {
				lang = "the code's language"
			}
			return &mcp.GetPromptResult{Description: "A code review request", Messages: []*mcp.PromptMessage{
				{Role: "user", Content: &mcp.TextContent{Text: fmt.Sprintf(
					"Review this code, written in %s. Point out bugs first, then risks, then style.\n\n%s", lang, req.Params.Arguments["code"])}},
			}}, nil
		})
}

// addSimplePrompt registers test_simple_prompt; registering it again
// replaces it with the same definition, which the SDK announces as a change
// of the prompt list (test_trigger_prompt_change).
func addSimplePrompt(srv *mcp.Server) {
	srv.AddPrompt(&mcp.Prompt{Name: "test_simple_prompt", Title: "Simple prompt",
		Description: "A prompt without arguments (conformance fixture)"},
		func(context.Context, *mcp.GetPromptRequest) (*mcp.GetPromptResult, error) {
			return &mcp.GetPromptResult{Description: "A simple prompt", Messages: []*mcp.PromptMessage{
				{Role: "user", Content: &mcp.TextContent{Text: "This is a simple prompt for testing."}},
			}}, nil
		})
}
