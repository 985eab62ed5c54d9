package discovery

import (
	"context"
	"net/http"
	"net/http/httptest"
	"slices"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

type echoIn struct {
	Text  string `json:"text" jsonschema:"what to echo"`
	Times int    `json:"times,omitempty"`
}

// sdkServer is a well-behaved go-sdk server with five tools, two per page.
func sdkServer() *mcp.Server {
	s := mcp.NewServer(&mcp.Implementation{Name: "peer", Version: "1"}, &mcp.ServerOptions{PageSize: 2})
	for _, n := range []string{"e1", "e2", "e3", "e4", "e5"} {
		mcp.AddTool(s, &mcp.Tool{Name: n, Description: "Echo \x1b[31mtext\x1b[0m."}, func(context.Context, *mcp.CallToolRequest, echoIn) (*mcp.CallToolResult, any, error) {
			return &mcp.CallToolResult{}, nil, nil
		})
	}
	return s
}

func checkPeerCatalogue(t *testing.T, cat *Catalogue) {
	t.Helper()
	if got := names(cat); !slices.Equal(got, []string{"e1", "e2", "e3", "e4", "e5"}) || cat.Pages != 3 {
		t.Fatalf("admitted %q in %d pages; skipped %+v", got, cat.Pages, cat.Skipped)
	}
	if d := cat.Tools[0].Def.Description; d != "Echo text." {
		t.Errorf("description %q", d)
	}
	if p := cat.Tools[0].Def.Fields; len(p) != 2 || !p[0].Required {
		t.Errorf("properties %+v", p)
	}
}

// Against the SDK's own server, over every protocol the client may
// negotiate: in-memory (2026-07-28), stateful Streamable HTTP (falls back
// to 2025-11-25, standalone stream and session headers intact) and
// stateless Streamable HTTP (2026-07-28).
func TestDiscoverAgainstSDKServer(t *testing.T) {
	ctx := context.Background()
	t.Run("in-memory", func(t *testing.T) {
		st, ct := mcp.NewInMemoryTransports()
		ss, err := sdkServer().Connect(ctx, st, nil)
		if err != nil {
			t.Fatal(err)
		}
		defer ss.Close()
		wrapped, capture := WrapTransport(ct)
		cs, err := mcp.NewClient(&mcp.Implementation{Name: "t", Version: "0"}, nil).Connect(ctx, wrapped, nil)
		if err != nil {
			t.Fatal(err)
		}
		defer cs.Close()
		cat, err := Discover(ctx, "peer", NewLister(cs, capture), Options{})
		if err != nil {
			t.Fatal(err)
		}
		checkPeerCatalogue(t, cat)
	})
	for _, stateless := range []bool{false, true} {
		name := "streamable-stateful"
		if stateless {
			name = "streamable-stateless"
		}
		t.Run(name, func(t *testing.T) {
			srv := sdkServer()
			h := mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return srv }, &mcp.StreamableHTTPOptions{Stateless: stateless})
			ts := httptest.NewServer(h)
			defer ts.Close()
			tr := &http.Transport{}
			defer tr.CloseIdleConnections()
			wrapped, capture := WrapTransport(&mcp.StreamableClientTransport{Endpoint: ts.URL, HTTPClient: &http.Client{Transport: tr}})
			cs, err := mcp.NewClient(&mcp.Implementation{Name: "t", Version: "0"}, nil).Connect(ctx, wrapped, nil)
			if err != nil {
				t.Fatal(err)
			}
			defer cs.Close()
			cat, err := Discover(ctx, "peer", NewLister(cs, capture), Options{})
			if err != nil {
				t.Fatal(err)
			}
			checkPeerCatalogue(t, cat)
			// The session still works after discovery: a call goes through.
			if _, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "e1", Arguments: map[string]any{"text": "x"}}); err != nil {
				t.Fatalf("call after discovery: %v", err)
			}
			if err := cat.Tools[0].Validate([]byte(`{"text":1}`)); err == nil {
				t.Error("the compiled validator accepted a number for a string")
			}
		})
	}
}
