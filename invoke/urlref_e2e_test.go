package invoke

import (
	"context"
	"encoding/json"
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
	"github.com/relavium/relavium/host/config"
)

// pathServer is a Streamable HTTP server on loopback that answers only at
// /mcp/<team> and keeps every path and query it was asked: it names
// itself, and echoes from a tool, the path it was reached at — a server
// repeating what it was sent, which relavium must never show.
type pathServer struct {
	base, origin string
	mu           sync.Mutex
	seen         []string
}

func newPathServer(t *testing.T, team string) *pathServer {
	t.Helper()
	ps := &pathServer{}
	mux := http.NewServeMux()
	mux.HandleFunc("/mcp/"+team, func(w http.ResponseWriter, r *http.Request) {
		ps.mu.Lock()
		ps.seen = append(ps.seen, r.URL.RequestURI())
		ps.mu.Unlock()
		s := mcp.NewServer(&mcp.Implementation{Name: "at " + r.URL.Path, Version: "1"}, nil)
		mcp.AddTool(s, &mcp.Tool{Name: "where", Description: "reached at " + r.URL.RequestURI(), Annotations: &mcp.ToolAnnotations{ReadOnlyHint: true}},
			func(context.Context, *mcp.CallToolRequest, struct{}) (*mcp.CallToolResult, any, error) {
				return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "reached at " + r.URL.RequestURI()}}}, nil, nil
			})
		mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return s }, &mcp.StreamableHTTPOptions{Stateless: true}).ServeHTTP(w, r)
	})
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)
	ps.base = srv.URL
	o, err := consent.Origin(srv.URL)
	if err != nil {
		t.Fatal(err)
	}
	ps.origin = o
	return ps
}

func (p *pathServer) requests() []string {
	p.mu.Lock()
	defer p.mu.Unlock()
	return append([]string(nil), p.seen...)
}

