package demoserver

import (
	"context"
	"fmt"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// clientTools ask the client for what only a client has: its roots, and a
// page the person opens (url-mode elicitation).
func clientTools() []newTool {
	return []newTool{listRootsTool, signInTool}
}

func listRootsTool(*Server) tool {
	type none struct{}
	return typed(&mcp.Tool{Name: "list_roots", Description: "Asks the client for its roots (roots/list) and lists them.",
		Annotations: annotate("List roots", readOnly, true)},
		func(_ context.Context, req *mcp.CallToolRequest, _ none) (*mcp.CallToolResult, any, error) {
			res, ok := req.Params.InputResponses["roots"].(*mcp.ListRootsResult)
			if !ok || res == nil {
				if caps := req.ClientCapabilities(); caps == nil || (caps.RootsV2 == nil && !caps.Roots.ListChanged) {
					return errorResult("this tool needs the client's roots capability, which it did not declare"), nil, nil
				}
				return ask("roots", &mcp.ListRootsParams{}), nil, nil
			}
			if len(res.Roots) == 0 {
				return text("The client offers no roots."), nil, nil
			}
			lines := make([]string, 0, len(res.Roots))
			for _, r := range res.Roots {
				lines = append(lines, r.URI)
			}
			return text(fmt.Sprintf("%d root(s):\n%s", len(res.Roots), strings.Join(lines, "\n"))), nil, nil
		})
}

func signInTool(*Server) tool {
	type signInIn struct {
		URL string `json:"url,omitempty" jsonschema:"the page to send the person to (default: an https page of example.com)"`
	}
	return typed(&mcp.Tool{Name: "sign_in", Description: "Sends the person to a sign-in page (url-mode elicitation) and reports their answer.",
		Annotations: annotate("Sign in", readOnly, true)},
		func(_ context.Context, req *mcp.CallToolRequest, in signInIn) (*mcp.CallToolResult, any, error) {
			if r, ok := elicited(req, "signin"); ok {
				return text("Sign-in answer: " + r.Action), nil, nil
			}
			if caps := req.ClientCapabilities(); caps == nil || caps.Elicitation == nil || caps.Elicitation.URL == nil {
				return errorResult("this tool needs the client's url-mode elicitation capability, which it did not declare"), nil, nil
			}
			u := in.URL
			if u == "" {
				u = "https://example.com/relavium-demo/sign-in"
			}
			return ask("signin", &mcp.ElicitParams{Mode: "url", Message: "Sign in to the demo service", URL: u, ElicitationID: "demo-sign-in"}), nil, nil
		})
}
