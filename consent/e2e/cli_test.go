package e2e

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/relavium/relavium/fault"
)

const twoServers = `
[[mcp_servers]]
name = "spy"
transport = "stdio"
command = "spy"
args = ["--root", "/data"]
env = { TOKEN = "{{secrets.tok}}", MODE = "literal-value-never-shown" }

[[mcp_servers]]
name = "shell"
transport = "stdio"
command = "/bin/sh"
args = ["-c", "cat"]

[[mcp_servers]]
name = "web"
transport = "http"
url = "https://example.com/mcp"
`

type digestRow struct {
	Server      string              `json:"server"`
	Digest      string              `json:"digest"`
	CommandLine string              `json:"command_line"`
	Command     string              `json:"command"`
	Args        []string            `json:"args"`
	Env         []map[string]string `json:"env"`
	Cwd         string              `json:"cwd"`
	Granted     bool                `json:"granted"`
	AllowFlag   string              `json:"allow_flag"`
	Source      struct {
		File string `json:"file"`
		Line int    `json:"line"`
	} `json:"source"`
}

type digests struct {
	Servers []digestRow `json:"servers"`
}

type grantRow struct {
	Digest    string   `json:"digest"`
	Command   string   `json:"command"`
	Args      []string `json:"args"`
	EnvNames  []string `json:"env_names"`
	Cwd       string   `json:"cwd"`
	GrantedAt string   `json:"granted_at"`
}

type listing struct {
	Path       string     `json:"path"`
	Grants     []grantRow `json:"grants"`
	StoreError *struct {
		Code, Message, Reason string
		Line                  int
	} `json:"store_error"`
}

