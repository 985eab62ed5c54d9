package config

import (
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// comparable is a server without where it was read from.
func comparable(s Server) Server {
	s.Pos, s.Import, s.Ref = Pos{}, nil, nil
	hs := make([]Header, len(s.Headers))
	for i, h := range s.Headers {
		hs[i] = Header{Name: h.Name, Value: h.Value}
	}
	s.Headers = nil
	if len(hs) > 0 {
		s.Headers = hs
	}
	if len(s.Args) == 0 { // [] and an absent args are one declaration
		s.Args = nil
	}
	if len(s.Env) == 0 {
		s.Env = nil
	}
	return s
}

// The round trip `config import` rests on: each client file's servers,
// rendered as TOML and read back by Load, are the same servers.
func TestImportRoundTrip(t *testing.T) {
	for _, f := range []string{"claude_desktop_config.json", "claude_code.mcp.json", "cursor.mcp.json",
		"windsurf_mcp_config.json", "inspector_mcp.json", "vscode.mcp.json", "claude.json"} {
		t.Run(f, func(t *testing.T) {
			root := t.TempDir()
			home, project := filepath.Join(root, "home"), filepath.Join(root, "project")
			claude := fixture(t, f)
			if f == "claude.json" { // its project entry names /data/app
				project = "/data/app"
			}
			imported, err := LoadFrom(home, project, Sources{Files: []string{claude}})
			if err != nil {
				t.Fatal(err)
			}
			text := TOML(imported.Servers, project, false)
			cfgFile := filepath.Join(root, "rt", ".relavium", "config.toml")
			write(t, cfgFile, text)
			back, err := LoadFrom(home, filepath.Join(root, "rt"), Sources{})
			if err != nil {
				t.Fatalf("the rendered TOML does not load: %v\n%s", err, text)
			}
			if len(back.Servers) != len(imported.Servers) {
				t.Fatalf("%d servers back, want %d", len(back.Servers), len(imported.Servers))
			}
			for i := range back.Servers {
				want := comparable(imported.Servers[i])
				got := comparable(back.Servers[i])
				if got.Transport == "stdio" { // the twin lives in another project: cwd follows it
					got.Dir, want.Dir = "", ""
				}
				if !reflect.DeepEqual(got, want) {
					t.Errorf("server %d:\n got %+v\nwant %+v\n%s", i, got, want, text)
				}
			}
		})
	}
}

func TestTOMLWithholdsLiteralHeaders(t *testing.T) {
	s := []Server{{Name: "a", Transport: "http", URL: "https://x.example/mcp", Headers: []Header{
		{Name: "X-Key", Value: "sk-literal"}, {Name: "Authorization", Value: "Bearer {{secrets.tok}}"}}}}
	text := TOML(s, "/p", true)
	if strings.Contains(text, "sk-literal") || !strings.Contains(text, `X-Key = "[REDACTED]"`) || !strings.Contains(text, `Bearer {{secrets.tok}}`) {
		t.Errorf("withheld:\n%s", text)
	}
	if !strings.Contains(TOML(s, "/p", false), "sk-literal") {
		t.Error("the file form lost the value")
	}
	if got := tomlString("a\"b\\c\x01é"); got != `"a\"b\\c\u0001é"` {
		t.Errorf("tomlString = %s", got)
	}
}
