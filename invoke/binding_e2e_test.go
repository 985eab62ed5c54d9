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

const bindSecret = "ghp-bind-7c1d9e44aa"

// sniffServer is a Streamable HTTP server on loopback that keeps every
// value it was sent in the headers it is told to watch: a server a
// hostile project could name.
type sniffServer struct {
	url, origin string
	mu          sync.Mutex
	seen        []string
	requests    int
}

func newSniffServer(t *testing.T) *sniffServer {
	t.Helper()
	s := mcp.NewServer(&mcp.Implementation{Name: "sniff", Version: "1"}, nil)
	mcp.AddTool(s, &mcp.Tool{Name: "noop", Annotations: &mcp.ToolAnnotations{ReadOnlyHint: true}},
		func(context.Context, *mcp.CallToolRequest, struct{}) (*mcp.CallToolResult, any, error) {
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "ok"}}}, nil, nil
		})
	sn := &sniffServer{}
	h := mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return s }, nil)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		sn.mu.Lock()
		sn.requests++
		for _, name := range []string{"Authorization", "X-Token", "X-Other"} {
			if v := r.Header.Get(name); v != "" {
				sn.seen = append(sn.seen, v)
			}
		}
		sn.mu.Unlock()
		h.ServeHTTP(w, r)
	}))
	t.Cleanup(srv.Close)
	sn.url = srv.URL + "/mcp"
	o, err := consent.Origin(sn.url)
	if err != nil {
		t.Fatal(err)
	}
	sn.origin = o
	return sn
}

// got reports whether the server was sent the secret, and how many
// requests it saw.
func (s *sniffServer) got() (bool, int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, v := range s.seen {
		if strings.Contains(v, bindSecret) {
			return true, s.requests
		}
	}
	return false, s.requests
}

func bindingOf(t *testing.T, r mcpRun) map[string]any {
	t.Helper()
	data, _ := r.env["data"].(map[string]any)
	bs, _ := data["bindings"].([]any)
	if len(bs) != 1 {
		t.Fatalf("want one pending binding: %s", r.stdout)
	}
	return bs[0].(map[string]any)
}

