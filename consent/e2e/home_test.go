package e2e

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestUnsafeHomeIsRefused: a relavium home that group or others can write,
// or that another user owns, is refused (E318, exit 1) before anything is
// read from or written to it, by every command; the message names the path
// and the fix. A symlinked home is resolved and its target judged.
func TestUnsafeHomeIsRefused(t *testing.T) {
	w := newWorld(t)
	w.config(twoServers)
	if env, r := w.json("consent", "grant", "spy", "--yes"); r.code != 0 {
		t.Fatalf("grant in a safe home: %d %s", r.code, env.Data)
	}
	before := w.store()

	for _, mode := range []os.FileMode{0o777, 0o770, 0o702} {
		if err := os.Chmod(w.home, mode); err != nil {
			t.Fatal(err)
		}
		for _, args := range [][]string{{"consent", "ls"}, {"consent", "grant", "shell", "--yes"}, {"consent", "digest"}, {"mcp", "ls"}, {"version"}} {
			env, r := w.json(args...)
			w.fail(r, env, "E318", 1, w.home, "group or others can write", "chmod 700 "+w.home)
		}
		r := w.run("consent", "ls")
		if r.code != 1 || r.stdout != "" || !strings.Contains(r.stderr, "E318") || !strings.Contains(r.stderr, "chmod 700") {
			t.Fatalf("human refusal, mode %04o: %+v", mode, r)
		}
		if w.store() != before {
			t.Fatalf("mode %04o: the store changed", mode)
		}
		if _, err := os.Stat(filepath.Join(w.home, "logs")); err == nil {
			t.Fatalf("mode %04o: something was written to the refused home", mode)
		}
	}

	// Readable by others but writable only by its owner: fine.
	if err := os.Chmod(w.home, 0o755); err != nil {
		t.Fatal(err)
	}
	if env, r := w.json("consent", "ls"); r.code != 0 {
		t.Fatalf("0755 home refused: %s %s", env.Data, r.stderr)
	}

	// A symlinked home is resolved: a link to a safe home works, a link to
	// an unsafe one is refused naming both.
	link := filepath.Join(t.TempDir(), "link")
	if err := os.Symlink(w.home, link); err != nil {
		t.Fatal(err)
	}
	linked := func(args ...string) (envelope, result) {
		r := w.runEnv([]string{"RELAVIUM_HOME=" + link}, append(args, "--json")...)
		return w.parse(r, args), r
	}
	if env, r := linked("consent", "ls"); r.code != 0 || !strings.Contains(string(env.Data), `"grants":[{`) {
		t.Fatalf("symlinked safe home: %d %s %s", r.code, env.Data, r.stderr)
	}
	if err := os.Chmod(w.home, 0o777); err != nil {
		t.Fatal(err)
	}
	env, r := linked("consent", "ls")
	w.fail(r, env, "E318", 1, link, "a link to "+w.home, "chmod 700 "+w.home)
	if err := os.Chmod(w.home, 0o700); err != nil {
		t.Fatal(err)
	}

	// A home that is not a directory.
	file := filepath.Join(t.TempDir(), "file")
	if err := os.WriteFile(file, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	r = w.runEnv([]string{"RELAVIUM_HOME=" + file}, "consent", "ls", "--json")
	w.fail(r, w.parse(r, nil), "E318", 1, "not a directory")
}

// TestForeignHomeIsRefused: a home owned by another user is refused, even
// with mode 0700. As root the test makes one (chown); otherwise "/" is a
// directory another user (root) owns.
func TestForeignHomeIsRefused(t *testing.T) {
	w := newWorld(t)
	w.config(twoServers)
	home := "/"
	if os.Geteuid() == 0 {
		home = filepath.Join(t.TempDir(), "nobody-home")
		if err := os.Mkdir(home, 0o700); err != nil {
			t.Fatal(err)
		}
		if err := os.Chown(home, 65534, 65534); err != nil {
			t.Fatal(err)
		}
	}
	r := w.runEnv([]string{"RELAVIUM_HOME=" + home}, "consent", "grant", "spy", "--json", "--yes")
	w.fail(r, w.parse(r, nil), "E318", 1, home, "owned by uid", "not by you")
	if home != "/" {
		if entries, _ := os.ReadDir(home); len(entries) != 0 {
			t.Fatalf("something was written to the foreign home: %v", entries)
		}
	}
}
