package invoke

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/relavium/relavium/consent"
)

// A Claude Code .mcp.json whose http server names a headersHelper, end to
// end through the binary: headless it is E301 (exit 2) naming the helper,
// and neither the helper nor the server ran; --allow-mcp-stdio DIGEST
// runs it (once per run) and its header reaches the server while its value
// reaches no output; consent digest lists it, consent grant DIGEST
// remembers it, consent ls shows it, revoke drops it; a changed line asks
// again.
func TestHeadersHelperInAClientFileEndToEnd(t *testing.T) {
	e := newMCPE2E(t)
	s := mcp.NewServer(&mcp.Implementation{Name: "mine", Version: "1"}, nil)
	mcp.AddTool(s, &mcp.Tool{Name: "hello"}, func(context.Context, *mcp.CallToolRequest, struct{}) (*mcp.CallToolResult, any, error) {
		return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "hi"}}}, nil, nil
	})
	var mu sync.Mutex
	var keys []string
	inner := mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return s }, nil)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		keys = append(keys, r.Header.Get("X-Api-Key"))
		mu.Unlock()
		inner.ServeHTTP(w, r)
	}))
	defer srv.Close()
	seen := func() []string { mu.Lock(); defer mu.Unlock(); return append([]string(nil), keys...) }

	mark := filepath.Join(e.project, "ran")
	script := filepath.Join(e.project, "helper.sh")
	if err := os.WriteFile(script, []byte("#!/bin/sh\necho run >> \""+mark+"\"\nprintf '{\"X-Api-Key\": \"e2e-helper-secret\"}'\n"), 0o700); err != nil {
		t.Fatal(err)
	}
	mcpJSON := filepath.Join(e.project, ".mcp.json")
	write := func(helper string) {
		t.Helper()
		body := fmt.Sprintf(`{"mcpServers": {"mine": {"type": "http", "url": %q, "headersHelper": %q}}}`, srv.URL+"/mcp", helper)
		if err := os.WriteFile(mcpJSON, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write(`"${CLAUDE_PROJECT_DIR}/helper.sh"`)
	runs := func() int {
		b, _ := os.ReadFile(mark)
		return strings.Count(string(b), "run\n")
	}

	r := e.run(t, nil, "mcp", "ls", "--json", "--allow-local", "mine")
	if r.code != 2 || r.errCode() != consent.CodeConsentRequired {
		t.Fatalf("exit %d code %s, want 2 E301: %s %s", r.code, r.errCode(), r.stdout, r.stderr)
	}
	data, _ := r.env["data"].(map[string]any)
	helpers, _ := data["headers_helpers"].([]any)
	if len(helpers) != 1 {
		t.Fatalf("want one pending headers helper: %s", r.stdout)
	}
	hh := helpers[0].(map[string]any)
	digest := fmt.Sprint(hh["digest"])
	if hh["server"] != "mine" || hh["line"] != `"`+script+`"` || hh["cwd"] != e.project || hh["allow_flag"] != "--allow-mcp-stdio "+digest || !consent.ValidDigest(digest) {
		t.Errorf("pending helper: %v", hh)
	}
	if runs() != 0 || len(seen()) != 0 {
		t.Fatalf("before approval the helper ran %d time(s), the server saw %d request(s)", runs(), len(seen()))
	}

	r = e.run(t, nil, "mcp", "ls", "--json", "--allow-local", "mine", "--allow-mcp-stdio", digest)
	if r.code != 0 || !strings.Contains(r.stdout, `"hello"`) {
		t.Fatalf("approved: %d %s %s", r.code, r.stdout, r.stderr)
	}
	if got := seen(); len(got) == 0 || got[0] != "e2e-helper-secret" || runs() != 1 {
		t.Fatalf("the server saw X-Api-Key %q; the helper ran %d time(s)", got, runs())
	}
	if strings.Contains(r.stdout+r.stderr, "e2e-helper-secret") {
		t.Fatalf("the helper's value reached the output: %s %s", r.stdout, r.stderr)
	}

	if d := e.run(t, nil, "consent", "digest", "--json"); d.code != 0 || !strings.Contains(d.stdout, `"headers_helpers"`) || !strings.Contains(d.stdout, digest) {
		t.Errorf("consent digest: %d %s", d.code, d.stdout)
	}
	if g := e.run(t, nil, "consent", "grant", digest, "--yes", "--json"); g.code != 0 || !strings.Contains(g.stdout, digest) {
		t.Fatalf("consent grant DIGEST: %d %s %s", g.code, g.stdout, g.stderr)
	}
	if r := e.run(t, nil, "mcp", "ls", "--json", "--allow-local", "mine"); r.code != 0 || runs() != 2 {
		t.Fatalf("after the grant: %d (ran %d) %s %s", r.code, runs(), r.stdout, r.stderr)
	}
	ls := e.run(t, nil, "consent", "ls")
	for _, want := range []string{digest, "headers helper", "sends    its output as headers to " + strings.TrimSuffix(srv.URL, "/")} {
		if !strings.Contains(ls.stdout, want) {
			t.Errorf("consent ls does not say %q: %s", want, ls.stdout)
		}
	}

	write(`"${CLAUDE_PROJECT_DIR}/helper.sh" --changed`)
	if r := e.run(t, nil, "mcp", "ls", "--json", "--allow-local", "mine"); r.code != 2 || r.errCode() != consent.CodeConsentRequired || runs() != 2 {
		t.Fatalf("a changed line was not asked again: %d %s (ran %d)", r.code, r.errCode(), runs())
	}
	write(`"${CLAUDE_PROJECT_DIR}/helper.sh"`)
	if r := e.run(t, nil, "consent", "revoke", digest, "--yes"); r.code != 0 {
		t.Fatalf("consent revoke: %d %s", r.code, r.stderr)
	}
	if r := e.run(t, nil, "mcp", "ls", "--json", "--allow-local", "mine"); r.code != 2 || r.errCode() != consent.CodeConsentRequired || runs() != 2 {
		t.Fatalf("after the revocation: %d %s (ran %d)", r.code, r.errCode(), runs())
	}
}
