package invoke

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// clientWorkflow asks the demo server for what only a client answers: a
// sampling request (test_sampling) and the roots (list_roots).
const clientWorkflow = `id: client
description: The client side, headless
side_effect: read
mcp_servers: [{ref: demo}]
steps:
  - {id: sample, tool: mcp_demo_test_sampling, args: {prompt: "say hi"}}
  - {id: roots, tool: mcp_demo_list_roots, args: {}}
outputs:
  sampled: "{{steps.sample.text}}"
  roots: "{{steps.roots.text}}"
`

// run takes --sampling-reply TEXT|@FILE and --root DIR as mcp call does:
// the demo server's sampling request is answered with the text, its
// roots/list sees the directories (symlinks resolved); without the flag the
// request is declined (E901); a bad reply file or root is exit 2 before
// anything is spawned, --plan included.
func TestRunSamplingReplyAndRoots(t *testing.T) {
	e := newE2E(t)
	if err := os.WriteFile(filepath.Join(e.project, ".relavium", "workflows", "client.yaml"), []byte(clientWorkflow), 0o644); err != nil {
		t.Fatal(err)
	}
	allow := e.digest(t)
	dir := t.TempDir()
	real, err := filepath.EvalSymlinks(dir)
	if err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(t.TempDir(), "link")
	if err := os.Symlink(dir, link); err != nil {
		t.Fatal(err)
	}
	reply := filepath.Join(t.TempDir(), "reply.txt")
	if err := os.WriteFile(reply, []byte("from a file"), 0o600); err != nil {
		t.Fatal(err)
	}

	for _, c := range []struct{ flag, want string }{
		{"from the flag", "LLM response: from the flag"},
		{"@" + reply, "LLM response: from a file"},
	} {
		o := e.run(t, "run", "client", "--json", "--allow-mcp-stdio", allow, "--sampling-reply", c.flag, "--root", link, "--root", e.project)
		env := runEnvelope(t, o)
		outs, _ := runData(env)["outputs"].(map[string]any)
		if o.code != 0 || outs == nil {
			t.Fatalf("--sampling-reply %s: exit %d %v\n%s", c.flag, o.code, env, o.stderr)
		}
		if s, _ := outs["sampled"].(string); !strings.Contains(s, c.want) {
			t.Errorf("--sampling-reply %s: sampled %q, want %q", c.flag, s, c.want)
		}
		roots, _ := outs["roots"].(string)
		projReal, _ := filepath.EvalSymlinks(e.project)
		if !strings.HasPrefix(roots, "2 root(s):") || !strings.Contains(roots, "file://"+real) || !strings.Contains(roots, "file://"+projReal) || strings.Contains(roots, link) {
			t.Errorf("roots %q, want %s (the link resolved) and %s", roots, real, projReal)
		}
	}

	// No --sampling-reply: the request is declined, and the step fails.
	o := e.run(t, "run", "client", "--events", "--allow-mcp-stdio", allow)
	if o.code == 0 || !strings.Contains(o.stdout+o.stderr, "E901") {
		t.Errorf("without --sampling-reply: exit %d\n%s\n%s", o.code, o.stdout, o.stderr)
	}

	// Bad flags are refused before anything starts, even for a plan.
	for _, c := range []struct {
		args []string
		code string
	}{
		{[]string{"--root", filepath.Join(dir, "nope")}, "E903"},
		{[]string{"--sampling-reply", "@" + filepath.Join(dir, "nope")}, "E905"},
		{[]string{"--plan", "--root", reply}, "E903"},
	} {
		o := e.run(t, append([]string{"run", "client", "--json", "--allow-mcp-stdio", allow}, c.args...)...)
		if env := runEnvelope(t, o); o.code != 2 || string(runErrCode(env)) != c.code {
			t.Errorf("%v: exit %d %v", c.args, o.code, env)
		}
	}
}

// A workflow's ref takes its whole connection from the registration, its
// protocol included: the run connects the demo server in the era the
// registration asks for.
func TestRunConnectsInTheRegistrationsEra(t *testing.T) {
	e := newE2E(t)
	for _, c := range []struct{ protocol, want string }{
		{"2026-07-28", "2026-07-28"},
		{"auto", "2026-07-28"}, // stdio: discovery first costs nothing
		{"2025-11-25", "2025-11-25"},
	} {
		cfg := fmt.Sprintf("[[mcp_servers]]\nname = \"demo\"\ntransport = \"stdio\"\ncommand = %q\nargs = [\"demo-server\"]\nprotocol = %q\n", e.bin, c.protocol)
		if err := os.WriteFile(filepath.Join(e.project, ".relavium", "config.toml"), []byte(cfg), 0o644); err != nil {
			t.Fatal(err)
		}
		o := e.run(t, "run", "greet", "--events", "--allow-mcp-stdio", e.digest(t), "--input", "name=Ada")
		era := ""
		for _, ev := range runNDJSON(t, o.stdout) {
			if ev["type"] == "mcp:server" && ev["state"] == "ready" {
				era, _ = ev["protocol"].(string)
			}
		}
		if o.code != 0 || era != c.want {
			t.Errorf("protocol = %q: exit %d, ready in %q, want %q\n%s\n%s", c.protocol, o.code, era, c.want, o.stdout, o.stderr)
		}
	}
}
