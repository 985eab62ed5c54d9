package demoserver

import (
	"context"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// maxCompletions is the most values one completion/complete answer holds,
// the bound the MCP spec sets for a completion result.
const maxCompletions = 100

// complete answers completion/complete for the prompts' arguments and the
// resource templates' variables, by prefix.
func (s *Server) complete(_ context.Context, req *mcp.CompleteRequest) (*mcp.CompleteResult, error) {
	var candidates []string
	ref, arg := req.Params.Ref, req.Params.Argument
	switch {
	case ref == nil:
	case ref.Type == "ref/prompt" && ref.Name == "test_prompt_with_arguments" && arg.Name == "arg1":
		candidates = []string{"paris", "park", "party", "test-value-1", "test-value-2"}
	case ref.Type == "ref/prompt" && ref.Name == "test_prompt_with_arguments" && arg.Name == "arg2":
		candidates = []string{"alpha", "beta", "gamma"}
	case ref.Type == "ref/prompt" && ref.Name == "review_code" && arg.Name == "language":
		candidates = []string{"bash", "c", "go", "java", "javascript", "python", "rust", "typescript"}
	case ref.Type == "ref/resource" && ref.URI == dataTemplate && arg.Name == "id":
		candidates = []string{"1", "42", "123"}
	case ref.Type == "ref/resource" && ref.URI == notesTemplate && arg.Name == "id":
		candidates = s.notes.ids()
	}
	values := []string{}
	for _, c := range candidates {
		if strings.HasPrefix(c, strings.ToLower(arg.Value)) {
			values = append(values, c)
		}
	}
	total := len(values)
	if len(values) > maxCompletions {
		values = values[:maxCompletions]
	}
	return &mcp.CompleteResult{Completion: mcp.CompletionResultDetails{Values: values, Total: total, HasMore: total > len(values)}}, nil
}
