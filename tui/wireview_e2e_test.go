package tui

import (
	"bufio"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/relavium/relavium/internal/testbin"
)

// The protocol and network views in a real terminal, against the demo
// server over Streamable HTTP on loopback (no --record: the workbench
// records in memory): W shows the initialize request with its response
// under it, and a tools/call answered with its round-trip time; / filters;
// enter expands; e exports; n shows the HTTP exchanges with their status,
// timings and session id, the static header by name only.
func TestE2ETmuxWireView(t *testing.T) {
	requireTmux(t)
	bin := testbin.Relavium(t)
	dir := t.TempDir()
	home := filepath.Join(dir, "home")
	project := filepath.Join(dir, "project")
	if err := os.MkdirAll(filepath.Join(project, ".relavium"), 0o755); err != nil {
		t.Fatal(err)
	}
	url := startDemoHTTPServer(t, bin)
	cfg := fmt.Sprintf("[[mcp_servers]]\nname = \"web\"\ntransport = \"http\"\nurl = %q\nallow_local_endpoint = true\nheaders = { X-Team-Token = \"tok-SECRET-4242\" }\n", url)
	if err := os.WriteFile(filepath.Join(project, ".relavium", "config.toml"), []byte(cfg), 0o644); err != nil {
		t.Fatal(err)
	}
	script := fmt.Sprintf(`env -u CI -u NO_COLOR RELAVIUM_HOME=%s TERM=xterm-256color %s --project %s; sleep 600`, home, bin, project)
	tm := startTmux(t, "e2e-wire", 160, 40, dir, script)

	tm.waitFor("the http server ready", "● web")
	tm.answer("Tab", "/", "C-u")
	tm.text("echo")
	tm.keys("Enter", "Enter")
	tm.waitFor("the echo form", "CALL · mcp_web_echo")
	tm.text("over the wire")
	tm.keys("C-s")
	tm.waitFor("the call confirmation", "Call mcp_web_echo?", "[y] This call")
	tm.answer("y")
	tm.waitFor("the result", "over the wire")
	tm.keys("BTab", "W")

	rtt := regexp.MustCompile(`└res\s+tools/call\s+\d+\s+\d+ B\s+[0-9.]+(µs|ms|s)`)
	screen := tm.waitFor("the protocol view", "PROTOCOL · server web", "→ req   initialize", "← └res  initialize", "→ req   tools/call", "← └res  tools/call")
	if !rtt.MatchString(screen) {
		t.Fatalf("tools/call's response has no round-trip time:\n%s", screen)
	}
	lines := strings.Split(screen, "\n")
	for i, l := range lines {
		if strings.Contains(l, "→ req   initialize") && (i+1 >= len(lines) || !strings.Contains(lines[i+1], "← └res  initialize")) {
			t.Fatalf("initialize's response is not under its request:\n%s", screen)
		}
	}
	if strings.Contains(screen, "tok-SECRET") {
		t.Fatalf("a header value reached the screen:\n%s", screen)
	}

	tm.answer("/")
	tm.text("tools/call")
	tm.keys("Enter")
	screen = tm.waitFor("the filter", `method contains "tools/call"`, "2 shown")
	if strings.Contains(screen, "initialize") {
		t.Fatalf("the filter let initialize through:\n%s", screen)
	}
	tm.keys("g", "Enter")
	tm.waitFor("the expanded request", "relavium → server", `"name": "echo"`, `"message": "over the wire"`)
	tm.keys("Escape", "e")
	screen = tm.waitFor("the export", "exported to ")
	exports, _ := filepath.Glob(filepath.Join(home, "sessions", "wire-web-*.ndjson"))
	if len(exports) != 1 {
		t.Fatalf("exports %v:\n%s", exports, screen)
	}
	data, err := os.ReadFile(exports[0])
	if err != nil || strings.Count(string(data), "\n") != 2 || !strings.Contains(string(data), `"rtt_us":`) {
		t.Fatalf("export %v:\n%s", err, data)
	}

	tm.keys("Escape", "n") // the filter cleared, then the network view
	screen = tm.waitFor("the network view", "NETWORK · server web", "POST   initialize", "200", "POST   tools/call")
	if strings.Contains(screen, "tok-SECRET") {
		t.Fatalf("a header value reached the network view:\n%s", screen)
	}
	tm.keys("/", "C-u")
	tm.text("tools/call")
	tm.keys("Enter", "g", "Enter")
	tm.waitFor("the exchange's detail", "rpc      tools/call", "X-Team-Token (values never shown)", "1st byte", "status   200",
		"protocol 2025-11-25", "session  ")
	if screen = tm.pane(); strings.Contains(screen, "tok-SECRET") {
		t.Fatalf("a header value reached the exchange's detail:\n%s", screen)
	}
	tm.keys("Escape", "Escape", "Escape")
	tm.waitFor("the workbench again", "● web")
	tm.keys("q")
}

// startDemoHTTPServer runs `relavium demo-server --transport http --port 0`
// until the test ends and returns its url.
func startDemoHTTPServer(t *testing.T, bin string) string {
	t.Helper()
	cmd := exec.Command(bin, "demo-server", "--transport", "http", "--port", "0")
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	done := make(chan struct{})
	urls := make(chan string, 1)
	go func() {
		defer close(done)
		sc := bufio.NewScanner(stderr)
		for sc.Scan() {
			if u, ok := strings.CutPrefix(sc.Text(), "relavium demo-server: listening on "); ok {
				urls <- u
			}
		}
		_ = cmd.Wait()
	}()
	t.Cleanup(func() {
		_ = cmd.Process.Signal(syscall.SIGINT)
		select {
		case <-done:
		case <-time.After(10 * time.Second):
			_ = cmd.Process.Kill()
			<-done
		}
	})
	select {
	case u := <-urls:
		return u
	case <-time.After(30 * time.Second):
		t.Fatal("the demo server printed no url")
	}
	return ""
}
