package invoke

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/relavium/relavium/fault"
	"github.com/relavium/relavium/internal/testbin"
	"github.com/relavium/relavium/invoke/cli"
)

// configFixture returns testdata/config/<name>/{home,project}, absolute.
func cfgFixture(t *testing.T, name string) (home, project string) {
	t.Helper()
	root, err := filepath.Abs(filepath.Join("..", "testdata", "config", name))
	if err != nil {
		t.Fatal(err)
	}
	return filepath.Join(root, "home"), filepath.Join(root, "project")
}

// brokenProblems is every problem of testdata/config/broken, across its
// global config, project config and agent file: config validate must report
// all of them in one run.
type cfgWant struct {
	code         fault.Code
	file         string
	line, column int
	field        string
}

func cfgBrokenProblems() []cfgWant {
	const (
		g = "home/config.toml"
		p = "project/.relavium/config.toml"
		a = "project/.relavium/agents/dev.yaml"
	)
	return []cfgWant{
		{"E217", g, 1, 9, "theme"},
		{"E213", g, 7, 9, "mcp_servers[0].env.PATH"},
		{"E212", g, 7, 29, "mcp_servers[0].env.LD_PRELOAD"},
		{"E215", g, 12, 7, "mcp_servers[1].url"},
		{"E206", p, 2, 8, "mcp_servers[0].name"},
		{"E210", p, 10, 1, "mcp_servers[1].url"},
		{"E211", p, 11, 22, "mcp_servers[1].connect_timeout_ms"},
		{"E202", p, 12, 1, "mcp_servers[1].colour"},
		{"E208", a, 4, 5, "mcp_servers[0].command"},
		{"E220", a, 5, 10, "mcp_servers[1].ref"},
		{"E207", a, 7, 16, "mcp_servers[2].transport"},
		{"E209", a, 12, 5, "mcp_servers[3].env"},
	}
}

type cfgEnvelope struct {
	OK    bool `json:"ok"`
	Error *struct {
		Code    fault.Code      `json:"code"`
		Message string          `json:"message"`
		Cause   json.RawMessage `json:"cause"`
	} `json:"error"`
	Data struct {
		Problems []cfgProblemJSON `json:"problems"`
		Warnings []cfgProblemJSON `json:"warnings"`
		Files    []string         `json:"files"`
		Servers  []struct {
			Name      string `json:"name"`
			Transport string `json:"transport"`
		} `json:"servers"`
		Agents []struct {
			Name    string   `json:"name"`
			Servers []string `json:"servers"`
		} `json:"agents"`
		Workflows []string `json:"workflows"`
	} `json:"data"`
}

type cfgProblemJSON struct {
	Code     fault.Code `json:"code"`
	Rule     string     `json:"rule"`
	Severity string     `json:"severity"`
	File     string     `json:"file"`
	Line     int        `json:"line"`
	Column   int        `json:"column"`
	Field    string     `json:"field"`
	Message  string     `json:"message"`
}

// decodeOne asserts stdout is exactly one JSON document.
func cfgDecodeOne(t *testing.T, stdout []byte, v any) {
	t.Helper()
	dec := json.NewDecoder(bytes.NewReader(stdout))
	if err := dec.Decode(v); err != nil {
		t.Fatalf("stdout is not a JSON document: %v\n%s", err, stdout)
	}
	var extra json.RawMessage
	if err := dec.Decode(&extra); !errors.Is(err, io.EOF) {
		t.Fatalf("stdout holds more than one document (%v):\n%s", err, stdout)
	}
}

