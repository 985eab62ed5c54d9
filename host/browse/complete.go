package browse

import (
	"context"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/relavium/relavium/engine/sanitize"
	"github.com/relavium/relavium/fault"
	"github.com/relavium/relavium/host/failure"
)

// Argument completion (completion/complete) for a prompt's arguments and a
// resource template's variables.

// Completion reference types.
const (
	RefPrompt   = "ref/prompt"
	RefResource = "ref/resource"
)

// maxCompletionValues is the most values one answer may hold (the MCP
// bound); maxCompletionValue bounds one value's bytes.
const (
	maxCompletionValues = 100
	maxCompletionValue  = 1024
)

// CompletionRef names what is being completed: a prompt (Type RefPrompt,
// Name) or a resource template (Type RefResource, URI = the template).
type CompletionRef struct {
	Type string `json:"type"`
	Name string `json:"name,omitempty"`
	URI  string `json:"uri,omitempty"`
}

// Completion is a server's answer: at most 100 values, each one line of
// text a terminal shows as it is (a value the display sanitizer would
// change, or over 1 KiB, is dropped and counted in Dropped).
type Completion struct {
	Values  []string `json:"values"`
	Total   int      `json:"total,omitempty"`
	HasMore bool     `json:"has_more,omitempty"`
	Dropped int      `json:"dropped,omitempty"`
}

// Complete asks the session to complete argument arg (typed so far: value)
// of ref; known holds the arguments already filled in (context.arguments).
// A server that does not declare completions is refused before anything is
// sent (E920).
func Complete(ctx context.Context, cs *mcp.ClientSession, server string, ref CompletionRef, arg, value string, known map[string]string) (*Completion, error) {
	if Capabilities(cs).Completions == nil {
		return nil, &failure.Error{Base: fault.Base{ErrCode: failure.CodeNotOffered, Msg: "does not offer completions (no completions capability)"}, Server: server}
	}
	p := &mcp.CompleteParams{Ref: &mcp.CompleteReference{Type: ref.Type, Name: ref.Name, URI: ref.URI},
		Argument: mcp.CompleteParamsArgument{Name: arg, Value: value}}
	if len(known) > 0 {
		p.Context = &mcp.CompleteContext{Arguments: known}
	}
	res, err := cs.Complete(ctx, p)
	if err != nil {
		return nil, err
	}
	out := &Completion{Values: []string{}}
	for _, v := range res.Completion.Values {
		if len(out.Values) == maxCompletionValues || len(v) > maxCompletionValue || v == "" || sanitize.Line(v) != v {
			out.Dropped++
			continue
		}
		out.Values = append(out.Values, v)
	}
	out.Total, out.HasMore = res.Completion.Total, res.Completion.HasMore || out.Dropped > 0 && len(out.Values) == maxCompletionValues
	return out, nil
}