func TestConsentCommandsJSON(t *testing.T) {
	w := newWorld(t)
	w.config(twoServers)

	env, _ := w.json("consent", "digest")
	d := decode[digests](t, env.Data)
	if len(d.Servers) != 2 {
		t.Fatalf("consent digest lists %d servers, want the 2 stdio ones: %s", len(d.Servers), env.Data)
	}
	spy, sh := d.Servers[0], d.Servers[1]
	if spy.Server != "spy" || spy.Command != filepath.Join(w.bin, "spy") || spy.Cwd != w.project || spy.Granted ||
		!strings.HasPrefix(spy.Digest, "v1:") || spy.AllowFlag != "--allow-mcp-stdio "+spy.Digest || spy.Source.Line != 2 {
		t.Fatalf("spy row: %+v", spy)
	}
	if sh.Command != "/bin/sh" || sh.CommandLine != "/bin/sh -c cat" {
		t.Fatalf("shell row: %+v", sh)
	}
	if strings.Contains(string(env.Data), "literal-value-never-shown") {
		t.Fatalf("a literal env value reached the output: %s", env.Data)
	}
	if len(spy.Env) != 2 || spy.Env[0]["kind"] != "secret-ref" || spy.Env[1]["kind"] != "literal" {
		t.Fatalf("env kinds: %v", spy.Env)
	}

	// grant by name; granting again writes nothing.
	env, _ = w.json("consent", "grant", "spy", "--yes")
	if !strings.Contains(string(env.Data), `"already_granted":false`) {
		t.Fatalf("grant: %s", env.Data)
	}
	before := w.store()
	env, _ = w.json("consent", "grant", spy.Digest, "--yes")
	if !strings.Contains(string(env.Data), `"already_granted":true`) || w.store() != before {
		t.Fatalf("second grant: %s", env.Data)
	}
	if strings.Contains(before, "literal-value-never-shown") {
		t.Fatal("a literal env value reached the grant store")
	}
	st, err := os.Stat(w.storePath())
	if err != nil || st.Mode().Perm() != 0o600 {
		t.Fatalf("store mode: %v %v", st.Mode(), err)
	}

	// grant the other by digest; ls lists both, newest first.
	w.json("consent", "grant", sh.Digest, "--yes")
	env, _ = w.json("consent", "ls")
	l := decode[listing](t, env.Data)
	if len(l.Grants) != 2 || l.Grants[0].Digest != sh.Digest || l.Grants[1].Digest != spy.Digest || l.StoreError != nil {
		t.Fatalf("ls: %s", env.Data)
	}
	if g := l.Grants[1]; g.Command != spy.Command || strings.Join(g.EnvNames, ",") != "TOKEN,MODE" || g.Cwd != w.project {
		t.Fatalf("ls metadata: %+v", g)
	}
	// The human listing names each grant's server (as granted, and as
	// declared in this project now).
	if r := w.run("consent", "ls"); r.code != 0 || !strings.Contains(r.stdout, "  server   spy\n") || !strings.Contains(r.stdout, "  server   shell\n") {
		t.Fatalf("human ls names no servers: %+v", r)
	}
	env, _ = w.json("consent", "digest")
	if d := decode[digests](t, env.Data); !d.Servers[0].Granted || !d.Servers[1].Granted {
		t.Fatalf("digest after grants: %s", env.Data)
	}

	// revoke without a terminal and without --yes: refused, nothing written.
	before = w.store()
	env, r := w.json("consent", "revoke", spy.Digest)
	w.fail(r, env, "E315", 2, "--yes", spy.Digest)
	if w.store() != before {
		t.Fatal("a refused revoke wrote to the store")
	}
	// Human mode too: exit 2, the reason on stderr, nothing on stdout.
	r = w.run("consent", "revoke", spy.Digest)
	if r.code != 2 || r.stdout != "" || !strings.Contains(r.stderr, "pass --yes") {
		t.Fatalf("human revoke without --yes: %+v", r)
	}

	env, _ = w.json("consent", "revoke", spy.Digest, "--yes")
	if !strings.Contains(string(env.Data), spy.Digest) {
		t.Fatalf("revoke: %s", env.Data)
	}
	env, _ = w.json("consent", "ls")
	if l := decode[listing](t, env.Data); len(l.Grants) != 1 || l.Grants[0].Digest != sh.Digest {
		t.Fatalf("ls after revoke: %s", env.Data)
	}
	env, r = w.json("consent", "revoke", spy.Digest, "--yes")
	w.fail(r, env, "E314", 2, "no live grant")
	// The store only ever grew: grant, grant, revocation.
	if lines := strings.Count(w.store(), "\n"); lines != 3 {
		t.Fatalf("store has %d lines, want 3 (append-only):\n%s", lines, w.store())
	}
}

func TestConsentRefusals(t *testing.T) {
	w := newWorld(t)
	w.config(twoServers)
	typo := "v1:" + strings.Repeat("0", 64)
	for _, tc := range []struct {
		args []string
		code fault.Code
		says []string
	}{
		{[]string{"consent", "grant", typo, "--yes"}, "E313", []string{"has digest " + typo, "declared: spy v1:", "shell v1:"}},
		{[]string{"consent", "grant", "nosuch", "--yes"}, "E313", []string{"is named nosuch"}},
		{[]string{"consent", "grant", "v1:abc", "--yes"}, "E303", []string{"not a consent digest"}},
		{[]string{"consent", "grant", "V1:" + strings.Repeat("0", 64), "--yes"}, "E303", []string{"not a consent digest"}}, // a name never holds ':'
		{[]string{"consent", "grant", "web", "--yes"}, "E313", []string{"is named web"}},
		{[]string{"consent", "revoke", "spy", "--yes"}, "E303", []string{"not a consent digest"}},
		{[]string{"consent", "revoke", typo, "--yes"}, "E314", []string{"no live grant"}},
	} {
		env, r := w.json(tc.args...)
		w.fail(r, env, string(tc.code), 2, tc.says...)
	}
	if w.store() != "" {
		t.Fatal("a refused command wrote to the store")
	}
}

