package invoke

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/relavium/relavium/invoke/cli"
)

// declareDemo declares the demo server (the built relavium's demo-server)
// and remembers consent for it.
func (e *mcpE2E) declareDemo(t *testing.T) {
	t.Helper()
	e.declare(t, nil, "[[mcp_servers]]\nname = \"demo\"\ntransport = \"stdio\"\ncommand = "+strconvQuote(e.bin)+"\nargs = [\"demo-server\"]\n")
	if r := e.run(t, nil, "consent", "grant", "demo", "--yes"); r.code != 0 {
		t.Fatalf("consent grant: %d %s", r.code, r.stderr)
	}
}

func TestMCPReadAndCompleteOnTheDemoServer(t *testing.T) {
	e := newMCPE2E(t)
	e.declareDemo(t)

	// A text resource prints as text; a blob is described by type and size.
	if r := e.run(t, nil, "mcp", "read", "demo", "test://static-text"); r.code != 0 || r.stdout != "This is the content of the static text resource.\n" {
		t.Fatalf("read text: %d %q %s", r.code, r.stdout, r.stderr)
	}
	if r := e.run(t, nil, "mcp", "read", "demo", "test://static-binary"); r.code != 0 || r.stdout != "[test://static-binary image/png, 70 bytes]\n" {
		t.Fatalf("read blob: %d %q %s", r.code, r.stdout, r.stderr)
	}
	// --output writes the blob decoded: a PNG, 0600.
	dest := filepath.Join(e.project, "img.png")
	r := e.run(t, nil, "mcp", "read", "demo", "test://static-binary", "--output", dest)
	if r.code != 0 || !strings.Contains(r.stdout, "70 bytes written to "+dest) {
		t.Fatalf("read --output: %d %q %s", r.code, r.stdout, r.stderr)
	}
	b, err := os.ReadFile(dest)
	if err != nil || !bytes.HasPrefix(b, []byte("\x89PNG\r\n\x1a\n")) || len(b) != 70 {
		t.Fatalf("--output wrote %d bytes (%v), want the 70-byte PNG", len(b), err)
	}
	if fi, _ := os.Stat(dest); fi.Mode().Perm() != 0o600 {
		t.Errorf("mode %v, want 0600", fi.Mode().Perm())
	}
	if r := e.run(t, nil, "mcp", "read", "nope", "test://x", "--json"); r.code != 2 || r.errCode() != cli.CodeNoSuchServer {
		t.Errorf("unknown server: %d %s", r.code, r.stdout)
	}

	// Completion of a prompt argument and of a template variable.
	if r := e.run(t, nil, "mcp", "complete", "demo", "prompt:review_code", "language", "ja"); r.code != 0 || r.stdout != "java\njavascript\n" {
		t.Fatalf("complete prompt: %d %q %s", r.code, r.stdout, r.stderr)
	}
	r = e.run(t, nil, "mcp", "complete", "demo", "resource:test://template/{id}/data", "id", "1", "--json")
	data, _ := r.env["data"].(map[string]any)
	comp, _ := data["completion"].(map[string]any)
	if r.code != 0 || fmt.Sprint(comp["values"]) != "[1 123]" {
		t.Fatalf("complete template: %d %s", r.code, r.stdout)
	}
	if r := e.run(t, nil, "mcp", "complete", "demo", "review_code", "language", "--json"); r.code != 2 || r.errCode() != cli.CodeBadRef {
		t.Errorf("bad ref: %d %s", r.code, r.stdout)
	}
}

// --subscribe reads the resource again at each update the server sends
// (the demo's watched resource: every 5 s), for as long as asked.
func TestMCPReadSubscribe(t *testing.T) {
	e := newMCPE2E(t)
	e.declareDemo(t)
	r := e.run(t, nil, "mcp", "read", "demo", "test://watched-resource", "--subscribe", "12s", "--json")
	data, _ := r.env["data"].(map[string]any)
	updates, _ := data["updates"].([]any)
	if r.code != 0 || len(updates) == 0 || !strings.Contains(r.stderr, "test://watched-resource updated (1)") {
		t.Fatalf("--subscribe: %d %s\n%s", r.code, r.stdout, r.stderr)
	}
	if r := e.run(t, nil, "mcp", "read", "demo", "test://watched-resource", "--subscribe", "2h"); r.code != 2 {
		t.Errorf("--subscribe 2h: %d %s", r.code, r.stderr)
	}
}
