package callcmd

import (
	"encoding/json"
	"slices"
	"testing"

	"github.com/relavium/relavium/host"
	"github.com/relavium/relavium/session"
)

// A declared server's command names the agent and only what the
// invocation would need; empty arguments are left out.
func TestWordsOfADeclaredServer(t *testing.T) {
	c := Call{Agent: "claude", Name: "fs.read", Tool: "read", Args: json.RawMessage(`{}`)}
	if got, want := Words(c, session.HeadlessNeeds{}), []string{"relavium", "--agent", "claude", "mcp", "call", "fs.read"}; !slices.Equal(got, want) {
		t.Fatalf("Words = %q, want %q", got, want)
	}
	c.Args = json.RawMessage(`{"path":"a b"}`)
	needs := session.HeadlessNeeds{Yes: true, AllowStdio: "sha256:ab", AllowSecret: []string{"TOKEN@https://x"}, AllowLocal: []string{"127.0.0.1:8080"}}
	want := []string{"relavium", "--agent", "claude", "mcp", "call", "fs.read", "--args", `{"path":"a b"}`, "--yes",
		"--allow-mcp-stdio", "sha256:ab", "--allow-secret", "TOKEN@https://x", "--allow-local", "127.0.0.1:8080"}
	if got := Words(c, needs); !slices.Equal(got, want) {
		t.Fatalf("Words = %q, want %q", got, want)
	}
}

// A server reached ad hoc is named by --stdio or --url, its tool by its
// own name, with no agent and no grants.
func TestWordsOfAnAdhocServer(t *testing.T) {
	c := Call{Agent: "claude", Name: "demo.echo", Tool: "echo", Adhoc: true, Transport: host.TransportStdio, Target: "node demo.js"}
	needs := session.HeadlessNeeds{AllowStdio: "sha256:ab"}
	if got, want := Words(c, needs), []string{"relavium", "mcp", "call", "echo", "--stdio", "node demo.js"}; !slices.Equal(got, want) {
		t.Fatalf("Words = %q, want %q", got, want)
	}
	c.Transport, c.Target, c.AllowLocal = "http", "http://127.0.0.1:9/mcp", true
	if got, want := Words(c, session.HeadlessNeeds{Yes: true}), []string{"relavium", "mcp", "call", "echo", "--yes", "--url", "http://127.0.0.1:9/mcp", "--allow-local-endpoint"}; !slices.Equal(got, want) {
		t.Fatalf("Words = %q, want %q", got, want)
	}
}
