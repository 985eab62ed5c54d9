package invoke

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// popularServers are the npm MCP servers .ci/peers.sh pins for the lint
// calibration: the package's bin script (under node_modules/.bin), the
// arguments, and the environment each needs to start (dummy credentials:
// listing tools calls no API).
var popularServers = []struct {
	name, bin string
	args      []string
	env       map[string]string
}{
	{"everything", "mcp-server-everything", []string{"stdio"}, nil},
	{"filesystem", "mcp-server-filesystem", []string{"."}, nil},
	{"memory", "mcp-server-memory", nil, nil},
	{"sequential", "mcp-server-sequential-thinking", nil, nil},
	{"github", "mcp-server-github", nil, map[string]string{"GITHUB_PERSONAL_ACCESS_TOKEN": "x"}},
	{"gitlab", "mcp-server-gitlab", nil, map[string]string{"GITLAB_PERSONAL_ACCESS_TOKEN": "x"}},
	{"slack", "mcp-server-slack", nil, map[string]string{"SLACK_BOT_TOKEN": "x", "SLACK_TEAM_ID": "x"}},
	{"brave", "mcp-server-brave-search", nil, map[string]string{"BRAVE_API_KEY": "x"}},
	{"maps", "mcp-server-google-maps", nil, map[string]string{"GOOGLE_MAPS_API_KEY": "x"}},
	{"context7", "context7-mcp", nil, nil},
	{"playwright", "playwright-mcp", nil, nil},
	{"notion", "notion-mcp-server", nil, nil},
	{"chrome", "chrome-devtools-mcp", nil, nil},
	{"circleci", "mcp-server-circleci", nil, map[string]string{"CIRCLECI_TOKEN": "x"}},
}

// The lint calibration on real servers: the reference servers and popular
// npm servers have no error-severity finding (docs/ci-gates.md#calibration).
func TestLintPassesPopularServers(t *testing.T) {
	p := requireMCPPeers(t)
	e := newMCPE2E(t)
	var cfg strings.Builder
	for _, s := range popularServers {
		script, err := filepath.EvalSymlinks(filepath.Join(p.dir, "node_modules", ".bin", s.bin))
		if err != nil {
			missingPeer(t, s.bin+" is not installed")
		}
		args, _ := json.Marshal(append([]string{script}, s.args...))
		fmt.Fprintf(&cfg, "[[mcp_servers]]\nname = %q\ntransport = \"stdio\"\ncommand = %q\nargs = %s\n", s.name, p.node22, args)
		if len(s.env) > 0 {
			cfg.WriteString("env = {")
			sep := " "
			for k, v := range s.env {
				fmt.Fprintf(&cfg, "%s%s = %q", sep, k, v)
				sep = ", "
			}
			cfg.WriteString(" }\n")
		}
		cfg.WriteString("\n")
	}
	if err := os.WriteFile(filepath.Join(e.project, ".relavium", "config.toml"), []byte(cfg.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	allow := allowFlags(e.run(t, nil, "mcp", "ls", "--json").pendingDigests(t))
	r := e.run(t, nil, append([]string{"mcp", "lint", "--json"}, allow...)...)
	var env struct {
		Data struct {
			Findings    []lintFinding
			Definitions int
		} `json:"data"`
	}
	if err := json.Unmarshal([]byte(r.stdout), &env); err != nil {
		t.Fatalf("lint: %d %v %s %s", r.code, err, r.stdout, r.stderr)
	}
	for _, f := range env.Data.Findings {
		if f.Severity == "error" {
			t.Errorf("an error on a real server: %+v", f)
		}
	}
	if r.code != 0 || env.Data.Definitions < 150 {
		t.Fatalf("lint: exit %d over %d definitions\n%s", r.code, env.Data.Definitions, r.stderr)
	}
}

func missingPeer(t *testing.T, why string) {
	t.Helper()
	if os.Getenv("RELAVIUM_REQUIRE_PEERS") == "1" {
		t.Fatalf("RELAVIUM_REQUIRE_PEERS=1 but %s (run make peers)", why)
	}
	t.Skipf("peers not installed: run make peers (%s)", why)
}
