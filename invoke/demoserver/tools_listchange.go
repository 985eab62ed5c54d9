package demoserver

import (
	"context"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// ExtraTool is the tool toggle_extra_tool adds to the server's tool list
// and removes again.
const ExtraTool = "extra_tool"

// listChangeTools change the server's own tool list, so a client sees
// notifications/tools/list_changed on demand.
func listChangeTools() []newTool {
	return []newTool{toggleExtraToolTool, triggerToolChangeTool, triggerPromptChangeTool}
}

// extraState is whether ExtraTool is listed now. The SDK's AddTool and
// RemoveTools send notifications/tools/list_changed to every session.
type extraState struct {
	mu     sync.Mutex
	listed bool
}

func toggleExtraToolTool(s *Server) tool {
	type toggleIn struct {
		Changed bool `json:"changed,omitempty" jsonschema:"when adding, give the extra tool another description (a definition that differs from the one a client pinned)"`
	}
	return typed(&mcp.Tool{Name: "toggle_extra_tool",
		Description: "Adds " + ExtraTool + " to the tool list, or removes it when it is listed; either way the server sends notifications/tools/list_changed.",
		Annotations: annotate("Toggle the extra tool", writes, false)},
		func(_ context.Context, _ *mcp.CallToolRequest, in toggleIn) (*mcp.CallToolResult, any, error) {
			s.extra.mu.Lock()
			defer s.extra.mu.Unlock()
			if s.extra.listed {
				s.mcp.RemoveTools(ExtraTool)
				s.extra.listed = false
				return text("Removed " + ExtraTool + "; the tool list changed."), nil, nil
			}
			extraTool(in.Changed).add(s.mcp)
			s.extra.listed = true
			return text("Added " + ExtraTool + "; the tool list changed."), nil, nil
		})
}

// extraTool is the tool toggle_extra_tool adds; changed gives it another
// description.
func extraTool(changed bool) tool {
	type none struct{}
	desc := "Listed only while toggle_extra_tool has added it; answers with a fixed text."
	if changed {
		desc = "Listed only while toggle_extra_tool has added it; this description changed since it was first listed."
	}
	return typed(&mcp.Tool{Name: ExtraTool, Description: desc, Annotations: annotate("Extra tool", readOnly, true)},
		func(context.Context, *mcp.CallToolRequest, none) (*mcp.CallToolResult, any, error) {
			return text("The extra tool answered."), nil, nil
		})
}

// triggerToolChangeTool registers itself again, unchanged: the tool list
// stays the same, and the SDK announces the registration as a change
// (notifications/tools/list_changed; in the 2026-07-28 era on each open
// subscriptions/listen stream that asked for it).
func triggerToolChangeTool(s *Server) tool {
	var t tool
	t = typed(&mcp.Tool{Name: "test_trigger_tool_change",
		Description: "Registers itself again, unchanged, so the server sends notifications/tools/list_changed (SEP-2575; conformance fixture).",
		Annotations: annotate("Trigger a tool list change", readOnly, true)},
		func(context.Context, *mcp.CallToolRequest, noArgs) (*mcp.CallToolResult, any, error) {
			t.add(s.mcp)
			return text("The tool list was announced as changed."), nil, nil
		})
	return t
}

// triggerPromptChangeTool registers test_simple_prompt again, unchanged,
// so the server sends notifications/prompts/list_changed.
func triggerPromptChangeTool(s *Server) tool {
	return typed(&mcp.Tool{Name: "test_trigger_prompt_change",
		Description: "Registers test_simple_prompt again, unchanged, so the server sends notifications/prompts/list_changed (SEP-2575; conformance fixture).",
		Annotations: annotate("Trigger a prompt list change", readOnly, true)},
		func(context.Context, *mcp.CallToolRequest, noArgs) (*mcp.CallToolResult, any, error) {
			addSimplePrompt(s.mcp)
			return text("The prompt list was announced as changed."), nil, nil
		})
}
