package invoke

import (
	"bytes"
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/relavium/relavium/consent"
	"github.com/relavium/relavium/internal/testbin"
	"github.com/relavium/relavium/invoke/cli"
)

// echoHTTPServer serves an SDK server with one read-only tool, echo, over
// Streamable HTTP on loopback.
func echoHTTPServer(t *testing.T) string {
	t.Helper()
	s := mcp.NewServer(&mcp.Implementation{Name: "echo", Version: "1"}, nil)
	type in struct {
		Message string `json:"message"`
	}
	mcp.AddTool(s, &mcp.Tool{Name: "echo", Annotations: &mcp.ToolAnnotations{ReadOnlyHint: true}},
		func(_ context.Context, _ *mcp.CallToolRequest, a in) (*mcp.CallToolResult, any, error) {
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: a.Message}}}, nil, nil
		})
	srv := httptest.NewServer(mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return s }, nil))
	t.Cleanup(srv.Close)
	return srv.URL + "/mcp"
}

func TestMCPAdhocTargets(t *testing.T) {
	e := newMCPE2E(t)
	url := echoHTTPServer(t)

	r := e.run(t, nil, "mcp", "call", "echo", "message=over http", "--url", url, "--allow-local-endpoint", "--yes")
	if r.code != 0 || r.stdout != "over http\n" {
		t.Errorf("--url: %d %q %s", r.code, r.stdout, r.stderr)
	}
	r = e.run(t, nil, "mcp", "call", "mcp_adhoc_echo", "message=namespaced", "--url", url, "--allow-local-endpoint", "--yes")
	if r.code != 0 || r.stdout != "namespaced\n" {
		t.Errorf("--url namespaced: %d %q %s", r.code, r.stdout, r.stderr)
	}
	// A loopback url without the opt-in is refused before anything is dialled.
	r = e.run(t, nil, "mcp", "ls", "--url", url, "--json")
	if r.code != 2 || r.errCode() != "E560" {
		t.Errorf("loopback without opt-in: %d %s", r.code, r.stdout)
	}
	// ... and the remedy names the flag that opts in, not a config field.
	for _, out := range []string{r.stdout, r.stderr} {
		if !strings.Contains(out, "pass --allow-local-endpoint") || strings.Contains(out, "allow_local_endpoint") {
			t.Errorf("the ad-hoc remedy does not name --allow-local-endpoint: %s", out)
		}
	}
	r = e.run(t, nil, "mcp", "ls", "--url", url, "--stdio", "x", "--json")
	if r.code != 2 || r.errCode() != "E544" {
		t.Errorf("--url and --stdio: %d %s", r.code, r.stdout)
	}

	// --stdio typed on the command line is the person's own command (as
	// in a shell): it runs without a digest, for this invocation only, and
	// the record says so. The call itself still takes --yes headless.
	line := e.hostile + " -mode ok"
	r = e.run(t, nil, "mcp", "call", "echo", "message=over stdio", "--stdio", line, "--yes")
	if r.code != 0 || r.stdout != "over stdio\n" {
		t.Errorf("--stdio: %d %q %s", r.code, r.stdout, r.stderr)
	}
	r = e.run(t, nil, "mcp", "call", "echo", "message=x", "--stdio", line, "--yes", "--json")
	data, _ := r.env["data"].(map[string]any)
	rec, _ := data["adhoc"].(map[string]any)
	if r.code != 0 || rec["consent"] != "typed" || rec["command_line"] != line || !strings.HasPrefix(fmt.Sprint(rec["digest"]), "v1:") {
		t.Errorf("--json record of a typed --stdio: %d %s", r.code, r.stdout)
	}
	if r = e.run(t, nil, "mcp", "call", "echo", "message=x", "--stdio", line, "--json"); r.code != 2 || r.errCode() != "E542" {
		t.Errorf("the call without --yes: %d %s", r.code, r.stdout)
	}
	if grants, _ := consent.Open(e.home).Fold(); grants.Len() != 0 {
		t.Errorf("a typed --stdio remembered %d grants", grants.Len())
	}
	// A command line a machine client sends (mcp serve's child) is not the
	// person's: consent applies, with the digest to allow.
	r = e.run(t, []string{cli.EnvInvokePath + "=mcp ls"}, "mcp", "ls", "--stdio", line, "--json")
	if r.code != 2 || r.errCode() != "E301" {
		t.Fatalf("--stdio from a machine client without consent: %d %s", r.code, r.stdout)
	}
	allow := allowFlags(r.pendingDigests(t))
	r = e.run(t, []string{cli.EnvInvokePath + "=mcp ls"}, append([]string{"mcp", "ls", "--stdio", line, "--json"}, allow...)...)
	if r.code != 0 {
		t.Errorf("--stdio from a machine client with its digest: %d %s %s", r.code, r.stdout, r.stderr)
	}
}

// On a terminal, consent is asked per server: approve once spawns it, deny
// leaves it not started (reported failed, "consent denied").
func TestMCPConsentPromptOnATerminal(t *testing.T) {
	hostile := testbin.Build(t, "./testdata/servers/hostile")
	dir := t.TempDir()
	home, project := filepath.Join(dir, "home"), filepath.Join(dir, "project")
	if err := os.MkdirAll(filepath.Join(project, ".relavium"), 0o700); err != nil {
		t.Fatal(err)
	}
	cfg := "[[mcp_servers]]\nname = \"a\"\ntransport = \"stdio\"\ncommand = \"" + hostile + "\"\nargs = [\"-mode\", \"ok\"]\n\n" +
		"[[mcp_servers]]\nname = \"b\"\ntransport = \"stdio\"\ncommand = \"" + hostile + "\"\nargs = [\"-mode\", \"ok\", \"-x\"]\n"
	if err := os.WriteFile(filepath.Join(project, ".relavium", "config.toml"), []byte(cfg), 0o644); err != nil {
		t.Fatal(err)
	}
	rd, wr, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer rd.Close()
	if _, err := wr.WriteString("o\nd\n"); err != nil {
		t.Fatal(err)
	}
	wr.Close()
	var stdout, stderr bytes.Buffer
	env := &cli.Env{Stdin: rd, Stdout: &stdout, Stderr: &stderr, StdinTTY: true, StdoutTTY: true, Home: home, WorkDir: project,
		LookupEnv: func(k string) (string, bool) {
			if k == "PATH" {
				return os.Getenv("PATH"), true
			}
			return "", false
		}, Now: time.Now}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	code := Main(ctx, env, []string{"mcp", "ls"})
	out := stdout.String()
	if code != 0 {
		t.Fatalf("exit %d\n%s\n%s", code, out, stderr.String())
	}
	for _, want := range []string{"relavium wants to start the stdio MCP server a", "digest   v1:", "[A]pprove & remember / approve [o]nce / [d]eny?",
		"approved for this run", "denied: the server is not started"} {
		if !strings.Contains(stderr.String(), want) {
			t.Errorf("prompt lacks %q:\n%s", want, stderr.String())
		}
	}
	if !strings.Contains(out, "● a ") || !strings.Contains(out, "✗ b ") || !strings.Contains(out, "consent denied") {
		t.Errorf("ls:\n%s", out)
	}
	// Approve once remembers nothing.
	if grants, _ := consent.Open(home).Fold(); grants.Len() != 0 {
		t.Errorf("approve once wrote %d grants", grants.Len())
	}
}
