package invoke

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/relavium/relavium/host/config"
	"github.com/relavium/relavium/host/secrets"
	"github.com/relavium/relavium/invoke/cli"
	configcmd "github.com/relavium/relavium/invoke/cmd/config"
	"github.com/relavium/relavium/session"
)

func writeTestFile(t *testing.T, path, body string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(body), 0o600); err != nil {
		t.Fatal(err)
	}
}

const claudeFile = `{"mcpServers": {
  "My_Tool": {"command": "/usr/local/bin/tool", "args": ["--stdio"], "env": {"LEVEL": "${LEVEL:-info}", "TOKEN": "${TOKEN}", "GITHUB_PERSONAL_ACCESS_TOKEN": "ghp_literalTokenFromClaudeDesktop01", "DATABASE_URI": "postgresql://app:hunter2@db.internal:5432/app"}},
  "remote": {"type": "http", "url": "https://mcp.example.com/mcp", "headers": {"X-Key": "literal-credential"}}
}}`

// config import prints the TOML (a literal header withheld), --write adds it
// to the project's config.toml, which then loads the same servers; a
// second --write is refused naming both places.
func TestConfigImportWrite(t *testing.T) {
	home, project := t.TempDir(), t.TempDir()
	writeTestFile(t, filepath.Join(project, "c.json"), claudeFile)
	env, stdout, stderr := cfgTestEnv(home, project)
	if code := Main(context.Background(), env, []string{"--project", project, "config", "import", "c.json"}); code != cli.ExitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	out := stdout.String()
	for _, want := range []string{"# from c.json:2:3 (written \"My_Tool\" there)", `name = "my-tool"`,
		`env = { LEVEL = "{{env.LEVEL:-info}}", TOKEN = "{{env.TOKEN}}", GITHUB_PERSONAL_ACCESS_TOKEN = "[REDACTED]", DATABASE_URI = "[REDACTED]" }`, `headers = { X-Key = "[REDACTED]" }`} {
		if !strings.Contains(out, want) {
			t.Errorf("stdout lacks %q:\n%s", want, out)
		}
	}
	if strings.Contains(out, "literal-credential") || strings.Contains(out, "ghp_") || strings.Contains(out, "hunter2") || !strings.Contains(stderr.String(), "E239") {
		t.Errorf("a literal header value printed, or the renaming not shown:\n%s\n%s", out, stderr)
	}
	if _, err := os.Stat(config.ProjectFile(project)); err == nil {
		t.Fatal("without --write nothing is written")
	}

	env, stdout, stderr = cfgTestEnv(home, project)
	if code := Main(context.Background(), env, []string{"--project", project, "config", "import", "c.json", "--write"}); code != cli.ExitOK {
		t.Fatalf("--write: exit %d: %s", code, stderr)
	}
	native, err := config.Load(home, project)
	if err != nil {
		t.Fatal(err)
	}
	imported, err := config.LoadFrom(home, project, config.Sources{Files: []string{filepath.Join(project, "c.json")}})
	if err != nil {
		t.Fatal(err)
	}
	// The literal credentials went to the person's secret store, not the
	// project: the config names them, and says so.
	if len(native.Servers) != 2 || native.Servers[0].Name != "my-tool" || native.Servers[1].Headers[0].Value != "{{secrets.remote-x-key}}" ||
		native.Servers[0].Env[0] != imported.Servers[0].Env[0] || native.Servers[0].Env[2].Value != "{{secrets.my-tool-github_personal_access_token}}" ||
		native.Servers[0].Import != nil {
		t.Fatalf("written config loads %+v", native.Servers)
	}
	written, _ := os.ReadFile(config.ProjectFile(project))
	if strings.Contains(string(written), "ghp_") || strings.Contains(string(written), "literal-credential") || strings.Contains(string(written), "hunter2") {
		t.Fatalf("the project's config holds a literal credential:\n%s", written)
	}
	for name, want := range map[string]string{"my-tool-github_personal_access_token": "ghp_literalTokenFromClaudeDesktop01", "remote-x-key": "literal-credential",
		"my-tool-database_uri": "postgresql://app:hunter2@db.internal:5432/app"} {
		if v, ok, err := secrets.NewFileSecrets(home).Secret(name); err != nil || !ok || v != want {
			t.Errorf("secret %s in the store: %v %v", name, ok, err)
		}
	}
	if st, err := os.Stat(filepath.Join(home, "secrets.toml")); err != nil || st.Mode().Perm() != 0o600 {
		t.Errorf("secrets.toml: %v %v", st, err)
	}
	if !strings.Contains(stderr.String(), "env.GITHUB_PERSONAL_ACCESS_TOKEN held a literal secret") || strings.Contains(stderr.String(), "ghp_") {
		t.Errorf("the move is not said (or says the value):\n%s", stderr)
	}
	if st, err := os.Stat(config.ProjectFile(project)); err != nil || st.Mode().Perm() != 0o600 {
		t.Errorf("config.toml: %v %v", st, err)
	}

	env, stdout, _ = cfgTestEnv(home, project)
	if code := Main(context.Background(), env, []string{"--project", project, "--json", "config", "import", "c.json", "--write"}); code != cli.ExitUsage {
		t.Fatalf("a second --write: exit %d", code)
	}
	if !strings.Contains(stdout.String(), `"E244"`) || !strings.Contains(stdout.String(), "config.toml:") {
		t.Errorf("the refusal does not name the registration: %s", stdout)
	}

	// A store that holds another value under the name: E882, never
	// overwritten, the project's config not written.
	project2 := t.TempDir()
	writeTestFile(t, filepath.Join(project2, "c.json"), strings.Replace(claudeFile, "ghp_literalTokenFromClaudeDesktop01", "ghp_anotherTokenEntirely00000000001", 1))
	env, stdout, _ = cfgTestEnv(home, project2)
	if code := Main(context.Background(), env, []string{"--project", project2, "--json", "config", "import", "c.json", "--write"}); code != cli.ExitUsage || !strings.Contains(stdout.String(), `"E882"`) || strings.Contains(stdout.String(), "ghp_") {
		t.Fatalf("a taken secret name: exit %d %s", code, stdout)
	}
	if _, err := os.Stat(config.ProjectFile(project2)); err == nil {
		t.Fatal("the project's config was written beside a refused secret")
	}
	if v, _, _ := secrets.NewFileSecrets(home).Secret("my-tool-github_personal_access_token"); v != "ghp_literalTokenFromClaudeDesktop01" {
		t.Fatal("a stored secret was overwritten")
	}
}

