package tui

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"sync"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/relavium/relavium/internal/testbin"
)

// A network server with a headers helper: the workbench asks before the
// helper runs, in the consent dialog family (the exact line, the origin its
// headers go to, that it runs a program); denied, the helper never runs
// and nothing is dialled; approved and remembered, it runs, its header
// reaches the server, and the next workbench runs it without asking.
func TestE2ETmuxHeadersHelperAsked(t *testing.T) {
	requireTmux(t)
	bin := testbin.Relavium(t)
	s := mcp.NewServer(&mcp.Implementation{Name: "mine", Version: "1"}, nil)
	mcp.AddTool(s, &mcp.Tool{Name: "hello", Annotations: &mcp.ToolAnnotations{ReadOnlyHint: true}},
		func(context.Context, *mcp.CallToolRequest, struct{}) (*mcp.CallToolResult, any, error) {
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "hi"}}}, nil, nil
		})
	inner := mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return s }, &mcp.StreamableHTTPOptions{Stateless: true, JSONResponse: true})
	var mu sync.Mutex
	var keys []string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		keys = append(keys, r.Header.Get("X-Api-Key"))
		mu.Unlock()
		inner.ServeHTTP(w, r)
	}))
	t.Cleanup(srv.Close)
	seen := func() []string { mu.Lock(); defer mu.Unlock(); return append([]string(nil), keys...) }

	dir := t.TempDir()
	home, project := filepath.Join(dir, "home"), filepath.Join(dir, "project")
	if err := os.MkdirAll(filepath.Join(project, ".relavium"), 0o755); err != nil {
		t.Fatal(err)
	}
	mark := filepath.Join(project, "ran")
	script := filepath.Join(project, "helper.sh")
	if err := os.WriteFile(script, []byte("#!/bin/sh\necho run >> "+mark+"\nprintf '{\"X-Api-Key\": \"tui-helper-secret\"}'\n"), 0o700); err != nil {
		t.Fatal(err)
	}
	cfg := fmt.Sprintf("[[mcp_servers]]\nname = \"mine\"\ntransport = \"http\"\nurl = %q\nallow_local_endpoint = true\nheaders_helper = %q\n", srv.URL+"/mcp", script)
	if err := os.WriteFile(filepath.Join(project, ".relavium", "config.toml"), []byte(cfg), 0o644); err != nil {
		t.Fatal(err)
	}
	run := func(name string) *tmuxTerm {
		sh := fmt.Sprintf(`cd %s && env -u CI -u NO_COLOR RELAVIUM_HOME=%s TERM=xterm-256color %s; sleep 600`, project, home, bin)
		return startTmux(t, name, 140, 36, dir, sh)
	}
	ran := func() bool { _, err := os.Stat(mark); return err == nil }

	tm := run("helperdeny")
	tm.waitFor("the headers helper dialog", "Run a headers helper?", "server mine", "helper.sh", "request headers to", "runs a program as you")
	if ran() || len(seen()) != 0 {
		t.Fatalf("before the person's word the helper ran (%v) or the server saw %d request(s)", ran(), len(seen()))
	}
	tm.answer("d")
	tm.waitFor("the server not connected", "⊘ mine", "denied")
	if ran() || len(seen()) != 0 {
		t.Fatalf("a denied helper ran (%v) or the server saw %d request(s)", ran(), len(seen()))
	}

	tm2 := run("helperremember")
	tm2.waitFor("the headers helper dialog", "Run a headers helper?")
	tm2.answer("A")
	tm2.waitFor("the server connected", "● mine", "✓ hello")
	if got := seen(); !ran() || len(got) == 0 || got[0] != "tui-helper-secret" {
		t.Fatalf("after approval: ran %v, the server saw X-Api-Key %q", ran(), got)
	}

	tm3 := run("helperremembered")
	tm3.waitFor("connected without asking", "● mine", "✓ hello")
}
