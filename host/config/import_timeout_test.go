package config

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// A client's per-request timeout becomes call_timeout_ms: "timeout" in
// seconds (Cline, Roo Code), "timeout_ms" in milliseconds; one over the
// hour a call may wait is capped there with a warning (Cline sets no upper
// bound); a value that is no positive whole number fails that server alone.
func TestImportTimeoutKeys(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, ".mcp.json")
	write(t, path, `{"mcpServers": {
  "secs": {"command": "/bin/true", "timeout": 90},
  "millis": {"command": "/bin/true", "timeout_ms": 1500},
  "none": {"command": "/bin/true"},
  "frac": {"command": "/bin/true", "timeout": 1.5},
  "text": {"command": "/bin/true", "timeout": "60"},
  "huge": {"command": "/bin/true", "timeout": 60000},
  "zero": {"command": "/bin/true", "timeout_ms": 0},
  "both": {"command": "/bin/true", "timeout": 5, "timeout_ms": 5000}
}}`)
	cfg, err := LoadFrom(t.TempDir(), dir, Sources{Files: []string{path}})
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]time.Duration{}
	for _, s := range cfg.Servers {
		got[s.Name] = s.CallTimeout
	}
	want := map[string]time.Duration{"secs": 90 * time.Second, "millis": 1500 * time.Millisecond, "none": 0, "huge": time.Hour}
	if len(got) != len(want) {
		t.Errorf("admitted %v, want %v", got, want)
	}
	for name, d := range want {
		if g, ok := got[name]; !ok || g != d {
			t.Errorf("%s: call timeout %v (admitted %v), want %v", name, g, ok, d)
		}
	}
	failed := map[string]string{}
	for _, f := range cfg.Failed {
		failed[f.Name] = f.Code() + " " + f.Reason()
	}
	for name, part := range map[string]string{"frac": "whole number of seconds", "text": "whole number of seconds", "zero": "1 to 3600000 milliseconds", "both": "keep one"} {
		if r, ok := failed[name]; !ok || !strings.HasPrefix(r, "E235") || !strings.Contains(r, part) {
			t.Errorf("%s: failed %q (%v), want E235 naming %q", name, r, ok, part)
		}
	}
	warned := false
	for _, w := range cfg.Warnings {
		warned = warned || (w.Code == "E235" && strings.Contains(w.Message, "60000 seconds is over the hour") && strings.Contains(w.Message, "call_timeout_ms = 3600000"))
	}
	if !warned {
		t.Errorf("no warning says the timeout was capped: %+v", cfg.Warnings)
	}
}

// A reference inside an argument's text becomes {{env.VAR}} in that text:
// the server's args (what consent digests) hold the template, never a
// value; an ${input:id} is the secret {{secrets.id}}, inside the
// argument's text too: declared in a VS Code file, or not declared at all
// (a warning: relavium asks for it as a hidden value).
func TestImportReferenceInsideArgument(t *testing.T) {
	t.Setenv("HOME", "/home/secret-user")
	dir := t.TempDir()
	path := filepath.Join(dir, ".mcp.json")
	write(t, path, `{"mcpServers": {
  "s": {"command": "/bin/true", "args": ["--state=${env:HOME}/state", "${workspaceFolder}/db", "${HOME}:${TAG:-v1}"]},
  "in": {"command": "/bin/true", "args": ["KEY=${input:key}"]}
}}`)
	cfg, err := LoadFrom(t.TempDir(), dir, Sources{Files: []string{path}})
	if err != nil {
		t.Fatal(err)
	}
	if len(cfg.Servers) != 2 || len(cfg.Failed) != 0 {
		t.Fatalf("servers %+v failed %+v", cfg.Servers, cfg.Failed)
	}
	want := []string{"--state={{env.HOME}}/state", dir + "/db", "{{env.HOME}}:{{env.TAG:-v1}}"}
	if got := cfg.Servers[0].Args; strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("args %q, want %q", got, want)
	}
	if in := cfg.Servers[1]; strings.Join(in.Args, " ") != "KEY={{secrets.key}}" || len(in.Import.Inputs) != 1 || in.Import.Inputs[0].ID != "key" || !in.Import.Inputs[0].Password {
		t.Errorf("undeclared input: args %q inputs %+v", in.Args, in.Import.Inputs)
	}
	if len(cfg.Warnings) != 1 || cfg.Warnings[0].Code != "E242" || cfg.Warnings[0].Line != 3 || !strings.Contains(cfg.Warnings[0].Message, "hidden value") {
		t.Errorf("warnings %+v: an undeclared input is named at its place", cfg.Warnings)
	}
	// A server that is not imported asks for nothing: its undeclared
	// input is not announced as asked (its failure says why).
	write(t, path, `{"mcpServers": {
  "ok": {"command": "/bin/true", "args": ["${input:asked}"]},
  "bad": {"command": "npx -y pkg", "args": ["${input:never}"]},
  "host": {"url": "https://x-${input:h}.example.com/mcp"}
}}`)
	cfg, err = LoadFrom(t.TempDir(), dir, Sources{Files: []string{path}})
	if err != nil || len(cfg.Servers) != 1 || len(cfg.Failed) != 2 {
		t.Fatalf("%v servers %+v failed %+v", err, cfg.Servers, cfg.Failed)
	}
	if len(cfg.Warnings) != 1 || !strings.Contains(cfg.Warnings[0].Message, "${input:asked}") {
		t.Errorf("warnings %+v, want only the imported server's input", cfg.Warnings)
	}
	vs := filepath.Join(dir, "mcp.json")
	write(t, vs, `{"inputs": [{"id": "key", "type": "promptString", "password": true}],
 "servers": {"in": {"command": "/bin/true", "args": ["-e", "KEY=${input:key}", "${userHome}/x"]}}}`)
	cfg, err = LoadFrom(t.TempDir(), dir, Sources{Files: []string{vs}})
	if err != nil || len(cfg.Servers) != 1 {
		t.Fatalf("%v %+v", err, cfg)
	}
	if got := cfg.Servers[0].Args; strings.Join(got, " ") != "-e KEY={{secrets.key}} {{env.HOME}}/x" {
		t.Errorf("args %q", got)
	}
}

