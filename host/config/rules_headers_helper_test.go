package config

import (
	"path/filepath"
	"strings"
	"testing"
)

// headers_helper on a network server is kept as written, with the project
// as the directory it runs in; a bad one is E249 at its file:line:column,
// on a stdio server E210.
func TestHeadersHelperField(t *testing.T) {
	const head = "[[mcp_servers]]\nname = \"web\"\ntransport = \"http\"\nurl = \"https://example.com/mcp\"\n"
	cfg := loadOK(t, head+"headers_helper = 'node \"{{env.HOME}}/h.mjs\" --p {{env.PROFILE:-dev}} | jq .'\n")
	s := cfg.Servers[0]
	if s.HeadersHelper != `node "{{env.HOME}}/h.mjs" --p {{env.PROFILE:-dev}} | jq .` || s.HelperDir != cfg.Project {
		t.Fatalf("helper %q in %q (project %q)", s.HeadersHelper, s.HelperDir, cfg.Project)
	}
	for src, want := range map[string]string{
		"headers_helper = ''\n":                                  "E204",
		"headers_helper = 3\n":                                   "E203",
		"headers_helper = \"a\\nb\"\n":                           "E249",
		"headers_helper = 'x {{secrets.tok}}'\n":                 "E249",
		"headers_helper = 'x {{env.LD_PRELOAD}}'\n":              "E249",
		"headers_helper = 'x {{env.}}'\n":                        "E249",
		"headers_helper = '" + strings.Repeat("x", 4097) + "'\n": "E249",
	} {
		msg := loadFails(t, head+src)
		if !strings.Contains(msg, want) {
			t.Errorf("%.40s: %s, want %s", src, msg, want)
		}
	}
	if msg := loadFails(t, "[[mcp_servers]]\nname = \"s\"\ntransport = \"stdio\"\ncommand = \"/bin/sh\"\nheaders_helper = 'echo {}'\n"); !strings.Contains(msg, "E210") {
		t.Errorf("headers_helper on stdio: %s", msg)
	}
}

// A client file's headersHelper imports as headers_helper: its references
// translated as an argument's are (the directories a client sets replaced,
// ${VAR} as {{env.VAR}}); an ${input:…} fails the server alone.
func TestImportHeadersHelper(t *testing.T) {
	for _, r := range []struct{ name, helper, want string }{
		{"plugin root", `node \"${CLAUDE_PROJECT_DIR}/scripts/mcp-headers.mjs\"`, `node "PROJECT/scripts/mcp-headers.mjs"`},
		{"environment", `get-token --profile ${PROFILE} ${env:REGION}`, `get-token --profile {{env.PROFILE}} {{env.REGION}}`},
		{"an input", `get-token ${input:tok}`, "E240"},
	} {
		t.Run(r.name, func(t *testing.T) {
			dir := t.TempDir()
			path := filepath.Join(dir, ".mcp.json")
			write(t, path, `{"mcpServers": {"s": {"type": "http", "url": "https://mcp.example.com/mcp", "headersHelper": "`+r.helper+`"}, "ok": {"command": "/bin/true"}}}`)
			cfg, err := LoadFrom(t.TempDir(), dir, Sources{Files: []string{path}})
			if err != nil {
				t.Fatal(err)
			}
			if strings.HasPrefix(r.want, "E") {
				if len(cfg.Failed) != 1 || cfg.Failed[0].Code() != r.want || len(cfg.Servers) != 1 {
					t.Fatalf("failed %+v, want s alone failed with %s", cfg.Failed, r.want)
				}
				return
			}
			want := strings.ReplaceAll(r.want, "PROJECT", dir)
			if len(cfg.Servers) != 2 || cfg.Servers[0].HeadersHelper != want || cfg.Servers[0].HelperDir != dir {
				t.Fatalf("servers %+v failed %+v, want the helper %q", cfg.Servers, cfg.Failed, want)
			}
			// config import writes it as headers_helper, and it reads back.
			if back := loadOK(t, TOML(cfg.Servers[:1], dir, false)); back.Servers[0].HeadersHelper != want {
				t.Fatalf("written and read back: %q, want %q", back.Servers[0].HeadersHelper, want)
			}
		})
	}
}
