package invoke

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A recording never holds an injected secret: the stdio child's env tool
// answers with the secret's value, and the recording has its
// {{secrets.NAME}} reference instead; a credential-named argument is
// "[redacted]". --trace is the same flag; --record naming a directory is
// refused before anything is spawned (E948).
func TestRecordRedactsSecrets(t *testing.T) {
	e := newMCPE2E(t)
	cfg := fmt.Sprintf("[[mcp_servers]]\nname = \"fs\"\ntransport = \"stdio\"\ncommand = %q\nargs = [\"-mode\", \"ok\"]\nenv = { API_TOKEN = \"{{secrets.api-token}}\" }\n", e.hostile)
	if err := os.WriteFile(filepath.Join(e.project, ".relavium", "config.toml"), []byte(cfg), 0o644); err != nil {
		t.Fatal(err)
	}
	secret := []string{"RELAVIUM_SECRET_API_TOKEN=hunter2-very-secret-value"}
	r := e.run(t, secret, "mcp", "ls", "--json")
	allow := allowFlags(r.pendingDigests(t))
	rec := filepath.Join(t.TempDir(), "rec.ndjson")
	r = e.run(t, secret, append([]string{"--trace", rec, "mcp", "call", "mcp_fs_env", "--yes", "--json"}, allow...)...)
	if r.code != 0 || !strings.Contains(r.stdout, "API_TOKEN=") {
		t.Fatalf("env call: %d %s %s", r.code, r.stdout, r.stderr)
	}
	r = e.run(t, secret, append([]string{"--record", rec + "2", "mcp", "call", "mcp_fs_echo", "message=hi", "--yes", "--json"}, allow...)...)
	if r.code != 0 {
		t.Fatalf("echo call: %d %s", r.code, r.stderr)
	}
	for _, p := range []string{rec, rec + "2"} {
		data, err := os.ReadFile(p)
		if err != nil || len(data) == 0 {
			t.Fatalf("%s: %v", p, err)
		}
		if strings.Contains(string(data), "hunter2-very-secret-value") {
			t.Fatalf("the recording holds the secret:\n%s", data)
		}
		if st, _ := os.Stat(p); st.Mode().Perm() != 0o600 {
			t.Errorf("%s is mode %v", p, st.Mode().Perm())
		}
	}
	data, _ := os.ReadFile(rec)
	if !strings.Contains(string(data), "API_TOKEN={{secrets.api-token}}") {
		t.Errorf("the secret is not replaced by its reference:\n%.3000s", data)
	}
	r = e.run(t, secret, append([]string{"--record", t.TempDir(), "mcp", "ls", "--json"}, allow...)...)
	if r.code != 2 || r.errCode() != "E948" {
		t.Errorf("--record naming a directory: %d %s", r.code, r.stdout)
	}
}
