package invoke

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/relavium/relavium/internal/testbin"
)

// server-everything offers trigger-sampling-request and get-roots-list only
// to a client that declares sampling and roots: relavium declares both,
// answers sampling headless with --sampling-reply (declines it with E901
// without), and offers --root's directory (symlinks resolved).
func TestServerEverythingSamplingAndRootsHeadless(t *testing.T) {
	p := requireMCPPeers(t)
	bin := testbin.Relavium(t)
	dir := t.TempDir()
	project, home, root := filepath.Join(dir, "project"), filepath.Join(dir, "home"), filepath.Join(dir, "root")
	for _, d := range []string{filepath.Join(project, ".relavium"), home, root} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	cfg := fmt.Sprintf("[[mcp_servers]]\nname = \"everything\"\ntransport = \"stdio\"\ncommand = %q\nargs = [%q, \"stdio\"]\n", p.node, p.everything)
	if err := os.WriteFile(filepath.Join(project, ".relavium", "config.toml"), []byte(cfg), 0o644); err != nil {
		t.Fatal(err)
	}
	run := func(args ...string) (map[string]any, int) {
		t.Helper()
		cmd := exec.Command(bin, append([]string{"--project", project, "--json"}, args...)...)
		cmd.Env = []string{"RELAVIUM_HOME=" + home, "PATH=" + os.Getenv("PATH"), "HOME=" + home}
		out, err := cmd.Output()
		code := 0
		if ee, ok := err.(*exec.ExitError); ok {
			code = ee.ExitCode()
		} else if err != nil {
			t.Fatal(err)
		}
		var env map[string]any
		if err := json.Unmarshal(out, &env); err != nil {
			t.Fatalf("%v: not one JSON document: %s", args, out)
		}
		return env, code
	}
	env, _ := run("consent", "digest")
	digest := runData(env)["servers"].([]any)[0].(map[string]any)["digest"].(string)
	text := func(env map[string]any) string {
		res, _ := runData(env)["result"].(map[string]any)
		content, _ := res["content"].([]any)
		if len(content) == 0 {
			return ""
		}
		s, _ := content[0].(map[string]any)["text"].(string)
		return s
	}

	env, code := run("mcp", "call", "mcp_everything_trigger-sampling-request", "prompt=capital of France", "--sampling-reply", "Paris", "--yes", "--allow-mcp-stdio", digest)
	if got := text(env); code != 0 || !strings.Contains(got, `"text": "Paris"`) || !strings.Contains(got, `"model": "relavium-reply"`) {
		t.Fatalf("sampling with --sampling-reply: exit %d %q", code, got)
	}
	env, code = run("mcp", "call", "mcp_everything_trigger-sampling-request", "prompt=p", "--yes", "--allow-mcp-stdio", digest)
	if got := text(env); code != 1 || !strings.Contains(got, "E901") {
		t.Fatalf("sampling declined by default: exit %d %q %v", code, got, env)
	}
	link := filepath.Join(dir, "link")
	if err := os.Symlink(root, link); err != nil {
		t.Fatal(err)
	}
	real, _ := filepath.EvalSymlinks(root)
	env, code = run("mcp", "call", "mcp_everything_get-roots-list", "--root", link, "--yes", "--allow-mcp-stdio", digest)
	if got := text(env); code != 0 || !strings.Contains(got, "(1 total)") || !strings.Contains(got, "URI: file://"+real) {
		t.Fatalf("roots with --root: exit %d %q", code, got)
	}
}