// config export writes the entry for another client: references in that
// client's spelling, a secret as the variable relavium reads (or a VS Code
// input), and never a literal credential.
func TestConfigExport(t *testing.T) {
	home, project := t.TempDir(), t.TempDir()
	writeTestFile(t, config.ProjectFile(project), `[[mcp_servers]]
name = "gh"
transport = "stdio"
command = "/usr/bin/gh-mcp"
args = ["serve", "{{env.PORT}}", "--state={{env.HOME}}/s"]
env = { GITHUB_TOKEN = "{{secrets.github}}", LEVEL = "{{env.LEVEL}}", MODE = "fast" }

[[mcp_servers]]
name = "lin"
transport = "http"
url = "https://mcp.example.com/mcp"
headers = { Authorization = "Bearer {{secrets.lin}}" }

[[mcp_servers]]
name = "leaky"
transport = "stdio"
command = "/bin/x"
env = { API_KEY = "sk-live" }

[[mcp_servers]]
name = "tmpl"
transport = "http"
url = "{{env.MCP_URL:-https://api.example.com}}/t/{{env.TEAM:-core}}?key={{secrets.k}}"

[[mcp_servers]]
name = "home"
transport = "stdio"
command = "{{env.HOME}}/bin/srv"
args = ["-e", "KEY={{secrets.key}}"]
env = { STATE = "{{env.HOME}}/state" }
env_file = ".env"

[[mcp_servers]]
name = "helped"
transport = "http"
url = "https://mcp.example.com/mcp"
headers_helper = 'get-token --profile {{env.PROFILE:-dev}}'
`)
	run := func(args ...string) (string, string, int) {
		env, stdout, stderr := cfgTestEnv(home, project)
		code := Main(context.Background(), env, append([]string{"--project", project, "config", "export"}, args...))
		return stdout.String(), stderr.String(), code
	}
	out, errs, code := run("gh")
	var claude struct {
		MCPServers map[string]struct {
			Type, Command string
			Args          []string
			Env           map[string]string
		} `json:"mcpServers"`
	}
	if code != cli.ExitOK || json.Unmarshal([]byte(out), &claude) != nil {
		t.Fatalf("exit %d: %s %s", code, out, errs)
	}
	gh := claude.MCPServers["gh"]
	if gh.Type != "stdio" || gh.Command != "/usr/bin/gh-mcp" || len(gh.Args) != 3 || gh.Args[1] != "${PORT}" || gh.Args[2] != "--state=${HOME}/s" || gh.Env["GITHUB_TOKEN"] != "${RELAVIUM_SECRET_GITHUB}" || gh.Env["LEVEL"] != "${LEVEL}" || gh.Env["MODE"] != "fast" {
		t.Errorf("claude entry %+v", gh)
	}
	if !strings.Contains(errs, "RELAVIUM_SECRET_GITHUB") {
		t.Errorf("no note on where the secret is read: %s", errs)
	}
	out, _, code = run("lin", "--format", "vscode")
	if code != cli.ExitOK || !strings.Contains(out, `"Authorization": "Bearer ${input:lin}"`) || !strings.Contains(out, `"type": "promptString"`) || !strings.Contains(out, `"type": "http"`) {
		t.Errorf("vscode entry (exit %d):\n%s", code, out)
	}
	out, _, code = run("gh", "--format", "cursor")
	if code != cli.ExitOK || !strings.Contains(out, `"GITHUB_TOKEN": "${env:RELAVIUM_SECRET_GITHUB}"`) || !strings.Contains(out, `"LEVEL": "${env:LEVEL}"`) || !strings.Contains(out, `"--state=${env:HOME}/s"`) {
		t.Errorf("cursor entry (exit %d):\n%s", code, out)
	}
	// A headers helper is Claude Code's alone: spelled back there, refused elsewhere.
	if out, _, code := run("helped"); code != cli.ExitOK || !strings.Contains(out, `"headersHelper": "get-token --profile ${PROFILE:-dev}"`) {
		t.Errorf("claude entry with a headers helper (exit %d):\n%s", code, out)
	}
	if _, errs, code := run("helped", "--format", "vscode"); code != cli.ExitUsage || !strings.Contains(errs, "E247") {
		t.Errorf("a headers helper in a vscode file: exit %d %s", code, errs)
	}
	_, errs, code = run("leaky")
	if code != cli.ExitUsage || !strings.Contains(errs, "E247") || strings.Contains(errs, "sk-live") {
		t.Errorf("a literal secret: exit %d %s", code, errs)
	}
	// References in a command, inside an argument's or env value's text,
	// and an env file, spelled the client's way; a claude file has no env
	// file, so that export is refused rather than dropping it.
	out, _, code = run("home", "--format", "vscode")
	for _, want := range []string{`"command": "${env:HOME}/bin/srv"`, `"KEY=${input:key}"`, `"STATE": "${env:HOME}/state"`, `"envFile": "${workspaceFolder}/.env"`} {
		if code != cli.ExitOK || !strings.Contains(out, want) {
			t.Errorf("vscode entry lacks %s (exit %d):\n%s", want, code, out)
		}
	}
	if _, errs, code = run("home"); code != cli.ExitUsage || !strings.Contains(errs, "E247") || !strings.Contains(errs, "env_file") {
		t.Errorf("an env file exported to claude: exit %d %s", code, errs)
	}
	// A url's references too: as written, spelled the client's way.
	if out, errs, code = run("tmpl"); code != cli.ExitOK || !strings.Contains(out, `"url": "${MCP_URL:-https://api.example.com}/t/${TEAM:-core}?key=${RELAVIUM_SECRET_K}"`) {
		t.Errorf("a url's references exported to claude (exit %d): %s %s", code, out, errs)
	}
	if out, errs, code = run("tmpl", "--format", "vscode"); code != cli.ExitUsage || !strings.Contains(errs, "default") {
		t.Errorf("a url's default exported to vscode, which cannot write one (exit %d): %s %s", code, out, errs)
	}
	if _, errs, code = run("nope"); code != cli.ExitUsage || !strings.Contains(errs, "E246") {
		t.Errorf("an unknown server: exit %d %s", code, errs)
	}

	// Export, then import: the same server comes back.
	out, _, _ = run("gh")
	writeTestFile(t, filepath.Join(project, "x.json"), out)
	back, err := config.LoadFrom(home, project, config.Sources{Files: []string{filepath.Join(project, "x.json")}})
	if err != nil {
		t.Fatal(err)
	}
	if got := back.Servers[0]; got.Command != "/usr/bin/gh-mcp" || len(got.Env) != 3 || len(got.Args) != 3 || got.Args[2] != "--state={{env.HOME}}/s" {
		t.Errorf("exported then imported: %+v", got)
	}
}

