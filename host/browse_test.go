package host

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/relavium/relavium/host/failure"
)

// browseServer offers resources, a resource template and prompts.
func browseServer() *mcp.Server {
	s := mcp.NewServer(&mcp.Implementation{Name: "browse", Version: "1"}, nil)
	text := func(uri, body string) mcp.ResourceHandler {
		return func(context.Context, *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
			return &mcp.ReadResourceResult{Contents: []*mcp.ResourceContents{{URI: uri, MIMEType: "text/plain", Text: body}}}, nil
		}
	}
	s.AddResource(&mcp.Resource{URI: "test://hello", Name: "hello", Title: "Hello", MIMEType: "text/plain", Size: 5}, text("test://hello", "hello"))
	s.AddResource(&mcp.Resource{URI: "test://blob", Name: "blob", MIMEType: "image/png"},
		func(context.Context, *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
			return &mcp.ReadResourceResult{Contents: []*mcp.ResourceContents{{URI: "test://blob", MIMEType: "image/png", Blob: []byte{1, 2, 3}}}}, nil
		})
	s.AddResource(&mcp.Resource{URI: "test://huge", Name: "huge"}, text("test://huge", strings.Repeat("x", MaxResultText+1)))
	s.AddResourceTemplate(&mcp.ResourceTemplate{URITemplate: "test://item/{id}", Name: "item"},
		func(_ context.Context, req *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
			return &mcp.ReadResourceResult{Contents: []*mcp.ResourceContents{{URI: req.Params.URI, Text: "item " + strings.TrimPrefix(req.Params.URI, "test://item/")}}}, nil
		})
	s.AddPrompt(&mcp.Prompt{Name: "greet", Title: "Greet", Arguments: []*mcp.PromptArgument{{Name: "who", Required: true}, {Name: "tone"}}},
		func(_ context.Context, req *mcp.GetPromptRequest) (*mcp.GetPromptResult, error) {
			return &mcp.GetPromptResult{Description: "a greeting", Messages: []*mcp.PromptMessage{
				{Role: "user", Content: &mcp.TextContent{Text: "Say hello to " + req.Params.Arguments["who"]}},
				{Role: "assistant", Content: &mcp.ImageContent{MIMEType: "image/png", Data: []byte{9}}},
			}}, nil
		})
	return s
}

func TestBrowseResourcesAndPrompts(t *testing.T) {
	h := startHost(t, Options{Servers: []Endpoint{memoryServer(t, "b", browseServer()), memoryServer(t, "plain", inprocServer())}})
	ctx := context.Background()

	list, err := h.Resources(ctx, "b")
	if err != nil {
		t.Fatal(err)
	}
	if !list.Offered || len(list.Resources) != 3 || len(list.Templates) != 1 || list.Templates[0].URITemplate != "test://item/{id}" {
		t.Fatalf("resources = %+v", list)
	}
	var hello Resource
	for _, r := range list.Resources {
		if r.URI == "test://hello" {
			hello = r
		}
	}
	if hello.Title != "Hello" || hello.MIMEType != "text/plain" || hello.Size != 5 {
		t.Fatalf("hello = %+v", hello)
	}
	got, err := h.ReadResource(ctx, "b", "test://hello")
	if err != nil || len(got) != 1 || got[0].Type != "resource" || got[0].Text != "hello" || got[0].URI != "test://hello" {
		t.Fatalf("read hello = %+v %v", got, err)
	}
	got, err = h.ReadResource(ctx, "b", "test://blob")
	if err != nil || len(got) != 1 || string(got[0].Data) != "\x01\x02\x03" {
		t.Fatalf("read blob = %+v %v", got, err)
	}
	got, err = h.ReadResource(ctx, "b", "test://item/42")
	if err != nil || got[0].Text != "item 42" {
		t.Fatalf("read template = %+v %v", got, err)
	}
	if _, err := h.ReadResource(ctx, "b", "test://huge"); codeOf(err) != failure.CodeResultTooLarge {
		t.Fatalf("a resource over 1 MiB: %v", err)
	}

	prompts, err := h.Prompts(ctx, "b")
	if err != nil || len(prompts) != 1 || prompts[0].Name != "greet" || len(prompts[0].Arguments) != 2 || !prompts[0].Arguments[0].Required {
		t.Fatalf("prompts = %+v %v", prompts, err)
	}
	pr, err := h.GetPrompt(ctx, "b", "greet", map[string]string{"who": "Ada"})
	if err != nil {
		t.Fatal(err)
	}
	if pr.Description != "a greeting" || len(pr.Messages) != 2 || pr.Messages[0].Role != "user" ||
		pr.Messages[0].Content.Text != "Say hello to Ada" || pr.Messages[1].Role != "assistant" || pr.Messages[1].Content.Type != "image" {
		t.Fatalf("prompt = %+v", pr)
	}

	// A server that declares neither capability: empty, not an error.
	plain, err := h.Resources(ctx, "plain")
	if err != nil || plain.Offered || len(plain.Resources) != 0 {
		t.Fatalf("plain resources = %+v %v", plain, err)
	}
	if ps, err := h.Prompts(ctx, "plain"); err != nil || len(ps) != 0 {
		t.Fatalf("plain prompts = %+v %v", ps, err)
	}
	if _, err := h.Resources(ctx, "nope"); codeOf(err) != failure.CodeServerNotReady {
		t.Fatalf("unknown server: %v", err)
	}

	// Cancellation by the caller is a cancellation.
	cctx, cancel := context.WithCancel(ctx)
	cancel()
	if _, err := h.Prompts(cctx, "b"); codeOf(err) != failure.CodeCallCancelled {
		t.Fatalf("cancelled prompts/list: %v", err)
	}

	_ = h.Close()
	if _, err := h.Resources(ctx, "b"); codeOf(err) != failure.CodeHostClosed {
		t.Fatalf("after Close: %v", err)
	}
}

func TestValidateWithoutCalling(t *testing.T) {
	calls := 0
	s := mcp.NewServer(&mcp.Implementation{Name: "v", Version: "1"}, nil)
	type in struct {
		N int `json:"n" jsonschema:"a number"`
	}
	mcp.AddTool(s, &mcp.Tool{Name: "count"}, func(context.Context, *mcp.CallToolRequest, in) (*mcp.CallToolResult, any, error) {
		calls++
		return &mcp.CallToolResult{}, nil, nil
	})
	h := startHost(t, Options{Servers: []Endpoint{memoryServer(t, "v", s)}})
	id, ok := h.Lookup("mcp_v_count")
	if !ok {
		t.Fatalf("tools: %v", toolNames(h))
	}
	if err := h.Validate(id, json.RawMessage(`{"n":3}`)); err != nil {
		t.Fatalf("valid arguments: %v", err)
	}
	if err := h.Validate(id, json.RawMessage(`{"n":"three"}`)); err == nil {
		t.Fatal("a string for an integer validated")
	}
	if err := h.Validate("nope", nil); codeOf(err) != failure.CodeUnknownTool {
		t.Fatalf("unknown id: %v", err)
	}
	if calls != 0 {
		t.Fatal("Validate called the tool")
	}
}
