package invoke

import (
	"context"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/relavium/relavium/consent"
)

// countingListener counts the connections it accepts: a held local
// address must see none until the person's word.
type countingListener struct {
	net.Listener
	accepted *atomic.Int64
}

func (l countingListener) Accept() (net.Conn, error) {
	c, err := l.Listener.Accept()
	if err == nil {
		l.accepted.Add(1)
	}
	return c, err
}

// localMCPServer is a Streamable HTTP MCP server on a loopback listener
// that counts accepted connections.
func localMCPServer(t *testing.T) (url string, accepted *atomic.Int64) {
	t.Helper()
	s := mcp.NewServer(&mcp.Implementation{Name: "mine", Version: "1"}, nil)
	mcp.AddTool(s, &mcp.Tool{Name: "hello", Annotations: &mcp.ToolAnnotations{ReadOnlyHint: true}},
		func(context.Context, *mcp.CallToolRequest, struct{}) (*mcp.CallToolResult, any, error) {
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "hi"}}}, nil, nil
		})
	accepted = &atomic.Int64{}
	srv := httptest.NewUnstartedServer(mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return s }, nil))
	srv.Listener = countingListener{Listener: srv.Listener, accepted: accepted}
	srv.Start()
	t.Cleanup(srv.Close)
	return srv.URL + "/mcp", accepted
}

