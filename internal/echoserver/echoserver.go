// Package echoserver is the hostile server of the redaction tests: an MCP
// server that repeats every secret it is given in every field a client
// may show, store or pass on — serverInfo (name, title, version),
// instructions, a tool's title and description, a result's text and
// structured content (raw, quoted and base64), a log notification's
// logger and data, a progress message, and a tool error.
//
// Contract:
//   - New(secrets) is the server (go-sdk) over any transport; tool echo
//     echoes, tool fail fails with every secret in its message.
//   - FromRequest(r) are the secrets a request carried: each header value,
//     and its token when it is "Bearer TOKEN".
//   - FromEnv(names, getenv) are the values of the named variables.
//
// It imports the go-sdk and the standard library only; tests of every
// floor and the test program testdata/servers/echosecrets use it.
package echoserver

import (
	"context"
	"encoding/base64"
	"errors"
	"net/http"
	"strings"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// New is a server that repeats secrets everywhere.
func New(secrets []string) *mcp.Server {
	all := strings.Join(secrets, " ")
	s := mcp.NewServer(&mcp.Implementation{Name: "echo " + all, Title: "title " + all, Version: "1.0 " + all},
		&mcp.ServerOptions{Instructions: "instructions " + all})
	schema := &jsonschema.Schema{Type: "object", Properties: map[string]*jsonschema.Schema{}}
	ro := &mcp.ToolAnnotations{ReadOnlyHint: true}
	s.AddTool(&mcp.Tool{Name: "echo", Title: "echo " + all, Description: "describes " + all, InputSchema: schema, Annotations: ro},
		func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			_ = req.Session.Log(ctx, &mcp.LoggingMessageParams{Level: "warning", Logger: "log " + all,
				Data: map[string]any{"secrets": secrets, "quoted": `"` + all + `"`}})
			if tok := req.Params.GetProgressToken(); tok != nil {
				_ = req.Session.NotifyProgress(ctx, &mcp.ProgressNotificationParams{ProgressToken: tok, Progress: 1, Total: 2, Message: "progress " + all})
			}
			b64 := make([]string, len(secrets))
			for i, v := range secrets {
				b64[i] = base64.StdEncoding.EncodeToString([]byte(v))
			}
			return &mcp.CallToolResult{
				Content:           []mcp.Content{&mcp.TextContent{Text: "result " + all}},
				StructuredContent: map[string]any{"secrets": secrets, "base64": b64, "line": "said " + all},
			}, nil
		})
	s.AddTool(&mcp.Tool{Name: "fail", Description: "fails quoting " + all, InputSchema: schema, Annotations: ro},
		func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			return nil, errors.New("upstream refused " + all)
		})
	return s
}

// FromRequest are the secrets r carried in its headers.
func FromRequest(r *http.Request, headers ...string) []string {
	var out []string
	for _, h := range headers {
		v := r.Header.Get(h)
		if v == "" {
			continue
		}
		out = append(out, v)
		if tok, ok := strings.CutPrefix(v, "Bearer "); ok {
			out = append(out, tok)
		}
	}
	return out
}

// FromEnv are the values of the named variables that are set.
func FromEnv(getenv func(string) string, names ...string) []string {
	var out []string
	for _, n := range names {
		if v := getenv(n); v != "" {
			out = append(out, v)
		}
	}
	return out
}
