package mcpjson

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/relavium/relavium/authored"
)

func fixtureBytes(t testing.TB, name string) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// The shape is told by the content, and each fixture (written from its
// client's documentation) reads without a problem.
func TestReadShapes(t *testing.T) {
	for name, shape := range map[string]string{
		"claude_desktop_config.json": ShapeMCPServers, "claude_code.mcp.json": ShapeMCPServers, "cursor.mcp.json": ShapeMCPServers,
		"windsurf_mcp_config.json": ShapeMCPServers, "inspector_mcp.json": ShapeMCPServers, "vscode.mcp.json": ShapeVSCode,
		"claude.json": ShapeClaudeState,
	} {
		f := Read(name, fixtureBytes(t, name), Options{Project: "/data/app"})
		if f.Shape != shape || len(f.Problems) != 0 || len(f.Entries) == 0 {
			t.Errorf("%s: shape %q, %d entries, problems %v", name, f.Shape, len(f.Entries), f.Problems)
		}
	}
	for _, bad := range []string{`[]`, `{"servers": []}`, `{"preferences": {}}`, `{"mcpServers": {"a": 1}}`} {
		f := Read("f.json", []byte(bad), Options{})
		if len(f.Problems) != 1 || (f.Problems[0].Code != CodeShape) {
			t.Errorf("%s: %v", bad, f.Problems)
		}
	}
}

func TestReadInputs(t *testing.T) {
	src := `{"inputs": [{"type": "pickString", "id": "pick", "options": ["a"]}, {"type": "promptString", "id": "bad id!"}],
"servers": {"a": {"type": "stdio", "command": "/bin/x", "env": {"A": "${input:pick}", "B": "${input:none}", "C": "${input:bad id!}"}}}}`
	f := Read("f.json", []byte(src), Options{})
	var got []string
	for _, p := range f.Problems {
		got = append(got, string(p.Code)+" "+p.Field)
	}
	want := "E242 servers.a.env.A,E242 servers.a.env.B,E242 servers.a.env.C"
	if strings.Join(got, ",") != want {
		t.Errorf("problems %v, want %s", got, want)
	}
	f = Read("f.json", []byte(`{"mcpServers": {"a": {"command": "/bin/x", "env": {"A": "${input:x}"}}}}`), Options{})
	if len(f.Problems) != 1 || f.Problems[0].Code != CodeInput {
		t.Errorf("an input outside a VS Code file: %v", f.Problems)
	}
}

// FuzzRead: whatever the bytes, Read never panics, every problem and
// warning is placed in the file, and an entry without a problem carries a
// transport and a name.
func FuzzRead(f *testing.F) {
	for _, name := range []string{"claude_desktop_config.json", "claude_code.mcp.json", "vscode.mcp.json", "claude.json", "untranslatable.json"} {
		f.Add(fixtureBytes(f, name))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		name := func(w string) (string, bool) { return strings.ToLower(w), w != "" }
		r := Read("f.json", data, Options{Project: "/data/app", Name: name})
		for _, p := range append(append(authored.Problems{}, r.Problems...), r.Warnings...) {
			if p.File != "f.json" || p.Line < 1 || p.Col < 1 || p.Code == "" || p.Message == "" {
				t.Fatalf("unplaced problem %+v", p)
			}
		}
		for _, e := range r.Entries {
			if e.Failed {
				continue
			}
			keys := map[string]bool{}
			for _, m := range e.Fields {
				keys[m.Key] = true
			}
			if !keys["name"] || !keys["transport"] || e.Pos.Line < 1 {
				t.Fatalf("entry %s lacks a name or transport: %+v", e.Path, e.Fields)
			}
		}
	})
}
