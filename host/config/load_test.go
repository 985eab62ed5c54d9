package config

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/relavium/relavium/fault"
)

func goodDirs(t *testing.T) (home, project string) {
	t.Helper()
	root, err := filepath.Abs(filepath.Join("..", "..", "testdata", "config", "good"))
	if err != nil {
		t.Fatal(err)
	}
	return filepath.Join(root, "home"), filepath.Join(root, "project")
}

func TestLoadGoodUnion(t *testing.T) {
	home, project := goodDirs(t)
	cfg, err := Load(home, project)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, s := range cfg.Servers {
		names = append(names, s.Name+"/"+s.Transport)
	}
	if got, want := strings.Join(names, " "), "github/stdio docs/http local-dev/http legacy/sse fs/stdio"; got != want {
		t.Fatalf("servers %q, want %q (global first, authored order, sse kept)", got, want)
	}
	if cfg.Theme != "high-contrast" {
		t.Errorf("theme %q: the project file sets high-contrast over the global dark", cfg.Theme)
	}
	if len(cfg.Files) != 2 || cfg.Files[0] != GlobalFile(home) || cfg.Files[1] != ProjectFile(project) {
		t.Errorf("files %v", cfg.Files)
	}
	gh := cfg.Servers[0]
	wantGH := Server{
		Name: "github", Transport: "stdio", Command: "npx", Args: []string{"-y", "@modelcontextprotocol/server-github"},
		Env:            []EnvVar{{"GITHUB_TOKEN", "{{secrets.github_token}}"}, {"LOG_LEVEL", "info"}},
		Dir:            project,
		ConnectTimeout: 120 * time.Second,
		ToolsAllowlist: []string{"search_repositories", "create_issue", "get_issue"},
		Pos:            Pos{File: GlobalFile(home), Line: 4, Col: 3},
	}
	if !reflect.DeepEqual(gh, wantGH) {
		t.Errorf("github =\n%+v\nwant\n%+v", gh, wantGH)
	}
	if !filepath.IsAbs(gh.Dir) {
		t.Errorf("stdio Dir %q is not absolute", gh.Dir)
	}
	local := cfg.Servers[2]
	if !local.AllowLocalEndpoint || local.ConnectTimeout != 5*time.Second || local.Dir != "" || local.URL != "http://127.0.0.1:4000/mcp" {
		t.Errorf("local-dev = %+v", local)
	}
	fs := cfg.Servers[4]
	if want := []EnvVar{{"NODE_ENV", "production"}, {"FS_ROOT", "/srv/data"}}; !reflect.DeepEqual(fs.Env, want) {
		t.Errorf("fs env %v, want %v from the [mcp_servers.env] sub-table, in order", fs.Env, want)
	}
	if len(cfg.Warnings) != 1 || cfg.Warnings[0].Code != CodeSSEDeprecated || cfg.Warnings[0].Line != 12 {
		t.Errorf("warnings %v: want the sse deprecation at line 12", cfg.Warnings)
	}
}

func TestLoadNothingAuthored(t *testing.T) {
	root := t.TempDir()
	cfg, err := Load(filepath.Join(root, "home"), filepath.Join(root, "project"))
	if err != nil {
		t.Fatal(err)
	}
	if len(cfg.Servers) != 0 || len(cfg.Files) != 0 || cfg.Theme != "" {
		t.Errorf("empty config = %+v", cfg)
	}
	all, err := cfg.Declared("")
	if err != nil || len(all) != 0 {
		t.Errorf("Declared(\"\") = %v, %v", all, err)
	}
}

// TestLoadHomeInsideProject: run in the user's home, <project>/.relavium is
// the relavium home; the one file is read once, not refused as its own duplicate.
func TestLoadHomeInsideProject(t *testing.T) {
	root := writeTree(t, map[string]string{"p/.relavium/config.toml": stdioReg("a")})
	cfg, err := Load(filepath.Join(root, "p", ".relavium"), filepath.Join(root, "p"))
	if err != nil {
		t.Fatal(err)
	}
	if len(cfg.Servers) != 1 || len(cfg.Files) != 1 {
		t.Errorf("servers %v files %v", cfg.Servers, cfg.Files)
	}
}

