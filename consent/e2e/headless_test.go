package e2e

import (
	"os"
	"strings"
	"testing"
)

type pendingData struct {
	Pending []struct {
		Server      string   `json:"server"`
		CommandLine string   `json:"command_line"`
		Digest      string   `json:"digest"`
		AllowFlag   string   `json:"allow_flag"`
		DiffText    []string `json:"diff_text"`
		Previous    *struct {
			Digest string `json:"digest"`
		} `json:"previous"`
	} `json:"pending"`
	StoreError any `json:"store_error"`
}

// TestHeadlessMcpLsRequiresConsent: with no one to ask, a declared stdio
// server without consent is never spawned; relavium exits 2 and names the
// server, its command line, digest, diff and the flag that approves it. The
// flag approves exactly that digest; a digest that matches nothing is an
// error, never silently ignored.
func TestHeadlessMcpLsRequiresConsent(t *testing.T) {
	w := newWorld(t)
	w.config(`
[[mcp_servers]]
name = "spy"
transport = "stdio"
command = "spy"
args = ["--root", "/data"]
`)
	env, _ := w.json("consent", "digest")
	digest := decode[digests](t, env.Data).Servers[0].Digest

	for _, extra := range [][]string{nil, {"CI=true"}} {
		r := w.runEnv(extra, "mcp", "ls", "--json")
		env := w.parse(r, []string{"mcp", "ls"})
		w.fail(r, env, "E301", 2, "consent required", "spy")
		p := decode[pendingData](t, env.Data)
		if len(p.Pending) != 1 || p.Pending[0].Server != "spy" || p.Pending[0].Digest != digest ||
			p.Pending[0].AllowFlag != "--allow-mcp-stdio "+digest || p.Pending[0].CommandLine != w.bin+"/spy --root /data" {
			t.Fatalf("pending: %s", env.Data)
		}
		if !strings.Contains(r.stderr, "approve  --allow-mcp-stdio "+digest) || !strings.Contains(r.stderr, "command  "+w.bin+"/spy --root /data") {
			t.Fatalf("human text on stderr lacks the server's details:\n%s", r.stderr)
		}
	}
	r := w.run("mcp", "ls")
	if r.code != 2 || r.stdout != "" || !strings.Contains(r.stderr, "--allow-mcp-stdio "+digest) ||
		!strings.Contains(r.stderr, "relavium consent grant DIGEST") {
		t.Fatalf("human headless: exit %d\nstdout %q\nstderr %s", r.code, r.stdout, r.stderr)
	}
	// An ad-hoc server is declared nowhere, so consent grant cannot
	// remember it: the hint does not send anyone to a command that fails.
	// (A command line typed by the person runs as their own command; one a
	// machine client sends through mcp serve, as here, asks for consent.)
	r = w.runEnv([]string{"RELAVIUM_INVOKE_PATH=mcp call"}, "mcp", "call", "x", "--stdio", "spy --root /data")
	if r.code != 2 || !strings.Contains(r.stderr, "--allow-mcp-stdio v1:") || strings.Contains(r.stderr, "consent grant DIGEST") ||
		!strings.Contains(r.stderr, "cannot be remembered") {
		t.Fatalf("ad-hoc headless: exit %d\nstderr %s", r.code, r.stderr)
	}

	typo := "v1:" + strings.Repeat("f", 64)
	env, r = w.json("mcp", "ls", "--allow-mcp-stdio", typo)
	w.fail(r, env, "E302", 2, typo, "matches no declared stdio server")
	env, r = w.json("mcp", "ls", "--allow-mcp-stdio", "v1:nothex")
	w.fail(r, env, "E303", 2, "not a consent digest")
	if _, err := os.Stat(w.marker); !os.IsNotExist(err) {
		t.Fatal("the stdio server was spawned without consent")
	}

	// After a grant, an edited declaration asks again, with the diff.
	w.json("consent", "grant", "spy", "--yes")
	w.config(`
[[mcp_servers]]
name = "spy"
transport = "stdio"
command = "spy"
args = ["--root", "/other"]
env = { TOKEN = "{{secrets.tok}}" }
`)
	env, r = w.json("mcp", "ls")
	w.fail(r, env, "E301", 2)
	p := decode[pendingData](t, env.Data)
	want := []string{"- args[1] /data", "+ args[1] /other", "+ env TOKEN (secret-ref)"}
	if len(p.Pending) != 1 || p.Pending[0].Previous == nil || p.Pending[0].Previous.Digest != digest ||
		strings.Join(p.Pending[0].DiffText, "|") != strings.Join(want, "|") {
		t.Fatalf("diff against the earlier grant: %s", env.Data)
	}
	if !strings.Contains(r.stderr, "- args[1] /data") || !strings.Contains(r.stderr, "+ args[1] /other") {
		t.Fatalf("human diff missing:\n%s", r.stderr)
	}
	if _, err := os.Stat(w.marker); !os.IsNotExist(err) {
		t.Fatal("the stdio server was spawned without consent")
	}
}

// TestHeadlessAllowFlagConnects: the digest passed back approves the server
// for that invocation (the embedded demo MCP server over stdio).
func TestHeadlessAllowFlagConnects(t *testing.T) {
	w, digest := demoWorld(t)
	env, r := w.json("mcp", "ls", "--allow-mcp-stdio", digest)
	if r.code != 0 || !env.OK {
		t.Fatalf("mcp ls with the allow flag: exit %d %s\n%s", r.code, r.stdout, r.stderr)
	}
	ls := decode[struct {
		Servers []struct {
			Name, State, Digest string
			Tools               int
		} `json:"servers"`
	}](t, env.Data)
	if len(ls.Servers) != 1 || ls.Servers[0].Name != "demo" || ls.Servers[0].State != "ready" ||
		ls.Servers[0].Digest != digest || ls.Servers[0].Tools == 0 {
		t.Fatalf("the approved server did not connect: %s", env.Data)
	}
	if w.store() != "" {
		t.Fatal("the allow flag wrote a grant")
	}
}

// TestBrokenStoreIsNeverSilent: a store whose fold failed closed is reported
// even when every server is approved another way (--allow-mcp-stdio), and
// the approved server still runs.
func TestBrokenStoreIsNeverSilent(t *testing.T) {
	w, digest := demoWorld(t)
	if err := os.WriteFile(w.storePath(), []byte("{not json\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	env, r := w.json("mcp", "ls", "--allow-mcp-stdio", digest)
	if r.code != 0 || !env.OK {
		t.Fatalf("mcp ls with the allow flag: exit %d %s\n%s", r.code, r.stdout, r.stderr)
	}
	if !strings.Contains(r.stderr, "no remembered consent grant was trusted") || !strings.Contains(r.stderr, "line 1") {
		t.Fatalf("the fold failure was silent:\n%s", r.stderr)
	}
}

// demoWorld is a project declaring the embedded demo server over stdio, and
// that server's digest.
func demoWorld(t *testing.T) (*world, string) {
	t.Helper()
	w := newWorld(t)
	w.config(`
[[mcp_servers]]
name = "demo"
transport = "stdio"
command = "` + binary + `"
args = ["demo-server"]
`)
	env, _ := w.json("consent", "digest")
	return w, decode[digests](t, env.Data).Servers[0].Digest
}
