package invoke

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/relavium/relavium/invoke/cli"
	"github.com/relavium/relavium/invoke/cmd/mcp"
)

// mcp prompts, mcp resources and mcp prompt over the demo server: human
// and --json, a declared SERVER and the ad-hoc --stdio server.
func TestMCPPromptsResourcesPrompt(t *testing.T) {
	e := newMCPE2E(t)
	e.declareDemo(t)

	r := e.run(t, nil, "mcp", "prompts", "--json")
	var ps struct {
		Data mcp.MCPPrompts `json:"data"`
	}
	if err := json.Unmarshal([]byte(r.stdout), &ps); r.code != 0 || err != nil || len(ps.Data.Servers) != 1 {
		t.Fatalf("mcp prompts --json: %d %v %s %s", r.code, err, r.stdout, r.stderr)
	}
	found := false
	for _, p := range ps.Data.Servers[0].Prompts {
		if p.Name == "test_prompt_with_arguments" && len(p.Arguments) == 2 && p.Arguments[0].Required {
			found = true
		}
	}
	if !found || !ps.Data.Servers[0].Offered {
		t.Fatalf("prompts: %+v", ps.Data)
	}
	if r := e.run(t, nil, "mcp", "prompts", "demo"); r.code != 0 || !strings.Contains(r.stdout, "test_prompt_with_arguments(arg1*, arg2*)") {
		t.Fatalf("mcp prompts demo: %d %s %s", r.code, r.stdout, r.stderr)
	}

	r = e.run(t, nil, "mcp", "resources", "--json")
	var rs struct {
		Data mcp.MCPResources `json:"data"`
	}
	if err := json.Unmarshal([]byte(r.stdout), &rs); r.code != 0 || err != nil || len(rs.Data.Servers) != 1 {
		t.Fatalf("mcp resources --json: %d %v %s", r.code, err, r.stdout)
	}
	s := rs.Data.Servers[0]
	if !s.Offered || len(s.Resources) == 0 || len(s.Templates) == 0 || len(s.NotOffered) != 0 {
		t.Fatalf("resources: %+v", s.ResourceList)
	}
	if r := e.run(t, nil, "mcp", "resources"); r.code != 0 || !strings.Contains(r.stdout, "test://static-text") || !strings.Contains(r.stdout, "TEMPLATES") {
		t.Fatalf("mcp resources: %d %s", r.code, r.stdout)
	}

	r = e.run(t, nil, "mcp", "prompt", "demo", "test_prompt_with_arguments", "arg1=alpha", "arg2=beta")
	if r.code != 0 || !strings.Contains(r.stdout, "[user]") || !strings.Contains(r.stdout, "alpha") || !strings.Contains(r.stdout, "beta") {
		t.Fatalf("mcp prompt: %d %s %s", r.code, r.stdout, r.stderr)
	}
	if r := e.run(t, nil, "mcp", "prompt", "nope", "x"); r.code != 2 || !strings.Contains(r.stderr, "E930") {
		t.Fatalf("unknown server: %d %s", r.code, r.stderr)
	}
	if r := e.run(t, nil, "mcp", "prompt", "demo", "test_prompt_with_arguments", "arg1"); r.code != 2 {
		t.Fatalf("a value without KEY=: %d %s", r.code, r.stderr)
	}

	// The ad-hoc server (relavium's own demo-server needs no consent).
	allow := []string{"--stdio", e.bin + " demo-server"}
	if r := e.run(t, nil, append([]string{"mcp", "prompt", "test_simple_prompt"}, allow...)...); r.code != 0 || !strings.Contains(r.stdout, "[user]") {
		t.Fatalf("ad-hoc mcp prompt: %d %s %s", r.code, r.stdout, r.stderr)
	}
	if r := e.run(t, nil, append([]string{"mcp", "resources", "--json"}, allow...)...); r.code != 0 || !strings.Contains(r.stdout, `"server":"adhoc"`) {
		t.Fatalf("ad-hoc mcp resources: %d %s %s", r.code, r.stdout, r.stderr)
	}
}

// A failure before any listing hands finish a nil *MCPList: the error is
// printed, nothing panics (mcp ls of a signed-out OAuth server, E850).
func TestFinishWithNoListing(t *testing.T) {
	var out, errb strings.Builder
	env := &cli.Env{Stdout: &out, Stderr: &errb}
	var l *mcp.MCPList
	code := cli.Finish(env, &cli.Invocation{}, l, cli.UsageErr(cli.CodeBadArgs, "nothing listed"))
	if code != 2 || !strings.Contains(errb.String(), "nothing listed") || out.Len() != 0 {
		t.Fatalf("exit %d, stdout %q, stderr %q", code, out.String(), errb.String())
	}
}
