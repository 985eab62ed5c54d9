package config

import (
	"os"
	"path/filepath"
	"testing"
)

// addFixtures seeds a fuzz target with every fixture file ending in ext.
func addFixtures(f *testing.F, ext string) {
	root := filepath.Join("..", "..", "testdata", "config")
	err := filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() || filepath.Ext(p) != ext {
			return err
		}
		data, err := os.ReadFile(p)
		if err == nil {
			f.Add(data)
		}
		return err
	})
	if err != nil {
		f.Fatal(err)
	}
}

// checkPlaced: whatever the input, nothing panics and every problem names
// the file and a real line and column.
func checkPlaced(t *testing.T, file string, ps []Problem) {
	t.Helper()
	for _, p := range ps {
		if p.File != file || p.Line < 1 || p.Col < 1 || p.Code == "" || p.Message == "" {
			t.Fatalf("unplaced problem %+v", p)
		}
	}
}

func FuzzConfigTOML(f *testing.F) {
	addFixtures(f, ".toml")
	f.Add([]byte("mcp_servers = [[1], [{name = 2}]]\n"))
	f.Add([]byte("[[mcp_servers]]\n[mcp_servers.env]\n[[mcp_servers]]\nenv.X.Y = 1\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		const file = "/h/config.toml"
		l := newLoader("/h", "/p")
		root, probs := readTOML(file, data)
		l.c.problems = append(l.c.problems, probs...)
		if root != nil {
			l.configFile(root, &Config{}, map[string]Pos{})
		}
		checkPlaced(t, file, l.c.problems)
		checkPlaced(t, file, l.c.warnings)
	})
}

func FuzzAgentYAML(f *testing.F) {
	addFixtures(f, ".yaml")
	f.Add([]byte("mcp_servers: [[1], {ref: [x]}, {id: a, env: [1]}]\n"))
	f.Add([]byte("? [a]\n: b\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		const file = "/p/.relavium/agents/a.yaml"
		l := newLoader("/h", "/p")
		regs := []Server{{Name: "github", Transport: "stdio", Command: "npx", ToolsAllowlist: []string{"a"}}}
		l.declared["github"] = true
		l.agentData(file, data, true, regs)
		checkPlaced(t, file, l.c.problems)
		checkPlaced(t, file, l.c.warnings)
	})
}
