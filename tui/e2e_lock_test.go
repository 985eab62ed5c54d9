package tui

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/relavium/relavium/internal/testbin"
)

// In a real terminal: a server that drifted from the project's lock shows
// it on its row, and `--record FILE` records the workbench's traffic
// (written when it quits).
func TestE2ETmuxLockDriftAndRecord(t *testing.T) {
	requireTmux(t)
	bin, hostile := testbin.Relavium(t), testbin.Build(t, "./testdata/servers/hostile")
	dir := t.TempDir()
	home, project := filepath.Join(dir, "home"), filepath.Join(dir, "project")
	for _, d := range []string{home, filepath.Join(project, ".relavium")} {
		if err := os.MkdirAll(d, 0o700); err != nil {
			t.Fatal(err)
		}
	}
	cfg := fmt.Sprintf("[[mcp_servers]]\nname = \"fs\"\ntransport = \"stdio\"\ncommand = %q\nargs = [\"-mode\", \"drift\"]\n", hostile)
	if err := os.WriteFile(filepath.Join(project, ".relavium", "config.toml"), []byte(cfg), 0o644); err != nil {
		t.Fatal(err)
	}
	relavium := func(args ...string) {
		t.Helper()
		cmd := exec.Command(bin, args...)
		cmd.Dir, cmd.Env = project, []string{"RELAVIUM_HOME=" + home, "HOME=" + home, "PATH=" + os.Getenv("PATH")}
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("relavium %v: %v\n%s", args, err, out)
		}
	}
	relavium("consent", "grant", "fs", "--yes")
	relavium("mcp", "lock")
	if err := os.WriteFile(filepath.Join(project, "drift-annotation"), nil, 0o644); err != nil {
		t.Fatal(err)
	}

	rec := filepath.Join(dir, "session.ndjson")
	exitFile := filepath.Join(dir, "exit")
	script := fmt.Sprintf(`env -u CI -u NO_COLOR RELAVIUM_HOME=%s HOME=%s TERM=xterm-256color %s --record %s session; echo $? > %s; sleep 600`,
		home, home, bin, rec, exitFile)
	tm := startTmux(t, "e2e-lock", 120, 32, project, script)

	screen := tm.waitFor("the drift on fs's row, the rug-pull flag on its tool", "● fs", "⚠ drift 2", "lock drift: server fs:", "⚑ changed")
	if !regexp.MustCompile(`wipe +⚑ changed`).MatchString(screen) { // the flag is on wipe's row, whatever the pane's width
		t.Fatalf("the rug-pull flag is not on wipe's row:\n%s", screen)
	}
	tm.answer("q")
	deadline := time.Now().Add(15 * time.Second)
	for {
		if b, err := os.ReadFile(exitFile); err == nil && len(bytes.TrimSpace(b)) > 0 {
			if code := strings.TrimSpace(string(b)); code != "0" {
				t.Fatalf("relavium exited %s", code)
			}
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("relavium did not exit after q; screen:\n%s", tm.pane())
		}
		time.Sleep(50 * time.Millisecond)
	}
	data, err := os.ReadFile(rec)
	if err != nil {
		t.Fatalf("the workbench's recording: %v", err)
	}
	for _, want := range []string{`"server":"fs","dir":"send","kind":"request","method":"initialize"`, `"method":"tools/list"`, `"rtt_us":`} {
		if !bytes.Contains(data, []byte(want)) {
			t.Fatalf("the recording lacks %s:\n%.2000s", want, data)
		}
	}
}