func TestDeclaredAgent(t *testing.T) {
	home, project := goodDirs(t)
	cfg, err := Load(home, project)
	if err != nil {
		t.Fatal(err)
	}
	servers, err := cfg.Declared("reviewer")
	if err != nil {
		t.Fatal(err)
	}
	agentFile := filepath.Join(AgentsDir(project), "reviewer.yaml")
	if len(servers) != 4 {
		t.Fatalf("servers %+v", servers)
	}
	gh, docs, scratch, helper := servers[0], servers[1], servers[2], servers[3]
	if gh.Name != "github" || gh.Command != "npx" || gh.Dir != project || gh.Pos.File != GlobalFile(home) {
		t.Errorf("ref github not resolved to its registration: %+v", gh)
	}
	if !reflect.DeepEqual(gh.ToolsAllowlist, []string{"search_repositories", "get_issue"}) {
		t.Errorf("github allowlist %v: the ref narrows the registration's", gh.ToolsAllowlist)
	}
	if gh.Ref == nil || *gh.Ref != (Pos{File: agentFile, Line: 4, Col: 5}) {
		t.Errorf("github ref pos %v", gh.Ref)
	}
	if docs.Name != "docs" || docs.ToolsAllowlist != nil || docs.Ref == nil {
		t.Errorf("docs = %+v", docs)
	}
	if scratch.Transport != "websocket" || !scratch.AllowLocalEndpoint || scratch.Ref != nil || scratch.Pos != (Pos{File: agentFile, Line: 7, Col: 5}) {
		t.Errorf("scratch = %+v", scratch)
	}
	wantEnv := []EnvVar{{"HELPER_TOKEN", "{{secrets.helper}}"}, {"HELPER_MODE", "fast"}}
	if helper.Dir != project || helper.ConnectTimeout != 300*time.Second || !reflect.DeepEqual(helper.Env, wantEnv) || !reflect.DeepEqual(helper.Args, []string{"--quiet"}) {
		t.Errorf("helper = %+v", helper)
	}
	a, err := cfg.Agent("reviewer")
	if err != nil || a.Name != "reviewer" || a.Description != "Reviews pull requests" || a.File != agentFile {
		t.Errorf("Agent(reviewer) = %+v, %v", a, err)
	}
	m, err := cfg.Agent("minimal")
	if err != nil || m.Name != "minimal" || len(m.Servers) != 0 {
		t.Errorf("Agent(minimal) = %+v, %v: name defaults to the file name", m, err)
	}
}

func TestDeclaredIsTheCallersCopy(t *testing.T) {
	home, project := goodDirs(t)
	cfg, err := Load(home, project)
	if err != nil {
		t.Fatal(err)
	}
	first, _ := cfg.Declared("")
	first[0].Args[0] = "--changed"
	first[0].Env[0].Value = "changed"
	again, _ := cfg.Declared("")
	if again[0].Args[0] != "-y" || again[0].Env[0].Value != "{{secrets.github_token}}" {
		t.Errorf("Declared shares memory with the Config: %+v", again[0])
	}
}

func TestAgentByFile(t *testing.T) {
	home, project := goodDirs(t)
	cfg, err := Load(home, project)
	if err != nil {
		t.Fatal(err)
	}
	other := writeTree(t, map[string]string{"elsewhere/ci-agent.yaml": "name: ci\nmcp_servers:\n  - ref: docs\n"})
	a, err := cfg.Agent(filepath.Join(other, "elsewhere", "ci-agent.yaml"))
	if err != nil {
		t.Fatalf("an agent FILE outside the agents folder may carry any name: %v", err)
	}
	if a.Name != "ci" || len(a.Servers) != 1 || a.Servers[0].URL != "https://docs.example.com/mcp" {
		t.Errorf("agent = %+v", a)
	}
	rel, err := cfg.Agent(".relavium/agents/reviewer.yaml")
	if err != nil || rel.Name != "reviewer" {
		t.Errorf("relative FILE (from the project) = %+v, %v", rel, err)
	}
}

