package invoke

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/relavium/relavium/invoke/cli"
)

// What servers ask of the client, answered headless against the demo
// server (the real binary, the demo server as its stdio child): sampling
// with --sampling-reply (text and @FILE) or declined with E901, roots from
// the project directory or --root, and a refused root or reply file before
// anything starts.
func TestClientSideHeadlessOnTheDemoServer(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the built binary and the demo server")
	}
	e := newE2E(t)
	d := e.digest(t)
	call := func(args ...string) map[string]any {
		t.Helper()
		return runEnvelope(t, e.run(t, append([]string{"mcp", "call", "--json", "--yes", "--allow-mcp-stdio", d}, args...)...))
	}
	resultText := func(env map[string]any) string {
		t.Helper()
		res, _ := runData(env)["result"].(map[string]any)
		content, _ := res["content"].([]any)
		if len(content) == 0 {
			t.Fatalf("no result content: %v", env)
		}
		s, _ := content[0].(map[string]any)["text"].(string)
		return s
	}

	t.Run("sampling reply text", func(t *testing.T) {
		if got := resultText(call("mcp_demo_test_sampling", "prompt=Capital of France?", "--sampling-reply", "Paris")); got != "LLM response: Paris" {
			t.Fatalf("got %q", got)
		}
	})
	t.Run("sampling reply file", func(t *testing.T) {
		f := filepath.Join(t.TempDir(), "reply.txt")
		if err := os.WriteFile(f, []byte("from a file"), 0o600); err != nil {
			t.Fatal(err)
		}
		if got := resultText(call("mcp_demo_test_sampling", "prompt=p", "--sampling-reply", "@"+f)); got != "LLM response: from a file" {
			t.Fatalf("got %q", got)
		}
	})
	t.Run("sampling reply file too big or missing", func(t *testing.T) {
		big := filepath.Join(t.TempDir(), "big.txt")
		if err := os.WriteFile(big, []byte(strings.Repeat("x", cli.MaxSamplingReply+1)), 0o600); err != nil {
			t.Fatal(err)
		}
		for _, f := range []string{big, filepath.Join(t.TempDir(), "missing")} {
			o := e.run(t, "mcp", "call", "--json", "--yes", "--allow-mcp-stdio", d, "mcp_demo_test_sampling", "prompt=p", "--sampling-reply", "@"+f)
			if env := runEnvelope(t, o); o.code != 2 || runErrCode(env) != cli.CodeSamplingReply {
				t.Fatalf("%s: exit %d %v", f, o.code, env)
			}
		}
	})
	t.Run("sampling declined by default", func(t *testing.T) {
		o := e.run(t, "mcp", "call", "--json", "--yes", "--allow-mcp-stdio", d, "mcp_demo_test_sampling", "prompt=p")
		if env := runEnvelope(t, o); o.code != 1 || runErrCode(env) != "E901" {
			t.Fatalf("exit %d %v", o.code, env)
		}
	})
	t.Run("roots default to the project directory", func(t *testing.T) {
		real, _ := filepath.EvalSymlinks(e.project)
		if got := resultText(call("mcp_demo_list_roots")); got != "1 root(s):\nfile://"+real {
			t.Fatalf("got %q, want the project %s", got, real)
		}
	})
	t.Run("--root replaces the default, symlinks resolved", func(t *testing.T) {
		dir := t.TempDir()
		a, b := filepath.Join(dir, "a"), filepath.Join(dir, "b")
		for _, p := range []string{a, b} {
			if err := os.Mkdir(p, 0o755); err != nil {
				t.Fatal(err)
			}
		}
		link := filepath.Join(dir, "link-to-b")
		if err := os.Symlink(b, link); err != nil {
			t.Fatal(err)
		}
		ra, _ := filepath.EvalSymlinks(a)
		rb, _ := filepath.EvalSymlinks(b)
		got := resultText(call("mcp_demo_list_roots", "--root", a, "--root", link))
		if got != "2 root(s):\nfile://"+ra+"\nfile://"+rb {
			t.Fatalf("got %q", got)
		}
	})
	t.Run("a relative --root is the directory from where it was typed", func(t *testing.T) {
		wd := t.TempDir() // not the project: --root is relative to where the command runs
		if err := os.Mkdir(filepath.Join(wd, "sub"), 0o755); err != nil {
			t.Fatal(err)
		}
		want, _ := filepath.EvalSymlinks(filepath.Join(wd, "sub"))
		ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
		defer cancel()
		c := e.cmd(ctx, "mcp", "call", "--json", "--yes", "--allow-mcp-stdio", d, "mcp_demo_list_roots", "--root", "sub")
		c.Dir = wd
		out, err := c.Output()
		if err != nil {
			t.Fatalf("%v: %s", err, out)
		}
		if got := resultText(runEnvelope(t, runOutcome{stdout: string(out)})); got != "1 root(s):\nfile://"+want {
			t.Fatalf("got %q, want %s", got, want)
		}
	})
	t.Run("a root that is not a directory", func(t *testing.T) {
		f := filepath.Join(t.TempDir(), "file")
		if err := os.WriteFile(f, nil, 0o600); err != nil {
			t.Fatal(err)
		}
		o := e.run(t, "mcp", "call", "--json", "--yes", "--allow-mcp-stdio", d, "mcp_demo_list_roots", "--root", f)
		if env := runEnvelope(t, o); o.code != 2 || runErrCode(env) != "E903" {
			t.Fatalf("exit %d %v", o.code, env)
		}
	})
}