// A secret of the person's stores reaches a network server only once it
// is bound to that server's origin: headless, an unbound secret is E323
// (exit 2) before anything is dialled, naming the secret, the origin, the
// headers and the way out — never the value; --allow-secret binds it for
// one run, consent grant remembers it, consent ls shows and consent revoke
// removes it; a project that moves the server to another origin, or adds
// a header carrying the secret, is asked about again.
func TestSecretBindingEndToEnd(t *testing.T) {
	e := newMCPE2E(t)
	a, b := newSniffServer(t), newSniffServer(t)
	env := []string{"RELAVIUM_SECRET_GH=" + bindSecret}
	declare := func(url, headers string) {
		e.declare(t, nil, fmt.Sprintf("[[mcp_servers]]\nname = \"gh\"\ntransport = \"http\"\nurl = %q\nallow_local_endpoint = true\nheaders = { %s }\n", url, headers))
	}
	noLeak := func(what string, r mcpRun) {
		t.Helper()
		if strings.Contains(r.stdout+r.stderr, bindSecret) {
			t.Errorf("%s shows the secret: %s %s", what, r.stdout, r.stderr)
		}
	}
	unbound := func(what string, s *sniffServer) map[string]any {
		t.Helper()
		_, before := s.got()
		r := e.run(t, env, "mcp", "ls", "--json")
		noLeak(what, r)
		if r.code != 2 || r.errCode() != consent.CodeSecretUnbound {
			t.Fatalf("%s: exit %d code %s, want 2 %s: %s", what, r.code, r.errCode(), consent.CodeSecretUnbound, r.stdout)
		}
		if _, after := s.got(); after != before {
			t.Fatalf("%s: the server was dialled (%d requests)", what, after-before)
		}
		h := e.run(t, env, "mcp", "ls")
		noLeak(what+" (human)", h)
		for _, want := range []string{"E323", "{{secrets.GH}}", s.origin, "--allow-secret GH@" + s.origin, "consent grant NAME@ORIGIN"} {
			if !strings.Contains(h.stderr, want) {
				t.Errorf("%s: the human refusal does not say %q: %s", what, want, h.stderr)
			}
		}
		return bindingOf(t, r)
	}

	declare(a.url, `Authorization = "Bearer {{secrets.GH}}"`)
	bd := unbound("first connect", a)
	if bd["secret"] != "GH" || bd["origin"] != a.origin || bd["allow_flag"] != "--allow-secret GH@"+a.origin || fmt.Sprint(bd["headers"]) != "[Authorization]" {
		t.Errorf("pending binding: %v", bd)
	}

	// --allow-secret: bound for this run; a typo or a malformed value is refused.
	if r := e.run(t, env, "mcp", "ls", "--json", "--allow-secret", "GH@"+a.origin); r.code != 0 {
		t.Fatalf("--allow-secret: %d %s", r.code, r.stdout)
	}
	if sent, _ := a.got(); !sent {
		t.Fatal("the bound secret was not sent")
	}
	if r := e.run(t, env, "mcp", "ls", "--json", "--allow-secret", "GH@"+b.origin); r.code != 2 || r.errCode() != consent.CodeAllowSecretUnmatched {
		t.Errorf("unmatched --allow-secret: %d %s", r.code, r.stdout)
	}
	if r := e.run(t, env, "mcp", "ls", "--json", "--allow-secret", "GH"); r.code != 2 || r.errCode() != consent.CodeBadBinding {
		t.Errorf("malformed --allow-secret: %d %s", r.code, r.stdout)
	}
	unbound("after a run with --allow-secret", a) // not remembered

	// consent digest lists it for a CI file, with its flag.
	if d := e.run(t, env, "consent", "digest", "--json"); d.code != 0 || !strings.Contains(d.stdout, `"allow_flag":"--allow-secret GH@`+a.origin+`"`) {
		t.Errorf("consent digest: %d %s", d.code, d.stdout)
	}
	// consent grant remembers it (asks; --yes headless); consent ls shows it.
	if r := e.run(t, env, "consent", "grant", "GH@"+a.origin, "--json"); r.code != 2 || r.errCode() != consent.CodeNeedsYes {
		t.Errorf("grant without --yes headless: %d %s", r.code, r.stdout)
	}
	if r := e.run(t, env, "consent", "grant", "GH@"+b.origin, "--yes", "--json"); r.code != 2 || r.errCode() != consent.CodeNothingToGrant {
		t.Errorf("grant of a binding nothing declares: %d %s", r.code, r.stdout)
	}
	g := e.run(t, env, "consent", "grant", "GH@"+strings.TrimSuffix(a.url, "/mcp"), "--yes", "--json")
	if g.code != 0 {
		t.Fatalf("consent grant: %d %s", g.code, g.stdout)
	}
	digest := fmt.Sprint(g.env["data"].(map[string]any)["digest"])
	if r := e.run(t, env, "mcp", "ls", "--json"); r.code != 0 {
		t.Fatalf("after consent grant: %d %s", r.code, r.stdout)
	}
	ls := e.run(t, env, "consent", "ls")
	for _, want := range []string{digest, "{{secrets.GH}}", a.origin, "Authorization"} {
		if !strings.Contains(ls.stdout, want) {
			t.Errorf("consent ls does not show %q: %s", want, ls.stdout)
		}
	}
	noLeak("consent ls", ls)
	store, err := os.ReadFile(filepath.Join(e.home, consent.StoreFile))
	if err != nil || strings.Contains(string(store), bindSecret) || !strings.Contains(string(store), `"secret":"GH"`) {
		t.Errorf("the grant store (%v): %s", err, store)
	}

	// A project cannot widen it: another header carrying the secret asks
	// again (naming the header), and so does another origin.
	declare(a.url, `Authorization = "Bearer {{secrets.GH}}", X-Other = "{{secrets.GH}}"`)
	if bd := unbound("an added header", a); fmt.Sprint(bd["added"]) != "[X-Other]" {
		t.Errorf("the added header is not named: %v", bd)
	}
	declare(b.url, `Authorization = "Bearer {{secrets.GH}}"`)
	unbound("another origin", b)
	if sent, _ := b.got(); sent {
		t.Fatal("the other origin was sent the secret")
	}

	// consent revoke removes it.
	declare(a.url, `Authorization = "Bearer {{secrets.GH}}"`)
	if r := e.run(t, env, "consent", "revoke", digest, "--yes"); r.code != 0 || !strings.Contains(r.stdout, "GH@"+a.origin) {
		t.Fatalf("consent revoke: %d %s %s", r.code, r.stdout, r.stderr)
	}
	unbound("after revoke", a)
}

// A cloned project's VS Code file that puts ${input:…} in a header of a
// server it names sends nothing of the person's stores there: plain
// `mcp ls` is refused before anything is dialled.
func TestProjectVSCodeInputHeaderIsNotSentUnbound(t *testing.T) {
	e := newMCPE2E(t)
	s := newSniffServer(t)
	if err := os.Remove(filepath.Join(e.project, ".relavium")); err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Join(e.project, ".vscode"), 0o755); err != nil {
		t.Fatal(err)
	}
	file := fmt.Sprintf(`{"inputs":[{"type":"promptString","id":"github_token","password":true}],
"servers":{"gh":{"type":"http","url":%q,"headers":{"Authorization":"Bearer ${input:github_token}"}}}}`, s.url)
	if err := os.WriteFile(filepath.Join(e.project, ".vscode", "mcp.json"), []byte(file), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(e.home, "secrets.toml"), []byte(fmt.Sprintf("github_token = %q\n", bindSecret)), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{{"mcp", "ls", "--json"}, {"mcp", "ls"}, {"mcp", "call", "mcp_gh_noop", "--yes", "--json"}, {"session", "--json"}} {
		r := e.run(t, nil, args...)
		if strings.Contains(r.stdout+r.stderr, bindSecret) {
			t.Errorf("%v shows the secret", args)
		}
		if sent, n := s.got(); sent || n != 0 {
			t.Fatalf("%v: the server saw %d requests (secret sent: %v): %s %s", args, n, sent, r.stdout, r.stderr)
		}
		if r.code == 0 {
			t.Errorf("%v succeeded without a binding: %s", args, r.stdout)
		}
	}
}
