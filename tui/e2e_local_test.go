package tui

import (
	"context"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"sync/atomic"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/relavium/relavium/internal/testbin"
)

// acceptCounter counts the connections a listener accepts.
type acceptCounter struct {
	net.Listener
	n *atomic.Int64
}

func (l acceptCounter) Accept() (net.Conn, error) {
	c, err := l.Listener.Accept()
	if err == nil {
		l.n.Add(1)
	}
	return c, err
}

// A server of a .cursor/mcp.json at a loopback address is held: the
// workbench asks before it dials it, in the consent dialog family (which
// server, which file:line, which address, that it is local); denied, the
// listener never sees a connection; approved and remembered, it connects,
// and the next workbench connects it without asking.
func TestE2ETmuxLocalAddressAsked(t *testing.T) {
	requireTmux(t)
	bin := testbin.Relavium(t)
	s := mcp.NewServer(&mcp.Implementation{Name: "mine", Version: "1"}, nil)
	mcp.AddTool(s, &mcp.Tool{Name: "hello", Annotations: &mcp.ToolAnnotations{ReadOnlyHint: true}},
		func(context.Context, *mcp.CallToolRequest, struct{}) (*mcp.CallToolResult, any, error) {
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "hi"}}}, nil, nil
		})
	accepted := &atomic.Int64{}
	// Stateless: no server session outlives its request (the workbench is
	// killed, not closed, at the end of the test).
	srv := httptest.NewUnstartedServer(mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return s },
		&mcp.StreamableHTTPOptions{Stateless: true, JSONResponse: true}))
	srv.Listener = acceptCounter{Listener: srv.Listener, n: accepted}
	srv.Start()
	t.Cleanup(srv.Close)
	address := srv.Listener.Addr().String()

	dir := t.TempDir()
	home, project := filepath.Join(dir, "home"), filepath.Join(dir, "project")
	if err := os.MkdirAll(filepath.Join(project, ".cursor"), 0o755); err != nil {
		t.Fatal(err)
	}
	body := fmt.Sprintf(`{"mcpServers": {"mine": {"url": %q}}}`, srv.URL+"/mcp")
	if err := os.WriteFile(filepath.Join(project, ".cursor", "mcp.json"), []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	run := func(name string) *tmuxTerm {
		script := fmt.Sprintf(`cd %s && env -u CI -u NO_COLOR RELAVIUM_HOME=%s TERM=xterm-256color %s; sleep 600`, project, home, bin)
		return startTmux(t, name, 120, 32, dir, script)
	}

	tm := run("localdeny")
	tm.waitFor("the local address dialog", "Dial a local address?", "server mine", ".cursor/mcp.json:1:", address, "loopback or private address")
	if n := accepted.Load(); n != 0 {
		t.Fatalf("dialled before the person's word: %d connection(s)", n)
	}
	tm.answer("d")
	tm.waitFor("the server not dialled", "⊘ mine", "denied", "not started: consent denied")
	if n := accepted.Load(); n != 0 {
		t.Fatalf("a denied local address was dialled: %d connection(s)", n)
	}

	tm2 := run("localremember")
	tm2.waitFor("the local address dialog", "Dial a local address?", address)
	tm2.answer("A")
	tm2.waitFor("the server connected", "● mine", "✓ hello")
	if accepted.Load() == 0 {
		t.Fatal("the approved address was not dialled")
	}

	tm3 := run("localremembered")
	tm3.waitFor("connected without asking", "● mine", "✓ hello")
}
