package machine

import (
	"context"
	"encoding/json"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/relavium/relavium/invoke/cli"
)

// Tool names. A command tool is "relavium-" plus its path joined by "-"
// (relavium-mcp-ls); a workflow tool is "relavium_" plus the workflow id
// (relavium_close-stale). The separator right after the prefix differs, so a
// workflow id can never shadow a command.
const (
	commandToolPrefix  = "relavium-"
	workflowToolPrefix = "relavium_"
)

// CommandToolName is the MCP tool name of a command.
func CommandToolName(cmd *cli.Command) string {
	return commandToolPrefix + strings.Join(cmd.Path, "-")
}

// toolSideEffect is the strongest side effect a command can have for some
// request: its own, raised by escalating flags, and destructive when a
// column decides per request (run WORKFLOW). Annotations use it.
func toolSideEffect(cmd *cli.Command) cli.SideEffect {
	se := cmd.SideEffect
	if cmd.SideEffectFor != nil {
		se = cli.Destructive
	}
	for _, f := range ExposedFlags(cmd) {
		if f.Escalates != "" && f.Escalates.Rank() > se.Rank() {
			se = f.Escalates
		}
	}
	return se
}

// annotationsFor maps a side effect to MCP hints. ReadOnlyHint is always
// explicit (a false that is left out makes clients prompt for safe reads).
func annotationsFor(title string, se cli.SideEffect) *mcp.ToolAnnotations {
	destructive := se == cli.Destructive
	openWorld := se == cli.Remote || se == cli.Destructive
	return &mcp.ToolAnnotations{
		Title:           title,
		ReadOnlyHint:    se == cli.Read,
		DestructiveHint: &destructive,
		IdempotentHint:  se == cli.Read,
		OpenWorldHint:   &openWorld,
	}
}

// commandTool describes one exposed command as an MCP tool.
func commandTool(t *cli.Table, cmd *cli.Command) *mcp.Tool {
	se := toolSideEffect(cmd)
	desc := cmd.Summary + ". Runs `relavium " + cmd.Name() + " --json` and returns its envelope ({ok, data|error})."
	if cmd.Confirm != nil && se != cli.Read {
		desc += " A " + string(se) + " request first returns data.confirmation_required with a confirm value: review it, then send the identical request again, in the same session, with \"confirm\" set to it (good once, for 10 minutes)."
	}
	return &mcp.Tool{
		Name:        CommandToolName(cmd),
		Title:       "relavium " + cmd.Name(),
		Description: desc,
		InputSchema: ParamsSchema(t, cmd),
		Annotations: annotationsFor("relavium "+cmd.Name(), se),
	}
}

// toolResult renders an invocation result as a tool result: the one JSON
// document as text and as structured content; isError when it is not ok (a
// confirmation is ok: nothing has changed yet).
func toolResult(res Result) *mcp.CallToolResult {
	return &mcp.CallToolResult{
		Content:           []mcp.Content{&mcp.TextContent{Text: string(res.Envelope)}},
		StructuredContent: json.RawMessage(res.Envelope),
		IsError:           !res.OK,
	}
}

// transportOf names the audit transport of a serve transport flag.
func transportOf(flag string) Transport {
	switch flag {
	case "sse":
		return TransportMCPSSE
	case "http":
		return TransportMCPHTTP
	}
	return TransportMCPStdio
}

// addCommandTools publishes every exposed command.
func addCommandTools(s *mcp.Server, iv *Invoker, transport Transport) {
	for _, cmd := range Exposed(iv.Table) {
		path, tool := cmd.Path, commandTool(iv.Table, cmd)
		s.AddTool(tool, func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			opts := Options{Session: sessionBinding(ctx), Tool: tool.Name}
			return toolResult(iv.Invoke(ctx, transport, path, req.Params.Arguments, opts)), nil
		})
	}
}