// A url whose origin and path come from relavium's environment reaches a
// real server at the expanded url, while everything relavium shows — mcp
// ls --json, the human listing, a call's result and its --events — holds
// the url as written and never the value, even when the server repeats
// it. The path's value is carried to the origin, so it is bound there
// first: headless it is E323 naming env.MCP_TEAM@ORIGIN, nothing dialled.
func TestURLFromTheEnvironmentEndToEnd(t *testing.T) {
	const team = "team-7f3a9c2e41"
	e := newMCPE2E(t)
	ps := newPathServer(t, team)
	e.declare(t, nil, "[[mcp_servers]]\nname = \"w\"\ntransport = \"http\"\nurl = \"{{env.MCP_BASE}}/mcp/{{env.MCP_TEAM}}\"\nallow_local_endpoint = true\n")
	env := []string{"MCP_BASE=" + ps.base, "MCP_TEAM=" + team}
	noValue := func(what string, r mcpRun) {
		t.Helper()
		if strings.Contains(r.stdout+r.stderr, team) {
			t.Errorf("%s shows the value: %s %s", what, r.stdout, r.stderr)
		}
	}

	r := e.run(t, env, "mcp", "ls", "--json")
	noValue("unbound", r)
	if r.code != 2 || r.errCode() != consent.CodeSecretUnbound || len(ps.requests()) != 0 {
		t.Fatalf("unbound: exit %d code %s, %d requests: %s", r.code, r.errCode(), len(ps.requests()), r.stdout)
	}
	bd := bindingOf(t, r)
	if bd["secret"] != "env.MCP_TEAM" || bd["origin"] != ps.origin || fmt.Sprint(bd["headers"]) != "[url]" {
		t.Errorf("pending binding: %v", bd)
	}
	h := e.run(t, env, "mcp", "ls")
	noValue("unbound (human)", h)
	for _, want := range []string{"E323", "{{env.MCP_TEAM}}", "--allow-secret env.MCP_TEAM@" + ps.origin} {
		if !strings.Contains(h.stderr, want) {
			t.Errorf("the human refusal does not say %q: %s", want, h.stderr)
		}
	}

	allow := []string{"--allow-secret", "env.MCP_TEAM@" + ps.origin}
	r = e.run(t, env, append([]string{"mcp", "ls", "--json"}, allow...)...)
	noValue("ls --json", r)
	if r.code != 0 {
		t.Fatalf("ls: %d %s %s", r.code, r.stdout, r.stderr)
	}
	if got := ps.requests(); len(got) == 0 || got[0] != "/mcp/"+team {
		t.Fatalf("the server was reached at %v, want /mcp/%s", got, team)
	}
	var ls struct {
		Data struct {
			Servers []struct {
				Name, URL string
			} `json:"servers"`
			Tools []struct{ Description string } `json:"tools"`
		} `json:"data"`
	}
	if err := json.Unmarshal([]byte(r.stdout), &ls); err != nil || len(ls.Data.Servers) != 1 || len(ls.Data.Tools) != 1 {
		t.Fatalf("ls envelope: %v %s", err, r.stdout)
	}
	if ls.Data.Servers[0].URL != "{{env.MCP_BASE}}/mcp/{{env.MCP_TEAM}}" {
		t.Errorf("the url shown is %q, want it as written", ls.Data.Servers[0].URL)
	}
	if !strings.Contains(ls.Data.Tools[0].Description, "{{env.MCP_TEAM}}") {
		t.Errorf("the server's repetition of the path is not shown as the reference: %q", ls.Data.Tools[0].Description)
	}
	noValue("ls (human)", e.run(t, env, append([]string{"mcp", "ls"}, allow...)...))
	c := e.run(t, env, append([]string{"mcp", "call", "mcp_w_where", "--yes", "--events", "--json"}, allow...)...)
	noValue("call --events", c)
	if c.code != 0 || !strings.Contains(c.stdout, "{{env.MCP_TEAM}}") {
		t.Errorf("call: %d %s %s", c.code, c.stdout, c.stderr)
	}

	// The lock records the url as written; the value is in no file.
	if l := e.run(t, env, append([]string{"mcp", "lock"}, allow...)...); l.code != 0 {
		t.Fatalf("lock: %d %s %s", l.code, l.stdout, l.stderr)
	}
	lock, err := os.ReadFile(filepath.Join(e.project, ".relavium", "mcp-lock.json"))
	if err != nil || !strings.Contains(string(lock), "{{env.MCP_BASE}}/mcp/{{env.MCP_TEAM}}") || strings.Contains(string(lock), team) {
		t.Errorf("lock (%v):\n%s", err, lock)
	}

	// A variable unset when the file is read: exit 2 naming it, nothing dialled.
	before := len(ps.requests())
	u := e.run(t, []string{"MCP_BASE=" + ps.base}, "mcp", "ls", "--json")
	if u.code != 2 || !strings.Contains(u.stdout, string(config.CodeURLEnvUnset)) || !strings.Contains(u.stdout, "MCP_TEAM") || len(ps.requests()) != before {
		t.Errorf("unset: %d %s", u.code, u.stdout)
	}
}

