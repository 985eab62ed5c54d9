package invoke

import (
	"context"
	"errors"
	"fmt"
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

const (
	e2eBearer = "tok-5be1c0ffee77"
	e2eAPIKey = "key-literal-9a3d2b"
)

// bearerHTTPServer serves, over Streamable HTTP on loopback, an SDK server
// that demands both credentials (401 otherwise) and whose tools repeat
// them in everything a server can say: a result, a log notification, a
// progress message and an error.
func bearerHTTPServer(t *testing.T) (url string, unauthorized *atomic.Int64) {
	t.Helper()
	s := mcp.NewServer(&mcp.Implementation{Name: "bearer", Version: "1"}, nil)
	said := func(req *mcp.CallToolRequest) string {
		return fmt.Sprintf("auth=%s key=%s", req.Extra.Header.Get("Authorization"), req.Extra.Header.Get("X-Api-Key"))
	}
	ro := &mcp.ToolAnnotations{ReadOnlyHint: true}
	mcp.AddTool(s, &mcp.Tool{Name: "leak", Annotations: ro}, func(ctx context.Context, req *mcp.CallToolRequest, _ struct{}) (*mcp.CallToolResult, any, error) {
		_ = req.Session.Log(ctx, &mcp.LoggingMessageParams{Level: "warning", Data: said(req)})
		if tok := req.Params.GetProgressToken(); tok != nil {
			_ = req.Session.NotifyProgress(ctx, &mcp.ProgressNotificationParams{ProgressToken: tok, Progress: 1, Total: 1, Message: said(req)})
		}
		return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: said(req)}}}, nil, nil
	})
	mcp.AddTool(s, &mcp.Tool{Name: "fail", Annotations: ro}, func(_ context.Context, req *mcp.CallToolRequest, _ struct{}) (*mcp.CallToolResult, any, error) {
		return nil, nil, errors.New("cannot: " + said(req))
	})
	unauthorized = &atomic.Int64{}
	h := mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return s }, nil)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("Authorization") != "Bearer "+e2eBearer || r.Header.Get("X-Api-Key") != e2eAPIKey {
			unauthorized.Add(1)
			http.Error(w, "unauthorized", http.StatusUnauthorized)
			return
		}
		h.ServeHTTP(w, r)
	}))
	t.Cleanup(srv.Close)
	return srv.URL + "/mcp", unauthorized
}

