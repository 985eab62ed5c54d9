package host

import (
	"context"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/relavium/relavium/engine/sanitize"
	"github.com/relavium/relavium/fault"
	"github.com/relavium/relavium/host/browse"
	"github.com/relavium/relavium/host/failure"
)

// Argument completion (completion/complete) for a prompt's arguments and a
// resource template's variables (host/browse).

// Completion reference types.
const (
	RefPrompt   = browse.RefPrompt
	RefResource = browse.RefResource
)

// The completion types (host/browse).
type (
	CompletionRef = browse.CompletionRef
	Completion    = browse.Completion
)

// Complete asks server to complete argument arg (typed so far: value) of
// ref; known holds the arguments already filled in (context.arguments). A
// server that does not declare completions is refused before anything is
// sent (E920).
func (h *Host) Complete(ctx context.Context, server string, ref CompletionRef, arg, value string, known map[string]string) (*Completion, error) {
	if ref.Type != RefPrompt && ref.Type != RefResource {
		return nil, &failure.Error{Base: fault.Base{ErrCode: failure.CodeBadCompletionRef, Exit: fault.ExitUsage, Msg: "completion reference type " + sanitize.Line(ref.Type) + " is neither ref/prompt nor ref/resource"}}
	}
	var out *Completion
	err := h.browse(ctx, server, "completion/complete", func(ctx context.Context, _ *conn, cs *mcp.ClientSession) (err error) {
		out, err = browse.Complete(ctx, cs, server, ref, arg, value, known)
		return err
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}