// config sources lists relavium's files, the project's client files (used
// or offered) and the global ones under the person's home, with servers.
func TestConfigSources(t *testing.T) {
	home, project, userHome := t.TempDir(), t.TempDir(), t.TempDir()
	writeTestFile(t, filepath.Join(project, ".mcp.json"), `{"mcpServers": {"a": {"command": "/bin/true"}}}`)
	writeTestFile(t, filepath.Join(userHome, ".claude.json"), `{"mcpServers": {"u": {"command": "/bin/true"}}, "projects": {}}`)
	env, stdout, stderr := cfgTestEnv(home, project)
	env.UserHome = userHome
	if code := Main(context.Background(), env, []string{"--project", project, "--json", "config", "sources"}); code != cli.ExitOK {
		t.Fatalf("exit %d: %s %s", code, stdout, stderr)
	}
	var got struct {
		Data configcmd.ConfigSources `json:"data"`
	}
	if err := json.Unmarshal(stdout.Bytes(), &got); err != nil {
		t.Fatal(err)
	}
	states := map[string]string{}
	for _, r := range got.Data.Sources {
		states[r.File] = r.State
		if r.File == filepath.Join(userHome, ".claude.json") && (len(r.Servers) != 1 || r.Servers[0].Name != "u") {
			t.Errorf("~/.claude.json servers %+v", r.Servers)
		}
	}
	if states[filepath.Join(project, ".mcp.json")] != "used" || states[filepath.Join(userHome, ".claude.json")] != "found" ||
		states[config.ProjectFile(project)] != "absent" || states[filepath.Join(userHome, ".cursor", "mcp.json")] != "absent" {
		t.Errorf("states %v", states)
	}
}