// A bearer server is reached with config headers and with --header, and
// its credentials appear on no output surface: --json, human output,
// events, logs, progress, errors, --output files.
func TestStaticHeadersEndToEndShowNoValue(t *testing.T) {
	e := newMCPE2E(t)
	url, unauthorized := bearerHTTPServer(t)
	e.declare(t, nil, fmt.Sprintf("[[mcp_servers]]\nname = \"remote\"\ntransport = \"http\"\nurl = %q\nallow_local_endpoint = true\n"+
		"headers = { Authorization = \"Bearer {{secrets.remote-token}}\", X-Api-Key = %q }\n", url, e2eAPIKey))
	env := []string{"RELAVIUM_SECRET_REMOTE_TOKEN=" + e2eBearer}
	out := filepath.Join(t.TempDir(), "result.txt")
	var shown []string
	check := func(r mcpRun, code int, what string) {
		t.Helper()
		shown = append(shown, what+"\n"+r.stdout+r.stderr)
		if r.code != code {
			t.Errorf("%s: exit %d, want %d: %s %s", what, r.code, code, r.stdout, r.stderr)
		}
	}

	// Nothing is dialled until the secret is bound to the server's origin.
	origin, err := consent.Origin(url)
	if err != nil {
		t.Fatal(err)
	}
	r := e.run(t, env, "mcp", "ls", "--json")
	if r.code != 2 || r.errCode() != consent.CodeSecretUnbound || !strings.Contains(r.stdout, "--allow-secret remote-token@"+origin) {
		t.Fatalf("an unbound secret: exit %d code %s: %s", r.code, r.errCode(), r.stdout)
	}
	shown = append(shown, "unbound\n"+r.stdout+r.stderr)
	check(e.run(t, env, "consent", "grant", "remote-token@"+origin, "--yes"), 0, "consent grant NAME@ORIGIN")

	r = e.run(t, env, "mcp", "ls", "--json")
	check(r, 0, "mcp ls --json")
	if !strings.Contains(r.stdout, `"headers":{"Authorization":"[REDACTED]","X-Api-Key":"[REDACTED]"}`) {
		t.Errorf("mcp ls --json does not name the headers: %s", r.stdout)
	}
	r = e.run(t, env, "mcp", "ls")
	check(r, 0, "mcp ls")
	if !strings.Contains(r.stdout, "(headers Authorization, X-Api-Key)") {
		t.Errorf("mcp ls does not name the headers: %s", r.stdout)
	}
	check(e.run(t, env, "session", "--json"), 0, "session --json")
	check(e.run(t, env, "session"), 0, "session (headless inventory)")
	r = e.run(t, env, "mcp", "call", "mcp_remote_leak", "--yes", "--json")
	check(r, 0, "mcp call --json")
	if !strings.Contains(r.stdout, "auth=[REDACTED] key=[REDACTED]") {
		t.Errorf("the result that repeats the credentials is not redacted as expected: %s", r.stdout)
	}
	check(e.run(t, env, "mcp", "call", "mcp_remote_leak", "--yes", "--events"), 0, "mcp call --events")
	check(e.run(t, env, "mcp", "call", "mcp_remote_leak", "--yes"), 0, "mcp call")
	check(e.run(t, env, "mcp", "call", "mcp_remote_leak", "--yes", "--output", out), 0, "mcp call --output")
	b, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	shown = append(shown, "--output file\n"+string(b))
	check(e.run(t, env, "mcp", "call", "mcp_remote_fail", "--yes", "--json"), 1, "failing call --json")
	check(e.run(t, env, "mcp", "call", "mcp_remote_fail", "--yes", "--events"), 1, "failing call --events")
	trace := filepath.Join(t.TempDir(), "trace.ndjson")
	check(e.run(t, env, "mcp", "call", "mcp_remote_leak", "--yes", "--trace", trace), 0, "mcp call --trace")
	tb, err := os.ReadFile(trace)
	if err != nil || !strings.Contains(string(tb), "tools/call") || !strings.Contains(string(tb), "auth=[REDACTED] key=[REDACTED]") {
		t.Errorf("the trace holds no tools/call (%v): %s", err, tb)
	}
	shown = append(shown, "--trace file\n"+string(tb))
	check(e.run(t, env, "config", "validate", "--json"), 0, "config validate --json")

	// --header: the same server, ad hoc.
	adhoc := []string{"--url", url, "--allow-local-endpoint", "--header", "Authorization: Bearer {{secrets.remote-token}}", "--header", "X-Api-Key: " + e2eAPIKey}
	r = e.run(t, env, append([]string{"mcp", "call", "leak", "--yes", "--json"}, adhoc...)...)
	check(r, 0, "--header call --json")
	check(e.run(t, env, append([]string{"mcp", "ls", "--json"}, adhoc...)...), 0, "--header ls --json")
	if n := unauthorized.Load(); n != 0 {
		t.Errorf("%d requests reached the server without the credentials", n)
	}

	// A wrong token: the server refuses, the failure is reported, no value shown.
	bad := []string{"RELAVIUM_SECRET_REMOTE_TOKEN=" + e2eBearer + "-wrong"}
	r = e.run(t, bad, "mcp", "ls", "--json")
	check(r, 1, "wrong token mcp ls --json")
	if !strings.Contains(r.stdout, `"code":"E595"`) || !strings.Contains(r.stdout, "{{secrets.remote-token}}") {
		t.Errorf("a wrong token is not E595 naming the secret: %s", r.stdout)
	}
	check(e.run(t, bad, "mcp", "ls"), 1, "wrong token mcp ls")
	if unauthorized.Load() == 0 {
		t.Error("the wrong token reached the server as the right one")
	}

	all := strings.Join(shown, "\n----\n")
	for _, v := range []string{e2eBearer, e2eAPIKey} {
		if strings.Contains(all, v) {
			t.Errorf("a header value is shown:\n%s", all)
		}
	}
}

