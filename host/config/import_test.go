package config

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/relavium/relavium/consent"
)

// fixture is a client file written from that client's public documentation.
func fixture(t *testing.T, name string) string {
	t.Helper()
	p, err := filepath.Abs(filepath.Join("mcpjson", "testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// serverLine is one server as the tests compare it.
func serverLine(s Server) string {
	parts := []string{s.Name, s.Transport}
	if s.Command != "" {
		parts = append(parts, s.Command+" "+strings.Join(s.Args, " "))
	}
	for _, e := range s.Env {
		parts = append(parts, e.Name+"="+e.Value)
	}
	if s.URL != "" {
		parts = append(parts, s.URL)
	}
	for _, h := range s.Headers {
		parts = append(parts, "H:"+h.Name)
	}
	return strings.Join(parts, " | ")
}

func TestImportEachClientFormat(t *testing.T) {
	const project = "/data/app"
	for _, tc := range []struct {
		file, shape string
		want        []string
		line        []int // the line of each server's name
	}{
		{"claude_desktop_config.json", "mcpServers", []string{
			"filesystem | stdio | npx -y @modelcontextprotocol/server-filesystem /Users/username/Desktop /Users/username/Downloads",
			"github | stdio | npx -y @modelcontextprotocol/server-github | GITHUB_PERSONAL_ACCESS_TOKEN=<YOUR_TOKEN>",
		}, []int{3, 12}},
		{"claude_code.mcp.json", "mcpServers", []string{
			"my-tool | stdio | /usr/local/bin/my-mcp-server --stdio --port {{env.PORT:-3000}} | DEBUG={{env.DEBUG:-false}} | API_KEY={{env.API_KEY}}",
			"http-service | http | https://api.example.com/mcp | H:X-Client",
			"remote-api | sse | https://api.example.com/mcp/sse",
		}, []int{3, 11, 18}},
		{"cursor.mcp.json", "mcpServers", []string{
			"server-name | stdio | npx -y mcp-server | API_KEY={{env.API_KEY}}",
			"remote-server | http | https://api.example.com/mcp",
		}, []int{3, 10}},
		{"windsurf_mcp_config.json", "mcpServers", []string{
			"github | stdio | npx -y @modelcontextprotocol/server-github | GITHUB_PERSONAL_ACCESS_TOKEN={{env.GITHUB_TOKEN}}",
			"figma | http | https://mcp.example.com/figma/mcp",
		}, []int{3, 10}},
		{"inspector_mcp.json", "mcpServers", []string{
			"everything | stdio | /usr/local/bin/server-everything  | HELLO=Hello MCP!",
			"my-http | http | https://mcp.example.com/mcp",
			"my-sse | sse | https://mcp.example.com/sse",
		}, []int{3, 11, 15}},
		{"vscode.mcp.json", "vscode", []string{
			"perplexity | stdio | npx -y server-perplexity-ask | PERPLEXITY_API_KEY={{secrets.perplexity-key}}",
			"fetch | stdio | uvx mcp-server-fetch",
			"github | http | https://api.githubcopilot.com/mcp/ | H:Authorization",
		}, []int{19, 27, 33}},
		{"claude.json", "claude-state", []string{
			"user-scope | stdio | /usr/local/bin/user-server ",
			"local-scope | http | https://mcp.example.com/local",
		}, []int{4, 15}},
	} {
		t.Run(tc.file, func(t *testing.T) {
			path := fixture(t, tc.file)
			cfg, err := LoadFrom(t.TempDir(), project, Sources{Files: []string{path}})
			if err != nil {
				t.Fatal(err)
			}
			if len(cfg.Servers) != len(tc.want) {
				t.Fatalf("%d servers, want %d: %+v", len(cfg.Servers), len(tc.want), cfg.Servers)
			}
			for i, s := range cfg.Servers {
				if got := serverLine(s); got != tc.want[i] {
					t.Errorf("server %d:\n got %s\nwant %s", i, got, tc.want[i])
				}
				if s.Pos.File != path || s.Pos.Line != tc.line[i] || s.Import == nil || s.Import.Shape != tc.shape {
					t.Errorf("%s: provenance %v %+v, want %s:%d shape %s", s.Name, s.Pos, s.Import, path, tc.line[i], tc.shape)
				}
				if s.Transport == "stdio" && s.Dir != project {
					t.Errorf("%s: cwd %q, want the project", s.Name, s.Dir)
				}
			}
		})
	}
}

func TestImportVSCodeInputsAndNames(t *testing.T) {
	cfg, err := LoadFrom(t.TempDir(), "/data/app", Sources{Files: []string{fixture(t, "vscode.mcp.json")}})
	if err != nil {
		t.Fatal(err)
	}
	p := cfg.Servers[0]
	if p.Import.Written != "Perplexity" || len(p.Import.Inputs) != 1 || p.Import.Inputs[0].ID != "perplexity-key" || !p.Import.Inputs[0].Password {
		t.Errorf("perplexity import %+v", p.Import)
	}
	if len(cfg.Warnings) != 1 || cfg.Warnings[0].Code != "E239" || cfg.Warnings[0].Line != 19 || !strings.Contains(cfg.Warnings[0].Message, `imported as "perplexity"`) {
		t.Errorf("warnings %v: the mapped name is shown", cfg.Warnings)
	}
	if g := cfg.Servers[2]; len(g.Headers) != 1 || g.Headers[0].Name != "Authorization" || g.Headers[0].Value != "Bearer {{secrets.github-token}}" ||
		len(g.Import.Inputs) != 1 || g.Import.Inputs[0].ID != "github-token" {
		t.Errorf("github headers %#v inputs %+v: ${input:id} inside a header becomes the secret", g.Headers, g.Import.Inputs)
	}
	if f := cfg.Servers[1]; f.Dir != "/data/app" {
		t.Errorf("${workspaceFolder} cwd = %q", f.Dir)
	}
}

// Every server of another client's file that does not translate fails
// alone, each with its problems at their places (cfg.Failed); the load
// itself succeeds.
func TestImportRefusalsWithPositions(t *testing.T) {
	path := fixture(t, "untranslatable.json")
	cfg, err := LoadFrom(t.TempDir(), "/data/app", Sources{Files: []string{path}})
	if err != nil {
		t.Fatalf("one bad entry sank the file: %v", err)
	}
	ce := &Error{Warnings: cfg.Warnings}
	for _, f := range cfg.Failed {
		if f.File != path || len(f.Problems) == 0 || f.Reason() == "" {
			t.Errorf("failed server %+v", f)
		}
		ce.Problems = append(ce.Problems, f.Problems...)
	}
	want := []string{
		"4:18 E236 mcpServers.shell.command",
		"7:15 E235 mcpServers.ws.type",
		"17:58 E241 mcpServers.partial.env.GITHUB_TOKEN",
		"29:32 E240 mcpServers.remote.headers.X-API-Key",
	}
	var got []string
	for _, p := range ce.Problems {
		if p.File != path {
			t.Errorf("problem in %s", p.File)
		}
		got = append(got, strings.Join([]string{itoa(p.Line) + ":" + itoa(p.Col), string(p.Code), p.Field}, " "))
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("problems:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	var warns []string
	for _, w := range ce.Warnings {
		warns = append(warns, itoa(w.Line)+":"+itoa(w.Col)+" "+string(w.Code))
	}
	if strings.Join(warns, ",") != "12:7 E237,23:5 E239" {
		t.Errorf("warnings %v: the disabled server and the renamed one are named", warns)
	}
	for _, p := range ce.Problems {
		if strings.Contains(p.Message, "ghp_example") {
			t.Errorf("a refused default is echoed: %s", p.Message)
		}
	}
}

func itoa(n int) string { return strconv.Itoa(n) }

// The relavium rules hold for imported servers: the env denylist, the
// network guard, the name rule's duplicates across sources.
func TestImportKeepsRelaviumRules(t *testing.T) {
	root := t.TempDir()
	home, project := filepath.Join(root, "home"), filepath.Join(root, "project")
	write(t, filepath.Join(project, ".relavium", "config.toml"), "import = [\".mcp.json\"]\n[[mcp_servers]]\nname = \"dup\"\ntransport = \"stdio\"\ncommand = \"/bin/true\"\n")
	write(t, filepath.Join(project, ".mcp.json"), `{"mcpServers": {
  "pre": {"command": "/bin/true", "env": {"LD_PRELOAD": "/x.so"}},
  "meta": {"type": "http", "url": "http://169.254.169.254/latest"},
  "DUP": {"command": "/bin/true"}
}}`)
	cfg, err := Load(home, project)
	if err != nil {
		t.Fatalf("one bad entry sank the file: %v", err)
	}
	ce := &Error{}
	var failed []string
	for _, f := range cfg.Failed {
		ce.Problems = append(ce.Problems, f.Problems...)
		failed = append(failed, f.Name)
	}
	if strings.Join(failed, " ") != "pre meta dup" || len(cfg.Servers) != 1 || cfg.Servers[0].Name != "dup" {
		t.Errorf("failed %v, servers %v: each bad entry fails alone, the config.toml's server stays", failed, cfg.Servers)
	}
	mcp := filepath.Join(project, ".mcp.json")
	want := map[string]string{"E212": mcp + ":2:43", "E215": mcp + ":3:35", "E206": mcp + ":4:3"}
	for _, p := range ce.Problems {
		if w, ok := want[string(p.Code)]; ok && w == p.Pos.String() {
			delete(want, string(p.Code))
			if p.Code == CodeDuplicateName && (len(p.Related) != 1 || p.Related[0].File != ProjectFile(project) || !strings.Contains(p.Message, ProjectFile(project))) {
				t.Errorf("duplicate names one place only: %v %s", p.Related, p.Message)
			}
		}
	}
	if len(want) > 0 {
		t.Errorf("missing problems %v in %v", want, ce.Problems)
	}
}

func write(t *testing.T, path, body string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(body), 0o600); err != nil {
		t.Fatal(err)
	}
}

// Discovery: without a project config the client files beside .relavium
// are used; with one, only those it imports, the others offered.
func TestDiscoveredClientFiles(t *testing.T) {
	root := t.TempDir()
	home, project := filepath.Join(root, "home"), filepath.Join(root, "project")
	write(t, filepath.Join(project, ".mcp.json"), `{"mcpServers": {"a": {"command": "/bin/true"}}}`)
	write(t, filepath.Join(project, ".vscode", "mcp.json"), `{"servers": {"b": {"type": "stdio", "command": "/bin/true"}}}`)
	write(t, filepath.Join(project, ".cursor", "mcp.json"), `{"mcpServers": {"c": {"command": "/bin/true"}}}`)
	cfg, err := Load(home, project)
	if err != nil {
		t.Fatal(err)
	}
	if names := serverNames(cfg); names != "a b c" || len(cfg.Offered) != 0 {
		t.Fatalf("no project config: servers %q offered %v", names, cfg.Offered)
	}
	write(t, ProjectFile(project), "import = [\".vscode/mcp.json\"]\n")
	cfg, err = Load(home, project)
	if err != nil {
		t.Fatal(err)
	}
	if names := serverNames(cfg); names != "b" {
		t.Fatalf("import = [.vscode/mcp.json]: servers %q", names)
	}
	if len(cfg.Offered) != 2 || cfg.Offered[0].File != filepath.Join(project, ".mcp.json") ||
		cfg.Offered[0].Servers[0].Name != "a" || cfg.Offered[0].Servers[0].Pos.Line != 1 {
		t.Fatalf("offered %+v", cfg.Offered)
	}
	write(t, ProjectFile(project), "import = [\"missing.json\"]\n")
	if _, err := Load(home, project); err == nil || !strings.Contains(err.Error(), "no such file") {
		t.Fatalf("an import naming no file: %v", err)
	}
}

func serverNames(cfg *Config) string {
	var n []string
	for _, s := range cfg.Servers {
		n = append(n, s.Name)
	}
	return strings.Join(n, " ")
}

// The digest depends on the resolved declaration, not on the file it came
// from: an imported stdio server and the same server written in TOML have
// one digest.
func TestImportedDigestEqualsTOML(t *testing.T) {
	root := t.TempDir()
	home, project := filepath.Join(root, "home"), filepath.Join(root, "project")
	write(t, filepath.Join(root, "c.json"), `{"mcpServers": {"tool": {"command": "/bin/sh", "args": ["-c", "exit 0"],
	  "env": {"MODE": "fast", "API_KEY": "${API_KEY}", "LEVEL": "${LEVEL:-info}"}, "cwd": "sub"}}}`)
	write(t, ProjectFile(project), `[[mcp_servers]]
name = "tool"
transport = "stdio"
command = "/bin/sh"
args = ["-c", "exit 0"]
env = { MODE = "fast", API_KEY = "{{env.API_KEY}}", LEVEL = "{{env.LEVEL:-info}}" }
cwd = "sub"
`)
	imported, err := LoadFrom(home, project, Sources{Files: []string{filepath.Join(root, "c.json")}})
	if err != nil {
		t.Fatal(err)
	}
	native, err := Load(home, project)
	if err != nil {
		t.Fatal(err)
	}
	a, b := digestOf(t, imported.Servers[0]), digestOf(t, native.Servers[0])
	if a != b {
		t.Fatalf("imported %s, TOML %s", a, b)
	}
	if imported.Servers[0].Dir != filepath.Join(project, "sub") {
		t.Errorf("cwd %q", imported.Servers[0].Dir)
	}
	// The reference is digested, never a value read from the environment.
	t.Setenv("API_KEY", "value-1")
	if digestOf(t, imported.Servers[0]) != a {
		t.Error("the digest changed with the environment")
	}
}

func digestOf(t *testing.T, s Server) string {
	t.Helper()
	var env []consent.EnvEntry
	for _, e := range s.Env {
		env = append(env, consent.TagEnv(e.Name, e.Value))
	}
	d, err := consent.Digest(s.Command, s.Args, env, s.Dir)
	if err != nil {
		t.Fatal(err)
	}
	return d
}

// Each client's global file is placed where that client keeps it on each
// system, under the home passed in.
func TestClientFilesPerSystem(t *testing.T) {
	find := func(files []ClientFile, client string) string {
		for _, f := range files {
			if f.Client == client {
				return f.Path
			}
		}
		return ""
	}
	linux := ClientFiles("/p", "/u", "linux", "")
	mac := ClientFiles("/p", "/u", "darwin", "")
	win := ClientFiles("/p", "/u", "windows", "/u/AppData/Roaming")
	for _, c := range []struct{ got, want string }{
		{find(linux, "Claude Desktop"), "/u/.config/Claude/claude_desktop_config.json"},
		{find(mac, "Claude Desktop"), "/u/Library/Application Support/Claude/claude_desktop_config.json"},
		{find(win, "Claude Desktop"), filepath.Join("/u/AppData/Roaming", "Claude", "claude_desktop_config.json")},
		{find(linux, "VS Code (user)"), "/u/.config/Code/User/mcp.json"},
		{find(linux, "Claude Code (user, local)"), "/u/.claude.json"},
		{find(linux, "MCP Inspector catalog"), "/u/.mcp-inspector/mcp.json"},
		{find(linux, "VS Code (workspace)"), "/p/.vscode/mcp.json"},
	} {
		if c.got != c.want {
			t.Errorf("%q, want %q", c.got, c.want)
		}
	}
	if n := len(ClientFiles("/p", "", "linux", "")); n != 3 {
		t.Errorf("with no home, %d files (only the project's are known)", n)
	}
}

// A project's config imports only the project's own files: a cloned
// project cannot reach the person's global client files. The global
// config.toml, the person's own, may name any file.
func TestProjectImportStaysInTheProject(t *testing.T) {
	root := t.TempDir()
	home, project := filepath.Join(root, "home"), filepath.Join(root, "project")
	outside := filepath.Join(root, "claude.json")
	write(t, outside, `{"mcpServers": {"mine": {"command": "/bin/true"}}}`)
	write(t, ProjectFile(project), "import = ["+strconv.Quote(outside)+", \"../claude.json\"]\n")
	_, err := Load(home, project)
	var ce *Error
	if !errors.As(err, &ce) || len(ce.Problems) != 2 {
		t.Fatalf("want two refusals, got %v", err)
	}
	for i, p := range ce.Problems {
		if p.Code != CodeValue || p.Field != fmt.Sprintf("import[%d]", i) || p.Line != 1 || !strings.Contains(p.Message, "outside the project") {
			t.Errorf("problem %d: %v", i, p)
		}
	}
	write(t, ProjectFile(project), "")
	write(t, GlobalFile(home), "import = ["+strconv.Quote(outside)+"]\n")
	cfg, err := Load(home, project)
	if err != nil || len(cfg.Servers) != 1 || cfg.Servers[0].Name != "mine" {
		t.Fatalf("the global config's import: %v %+v", err, cfg)
	}
}

// A client file the project keeps as a link to a file outside it (a
// checkout's .mcp.json -> ~/.claude.json) is refused, never read.
func TestProjectClientFileLinkingOutsideIsRefused(t *testing.T) {
	root := t.TempDir()
	home, project := filepath.Join(root, "home"), filepath.Join(root, "project")
	outside := filepath.Join(root, "claude.json")
	write(t, outside, `{"mcpServers": {"mine": {"command": "/bin/true"}}}`)
	if err := os.MkdirAll(project, 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(outside, filepath.Join(project, ".mcp.json")); err != nil {
		t.Fatal(err)
	}
	_, err := Load(home, project)
	var ce *Error
	if !errors.As(err, &ce) || len(ce.Problems) != 1 || ce.Problems[0].Code != CodeUnreadable || !strings.Contains(ce.Problems[0].Message, "outside the project") {
		t.Fatalf("want the link refused, got %v", err)
	}
	// Named by the person, the same file is read.
	cfg, err := LoadFrom(home, project, Sources{Files: []string{filepath.Join(project, ".mcp.json")}})
	if err != nil || len(cfg.Servers) != 1 {
		t.Fatalf("--config: %v", err)
	}
}

// A server of a client file at a loopback or private address is admitted
// and held for the person's word (LocalHeld, decided by the session); a
// metadata address is still refused; --allow-local NAME
// (Sources.AllowLocal) admits it as allow_local_endpoint = true would.
func TestImportAllowLocalWithoutEditingTheFile(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "mcp.json")
	write(t, path, `{"mcpServers": {"Local Dev": {"url": "http://127.0.0.1:3001/mcp"}, "far": {"url": "https://example.com/mcp"},
		"named": {"url": "http://localhost:7890/sse"}, "meta": {"url": "http://169.254.169.254/mcp"}}}`)
	cfg, err := LoadFrom(t.TempDir(), dir, Sources{Files: []string{path}})
	if err != nil || len(cfg.Servers) != 3 || len(cfg.Failed) != 1 {
		t.Fatalf("%v %+v", err, cfg)
	}
	for _, s := range cfg.Servers {
		if held := s.Name != "far"; s.LocalHeld != held || s.AllowLocalEndpoint {
			t.Errorf("%s: held %v, opted in %v", s.Name, s.LocalHeld, s.AllowLocalEndpoint)
		}
	}
	if f := cfg.Failed[0]; f.Name != "meta" || f.Code() != "E215" {
		t.Errorf("a metadata address: %+v", f)
	}
	for _, name := range []string{"local-dev", "Local Dev"} {
		cfg, err = LoadFrom(t.TempDir(), dir, Sources{Files: []string{path}, AllowLocal: []string{name}})
		if err != nil || len(cfg.Servers) != 3 || !cfg.Servers[0].AllowLocalEndpoint || cfg.Servers[0].LocalHeld || cfg.Servers[1].AllowLocalEndpoint {
			t.Errorf("--allow-local %s: %v %+v", name, err, cfg)
		}
	}
}

// Plain http to a name only a private network resolves (a docker-compose
// service, an mDNS or .internal host) is a local endpoint written by
// name: held for the person's word like a private address. Plain http to
// any other name is still refused (remote servers take https), and so is
// a public address literal.
func TestImportHoldsPlainHTTPToAPrivateUseName(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, ".mcp.json")
	write(t, path, `{"mcpServers": {
  "jenkins": {"type": "http", "url": "http://jenkins:8080/mcp-server/stateless"},
  "printer": {"type": "http", "url": "http://printer.local/mcp"},
  "svc": {"type": "http", "url": "http://svc.internal:9000/mcp"},
  "remote": {"type": "http", "url": "http://api.example.com/mcp"},
  "public": {"type": "http", "url": "http://8.8.8.8/mcp"}
}}`)
	cfg, err := LoadFrom(t.TempDir(), dir, Sources{Files: []string{path}})
	if err != nil {
		t.Fatal(err)
	}
	held := map[string]bool{}
	for _, s := range cfg.Servers {
		held[s.Name] = s.LocalHeld && !s.AllowLocalEndpoint
	}
	if len(held) != 3 || !held["jenkins"] || !held["printer"] || !held["svc"] {
		t.Errorf("held %v, want jenkins, printer and svc", held)
	}
	failed := map[string]string{}
	for _, f := range cfg.Failed {
		failed[f.Name] = f.Code() + " " + f.Reason()
	}
	if len(failed) != 2 || !strings.HasPrefix(failed["remote"], "E215") || !strings.HasPrefix(failed["public"], "E215") {
		t.Errorf("failed %v, want remote and public refused (E215)", failed)
	}
}