func cfgCheckBroken(t *testing.T, root string, env cfgEnvelope) {
	t.Helper()
	if env.OK || env.Error == nil || env.Error.Code != "E200" || env.Error.Message == "" || string(env.Error.Cause) != "null" {
		t.Fatalf("envelope %+v", env)
	}
	want := cfgBrokenProblems()
	if len(env.Data.Problems) != len(want) {
		t.Fatalf("%d problems, want %d: %+v", len(env.Data.Problems), len(want), env.Data.Problems)
	}
	for i, w := range want {
		p := env.Data.Problems[i]
		file := filepath.Join(root, filepath.FromSlash(w.file))
		if p.Code != w.code || p.File != file || p.Line != w.line || p.Column != w.column || p.Field != w.field {
			t.Errorf("problem %d = %s %s:%d:%d %q, want %s %s:%d:%d %q", i, p.Code, p.File, p.Line, p.Column, p.Field, w.code, file, w.line, w.column, w.field)
		}
		if p.Rule == "" || p.Severity != "error" || p.Message == "" {
			t.Errorf("problem %d lacks rule/severity/message: %+v", i, p)
		}
	}
	if len(env.Data.Warnings) != 1 || env.Data.Warnings[0].Code != "E221" || env.Data.Warnings[0].Severity != "warning" {
		t.Errorf("warnings %+v", env.Data.Warnings)
	}
	if len(env.Data.Files) != 3 {
		t.Errorf("files %v", env.Data.Files)
	}
}

func cfgTestEnv(home, workDir string) (*cli.Env, *bytes.Buffer, *bytes.Buffer) {
	var stdout, stderr bytes.Buffer
	return &cli.Env{
		Stdin: strings.NewReader(""), Stdout: &stdout, Stderr: &stderr,
		LookupEnv: func(string) (string, bool) { return "", false },
		Home:      home, WorkDir: workDir, Version: "test", Now: time.Now,
	}, &stdout, &stderr
}

func TestConfigValidateReportsEveryProblem(t *testing.T) {
	home, project := cfgFixture(t, "broken")
	env, stdout, stderr := cfgTestEnv(home, t.TempDir())
	code := Main(context.Background(), env, []string{"--project", project, "config", "validate", "--json"})
	if code != cli.ExitUsage {
		t.Fatalf("exit %d, want 2; stderr:\n%s", code, stderr)
	}
	var got cfgEnvelope
	cfgDecodeOne(t, stdout.Bytes(), &got)
	cfgCheckBroken(t, filepath.Dir(home), got)
	for _, line := range []string{
		".relavium/config.toml:2:8: mcp_servers[0].name: duplicate server name",
		".relavium/agents/dev.yaml:10:16: mcp_servers[3].transport: warning:",
		"relavium: configuration invalid: 12 problems (E200)",
	} {
		if !strings.Contains(stderr.String(), line) {
			t.Errorf("stderr lacks %q:\n%s", line, stderr)
		}
	}
}

func TestConfigValidateHuman(t *testing.T) {
	home, project := cfgFixture(t, "good")
	env, stdout, stderr := cfgTestEnv(home, project)
	if code := Main(context.Background(), env, []string{"config", "validate"}); code != cli.ExitOK {
		t.Fatalf("exit %d; stderr:\n%s", code, stderr)
	}
	if !strings.HasPrefix(stdout.String(), "configuration ok: 4 files checked, 5 servers, 2 agents, 0 workflows\n") {
		t.Errorf("stdout:\n%s", stdout)
	}
	if !strings.Contains(stdout.String(), "agent reviewer: github, docs, scratch, helper") {
		t.Errorf("stdout:\n%s", stdout)
	}
	if !strings.Contains(stderr.String(), ".relavium/config.toml:12:13: mcp_servers[1].transport: warning:") {
		t.Errorf("the sse deprecation is not on stderr:\n%s", stderr)
	}

	bhome, bproject := cfgFixture(t, "broken")
	env, stdout, stderr = cfgTestEnv(bhome, bproject)
	if code := Main(context.Background(), env, []string{"config", "validate"}); code != cli.ExitUsage {
		t.Fatalf("exit %d, want 2", code)
	}
	if stdout.Len() != 0 || strings.Count(stderr.String(), "\n") != 14 { // 12 problems, 1 warning, summary
		t.Errorf("stdout %q\nstderr:\n%s", stdout, stderr)
	}
}