func TestHeaderFlagRefusals(t *testing.T) {
	e := newMCPE2E(t)
	url := echoHTTPServer(t)
	for _, tc := range []struct {
		name   string
		args   []string
		msg    string
		hidden string
	}{
		{"no colon", []string{"--url", url, "--header", "Authorization Bearer abcdef"}, "no ':'", "abcdef"},
		{"Host", []string{"--url", url, "--header", "Host: evil.example"}, "Host cannot be set", "evil.example"},
		{"session id", []string{"--url", url, "--header", "Mcp-Session-Id: s-1234"}, "the protocol sets it", "s-1234"},
		{"version", []string{"--url", url, "--header", "MCP-Protocol-Version: 2025-11-25"}, "negotiated", ""},
		{"proxy", []string{"--url", url, "--header", "Proxy-Authorization: Basic zzzz"}, "HTTPS_PROXY", "zzzz"},
		{"transfer-encoding", []string{"--url", url, "--header", "Transfer-Encoding: chunked"}, "frames", ""},
		{"bad name", []string{"--url", url, "--header", "X Bad: v"}, "not an HTTP header name", ""},
		{"a pasted line as the name", []string{"--url", url, "--header", "Authorization Bearer tok-zzzz99=: v"}, "not an HTTP header name", "tok-zzzz99"},
		{"twice", []string{"--url", url, "--header", "X-A: 1", "--header", "x-a: 2"}, "twice", ""},
		{"template", []string{"--url", url, "--header", "X-A: {{env.SECRET_THING:-x}}"}, "whole {{secrets.NAME}}", "SECRET_THING"},
		{"without --url", []string{"--header", "X-A: qqqqqq"}, "--url only", "qqqqqq"},
		{"with --stdio", []string{"--stdio", "true", "--header", "X-A: qqqqqq"}, "--url only", "qqqqqq"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := e.run(t, nil, append([]string{"mcp", "ls", "--allow-local-endpoint", "--json"}, tc.args...)...)
			if tc.name == "without --url" || tc.name == "with --stdio" {
				r = e.run(t, nil, append([]string{"mcp", "ls", "--json"}, tc.args...)...)
			}
			if r.code != 2 || r.errCode() != "E593" || !strings.Contains(r.stdout, tc.msg) {
				t.Errorf("exit %d code %s: %s %s", r.code, r.errCode(), r.stdout, r.stderr)
			}
			if tc.hidden != "" && strings.Contains(r.stdout+r.stderr, tc.hidden) {
				t.Errorf("the value is shown: %s %s", r.stdout, r.stderr)
			}
		})
	}
}

// A fully qualified loopback url (trailing dot) reaches the server exactly
// as its dotless form does, opted in the same way.
func TestFullyQualifiedURLEndToEnd(t *testing.T) {
	e := newMCPE2E(t)
	url := strings.Replace(echoHTTPServer(t), "127.0.0.1", "localhost.", 1)
	r := e.run(t, nil, "mcp", "call", "echo", "message=fqdn", "--url", url, "--allow-local-endpoint", "--yes")
	if r.code != 0 || r.stdout != "fqdn\n" {
		t.Errorf("--url %s: %d %q %s", url, r.code, r.stdout, r.stderr)
	}
	r = e.run(t, nil, "mcp", "ls", "--url", url, "--json")
	if r.code != 2 || r.errCode() != "E560" || !strings.Contains(r.stdout, "localhost.:") {
		t.Errorf("without the opt-in: %d %s", r.code, r.stdout)
	}
}
