package config

import (
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// A client file's disabledTools becomes tools_denylist; the names are
// checked as tools_allowlist's are, and the list survives config import's
// rendering. A bad list fails only its server.
func TestImportDisabledTools(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, ".mcp.json")
	write(t, path, `{"mcpServers": {
  "rust": {"command": "/usr/bin/mcp-rust-docs", "disabledTools": ["workspace-info", "cargo_run"], "timeout": 30},
  "none": {"command": "/bin/true", "disabledTools": []},
  "twice": {"command": "/bin/true", "disabledTools": ["a", "a"]},
  "blank": {"command": "/bin/true", "disabledTools": ["has space"]},
  "shape": {"command": "/bin/true", "disabledTools": "a"}
}}`)
	cfg, err := LoadFrom(t.TempDir(), dir, Sources{Files: []string{path}})
	if err != nil {
		t.Fatal(err)
	}
	if len(cfg.Servers) != 2 || cfg.Servers[0].Name != "rust" || !slices.Equal(cfg.Servers[0].ToolsDenylist, []string{"workspace-info", "cargo_run"}) ||
		cfg.Servers[1].Name != "none" || len(cfg.Servers[1].ToolsDenylist) != 0 {
		t.Fatalf("servers %+v", cfg.Servers)
	}
	failed := map[string]string{}
	for _, f := range cfg.Failed {
		failed[f.Name] = f.Code() + " " + f.Reason()
	}
	for name, want := range map[string]string{"twice": "E218", "blank": "E218", "shape": "E235"} {
		if !strings.HasPrefix(failed[name], want) {
			t.Errorf("%s: failed %q, want %s", name, failed[name], want)
		}
	}
	text := TOML(cfg.Servers[:1], dir, false)
	if !strings.Contains(text, `tools_denylist = ["workspace-info", "cargo_run"]`) || !strings.Contains(text, "call_timeout_ms = 30000") {
		t.Errorf("config import writes\n%s", text)
	}
	rt := t.TempDir()
	write(t, filepath.Join(rt, ".relavium", "config.toml"), text)
	back, err := LoadFrom(t.TempDir(), rt, Sources{})
	if err != nil || len(back.Servers) != 1 || !slices.Equal(back.Servers[0].ToolsDenylist, cfg.Servers[0].ToolsDenylist) || back.Servers[0].CallTimeout != cfg.Servers[0].CallTimeout {
		t.Errorf("read back %v: %+v", err, back)
	}
}

// In relavium's own config, tools_denylist is checked as tools_allowlist
// is (exit 2 naming the place), and a tool in both lists is refused.
func TestToolsDenylistRules(t *testing.T) {
	for _, tc := range []struct{ body, want string }{
		{`tools_denylist = ["a", "a"]`, "listed twice"},
		{`tools_denylist = [""]`, "is empty"},
		{`tools_denylist = "a"`, "E218"},
		{"tools_allowlist = [\"a\", \"b\"]\ntools_denylist = [\"b\"]", "admitted or denied, not both"},
	} {
		dir := t.TempDir()
		write(t, filepath.Join(dir, ".relavium", "config.toml"), "[[mcp_servers]]\nname = \"s\"\ntransport = \"stdio\"\ncommand = \"/bin/true\"\n"+tc.body+"\n")
		_, err := LoadFrom(t.TempDir(), dir, Sources{})
		if err == nil || !strings.Contains(err.Error(), tc.want) || !strings.Contains(err.Error(), "config.toml:") {
			t.Errorf("%s: %v, want %q at a place", tc.body, err, tc.want)
		}
	}
	dir := t.TempDir()
	write(t, filepath.Join(dir, ".relavium", "config.toml"), "[[mcp_servers]]\nname = \"s\"\ntransport = \"stdio\"\ncommand = \"/bin/true\"\ntools_denylist = []\n")
	if _, err := LoadFrom(t.TempDir(), dir, Sources{}); err != nil {
		t.Errorf("an empty denylist denies nothing: %v", err)
	}
}
