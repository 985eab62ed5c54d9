package invoke

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// protectedServer is an MCP server (one tool, echo) that wants a bearer
// token, and the authorization server that issues it, on one loopback
// origin: protected-resource and authorization-server metadata,
// registration, an /authorize that redirects at once, and /token.
func protectedServer(t *testing.T) string {
	t.Helper()
	s := mcp.NewServer(&mcp.Implementation{Name: "prot", Version: "1"}, nil)
	type in struct {
		Message string `json:"message"`
	}
	mcp.AddTool(s, &mcp.Tool{Name: "echo"}, func(_ context.Context, _ *mcp.CallToolRequest, a in) (*mcp.CallToolResult, any, error) {
		return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: a.Message}}}, nil, nil
	})
	// whoami repeats the Authorization header it was sent: relavium must
	// not show the token it quotes.
	mcp.AddTool(s, &mcp.Tool{Name: "whoami"}, func(_ context.Context, req *mcp.CallToolRequest, _ struct{}) (*mcp.CallToolResult, any, error) {
		return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "you sent " + req.Extra.Header.Get("Authorization")}}}, nil, nil
	})
	mcpHandler := mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return s }, nil)
	var mu sync.Mutex
	valid := map[string]bool{}
	n := 0
	mux := http.NewServeMux()
	var base string
	mux.HandleFunc("/mcp", func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		ok := valid[strings.TrimPrefix(r.Header.Get("Authorization"), "Bearer ")]
		mu.Unlock()
		if !ok {
			w.Header().Set("WWW-Authenticate", `Bearer resource_metadata="`+base+`/.well-known/oauth-protected-resource/mcp"`)
			http.Error(w, "sign in", http.StatusUnauthorized)
			return
		}
		mcpHandler.ServeHTTP(w, r)
	})
	jsonDoc := func(v any) http.HandlerFunc {
		return func(w http.ResponseWriter, _ *http.Request) {
			w.Header().Set("Content-Type", "application/json")
			_ = json.NewEncoder(w).Encode(v)
		}
	}
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)
	base = srv.URL
	mux.HandleFunc("/.well-known/oauth-protected-resource/mcp", jsonDoc(map[string]any{"resource": base + "/mcp", "authorization_servers": []string{base}}))
	mux.HandleFunc("/.well-known/oauth-authorization-server", jsonDoc(map[string]any{"issuer": base, "authorization_endpoint": base + "/authorize",
		"token_endpoint": base + "/token", "registration_endpoint": base + "/register", "code_challenge_methods_supported": []string{"S256"},
		"response_types_supported": []string{"code"}}))
	mux.HandleFunc("/register", func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusCreated)
		_, _ = io.WriteString(w, `{"client_id":"dyn","token_endpoint_auth_method":"none"}`)
	})
	mux.HandleFunc("/authorize", func(w http.ResponseWriter, r *http.Request) {
		cb, err := url.Parse(r.URL.Query().Get("redirect_uri"))
		if err != nil || !strings.HasPrefix(cb.Host, "127.0.0.1:") {
			http.Error(w, "bad redirect_uri", http.StatusBadRequest)
			return
		}
		cb.RawQuery = url.Values{"code": {"c"}, "state": {r.URL.Query().Get("state")}}.Encode()
		http.Redirect(w, r, cb.String(), http.StatusFound)
	})
	mux.HandleFunc("/token", func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		n++
		tok := fmt.Sprintf("tok-secret-%d", n)
		valid[tok] = true
		mu.Unlock()
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprintf(w, `{"access_token":%q,"refresh_token":"refresh-secret-%d","token_type":"Bearer","expires_in":3600}`, tok, n)
	})
	return base + "/mcp"
}

// The headless and explicit faces of OAuth with the real binary: mcp ls
// names auth login (exit 2), auth login signs in through $BROWSER and the
// loopback callback, mcp call uses the stored token, auth ls shows no
// token, auth logout forgets it; no token value is ever printed.
func TestAuthLoginThenHeadlessCall(t *testing.T) {
	e := newMCPE2E(t)
	u := protectedServer(t)
	e.declare(t, nil, fmt.Sprintf("[[mcp_servers]]\nname = \"prot\"\ntransport = \"http\"\nurl = %q\nallow_local_endpoint = true\n", u))
	_, file, _, _ := runtime.Caller(0)
	browser := []string{"BROWSER=bash " + filepath.Join(filepath.Dir(file), "..", "testdata", "conformance", "browser.sh")}
	var outputs []string
	run := func(args ...string) mcpRun {
		r := e.run(t, browser, args...)
		outputs = append(outputs, r.stdout, r.stderr)
		return r
	}

	r := run("mcp", "ls", "--json")
	if r.code != 2 || !strings.Contains(r.stdout, `"error_code":"E850"`) || !strings.Contains(r.stdout, "relavium auth login prot") {
		t.Fatalf("headless, no sign-in: %d %s %s", r.code, r.stdout, r.stderr)
	}
	r = run("auth", "login", "prot", "--json")
	if r.code != 0 || !strings.Contains(r.stdout, `"signed_in":true`) || !strings.Contains(r.stderr, "/authorize?") {
		t.Fatalf("auth login: %d %s %s", r.code, r.stdout, r.stderr)
	}
	r = run("mcp", "call", "mcp_prot_echo", "message=signed in", "--yes")
	if r.code != 0 || r.stdout != "signed in\n" {
		t.Fatalf("call with the stored token: %d %q %s", r.code, r.stdout, r.stderr)
	}
	r = run("mcp", "call", "mcp_prot_whoami", "--yes")
	if r.code != 0 || r.stdout != "you sent Bearer [REDACTED]\n" {
		t.Fatalf("a result quoting the token: %d %q %s", r.code, r.stdout, r.stderr)
	}
	r = run("auth", "ls", "--json")
	if r.code != 0 || !strings.Contains(r.stdout, `"server":"prot"`) || !strings.Contains(r.stdout, `"refresh_token":true`) {
		t.Fatalf("auth ls: %d %s", r.code, r.stdout)
	}
	r = run("auth", "ls")
	if r.code != 0 || !strings.Contains(r.stdout, "prot") {
		t.Fatalf("auth ls (human): %d %s", r.code, r.stdout)
	}
	entries, err := os.ReadDir(filepath.Join(e.home, "oauth"))
	if err != nil || len(entries) != 1 {
		t.Fatalf("store: %v %v", entries, err)
	}
	if fi, _ := entries[0].Info(); fi.Mode().Perm() != 0o600 {
		t.Fatalf("record mode %04o", fi.Mode().Perm())
	}
	r = run("auth", "logout", "prot", "--json")
	if r.code != 0 || !strings.Contains(r.stdout, `"removed":1`) {
		t.Fatalf("auth logout: %d %s", r.code, r.stdout)
	}
	r = run("mcp", "call", "mcp_prot_echo", "message=x", "--yes", "--json")
	if r.code != 2 || !strings.Contains(r.stdout, "E850") {
		t.Fatalf("after logout: %d %s", r.code, r.stdout)
	}
	r = run("auth", "login", "nosuch")
	if r.code != 2 || !strings.Contains(r.stderr, "E865") {
		t.Fatalf("login of an undeclared server: %d %s", r.code, r.stderr)
	}
	for _, out := range outputs {
		if strings.Contains(out, "tok-secret") || strings.Contains(out, "refresh-secret") {
			t.Fatalf("a token value was printed: %s", out)
		}
	}
}
