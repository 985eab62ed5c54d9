package config

import (
	"os"
	"path/filepath"
	"testing"
)

// A server's protocol era: one of three values, never 2026-07-28 over the
// legacy sse transport; on both surfaces, with its position.
func TestRuleProtocol(t *testing.T) {
	runRule(t, []ruleCase{
		{name: "every accepted value", files: map[string]string{
			globalTOML: stdioReg("a") + "protocol = \"2025-11-25\"\n" + stdioReg("b") + "protocol = \"2026-07-28\"\n" + stdioReg("c") + "protocol = \"auto\"\n",
			agentYAML:  "mcp_servers:\n  - id: d\n    transport: http\n    url: https://example.com/mcp\n    protocol: auto\n",
		}},
		{name: "unknown values", files: map[string]string{
			globalTOML: stdioReg("a") + "protocol = \"modern\"\n",
			agentYAML:  "mcp_servers:\n  - id: d\n    transport: http\n    url: https://example.com/mcp\n    protocol: 2026-07-28x\n",
		}, want: []want{
			{code: CodeProtocol, file: globalTOML, line: 5, col: 12, field: "mcp_servers[0].protocol", msg: `unknown protocol "modern"`},
			{code: CodeProtocol, file: agentYAML, line: 5, col: 15, field: "mcp_servers[0].protocol", msg: "unknown protocol"},
		}},
		{name: "not a string", files: map[string]string{
			globalTOML: stdioReg("a") + "protocol = 2026\n",
		}, want: []want{
			{code: CodeType, file: globalTOML, line: 5, col: 12, field: "mcp_servers[0].protocol"},
		}},
		{name: "modern over sse", files: map[string]string{
			globalTOML: "[[mcp_servers]]\nname = \"s\"\ntransport = \"sse\"\nurl = \"https://example.com/sse\"\nprotocol = \"2026-07-28\"\n",
		}, want: []want{
			{code: CodeProtocol, file: globalTOML, line: 5, col: 12, field: "mcp_servers[0].protocol", msg: "legacy sse transport"},
		}, warnings: []want{
			{code: CodeSSEDeprecated, file: globalTOML, line: 3, col: 13, field: "mcp_servers[0].transport"},
		}},
	})
}

func TestProtocolLoaded(t *testing.T) {
	dir := t.TempDir()
	home, project := filepath.Join(dir, "home"), filepath.Join(dir, "project")
	if err := os.MkdirAll(home, 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(home, "config.toml"), []byte(stdioReg("a")+"protocol = \"auto\"\n"+stdioReg("b")), 0o600); err != nil {
		t.Fatal(err)
	}
	cfg, err := Load(home, project)
	if err != nil {
		t.Fatal(err)
	}
	if got := []string{cfg.Servers[0].Protocol, cfg.Servers[1].Protocol}; got[0] != "auto" || got[1] != "" {
		t.Errorf("protocols = %q", got)
	}
}