func TestRuleAgentNotFound(t *testing.T) {
	home, project := goodDirs(t)
	cfg, err := Load(home, project)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct{ arg, msg string }{
		{"revewer", `did you mean "reviewer"`},
		{"nobody", "available: minimal, reviewer"},
		{"", "available"},
		{"missing/agent.yaml", "missing/agent.yaml"},
	} {
		_, err := cfg.Agent(tc.arg)
		var nf *AgentNotFoundError
		if !errors.As(err, &nf) || nf.Code() != CodeAgentNotFound || nf.ExitCode() != 2 {
			t.Errorf("Agent(%q) = %v, want E223 exit 2", tc.arg, err)
			continue
		}
		if !strings.Contains(nf.Message(), tc.msg) {
			t.Errorf("Agent(%q) message %q lacks %q", tc.arg, nf.Message(), tc.msg)
		}
	}
	if _, err := cfg.Declared("nobody"); err == nil {
		t.Error("Declared(nobody) succeeded")
	}
}

func TestAgentReportsEveryProblem(t *testing.T) {
	root := writeTree(t, map[string]string{
		globalTOML: stdioReg("gh"),
		agentYAML:  "name: b\nmcp_servers:\n  - ref: gh\n    url: https://x.example\n  - ref: nope\n  - id: x\n    transport: carrier-pigeon\n",
	})
	cfg, err := Load(filepath.Join(root, "home"), filepath.Join(root, "project"))
	if err != nil {
		t.Fatal(err)
	}
	_, err = cfg.Agent("a")
	got := problemsOf(t, err)
	var codes []fault.Code
	for _, p := range got {
		codes = append(codes, p.Code)
	}
	if want := []fault.Code{CodeAgentName, CodeRefExcludes, CodeUnknownRef, CodeTransport}; !reflect.DeepEqual(codes, want) {
		t.Errorf("codes %v, want %v", codes, want)
	}
}

func TestResolveRefs(t *testing.T) {
	home, project := goodDirs(t)
	cfg, err := Load(home, project)
	if err != nil {
		t.Fatal(err)
	}
	wf := Pos{File: "/p/.relavium/workflows/x.yaml", Line: 5, Col: 3}
	got, err := cfg.ResolveRefs([]Ref{{Name: "github", ToolsAllowlist: []string{"get_issue"}, Pos: wf}, {Name: "fs", Pos: wf}})
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 2 || !reflect.DeepEqual(got[0].ToolsAllowlist, []string{"get_issue"}) || got[1].Command != "/usr/bin/env" || *got[0].Ref != wf {
		t.Errorf("resolved %+v", got)
	}
	_, err = cfg.ResolveRefs([]Ref{{Name: "githubb", Pos: wf}, {Name: "github", ToolsAllowlist: []string{"delete_repo"}, Pos: wf}})
	ps := problemsOf(t, err)
	if len(ps) != 2 || ps[0].Code != CodeUnknownRef || ps[1].Code != CodeToolsAllowlist || ps[0].Line != 5 || ps[0].Field != "mcp_servers[0].ref" {
		t.Errorf("problems %v", ps)
	}
}

func TestValidateGood(t *testing.T) {
	home, project := goodDirs(t)
	rep, err := Validate(home, project, "")
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Files) != 4 || len(rep.Servers) != 5 || len(rep.Agents) != 2 || len(rep.Warnings) != 1 {
		t.Fatalf("report %+v", rep)
	}
	if a := rep.Agents[1]; a.Name != "reviewer" || strings.Join(a.Servers, ",") != "github,docs,scratch,helper" {
		t.Errorf("agent summary %+v", a)
	}
}

