package filelock

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestLocksConflictAcrossOpens: an exclusive lock makes every other open
// of the file busy, shared and exclusive; shared locks coexist; Unlock
// frees the file. (Two opens conflict as two processes do: flock and
// LockFileEx both lock per open file, not per process.)
func TestLocksConflictAcrossOpens(t *testing.T) {
	path := filepath.Join(t.TempDir(), "f")
	open := func() *os.File {
		f, err := OpenNoFollow(path, os.O_RDWR|os.O_CREATE, 0o600)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { f.Close() })
		return f
	}
	a, b := open(), open()
	if busy, err := TryLock(a, true); busy || err != nil {
		t.Fatalf("first exclusive lock: busy %v, %v", busy, err)
	}
	for _, ex := range []bool{true, false} {
		if busy, err := TryLock(b, ex); !busy || err != nil {
			t.Fatalf("lock (exclusive %v) beside an exclusive one: busy %v, %v", ex, busy, err)
		}
	}
	if err := Unlock(a); err != nil {
		t.Fatal(err)
	}
	if busy, err := TryLock(b, false); busy || err != nil {
		t.Fatalf("shared lock after unlock: busy %v, %v", busy, err)
	}
	if busy, err := TryLock(a, false); busy || err != nil {
		t.Fatalf("a second shared lock: busy %v, %v", busy, err)
	}
	if busy, err := TryLock(open(), true); !busy || err != nil {
		t.Fatalf("exclusive beside two shared: busy %v, %v", busy, err)
	}
	// The lock never stands in the way of the file's bytes.
	if _, err := b.WriteAt([]byte("line\n"), 0); err != nil {
		t.Fatalf("write under another open's shared lock: %v", err)
	}
}

// TestOpenNoFollowRefusesALink: a symlink at the path is refused, and the
// refusal is recognisable.
func TestOpenNoFollowRefusesALink(t *testing.T) {
	dir := t.TempDir()
	target := filepath.Join(dir, "target")
	if err := os.WriteFile(target, []byte("x"), 0o600); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(dir, "link")
	if err := os.Symlink(target, link); err != nil {
		t.Skipf("no symlinks here: %v", err)
	}
	f, err := OpenNoFollow(link, os.O_RDONLY, 0)
	if err == nil {
		f.Close()
		t.Fatal("OpenNoFollow opened a link")
	}
	if !IsLinkRefusal(err) {
		t.Fatalf("the refusal %v is not recognised as a link refusal", err)
	}
}

// filelock is a leaf: the standard library and golang.org/x/sys only.
func TestFilelockImportsOnlyTheStandardLibraryAndXSys(t *testing.T) {
	const self = "github.com/relavium/relavium/filelock"
	out, err := exec.Command("go", "list", "-deps", "-f", "{{if not .Standard}}{{.ImportPath}}{{end}}", self).CombinedOutput()
	if err != nil {
		t.Fatalf("go list: %v\n%s", err, out)
	}
	for _, d := range strings.Fields(string(out)) {
		if d != self && !strings.HasPrefix(d, "golang.org/x/sys/") {
			t.Errorf("filelock depends on %s", d)
		}
	}
}