// The workbench opens on a project's client files, and says which found
// files the configuration does not use (with their servers' lines).
func TestWorkbenchNotesOfferedFiles(t *testing.T) {
	env, _, _ := sessionEnv(t, "/bin/true", true)
	project := env.WorkDir
	writeTestFile(t, filepath.Join(project, ".mcp.json"), `{"mcpServers": {"a": {"command": "/bin/true"}}}`)
	writeTestFile(t, filepath.Join(project, ".cursor", "mcp.json"), "{\"mcpServers\": {\n \"c\": {\"command\": \"/bin/true\"}}}")
	writeTestFile(t, config.ProjectFile(project), "import = [\".mcp.json\"]\n")
	var got session.Workbench
	env.Session = func(_ context.Context, wb session.Workbench) error { got = wb; return nil }
	if code := Main(context.Background(), env, []string{"--project", project}); code != 0 {
		t.Fatalf("exit %d", code)
	}
	if names := got.Session.Servers(); len(names) != 1 || names[0].Name != "a" || names[0].Import == nil {
		t.Fatalf("servers %+v", names)
	}
	want := `.cursor/mcp.json is not used (c (line 2)): add import = [".cursor/mcp.json"] to .relavium/config.toml to use it`
	if len(got.Warnings) != 1 || got.Warnings[0] != want {
		t.Errorf("warnings %q, want %q", got.Warnings, want)
	}
}
