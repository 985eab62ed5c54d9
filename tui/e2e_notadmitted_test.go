package tui

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/relavium/relavium/internal/testbin"
)

// One bad entry of a client file fails only itself: the workbench opens a
// project whose .mcp.json holds an http server at a cloud metadata address
// (never admitted) beside a good stdio one; the good one connects
// and lists its tools, the bad one is listed failed with its code, and i
// on it shows the problem with its remedy. relavium's own config.toml stays
// all-or-nothing: the same entry there exits 2 naming file:line:col.
func TestE2ETmuxClientFileEntryNotAdmitted(t *testing.T) {
	requireTmux(t)
	bin := testbin.Relavium(t)
	dir := t.TempDir()
	home, project := filepath.Join(dir, "home"), filepath.Join(dir, "project")
	if err := os.MkdirAll(project, 0o755); err != nil {
		t.Fatal(err)
	}
	mcpJSON := fmt.Sprintf(`{"mcpServers": {
  "local": {"type": "http", "url": "http://169.254.169.254/mcp"},
  "good": {"command": %q, "args": ["demo-server"]}
}}`, bin)
	if err := os.WriteFile(filepath.Join(project, ".mcp.json"), []byte(mcpJSON), 0o644); err != nil {
		t.Fatal(err)
	}
	script := fmt.Sprintf(`cd %s && env -u CI -u NO_COLOR RELAVIUM_HOME=%s TERM=xterm-256color %s; sleep 600`, project, home, bin)
	tm := startTmux(t, "notadmitted", 120, 32, dir, script)
	tm.waitFor("the consent dialog of the good server", "Start a local program?", "demo-server")
	tm.answer("o")
	tm.waitFor("the good server ready with its tools, the bad one failed", "● good", "✓ add_numbers", "✗ local", "E215", "1 of 2 servers")
	tm.keys("Down")
	tm.waitFor("the bad server's tools pane", "not admitted: i on it says why")
	tm.keys("i")
	screen := tm.waitFor("the details of the bad server", "Server local", "not admitted from .mcp.json:2:3", "169.254.169.254 is a cloud metadata endpoint")
	flat := strings.Join(strings.Fields(screen), " ")
	for _, want := range []string{"no opt-in reaches it", "open the workbench again"} {
		if !strings.Contains(strings.ReplaceAll(flat, "│ ", ""), want) {
			t.Fatalf("the details do not say %q:\n%s", want, screen)
		}
	}
	tm.answer("Escape")
	tm.waitFor("the dialog closed", "tab focus")
	tm.keys("r") // nothing to reconnect: it says why instead
	tm.waitFor("reconnect refused with the reason", "local was not admitted (E215)")

	// relavium's own config: the same server is an authored mistake.
	own := filepath.Join(dir, "own")
	if err := os.MkdirAll(filepath.Join(own, ".relavium"), 0o755); err != nil {
		t.Fatal(err)
	}
	toml := fmt.Sprintf("[[mcp_servers]]\nname = \"good\"\ncommand = %q\nargs = [\"demo-server\"]\n\n[[mcp_servers]]\nname = \"local\"\ntransport = \"http\"\nurl = \"http://127.0.0.1:9/mcp\"\n", bin)
	if err := os.WriteFile(filepath.Join(own, ".relavium", "config.toml"), []byte(toml), 0o644); err != nil {
		t.Fatal(err)
	}
	script = fmt.Sprintf(`cd %s && env -u CI -u NO_COLOR RELAVIUM_HOME=%s TERM=xterm-256color %s; echo "exit=$?"; sleep 600`, own, home, bin)
	tm2 := startTmux(t, "ownconfig", 120, 32, dir, script)
	tm2.waitFor("the authored mistake refused whole", ".relavium/config.toml:9:", "E215", "exit=2")
}
