package config

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"
)

// A client file's url translates as an argument does: each ${…} becomes
// relavium's own reference, the url is kept as written (the template), and
// config checks it by the rules of a [[mcp_servers]] url — where each
// reference sits, the guard's admission of the url it expands to with the
// environment the file is read with. One that cannot be admitted fails its
// server alone.
func TestImportURLReferences(t *testing.T) {
	env := map[string]string{"MCP_URL": "https://mcp.example.com", "API_KEY": "k-9f8e7d6c", "PORT": "8931", "TEAM": "core", "PLAIN": "http://mcp.example.com"}
	lookup := func(k string) (string, bool) { v, ok := env[k]; return v, ok }
	rows := []struct {
		name, file, entry string
		want              string // the url kept, or the code the server fails with
	}{
		{"claude code: an origin with a default", ".mcp.json", `{"url": "${MCP_URL:-https://api.example.com}/mcp"}`, "{{env.MCP_URL:-https://api.example.com}}/mcp"},
		{"claude code: the default when unset", ".mcp.json", `{"url": "${NOPE:-https://api.example.com}/mcp"}`, "{{env.NOPE:-https://api.example.com}}/mcp"},
		{"claude code: a key in the query", ".mcp.json", `{"type": "http", "url": "https://api.example.com/mcp?key=${API_KEY}"}`, "https://api.example.com/mcp?key={{env.API_KEY}}"},
		{"claude code: a local port, allowed", ".mcp.json", `{"url": "http://localhost:${PORT}/mcp"}`, "http://localhost:{{env.PORT}}/mcp"},
		{"claude code: sse", ".mcp.json", `{"type": "sse", "url": "${MCP_URL}/sse"}`, "{{env.MCP_URL}}/sse"},
		{"vscode: env: and a path segment", "mcp.json", `{"type": "http", "url": "${env:MCP_URL}/t/${env:TEAM}/mcp"}`, "{{env.MCP_URL}}/t/{{env.TEAM}}/mcp"},
		{"vscode: a typed input in the path", "mcp.json", `{"type": "http", "url": "https://api.example.com/${input:team}/mcp"}`, "https://api.example.com/{{secrets.team}}/mcp"},
		{"windsurf: serverUrl", ".mcp.json", `{"serverUrl": "${MCP_URL}/mcp"}`, "{{env.MCP_URL}}/mcp"},
		{"cursor: the whole url", ".cursor/mcp.json", `{"url": "${MCP_URL}"}`, "{{env.MCP_URL}}"},
		{"unset, no default", ".mcp.json", `{"url": "${GONE}/mcp"}`, "E231"},
		{"part of a host name", ".mcp.json", `{"url": "https://${TEAM}.example.com/mcp"}`, "https://{{env.TEAM}}.example.com/mcp"},
		{"part of a port", ".mcp.json", `{"url": "https://api.example.com:8${PORT}/mcp"}`, "E216"},
		{"a typed input as the host", "mcp.json", `{"type": "http", "url": "https://${input:team}/mcp_server/sse"}`, "https://{{secrets.team}}/mcp_server/sse"},
		{"an undeclared input as the host", ".mcp.json", `{"url": "https://${input:x}:8443/mcp"}`, "https://{{secrets.x}}:8443/mcp"},
		{"a typed input spelled into a host name", "mcp.json", `{"type": "http", "url": "https://${input:team}.example.com/mcp"}`, "E216"},
		{"a typed input as the port", "mcp.json", `{"type": "http", "url": "https://api.example.com:${input:team}/mcp"}`, "E216"},
		{"a credential typed as the host", ".mcp.json", `{"url": "https://${input:api_token}/mcp"}`, "E216"},
		{"a typed host over plain http, not opted in", "mcp.json", `{"type": "http", "url": "http://${input:team}/mcp"}`, "E215"},
		{"a credential naming the host", ".mcp.json", `{"url": "https://${API_KEY}/mcp"}`, "E216"},
		{"plain http to a remote host once expanded", ".mcp.json", `{"url": "${PLAIN}/mcp"}`, "E215"},
		{"a default under a secret's name", ".mcp.json", `{"url": "https://api.example.com/mcp?key=${API_KEY:-abc123}"}`, "E241"},
		{"nested", ".mcp.json", `{"url": "https://api.example.com/${A${B}}"}`, "E240"},
	}
	for _, r := range rows {
		t.Run(r.name, func(t *testing.T) {
			dir := t.TempDir()
			path := filepath.Join(dir, filepath.FromSlash(r.file))
			body := `{"mcpServers": {"s": ` + r.entry + `, "ok": {"command": "/bin/true"}}}`
			if r.file == "mcp.json" {
				body = `{"inputs": [{"id": "team", "type": "promptString"}], "servers": {"s": ` + r.entry + `, "ok": {"command": "/bin/true"}}}`
			}
			write(t, path, body)
			src := Sources{Files: []string{path}, LookupEnv: lookup}
			if strings.Contains(r.name, "allowed") {
				src.AllowLocal = []string{"s"}
			}
			cfg, err := LoadFrom(t.TempDir(), dir, src)
			if err != nil {
				t.Fatal(err)
			}
			var url string
			for _, s := range cfg.Servers {
				if s.Name == "s" {
					url = s.URL
				}
			}
			if strings.HasPrefix(r.want, "E") {
				if len(cfg.Failed) != 1 || cfg.Failed[0].Code() != r.want || len(cfg.Servers) != 1 {
					t.Fatalf("failed %+v, want s alone failed with %s", cfg.Failed, r.want)
				}
				b, _ := json.Marshal(cfg.Failed)
				for _, v := range env {
					if len(v) >= 4 && strings.Contains(string(b)+cfg.Failed[0].Reason(), v) {
						t.Errorf("the refusal shows the value %q: %s", v, b)
					}
				}
				return
			}
			if len(cfg.Failed) != 0 || url != r.want {
				t.Fatalf("url %q failed %+v, want %q", url, cfg.Failed, r.want)
			}
		})
	}
}