// A client file's envFile becomes env_file: the path (${workspaceFolder}
// is the project, a relative one is the project's), read at spawn; the
// import writes it relative to the project.
func TestImportEnvFile(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, ".mcp.json")
	write(t, path, `{"mcpServers": {
  "a": {"command": "/bin/true", "envFile": "${workspaceFolder}/.env"},
  "b": {"command": "/bin/true", "envFile": "conf/app.env"},
  "c": {"type": "http", "url": "https://example.com/mcp", "envFile": ".env"}
}}`)
	cfg, err := LoadFrom(t.TempDir(), dir, Sources{Files: []string{path}})
	if err != nil {
		t.Fatal(err)
	}
	if len(cfg.Servers) != 2 || cfg.Servers[0].EnvFile != filepath.Join(dir, ".env") || cfg.Servers[1].EnvFile != filepath.Join(dir, "conf", "app.env") {
		t.Fatalf("servers %+v", cfg.Servers)
	}
	if len(cfg.Failed) != 1 || cfg.Failed[0].Written != "c" {
		t.Errorf("an env file on a network server must fail it alone: %+v", cfg.Failed)
	}
	if out := TOML(cfg.Servers[:1], dir, true); !strings.Contains(out, `env_file = ".env"`) {
		t.Errorf("import does not write env_file:\n%s", out)
	}
}

// A reference in a command or cwd becomes {{env.VAR}} there (read when the
// server is resolved); ${userHome} is {{env.HOME}}; an ${input:…} in a
// path fails its server (E240), and a typed secret spelled into a url's
// host name fails its server too (E216: only a whole host may be typed).
func TestImportReferencesInCommandAndCwd(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "mcp.json")
	write(t, path, `{"inputs": [{"id": "d", "type": "promptString"}], "servers": {
  "a": {"command": "${env:HOME}/.local/bin/srv", "cwd": "${userHome}/state"},
  "b": {"command": "/bin/true", "cwd": "${input:d}"},
  "c": {"type": "http", "url": "https://${input:d}.example.com/mcp"}
}}`)
	cfg, err := LoadFrom(t.TempDir(), dir, Sources{Files: []string{path}})
	if err != nil {
		t.Fatal(err)
	}
	if len(cfg.Servers) != 1 || cfg.Servers[0].Command != "{{env.HOME}}/.local/bin/srv" || cfg.Servers[0].Dir != "{{env.HOME}}/state" {
		t.Fatalf("servers %+v", cfg.Servers)
	}
	if len(cfg.Failed) != 2 || cfg.Failed[0].Code() != "E240" || cfg.Failed[1].Code() != "E216" {
		t.Errorf("failed %+v", cfg.Failed)
	}
}

// A Claude Code plugin's .mcp.json is the server map itself, at the top:
// ${CLAUDE_PLUGIN_ROOT} is the file's directory, ${CLAUDE_PROJECT_DIR}
// the project's.
func TestImportPluginServerMap(t *testing.T) {
	dir := t.TempDir()
	plugin := filepath.Join(dir, "plugins", "db")
	if err := os.MkdirAll(plugin, 0o755); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(plugin, ".mcp.json")
	write(t, path, `{"database-tools": {"command": "${CLAUDE_PLUGIN_ROOT}/servers/db-server",
  "args": ["--project", "${CLAUDE_PROJECT_DIR}"], "env": {"DB_URL": "${DB_URL}"}}}`)
	cfg, err := LoadFrom(t.TempDir(), dir, Sources{Files: []string{path}})
	if err != nil {
		t.Fatal(err)
	}
	if len(cfg.Servers) != 1 {
		t.Fatalf("servers %+v failed %+v", cfg.Servers, cfg.Failed)
	}
	s := cfg.Servers[0]
	if s.Name != "database-tools" || s.Command != plugin+"/servers/db-server" || strings.Join(s.Args, " ") != "--project "+dir ||
		len(s.Env) != 1 || s.Env[0].Value != "{{env.DB_URL}}" {
		t.Errorf("server %+v", s)
	}
}