func TestConsentLsShowsFoldFailure(t *testing.T) {
	w := newWorld(t)
	w.config(twoServers)
	w.json("consent", "grant", "spy", "--yes")
	// A writer died mid-line: the store fails closed and every surface says why.
	f, err := os.OpenFile(w.storePath(), os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.WriteString(`{"v":1,"revokes":"v1:12`); err != nil {
		t.Fatal(err)
	}
	f.Close()

	env, r := w.json("consent", "ls")
	l := decode[listing](t, env.Data)
	if r.code != 0 || len(l.Grants) != 0 || l.StoreError == nil || l.StoreError.Code != "E311" || l.StoreError.Line != 2 ||
		!strings.Contains(l.StoreError.Reason, "truncated last line") {
		t.Fatalf("ls of a broken store: exit %d %s", r.code, env.Data)
	}
	r = w.run("consent", "ls")
	if r.code != 0 || !strings.Contains(r.stdout, "grant store unreadable (E311)") || !strings.Contains(r.stdout, "line 2") {
		t.Fatalf("human ls of a broken store: %+v", r)
	}
	env, _ = w.json("consent", "digest")
	if !strings.Contains(string(env.Data), `"granted":false`) || !strings.Contains(string(env.Data), `"store_error":{"code":"E311"`) {
		t.Fatalf("digest of a broken store: %s", env.Data)
	}
	// A connect that needs consent says why no grant was trusted, and what
	// to do, headless as in the envelope.
	r = w.run("mcp", "ls")
	if r.code != 2 || !strings.Contains(r.stderr, "no remembered grant was trusted") || !strings.Contains(r.stderr, "line 2") ||
		!strings.Contains(r.stderr, "repair or delete line 2") {
		t.Fatalf("mcp ls on a broken store: %+v", r)
	}

	// A grant would have no effect: it is refused with the store's code,
	// naming the file and line and what to do, and nothing is written.
	d := decode[digests](t, env.Data)
	before := w.store()
	env, r = w.json("consent", "grant", "shell", "--yes")
	w.fail(r, env, "E311", 1, "consent grant wrote nothing", "has no effect", w.storePath(), "line 2", "truncated last line",
		"repair or delete line 2", "revoke that digest again")
	if !strings.Contains(string(env.Data), `"store_error":{"code":"E311"`) || !strings.Contains(string(env.Data), `"line":2`) {
		t.Fatalf("grant refusal data: %s", env.Data)
	}
	if w.store() != before {
		t.Fatal("a refused grant wrote to the store")
	}
	r = w.run("consent", "grant", "shell", "--yes")
	if r.code != 1 || r.stdout != "" || !strings.Contains(r.stderr, "E311") || !strings.Contains(r.stderr, "line 2") {
		t.Fatalf("human grant on a broken store: %+v", r)
	}

	// A revocation still goes in (after the damaged line, on a line of its
	// own: a lost revocation is the failure that matters), and the command
	// fails all the same with the store's code.
	env, r = w.json("consent", "revoke", d.Servers[0].Digest, "--yes")
	w.fail(r, env, "E311", 1, "revocation of "+d.Servers[0].Digest+" is recorded", "line 2")
	lines := strings.Split(strings.TrimSuffix(w.store(), "\n"), "\n")
	if len(lines) != 3 || !strings.HasPrefix(lines[2], `{"v":1,"revokes":"`+d.Servers[0].Digest) {
		t.Fatalf("store after revoke: %q", lines)
	}

	// Once the person deletes the damaged line, grant works again and the
	// revocation holds.
	if err := os.WriteFile(w.storePath(), []byte(lines[0]+"\n"+lines[2]+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	env, r = w.json("consent", "grant", "shell", "--yes")
	if r.code != 0 || !strings.Contains(string(env.Data), `"already_granted":false`) {
		t.Fatalf("grant after the repair: %d %s %s", r.code, r.stdout, r.stderr)
	}
	env, _ = w.json("consent", "ls")
	l = decode[listing](t, env.Data)
	if len(l.Grants) != 1 || l.Grants[0].Digest == d.Servers[0].Digest || l.StoreError != nil {
		t.Fatalf("ls after the repair: %s", env.Data)
	}
}

func TestConsentSymlinkedStoreRefused(t *testing.T) {
	w := newWorld(t)
	w.config(twoServers)
	target := filepath.Join(t.TempDir(), "other")
	if err := os.WriteFile(target, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(target, w.storePath()); err != nil {
		t.Fatal(err)
	}
	env, r := w.json("consent", "grant", "spy", "--yes")
	w.fail(r, env, "E310", 1, "symlink")
	if b, _ := os.ReadFile(target); len(b) != 0 {
		t.Fatal("written through the symlink")
	}
	env, _ = w.json("consent", "ls")
	if !strings.Contains(string(env.Data), `"code":"E310"`) {
		t.Fatalf("ls does not report the refused store: %s", env.Data)
	}
}

func TestConsentDigestResolutionErrors(t *testing.T) {
	w := newWorld(t)
	w.config(`
[[mcp_servers]]
name = "ghost"
transport = "stdio"
command = "no-such-program-anywhere"

[[mcp_servers]]
name = "plain"
transport = "stdio"
command = "./data.txt"
`)
	if err := os.WriteFile(filepath.Join(w.project, "data.txt"), []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	env, r := w.json("consent", "digest")
	w.fail(r, env, "E304", 2, "config.toml:2:", "no-such-program-anywhere", "not found on PATH", "config.toml:7:", "cannot be run")
	r = w.run("consent", "digest")
	if r.code != 2 || r.stdout != "" || !strings.Contains(r.stderr, "no-such-program-anywhere") {
		t.Fatalf("human: %+v", r)
	}
	// Naming the broken server in grant says why it cannot be granted.
	env, r = w.json("consent", "grant", "ghost", "--yes")
	w.fail(r, env, "E304", 2, "not found on PATH")
}

func TestConsentDigestWithAgent(t *testing.T) {
	w := newWorld(t)
	w.config(twoServers)
	if err := os.MkdirAll(filepath.Join(w.project, ".relavium", "agents"), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(w.project, ".relavium", "agents", "only-shell.yaml"),
		[]byte("name: only-shell\nmcp_servers:\n  - ref: shell\n  - ref: web\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	env, _ := w.json("consent", "digest", "--agent", "only-shell")
	d := decode[digests](t, env.Data)
	if len(d.Servers) != 1 || d.Servers[0].Server != "shell" {
		t.Fatalf("--agent: %s", env.Data)
	}
}

func TestConsentEmptyConfig(t *testing.T) {
	w := newWorld(t)
	env, _ := w.json("consent", "digest")
	if string(env.Data) != `{"servers":[],"bindings":[]}` {
		t.Fatalf("no servers: %s", env.Data)
	}
	r := w.run("consent", "ls")
	if r.code != 0 || !strings.Contains(r.stdout, "no live grants") {
		t.Fatalf("ls with no store: %+v", r)
	}
	if _, err := os.Stat(w.storePath()); !os.IsNotExist(err) {
		t.Fatal("reading created the store")
	}
}

// TestConsentGrantWithNothingDeclared: `consent grant` in a project that
// declares no stdio server at all is E317 (nothing to grant), exit 2, and
// writes nothing — not E313, which is for a name or digest that matches none
// of the servers that are declared.
func TestConsentGrantWithNothingDeclared(t *testing.T) {
	w := newWorld(t)
	for _, target := range []string{"spy", "v1:" + strings.Repeat("a", 64)} {
		env, r := w.json("consent", "grant", target, "--yes")
		w.fail(r, env, "E317", 2, "no stdio server is declared")
	}
	w.config(`
[[mcp_servers]]
name = "docs"
transport = "http"
url = "https://docs.example/mcp"
`)
	env, r := w.json("consent", "grant", "docs", "--yes")
	w.fail(r, env, "E317", 2, "no stdio server is declared")
	if _, err := os.Stat(w.storePath()); !os.IsNotExist(err) {
		t.Fatal("a refused grant created the store")
	}
}