func TestConfigValidateJSONGood(t *testing.T) {
	home, project := cfgFixture(t, "good")
	env, stdout, stderr := cfgTestEnv(home, project)
	if code := Main(context.Background(), env, []string{"--json", "config", "validate"}); code != cli.ExitOK {
		t.Fatalf("exit %d; stderr:\n%s", code, stderr)
	}
	var got cfgEnvelope
	cfgDecodeOne(t, stdout.Bytes(), &got)
	if !got.OK || got.Error != nil || len(got.Data.Files) != 4 || len(got.Data.Servers) != 5 || len(got.Data.Agents) != 2 ||
		len(got.Data.Warnings) != 1 || got.Data.Workflows == nil {
		t.Errorf("envelope %s", stdout)
	}
}

// TestConfigValidateBinary builds relavium and runs `config validate --json`
// on the broken fixture project: exit 2, exactly one JSON document on
// stdout naming every problem with file:line:col and field.
func TestConfigValidateBinary(t *testing.T) {
	bin := testbin.Relavium(t)
	home, project := cfgFixture(t, "broken")
	cmd := exec.Command(bin, "config", "validate", "--json", "--project", project)
	cmd.Env = append(os.Environ(), "RELAVIUM_HOME="+home)
	cmd.Dir = t.TempDir()
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	var exitErr *exec.ExitError
	if !errors.As(err, &exitErr) || exitErr.ExitCode() != 2 {
		t.Fatalf("exit: %v, want status 2; stderr:\n%s", err, stderr.String())
	}
	var got cfgEnvelope
	cfgDecodeOne(t, stdout.Bytes(), &got)
	cfgCheckBroken(t, filepath.Dir(home), got)

	ghome, gproject := cfgFixture(t, "good")
	cmd = exec.Command(bin, "--json", "config", "validate")
	cmd.Env = append(os.Environ(), "RELAVIUM_HOME="+ghome)
	cmd.Dir = filepath.Join(gproject, ".relavium", "agents") // the project is found upward
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("good project: %v", err)
	}
	var good cfgEnvelope
	cfgDecodeOne(t, out, &good)
	if !good.OK || len(good.Data.Servers) != 5 {
		t.Errorf("good envelope %s", out)
	}
}

// TestConfigValidateWorkflows: workflow files are checked in the same pass;
// a workflow's ref naming no registration is config's E220.
func TestConfigValidateWorkflows(t *testing.T) {
	root := t.TempDir()
	files := map[string]string{
		"home/config.toml": "[[mcp_servers]]\nname = \"gh\"\ntransport = \"stdio\"\ncommand = \"npx\"\n",
		"project/.relavium/workflows/sync.yaml": "id: sync\ndescription: d\nside_effect: read\nmcp_servers: [{ref: gh}, {ref: jira}]\n" +
			"steps:\n  - id: s\n    tool: mcp_gh_x\n    args: {}\n",
		"project/.relavium/workflows/bad.yaml": "id: other\n",
	}
	for rel, body := range files {
		p := filepath.Join(root, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	env, stdout, stderr := cfgTestEnv(filepath.Join(root, "home"), root)
	code := Main(context.Background(), env, []string{"--json", "--project", filepath.Join(root, "project"), "config", "validate"})
	if code != cli.ExitUsage {
		t.Fatalf("exit %d; stderr:\n%s", code, stderr)
	}
	var got cfgEnvelope
	cfgDecodeOne(t, stdout.Bytes(), &got)
	var sawWorkflow, sawRef bool
	for _, p := range got.Data.Problems {
		switch {
		case p.Rule == "workflow" && strings.HasSuffix(p.File, "bad.yaml") && p.Line > 0:
			sawWorkflow = true
		case p.Code == "E220" && strings.HasSuffix(p.File, "sync.yaml") && p.Field == "mcp_servers[1].ref" && p.Line == 4:
			sawRef = true
		}
	}
	if !sawWorkflow || !sawRef || len(got.Data.Files) != 3 {
		t.Errorf("workflow problems missing: %s", stdout)
	}
}
