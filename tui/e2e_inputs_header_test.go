package tui

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/relavium/relavium/internal/testbin"
)

// An undeclared ${input:id} in a header of a .mcp.json network server
// (the shape of a Jenkins file: "Basic ${input:jenkins-basic-auth}"), or
// in its url's query, is asked for in the masked dialog once the server's
// address is approved; the typed value is what the server receives, and
// nothing was sent before it was typed.
func TestE2ETmuxUndeclaredHeaderInputIsTypedAndSent(t *testing.T) {
	requireTmux(t)
	for _, tc := range []struct{ name, url, headers, want string }{
		{"hdr", "/mcp", `"Authorization": "Basic ${input:ci-basic-auth}"`, "Basic dXNlcjp0eXBlZA|"},
		{"query", "/mcp?key=${input:ci-basic-auth}", ``, "|dXNlcjp0eXBlZA"},
	} {
		t.Run(tc.name, func(t *testing.T) { typedAndSent(t, tc.name, tc.url, tc.headers, tc.want) })
	}
}

func typedAndSent(t *testing.T, name, path, headers, want string) {
	bin := testbin.Relavium(t)
	s := mcp.NewServer(&mcp.Implementation{Name: "ci", Version: "1"}, nil)
	mcp.AddTool(s, &mcp.Tool{Name: "build", Annotations: &mcp.ToolAnnotations{ReadOnlyHint: true}},
		func(context.Context, *mcp.CallToolRequest, struct{}) (*mcp.CallToolResult, any, error) {
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "ok"}}}, nil, nil
		})
	var mu sync.Mutex
	var seen []string
	h := mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return s }, &mcp.StreamableHTTPOptions{Stateless: true, JSONResponse: true})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		seen = append(seen, r.Header.Get("Authorization")+"|"+r.URL.Query().Get("key"))
		mu.Unlock()
		h.ServeHTTP(w, r)
	}))
	t.Cleanup(srv.Close)
	sent := func() []string {
		mu.Lock()
		defer mu.Unlock()
		return slices.Clone(seen)
	}

	dir := t.TempDir()
	home, project := filepath.Join(dir, "home"), filepath.Join(dir, "project")
	if err := os.MkdirAll(project, 0o755); err != nil {
		t.Fatal(err)
	}
	body := fmt.Sprintf(`{"mcpServers": {"ci": {"type": "http", "url": %q, "headers": {%s}}}}`, srv.URL+path, headers)
	if err := os.WriteFile(filepath.Join(project, ".mcp.json"), []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	script := fmt.Sprintf(`cd %s && env -u CI -u NO_COLOR RELAVIUM_HOME=%s TERM=xterm-256color %s; sleep 600`, project, home, bin)
	tm := startTmux(t, name, 120, 32, dir, script)
	tm.waitFor("the local address dialog", "Dial a local address?", "server ci")
	tm.answer("o")
	tm.waitFor("the masked secret dialog", "Secrets for ci", "ci-basic-auth")
	if got := sent(); len(got) != 0 {
		t.Fatalf("sent before the value was typed: %q", got)
	}
	tm.answer()
	tm.text("dXNlcjp0eXBlZA")
	if screen := tm.pane(); strings.Contains(screen, "dXNlcjp0eXBlZA") {
		t.Fatalf("the typed secret is shown:\n%s", screen)
	}
	tm.keys("Enter")
	tm.waitFor("the server connected with it", "● ci", "✓ build")
	got := sent()
	if len(got) == 0 || slices.ContainsFunc(got, func(v string) bool { return v != want }) {
		t.Fatalf("the server received %q, want every request to carry the typed value", got)
	}
	if screen := tm.pane(); strings.Contains(screen, "dXNlcjp0eXBlZA") {
		t.Fatalf("the typed secret is shown once connected:\n%s", screen)
	}
}