// config import writes a url with environment references as written, and
// the config.toml it writes loads; a typed host is not written (relavium's
// own file holds no secret as a host): the file is used as it is.
func TestImportWritesURLReferences(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "mcp.json")
	write(t, path, `{"inputs": [{"id": "domain", "type": "promptString"}], "servers": {
  "e": {"type": "http", "url": "${env:MCP_URL}/t/${env:TEAM}?k=${input:domain}"},
  "typed": {"type": "http", "url": "https://${input:domain}/mcp_server/sse"}}}`)
	lookup := func(k string) (string, bool) {
		return map[string]string{"MCP_URL": "https://api.example.com", "TEAM": "core"}[k], k == "MCP_URL" || k == "TEAM"
	}
	cfg, err := LoadFrom(t.TempDir(), dir, Sources{Files: []string{path}, LookupEnv: lookup})
	if err != nil || len(cfg.Servers) != 2 {
		t.Fatalf("%v %+v %+v", err, cfg.Servers, cfg.Failed)
	}
	kept, held := Writable(cfg.Servers, path)
	if len(kept) != 1 || kept[0].Name != "e" || len(held) != 1 || held[0].Name != "typed" || held[0].Code() != string(CodeSecretRef) || !strings.Contains(held[0].Reason(), "import = [") {
		t.Fatalf("kept %+v held %+v", kept, held)
	}
	out := TOML(kept, dir, true)
	if !strings.Contains(out, `url = "{{env.MCP_URL}}/t/{{env.TEAM}}?k={{secrets.domain}}"`) {
		t.Fatalf("written:\n%s", out)
	}
	project := t.TempDir()
	write(t, ProjectFile(project), out)
	back, err := LoadFrom(t.TempDir(), project, Sources{LookupEnv: lookup})
	if err != nil || len(back.Servers) != 1 || back.Servers[0].URL != kept[0].URL {
		t.Fatalf("reloaded: %v %+v", err, back)
	}
}
