package invoke

import (
	"encoding/base64"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/relavium/relavium/consent"
	"github.com/relavium/relavium/internal/echoserver"
	"github.com/relavium/relavium/internal/testbin"
)

const (
	webToken   = "webtok-7f3a9c21d4e5"
	webKey     = "key-literal-42xy9q"
	stdioToken = "stdiotok-b81e66f0aa"
)

// Two servers that repeat every secret they were given in every field
// (internal/echoserver): a Streamable HTTP one sent a header secret and a
// literal header value, a stdio one given an env secret. Every surface of
// the command line — mcp ls (human, --json), mcp call (human, --json,
// --events, --output, --record) on a result, a log, progress and an
// error, session --json and its headless inventory — shows each secret by
// its reference or [REDACTED] and never its value, raw or in base64.
func TestNoSecretOnAnySurface(t *testing.T) {
	e := newMCPE2E(t)
	echo := testbin.Build(t, "./testdata/servers/echosecrets")
	srv := httptest.NewServer(mcp.NewStreamableHTTPHandler(func(r *http.Request) *mcp.Server {
		return echoserver.New(echoserver.FromRequest(r, "Authorization", "X-Api-Key"))
	}, nil))
	t.Cleanup(srv.Close)
	url := srv.URL + "/mcp"
	origin, err := consent.Origin(url)
	if err != nil {
		t.Fatal(err)
	}
	e.declare(t, nil, fmt.Sprintf(`[[mcp_servers]]
name = "web"
transport = "http"
url = %q
allow_local_endpoint = true
headers = { Authorization = "Bearer {{secrets.web-token}}", X-Api-Key = %q }

[[mcp_servers]]
name = "loc"
transport = "stdio"
command = %q
args = ["API_TOKEN"]
env = { API_TOKEN = "{{secrets.stdio-token}}" }
`, url, webKey, echo))
	env := []string{"RELAVIUM_SECRET_WEB_TOKEN=" + webToken, "RELAVIUM_SECRET_STDIO_TOKEN=" + stdioToken}
	for _, grant := range []string{"web-token@" + origin, "loc"} {
		if r := e.run(t, env, "consent", "grant", grant, "--yes"); r.code != 0 {
			t.Fatalf("consent grant %s: %d %s", grant, r.code, r.stderr)
		}
	}
	dir := t.TempDir()
	var shown []string
	run := func(want int, args ...string) mcpRun {
		t.Helper()
		r := e.run(t, env, args...)
		shown = append(shown, strings.Join(args, " ")+"\n"+r.stdout+"\n"+r.stderr)
		if r.code != want {
			t.Errorf("%v: exit %d, want %d: %s %s", args, r.code, want, r.stdout, r.stderr)
		}
		return r
	}
	file := func(name string) {
		t.Helper()
		b, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			t.Errorf("%s: %v", name, err)
		}
		shown = append(shown, name+"\n"+string(b))
	}

	ls := run(0, "mcp", "ls", "--json")
	for _, want := range []string{"echo [REDACTED]", "{{secrets.stdio-token}}"} {
		if !strings.Contains(ls.stdout, want) {
			t.Errorf("mcp ls --json does not show the servers' echo redacted (%q): %s", want, ls.stdout)
		}
	}
	run(0, "mcp", "ls")
	run(0, "session", "--json")
	run(0, "session")
	for _, s := range []string{"web", "loc"} {
		tool := "mcp_" + s + "_echo"
		r := run(0, "mcp", "call", tool, "--yes", "--json")
		if !strings.Contains(r.stdout, "result ") || !strings.Contains(r.stdout, `"structuredContent"`) && !strings.Contains(r.stdout, `"structured`) {
			t.Errorf("%s --json: no result to judge: %s", tool, r.stdout)
		}
		run(0, "mcp", "call", tool, "--yes")
		r = run(0, "mcp", "call", tool, "--yes", "--events")
		if !strings.Contains(r.stderr, `"logger":"log `) {
			t.Errorf("%s --events: no log event to judge: %s", tool, r.stderr)
		}
		run(0, "mcp", "call", tool, "--yes", "--output", filepath.Join(dir, s+".out"))
		file(s + ".out")
		run(0, "mcp", "call", tool, "--yes", "--record", filepath.Join(dir, s+".ndjson"))
		file(s + ".ndjson")
		run(1, "mcp", "call", "mcp_"+s+"_fail", "--yes", "--json")
		run(1, "mcp", "call", "mcp_"+s+"_fail", "--yes")
	}
	run(0, "mcp", "ping", "--count", "1")

	all := strings.Join(shown, "\n----\n")
	for _, v := range []string{webToken, webKey, stdioToken, "Bearer " + webToken} {
		for _, spelled := range []string{v, base64.StdEncoding.EncodeToString([]byte(v)), base64.RawURLEncoding.EncodeToString([]byte(v))} {
			if strings.Contains(all, spelled) {
				i := strings.Index(all, spelled)
				t.Errorf("%q is shown: …%s…", spelled, all[max(0, i-300):min(len(all), i+100)])
			}
		}
	}
}
