package config

import (
	"os"
	"path/filepath"
	"testing"
)

// lint_suppress: { rule, tool, reason } tables, all three required, an
// RL### rule, each pair once; on both surfaces, with positions.
func TestRuleLintSuppress(t *testing.T) {
	runRule(t, []ruleCase{
		{name: "accepted", files: map[string]string{
			globalTOML: stdioReg("a") + "lint_suppress = [{ rule = \"RL006\", tool = \"fetch\", reason = \"fetches urls by design\" }]\n",
			agentYAML:  "mcp_servers:\n  - id: d\n    transport: http\n    url: https://example.com/mcp\n    lint_suppress:\n      - {rule: RL011, tool: read_file, reason: it is the filesystem server}\n",
		}},
		{name: "missing reason, bad rule, unknown key, duplicate", files: map[string]string{
			globalTOML: stdioReg("a") + "lint_suppress = [{ rule = \"RL006\", tool = \"fetch\" }, { rule = \"url\", tool = \"x\", reason = \"r\" }, { rule = \"RL001\", tool = \"x\", reason = \"r\", why = 1 }, { rule = \"RL002\", tool = \"y\", reason = \"r\" }, { rule = \"RL002\", tool = \"y\", reason = \"again\" }]\n",
		}, want: []want{
			{code: CodeLintSuppress, file: globalTOML, line: 5, col: 18, field: "mcp_servers[0].lint_suppress[0].reason", msg: "missing reason"},
			{code: CodeLintSuppress, file: globalTOML, line: 5, col: 63, field: "mcp_servers[0].lint_suppress[1].rule", msg: `"url" is not a lint rule id`},
			{code: CodeUnknownKey, file: globalTOML, line: 5, col: 142, field: "mcp_servers[0].lint_suppress[2].why"},
			{code: CodeLintSuppress, file: globalTOML, line: 5, col: 199, field: "mcp_servers[0].lint_suppress[4]", msg: "suppresses RL002"},
		}},
		{name: "not an array", files: map[string]string{
			globalTOML: stdioReg("a") + "lint_suppress = \"RL006\"\n",
		}, want: []want{
			{code: CodeLintSuppress, file: globalTOML, line: 5, col: 17, field: "mcp_servers[0].lint_suppress", msg: "must be an array"},
		}},
	})
}

func TestLintSuppressLoaded(t *testing.T) {
	dir := t.TempDir()
	home, project := filepath.Join(dir, "home"), filepath.Join(dir, "project")
	if err := os.MkdirAll(home, 0o700); err != nil {
		t.Fatal(err)
	}
	body := stdioReg("a") + "lint_suppress = [{ rule = \"RL006\", tool = \"fetch\", reason = \"by design\" }]\n"
	if err := os.WriteFile(filepath.Join(home, "config.toml"), []byte(body), 0o600); err != nil {
		t.Fatal(err)
	}
	cfg, err := Load(home, project)
	if err != nil {
		t.Fatal(err)
	}
	s := cfg.Servers[0].LintSuppress
	if len(s) != 1 || s[0].Rule != "RL006" || s[0].Tool != "fetch" || s[0].Reason != "by design" || s[0].Pos.Line != 5 {
		t.Fatalf("suppressions %+v", s)
	}
}
