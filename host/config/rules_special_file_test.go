package config

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"golang.org/x/sys/unix"
)

// TestRuleUnreadableSpecialFile: a config or agent file that is not a
// regular file — a FIFO, or a symlink a cloned repository carries to one or
// to a device such as /dev/tty — is refused (E222) at once. Reading it would
// block: opening a FIFO waits for a writer, and a terminal waits for
// someone to type, so `config validate` or a session would hang on a
// hostile checkout.
func TestRuleUnreadableSpecialFile(t *testing.T) {
	root := t.TempDir()
	home, project := filepath.Join(root, "home"), filepath.Join(root, "project")
	agents := AgentsDir(project)
	for _, d := range []string{home, agents} {
		if err := os.MkdirAll(d, 0o700); err != nil {
			t.Fatal(err)
		}
	}
	fifo := filepath.Join(root, "fifo")
	if err := unix.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	if err := unix.Mkfifo(GlobalFile(home), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(fifo, filepath.Join(agents, "fifo.yaml")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("/dev/null", filepath.Join(agents, "null.yaml")); err != nil {
		t.Fatal(err)
	}

	type result struct {
		err error
	}
	done := make(chan result, 1)
	go func() {
		_, err := Validate(home, project, "")
		done <- result{err}
	}()
	var res result
	select {
	case res = <-done:
	case <-time.After(20 * time.Second): // a hang guard only
		// Release the blocked opens (a writer lets a FIFO's reader in), so
		// the test fails instead of hanging.
		for {
			for _, p := range []string{GlobalFile(home), fifo} {
				if f, err := os.OpenFile(p, os.O_WRONLY|unix.O_NONBLOCK, 0); err == nil {
					f.Close()
				}
			}
			select {
			case <-done:
				t.Fatal("Validate blocked on a FIFO instead of refusing it")
			case <-time.After(50 * time.Millisecond):
			}
		}
	}
	probs := problemsOf(t, res.err)
	var got []string
	for _, p := range probs {
		got = append(got, string(p.Code)+" "+filepath.Base(p.File)+" "+p.Message)
	}
	wantFiles := map[string]bool{"config.toml": false, "fifo.yaml": false, "null.yaml": false}
	for _, p := range probs {
		if p.Code != CodeUnreadable || !strings.Contains(p.Message, "not a regular file") {
			t.Errorf("unexpected problem %s %s: %s", p.Code, p.File, p.Message)
			continue
		}
		wantFiles[filepath.Base(p.File)] = true
	}
	for f, seen := range wantFiles {
		if !seen {
			t.Errorf("%s: no E222 'not a regular file' problem; got %q", f, got)
		}
	}
}
