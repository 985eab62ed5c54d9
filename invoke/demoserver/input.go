package demoserver

import (
	"encoding/json"
	"fmt"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// Elicitation and sampling go through InputRequests (SEP-2322, multi round
// trip): the handler returns the questions, and is called again with the
// answers. Under protocol 2026-07-28 the client fulfils them; for older
// clients the SDK asks with elicitation/create or sampling/createMessage and
// re-invokes the handler itself. One code path serves both.

// elicited returns the answer to the elicitation named key, if the client
// sent one.
func elicited(req *mcp.CallToolRequest, key string) (*mcp.ElicitResult, bool) {
	r, ok := req.Params.InputResponses[key].(*mcp.ElicitResult)
	return r, ok && r != nil
}

// sampled returns the text of the sampling answer named key, if the client
// sent one.
func sampled(req *mcp.CallToolRequest, key string) (string, bool) {
	var content []mcp.Content
	switch r := req.Params.InputResponses[key].(type) {
	case *mcp.CreateMessageWithToolsResult:
		if r == nil {
			return "", false
		}
		content = r.Content
	case *mcp.CreateMessageResult:
		if r == nil {
			return "", false
		}
		content = []mcp.Content{r.Content}
	default:
		return "", false
	}
	for _, c := range content {
		if t, ok := c.(*mcp.TextContent); ok {
			return t.Text, true
		}
	}
	return "(non-text response)", true
}

// ask returns a result that asks the client one question.
func ask(key string, q mcp.InputRequest) *mcp.CallToolResult {
	return &mcp.CallToolResult{InputRequests: mcp.InputRequestMap{key: q}}
}

// missingCapability returns an isError result when the client did not
// declare the capability a tool needs ("elicitation" or "sampling"), else nil.
func missingCapability(req *mcp.CallToolRequest, capability string) *mcp.CallToolResult {
	caps := req.ClientCapabilities()
	ok := false
	if caps != nil {
		switch capability {
		case "elicitation":
			ok = caps.Elicitation != nil
		case "sampling":
			ok = caps.Sampling != nil
		}
	}
	if ok {
		return nil
	}
	return errorResult(fmt.Sprintf("this tool needs the client's %s capability, which it did not declare", capability))
}

// describeElicit renders an elicitation answer for a text block.
func describeElicit(prefix string, r *mcp.ElicitResult) string {
	content := "{}"
	if r.Content != nil {
		if b, err := json.Marshal(r.Content); err == nil {
			content = string(b)
		}
	}
	return fmt.Sprintf("%s action=%s, content=%s", prefix, r.Action, content)
}

// text returns a result holding one text block.
func text(s string) *mcp.CallToolResult {
	return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: s}}}
}

// errorResult returns an isError result holding one text block.
func errorResult(s string) *mcp.CallToolResult {
	return &mcp.CallToolResult{IsError: true, Content: []mcp.Content{&mcp.TextContent{Text: s}}}
}
