package session

import (
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/relavium/relavium/consent"
	"github.com/relavium/relavium/host/config"
)

// An ${input:id} that a client file does not declare binds as a declared
// one does: the two files' servers carry the very same bindings, and a
// value typed for one server is bound to that server's origin only — a
// second server of the file naming the same id at another origin still
// needs the person's word.
func TestUndeclaredInputBindsAsDeclared(t *testing.T) {
	dir := t.TempDir()
	servers := `"a": {"type": "http", "url": "https://a.example.com/mcp", "headers": {"Authorization": "Basic ${input:ci-auth}"}},
 "b": {"type": "http", "url": "https://b.example.com/mcp", "headers": {"X-Key": "${input:ci-auth}"}}`
	load := func(name, body string) []config.Server {
		t.Helper()
		path := filepath.Join(dir, name)
		if err := os.WriteFile(path, []byte(body), 0o600); err != nil {
			t.Fatal(err)
		}
		cfg, err := config.LoadFrom(t.TempDir(), dir, config.Sources{Files: []string{path}})
		if err != nil || len(cfg.Servers) != 2 {
			t.Fatalf("%s: %v %+v", name, err, cfg)
		}
		return cfg.Servers
	}
	undeclared := load("mcp.json", `{"mcpServers": {`+servers+`}}`)
	declared := load("vscode.json", `{"inputs": [{"type": "promptString", "id": "ci-auth", "password": true}], "servers": {`+servers+`}}`)
	if got, want := BindingsOf(undeclared, nil), BindingsOf(declared, nil); len(got) != 2 || !reflect.DeepEqual(got, want) {
		t.Fatalf("bindings of the undeclared input %+v, of the declared one %+v", got, want)
	}

	s := New(Options{Home: t.TempDir()}, undeclared)
	s.ProvideSecret("a", "ci-auth", "typed-for-a")
	decs, err := s.Bindings()
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range decs {
		switch d.Binding.Server {
		case "a":
			if d.State != consent.Approved || d.Why != consent.ByTyping {
				t.Errorf("a: %s %s, want approved by typing", d.State, d.Why)
			}
		case "b":
			if d.State != consent.NeedsConsent {
				t.Errorf("b: %s %s: a value typed for a reached another origin", d.State, d.Why)
			}
		}
	}
}