// A value in the query — a secret of the stores or an environment
// variable — is carried to the origin: bound there before it is read.
// An expanded url the guard refuses (plain http to a remote host, a
// metadata address) is refused when the file is read, exit 2, naming the
// reference and never the value.
func TestURLQueryValuesAreBoundAndTheGuardJudgesTheExpandedURL(t *testing.T) {
	const key = "qk-5d2e8b90aa"
	e := newMCPE2E(t)
	ps := newPathServer(t, "q")
	for _, c := range []struct{ ref, name string }{{"{{secrets.QK}}", "QK"}, {"{{env.API_KEY}}", "env.API_KEY"}} {
		e.declare(t, nil, fmt.Sprintf("[[mcp_servers]]\nname = \"q\"\ntransport = \"http\"\nurl = \"%s/mcp/q?key=%s\"\nallow_local_endpoint = true\n", ps.base, c.ref))
		env := []string{"RELAVIUM_SECRET_QK=" + key, "API_KEY=" + key}
		r := e.run(t, env, "mcp", "ls", "--json")
		if r.code != 2 || r.errCode() != consent.CodeSecretUnbound || strings.Contains(r.stdout+r.stderr, key) || len(ps.requests()) != 0 {
			t.Fatalf("%s unbound: %d %s %s (%d requests)", c.ref, r.code, r.errCode(), r.stdout, len(ps.requests()))
		}
		if bd := bindingOf(t, r); bd["secret"] != c.name || fmt.Sprint(bd["headers"]) != "[url]" {
			t.Errorf("%s: pending binding %v", c.ref, bd)
		}
		r = e.run(t, env, "mcp", "ls", "--json", "--allow-secret", c.name+"@"+ps.origin)
		if r.code != 0 || strings.Contains(r.stdout+r.stderr, key) {
			t.Fatalf("%s bound: %d %s %s", c.ref, r.code, r.stdout, r.stderr)
		}
		got := ps.requests()
		if len(got) == 0 || got[len(got)-1] != "/mcp/q?key="+key {
			t.Errorf("%s: the server saw %v", c.ref, got)
		}
		ps.mu.Lock()
		ps.seen = nil
		ps.mu.Unlock()
	}

	for _, c := range []struct{ value, optIn, says string }{
		{"http://mcp.example.com", "", "https"},
		{"http://169.254.169.254", "allow_local_endpoint = true\n", "metadata"}, // never, even opted in
	} {
		e.declare(t, nil, "[[mcp_servers]]\nname = \"g\"\ntransport = \"http\"\nurl = \"{{env.BASE}}/mcp\"\n"+c.optIn)
		r := e.run(t, []string{"BASE=" + c.value}, "mcp", "ls", "--json")
		if r.code != 2 || !strings.Contains(r.stdout, string(config.CodeURL)) || !strings.Contains(r.stdout, c.says) || !strings.Contains(r.stdout, "{{env.BASE}}") {
			t.Errorf("%s: %d %s", c.value, r.code, r.stdout)
		}
	}
}

// An environment reference in a header — a client file's "Bearer
// ${API_KEY}", as Claude Code expands it — is a value of relavium's
// environment sent to the server's origin: bound there as env.API_KEY
// before it is read (E323 headless, nothing dialled), sent once bound,
// never shown.
func TestHeaderFromTheEnvironmentIsBoundToTheOrigin(t *testing.T) {
	e := newMCPE2E(t)
	sn := newSniffServer(t)
	writeTestFile(t, e.project+"/.mcp.json", fmt.Sprintf(`{"mcpServers": {"api": {"type": "http", "url": %q, "headers": {"Authorization": "Bearer ${API_KEY}"}}}}`, sn.url))
	env := []string{"API_KEY=" + bindSecret}
	// The loopback url needs the person's word: given the way the refusal
	// names, without editing the file.
	if imp := e.run(t, nil, "config", "import", e.project+"/.mcp.json", "--allow-local", "api", "--write"); imp.code != 0 {
		t.Fatalf("import: %d %s %s", imp.code, imp.stdout, imp.stderr)
	}
	r := e.run(t, env, "mcp", "ls", "--json")
	if strings.Contains(r.stdout+r.stderr, bindSecret) {
		t.Fatalf("the value is shown: %s %s", r.stdout, r.stderr)
	}
	if _, n := sn.got(); r.code != 2 || r.errCode() != consent.CodeSecretUnbound || n != 0 {
		t.Fatalf("unbound: exit %d %s, %d requests: %s %s", r.code, r.errCode(), n, r.stdout, r.stderr)
	}
	if bd := bindingOf(t, r); bd["secret"] != "env.API_KEY" || bd["origin"] != sn.origin || fmt.Sprint(bd["headers"]) != "[Authorization]" {
		t.Errorf("pending binding: %v", bd)
	}
	r = e.run(t, env, "mcp", "ls", "--json", "--allow-secret", "env.API_KEY@"+sn.origin)
	if sent, _ := sn.got(); r.code != 0 || !sent || strings.Contains(r.stdout+r.stderr, bindSecret) {
		t.Fatalf("bound: exit %d, sent %v: %s %s", r.code, sent, r.stdout, r.stderr)
	}
}