// The agent an invocation names is checked too: a FILE outside the
// project's agents folder (which the folder walk never reads) with its
// problems, a NAME the project lacks as E223; one inside the folder is
// read once.
func TestValidateChecksTheNamedAgent(t *testing.T) {
	home, project := goodDirs(t)
	bad := filepath.Join(t.TempDir(), "outside.yaml")
	if err := os.WriteFile(bad, []byte("mcp_servers:\n  - name: x\n    transport: stdio\n    command: /bin/true\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err := Validate(home, project, bad)
	if ps := problemsOf(t, err); len(ps) == 0 || ps[0].File != bad {
		t.Fatalf("problems of %s: %v", bad, ps)
	}
	var nf *AgentNotFoundError
	if _, err := Validate(home, project, "nosuch"); !errors.As(err, &nf) {
		t.Fatalf("unknown agent: %v", err)
	}
	rep, err := Validate(home, project, "reviewer")
	if err != nil || len(rep.Agents) != 2 {
		t.Fatalf("a project agent by name: %v %+v", err, rep)
	}
}

// TestErrorRendering: the human form is one compiler-style line per problem
// (paths relative to the project), warnings interleaved by place, then a
// summary; the envelope data holds the arrays.
func TestErrorRendering(t *testing.T) {
	root := writeTree(t, map[string]string{
		projectTOML: "theme = \"neon\"\n[[mcp_servers]]\nname = \"old\"\ntransport = \"sse\"\nurl = \"https://x.example/sse\"\ncommand = \"x\"\n",
	})
	_, err := Validate(filepath.Join(root, "home"), filepath.Join(root, "project"), "")
	var ce *Error
	if !errors.As(err, &ce) {
		t.Fatal(err)
	}
	var b strings.Builder
	if werr := ce.WriteHuman(&b); werr != nil {
		t.Fatal(werr)
	}
	want := []string{
		".relavium/config.toml:1:9: theme: unknown theme \"neon\"",
		".relavium/config.toml:4:13: mcp_servers[0].transport: warning: transport \"sse\" is a deprecated alias",
		".relavium/config.toml:6:1: mcp_servers[0].command: \"command\" is a stdio-only field",
		"relavium: configuration invalid: 2 problems (E200)",
	}
	lines := strings.Split(strings.TrimSpace(b.String()), "\n")
	if len(lines) != len(want) {
		t.Fatalf("human form:\n%s", b.String())
	}
	for i, w := range want {
		if !strings.HasPrefix(lines[i], w) {
			t.Errorf("line %d = %q, want prefix %q", i, lines[i], w)
		}
	}
	data, _ := json.Marshal(ce.ErrorData())
	var shape map[string][]json.RawMessage
	if err := json.Unmarshal(data, &shape); err != nil {
		t.Fatal(err)
	}
	if len(shape["problems"]) != 2 || len(shape["warnings"]) != 1 || len(shape["files"]) != 1 {
		t.Errorf("error data %s", data)
	}
	if !strings.Contains(ce.Message(), "2 problems in 1 file") {
		t.Errorf("message %q", ce.Message())
	}
}

// TestValidateReportArraysAreNeverNull: the report `config validate --json`
// carries has arrays, never null, when a configuration has no problem and
// no warning — the same shape as the error's data.
func TestValidateReportArraysAreNeverNull(t *testing.T) {
	root := writeTree(t, map[string]string{
		projectTOML: "[[mcp_servers]]\nname = \"x\"\ntransport = \"stdio\"\ncommand = \"/bin/true\"\n",
	})
	rep, err := Validate(filepath.Join(root, "home"), filepath.Join(root, "project"), "")
	if err != nil {
		t.Fatal(err)
	}
	b, err := json.Marshal(rep)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(b), "null") {
		t.Fatalf("report holds a null: %s", b)
	}
	if !strings.Contains(string(b), `"warnings":[]`) {
		t.Fatalf("report lacks an empty warnings array: %s", b)
	}
}
