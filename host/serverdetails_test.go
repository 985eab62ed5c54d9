package host

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/relavium/relavium/host/browse"
	"github.com/relavium/relavium/host/netguard"
)

// A server's serverInfo, capabilities and instructions, as it said them at
// initialize, cleaned: no terminal control survives, instructions bounded.
func TestServerDetailsAreTheServersWordsCleaned(t *testing.T) {
	s := mcp.NewServer(&mcp.Implementation{Name: "det\x1b]0;x\x07ails", Title: "Details", Version: "9", WebsiteURL: "https://example.com",
		Icons: []mcp.Icon{{Source: "https://example.com/i.png", MIMEType: "image/png", Sizes: []string{"48x48"}}}},
		&mcp.ServerOptions{Instructions: "Use echo.\x1b[2J\n" + strings.Repeat("x", browse.MaxInstructions)})
	mcp.AddTool(s, &mcp.Tool{Name: "echo"}, func(context.Context, *mcp.CallToolRequest, struct{}) (*mcp.CallToolResult, any, error) {
		return &mcp.CallToolResult{}, nil, nil
	})
	g := netguard.New()
	ep := networkServer(t, g, "n", TransportHTTP, serveHTTP(t, s)+"/mcp")
	h := startHost(t, Options{Guard: g, Servers: []Endpoint{ep}})
	d, ok := h.ServerDetails("n")
	if !ok {
		t.Fatal("no details for a connected server")
	}
	if d.Name != "details" && strings.ContainsAny(d.Name, "\x1b\x07") || d.Title != "Details" || d.Version != "9" || d.WebsiteURL != "https://example.com" ||
		len(d.Icons) != 1 || !strings.Contains(d.Icons[0], "48x48") || d.Protocol == "" {
		t.Fatalf("details: %+v", d)
	}
	if strings.ContainsAny(d.Name+d.Instructions, "\x1b\x07") || !strings.HasPrefix(d.Instructions, "Use echo.") || !d.InstructionsCut {
		t.Fatalf("instructions not cleaned or bounded: %q cut %v", d.Instructions[:40], d.InstructionsCut)
	}
	if !slices.ContainsFunc(d.Capabilities, func(c string) bool { return strings.HasPrefix(c, "tools") }) {
		t.Fatalf("capabilities: %v", d.Capabilities)
	}
	if _, ok := h.ServerDetails("nope"); ok {
		t.Fatal("details for a server not in the set")
	}
}