// A server of another client's file (.cursor/mcp.json) at a loopback
// address is admitted and held: headless it is E327 (exit 2) before
// anything is dialled, its pending entry naming the server, the file, the
// address and the way out; --allow-local NAME dials it for one run; a
// remembered grant (consent grant NAME) dials it without the flag and
// consent ls / revoke show and drop it; the same server on another port
// is asked about again; a metadata address is still refused.
func TestLocalEndpointInAClientFileEndToEnd(t *testing.T) {
	e := newMCPE2E(t)
	url, accepted := localMCPServer(t)
	origin, err := consent.Origin(url)
	if err != nil {
		t.Fatal(err)
	}
	cursor := filepath.Join(e.project, ".cursor", "mcp.json")
	write := func(body string) {
		t.Helper()
		if err := os.MkdirAll(filepath.Dir(cursor), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(cursor, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write(fmt.Sprintf(`{"mcpServers": {"mine": {"url": %q}}}`, url))
	noDial := func(what string) {
		t.Helper()
		if n := accepted.Load(); n != 0 {
			t.Fatalf("%s: the local server accepted %d connection(s) before the person's word", what, n)
		}
	}

	// Headless, no flag: held, nothing dialled, the way out named.
	r := e.run(t, nil, "mcp", "ls", "--json")
	noDial("mcp ls --json")
	if r.code != 2 || r.errCode() != consent.CodeLocalHeld {
		t.Fatalf("exit %d code %s, want 2 %s: %s %s", r.code, r.errCode(), consent.CodeLocalHeld, r.stdout, r.stderr)
	}
	data, _ := r.env["data"].(map[string]any)
	locals, _ := data["local_endpoints"].([]any)
	if len(locals) != 1 {
		t.Fatalf("want one pending local endpoint: %s", r.stdout)
	}
	le := locals[0].(map[string]any)
	digest, _ := le["digest"].(string)
	if le["server"] != "mine" || le["origin"] != origin || le["allow_flag"] != "--allow-local mine" || le["grant"] != "relavium consent grant mine" ||
		!strings.HasPrefix(fmt.Sprint(le["source"]), cursor+":1:") || !consent.ValidDigest(digest) {
		t.Errorf("pending local endpoint: %v", le)
	}
	h := e.run(t, nil, "mcp", "ls")
	noDial("mcp ls")
	for _, want := range []string{"E327", "server   mine", "address  " + origin, "loopback or private address", "--allow-local mine", "consent grant NAME"} {
		if !strings.Contains(h.stderr, want) {
			t.Errorf("the human refusal does not say %q: %s", want, h.stderr)
		}
	}
	if r := e.run(t, nil, "mcp", "ls", "--json", "--allow-local", "other"); r.code != 2 || r.errCode() != consent.CodeAllowLocalUnmatched {
		t.Errorf("an --allow-local naming no held server: %d %s", r.code, r.stdout)
	}
	noDial("an unmatched --allow-local")
	if r := e.run(t, nil, "consent", "grant", "mine"); r.code != 2 || !strings.Contains(r.stderr, string(consent.CodeNeedsYes)) {
		t.Errorf("consent grant without --yes headless: %d %s %s", r.code, r.stdout, r.stderr)
	}
	noDial("consent grant without --yes")

	// config sources shows it held; config import writes it only on --allow-local.
	if r := e.run(t, nil, "config", "sources"); !strings.Contains(r.stdout, "held     mine at "+origin) {
		t.Errorf("config sources does not show the server held: %s", r.stdout)
	}
	if r := e.run(t, nil, "config", "import", cursor); r.code != 2 || !strings.Contains(r.stderr, "not imported: mine (E215)") ||
		!strings.Contains(r.stderr, "relavium config import "+cursor+" --allow-local mine") {
		t.Errorf("config import of a held server: %d %s %s", r.code, r.stdout, r.stderr)
	}
	if r := e.run(t, nil, "config", "import", cursor, "--allow-local", "mine"); r.code != 0 || !strings.Contains(r.stdout, "allow_local_endpoint = true") {
		t.Errorf("config import --allow-local mine: %d %s %s", r.code, r.stdout, r.stderr)
	}
	noDial("config sources and import")

	// --allow-local NAME: dialled for this run only.
	if r := e.run(t, nil, "mcp", "ls", "--json", "--allow-local", "mine"); r.code != 0 || !strings.Contains(r.stdout, `"hello"`) {
		t.Fatalf("--allow-local mine: %d %s %s", r.code, r.stdout, r.stderr)
	}
	if accepted.Load() == 0 {
		t.Fatal("--allow-local mine did not dial the server")
	}
	before := accepted.Load()
	if r := e.run(t, nil, "mcp", "ls", "--json"); r.code != 2 || r.errCode() != consent.CodeLocalHeld || accepted.Load() != before {
		t.Fatalf("the flag carried over to the next run: %d %s (%d new connections)", r.code, r.errCode(), accepted.Load()-before)
	}

	// Remembered: listed without the flag; consent ls shows it, revoke drops it.
	if r := e.run(t, nil, "consent", "grant", "mine", "--yes", "--json"); r.code != 0 || !strings.Contains(r.stdout, digest) {
		t.Fatalf("consent grant mine: %d %s %s", r.code, r.stdout, r.stderr)
	}
	if r := e.run(t, nil, "mcp", "ls", "--json"); r.code != 0 || !strings.Contains(r.stdout, `"hello"`) {
		t.Fatalf("after the grant: %d %s %s", r.code, r.stdout, r.stderr)
	}
	ls := e.run(t, nil, "consent", "ls")
	for _, want := range []string{digest, "server   mine", "address  " + origin, "local"} {
		if !strings.Contains(ls.stdout, want) {
			t.Errorf("consent ls does not say %q: %s", want, ls.stdout)
		}
	}
	if r := e.run(t, nil, "consent", "revoke", digest, "--yes"); r.code != 0 {
		t.Fatalf("consent revoke: %d %s", r.code, r.stderr)
	}
	before = accepted.Load()
	if r := e.run(t, nil, "mcp", "ls", "--json"); r.code != 2 || r.errCode() != consent.CodeLocalHeld || accepted.Load() != before {
		t.Fatalf("after the revocation: %d %s", r.code, r.errCode())
	}

	// Another port is another address: asked again, even with a grant of the first.
	if r := e.run(t, nil, "consent", "grant", "mine", "--yes"); r.code != 0 {
		t.Fatalf("consent grant mine: %d %s", r.code, r.stderr)
	}
	write(fmt.Sprintf(`{"mcpServers": {"mine": {"url": %q}}}`, otherPort(t, url)))
	before = accepted.Load()
	if r := e.run(t, nil, "mcp", "ls", "--json"); r.code != 2 || r.errCode() != consent.CodeLocalHeld || accepted.Load() != before {
		t.Fatalf("a changed port was not asked again: %d %s %s", r.code, r.errCode(), r.stdout)
	}

	// A metadata address is refused whatever the person says.
	write(`{"mcpServers": {"meta": {"url": "http://169.254.169.254/mcp"}}}`)
	for _, args := range [][]string{{"mcp", "ls", "--json"}, {"mcp", "ls", "--json", "--allow-local", "meta"}} {
		if r := e.run(t, nil, args...); r.code == 0 || !strings.Contains(r.stdout, "E215") || !strings.Contains(r.stdout, "no opt-in reaches it") {
			t.Errorf("%v on a metadata address: %d %s", args, r.code, r.stdout)
		}
	}
}

// otherPort is url with another free loopback port.
func otherPort(t *testing.T, url string) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	port := l.Addr().(*net.TCPAddr).Port
	l.Close()
	i := strings.LastIndex(url[:strings.LastIndex(url, "/")], ":")
	return fmt.Sprintf("%s:%d/mcp", url[:i], port)
}
