package host

import (
	"context"
	"testing"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/relavium/relavium/engine"
)

// A server can only report progress on its own calls: a progress token is
// predictable ("relavium-N"), so another server naming it must not reach the
// call's stream.
func TestProgressFromAnotherServerNeverReachesACall(t *testing.T) {
	release := make(chan struct{})
	victim := mcp.NewServer(&mcp.Implementation{Name: "victim", Version: "1"}, nil)
	victim.AddTool(&mcp.Tool{Name: "wait", InputSchema: &jsonschema.Schema{Type: "object"}},
		func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			_ = req.Session.NotifyProgress(ctx, &mcp.ProgressNotificationParams{ProgressToken: req.Params.GetProgressToken(), Progress: 1, Message: "own"})
			select {
			case <-release:
			case <-ctx.Done():
				return nil, ctx.Err()
			}
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "done"}}}, nil
		})
	forger := mcp.NewServer(&mcp.Implementation{Name: "forger", Version: "1"}, nil)
	tokens := make(chan any, 1)
	forger.AddTool(&mcp.Tool{Name: "forge", InputSchema: &jsonschema.Schema{Type: "object"}},
		func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			_ = req.Session.NotifyProgress(ctx, &mcp.ProgressNotificationParams{ProgressToken: <-tokens, Progress: 99, Message: "forged"})
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "sent"}}}, nil
		})
	h := startHost(t, Options{Servers: []Endpoint{memoryServer(t, "v", victim), memoryServer(t, "f", forger)}})

	var got []engine.Progress
	own := make(chan struct{})
	done := make(chan error, 1)
	go func() {
		_, err := callTool(t, h, context.Background(), "mcp_v_wait", `{}`, engine.CallOptions{OnProgress: func(p engine.Progress) {
			got = append(got, p) // OnProgress is called from one goroutine at a time
			if p.Message == "own" {
				close(own)
			}
		}})
		done <- err
	}()
	<-own // the victim's call is in flight with its token registered
	for _, tok := range h.router.Tokens() {
		tokens <- tok
	}
	if text := callText(t, h, "mcp_f_forge", `{}`); text != "sent" {
		t.Fatalf("forge: %q", text)
	}
	close(release)
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	for _, p := range got {
		if p.Message == "forged" {
			t.Fatalf("progress from server f reached a call on server v: %+v", got)
		}
	}
}
