package host

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/relavium/relavium/engine"
	"github.com/relavium/relavium/host/failure"
)

// Servers in the shapes real ones take, built on the TypeScript SDK's
// low-level Server (testdata/servers/tsshapes, the SDK from the peers).

// requireSDK returns the peers directory holding the TypeScript SDK.
func requireSDK(t *testing.T) (node, peers string) {
	t.Helper()
	p := requirePeers(t)
	dir := os.Getenv("RELAVIUM_PEERS")
	if _, err := os.Stat(filepath.Join(dir, "node_modules", "@modelcontextprotocol", "sdk", "package.json")); err != nil {
		if os.Getenv("RELAVIUM_REQUIRE_PEERS") == "1" {
			t.Fatalf("RELAVIUM_REQUIRE_PEERS=1 but the TypeScript SDK is missing from %s (run make peers)", dir)
		}
		t.Skip("the TypeScript SDK peer is not installed: run make peers")
	}
	return p.node, dir
}

func shapeServer(t *testing.T, name, shape string) Endpoint {
	t.Helper()
	node, peers := requireSDK(t)
	script, err := filepath.Abs(filepath.Join("..", "testdata", "servers", "tsshapes", "server.cjs"))
	if err != nil {
		t.Fatal(err)
	}
	return peerServer(t, name, node, script, shape, peers)
}

// A server declaring only resources (and refusing resources/templates/list
// with -32601, as the SDK does for a handler never registered) is ready,
// is never asked for tools, lists its resources, and its refusal is
// recorded per list; a prompts-only server likewise.
func TestPeerShapesResourcesAndPromptsOnly(t *testing.T) {
	rec := &recorder{}
	h := startHost(t, Options{Emitter: rec, Environ: os.Environ(), Servers: []Endpoint{
		shapeServer(t, "res", "resources-only"), shapeServer(t, "pr", "prompts-only")}})
	for _, st := range h.Servers() {
		if st.State != engine.StateReady || st.Tools != 0 {
			t.Fatalf("%s: %+v", st.Name, st)
		}
	}
	ctx := context.Background()
	res, err := h.Resources(ctx, "res")
	if err != nil {
		t.Fatalf("resources: %v", err)
	}
	if !res.Offered || len(res.Resources) != 1 || res.Resources[0].URI != "note://one" || len(res.Templates) != 0 {
		t.Fatalf("resources %+v", res)
	}
	if !slices.Equal(res.NotOffered, []string{"resources/templates/list"}) {
		t.Fatalf("not offered %v", res.NotOffered)
	}
	defs, ok := h.Definitions("res")
	if !ok || !slices.Equal(defs.NotOffered, []string{"resources/templates/list"}) || string(defs.Capabilities) != `{"resources":{}}` {
		t.Fatalf("definitions %+v", defs)
	}
	if ps, err := h.Prompts(ctx, "res"); err != nil || len(ps) != 0 {
		t.Fatalf("prompts of a resources-only server: %v %v", ps, err)
	}
	ps, err := h.Prompts(ctx, "pr")
	if err != nil || len(ps) != 1 || ps[0].Name != "greet" {
		t.Fatalf("prompts %+v %v", ps, err)
	}
	got, err := h.GetPrompt(ctx, "pr", "greet", map[string]string{"who": "Ada"})
	if err != nil || len(got.Messages) != 1 || !strings.Contains(string(mustJSON(t, got.Messages[0].Content)), "Hello, Ada") {
		t.Fatalf("prompts/get %+v %v", got, err)
	}
	for _, st := range h.Servers() {
		if st.Name == "res" && !slices.Equal(st.NotOffered, []string{"resources/templates/list"}) {
			t.Fatalf("status %+v", st)
		}
		if st.Name == "pr" && len(st.NotOffered) != 0 {
			t.Fatalf("status %+v", st)
		}
	}
}

// A banner on stdout (before connecting and mid-call) is skipped with one
// warning and kept with the server's output; the session goes on.
func TestPeerShapesStdoutBanner(t *testing.T) {
	rec := &recorder{}
	h := startHost(t, Options{Emitter: rec, Environ: os.Environ(), Servers: []Endpoint{shapeServer(t, "b", "banner")}})
	if got := callText(t, h, "mcp_b_echo", `{"text":"hi"}`); got != "hi" {
		t.Fatalf("echo = %q", got)
	}
	if got := callText(t, h, "mcp_b_echo", `{"text":"again"}`); got != "again" {
		t.Fatalf("echo = %q", got)
	}
	warned := 0
	for _, e := range rec.ofType(engine.EventToolLog) {
		if d, ok := e.Data.(engine.ToolLogData); ok && strings.Contains(string(d.Data), "not JSON-RPC on stdout") {
			warned++
			if !strings.Contains(string(d.Data), "starting...") {
				t.Errorf("the warning does not quote the first line: %s", d.Data)
			}
		}
	}
	if warned != 1 {
		t.Fatalf("%d warnings, want 1", warned)
	}
	// mcp ls shows it too: the count and the first line, one line, cleaned.
	st := h.Servers()[0]
	if st.StrayStdout == nil || st.StrayStdout.Lines < 1 || !strings.Contains(st.StrayStdout.First, "starting...") {
		t.Fatalf("status: %+v", st.StrayStdout)
	}
}

// A server that dies after a banner says so: the error names the non-JSON
// line, not just an exit during initialize.
func TestPeerShapesStdoutBannerExit(t *testing.T) {
	ep := shapeServer(t, "bx", "banner-exit")
	ctx, cancel := context.WithTimeout(context.Background(), 60e9)
	defer cancel()
	h, err := Start(ctx, Options{Emitter: &recorder{}, Environ: os.Environ(), Servers: []Endpoint{ep}})
	if err == nil {
		_ = h.Close()
		t.Fatal("a server that exits started")
	}
	var se *StartError
	if !errors.As(err, &se) || len(se.Failures) != 1 || se.Failures[0].ErrCode != failure.CodeInitializeFailed {
		t.Fatalf("error: %v", err)
	}
	if msg := se.Failures[0].Error(); !strings.Contains(msg, `non-JSON line(s) on stdout (the first: "Starting shapes server (no config found)")`) {
		t.Fatalf("the error does not name the stdout line: %s", msg)
	}
}

func mustJSON(t *testing.T, v any) []byte {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return b
}
