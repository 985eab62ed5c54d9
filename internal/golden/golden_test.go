package golden

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// recorder is a testing.TB that keeps what Check and CheckDir report.
type recorder struct {
	testing.TB
	errs []string
}

func (r *recorder) Helper()      {}
func (r *recorder) Name() string { return "TestX" }
func (r *recorder) Errorf(format string, args ...any) {
	r.errs = append(r.errs, fmt.Sprintf(format, args...))
}
func (r *recorder) Fatalf(format string, args ...any) {
	r.TB.Fatalf(format, args...)
}

func TestCheckMatchMismatchMissing(t *testing.T) {
	t.Setenv(UpdateEnv, "")
	dir := t.TempDir()
	path := filepath.Join(dir, "a.golden")
	if err := os.WriteFile(path, []byte("one\ntwo\n"), 0o644); err != nil {
		t.Fatal(err)
	}

	r := &recorder{TB: t}
	Check(r, path, []byte("one\ntwo\n"))
	if len(r.errs) != 0 {
		t.Fatalf("equal content reported: %q", r.errs)
	}

	Check(r, path, []byte("one\nTWO\n"))
	if len(r.errs) != 1 || !strings.Contains(r.errs[0], `line 2:`) || !strings.Contains(r.errs[0], `want "two"`) ||
		!strings.Contains(r.errs[0], `got  "TWO"`) || !strings.Contains(r.errs[0], UpdateEnv+"=1") {
		t.Fatalf("mismatch report %q", r.errs)
	}
	if b, _ := os.ReadFile(path); string(b) != "one\ntwo\n" {
		t.Fatalf("a mismatch without the switch rewrote the file: %q", b)
	}

	r.errs = nil
	Check(r, path, []byte("one\ntwo\n\nfour"))
	if len(r.errs) != 1 || !strings.Contains(r.errs[0], "line 4:") || !strings.Contains(r.errs[0], "want (end of file)") {
		t.Fatalf("longer output report %q", r.errs)
	}

	r.errs = nil
	Check(r, filepath.Join(dir, "missing.golden"), []byte("x"))
	if len(r.errs) != 1 || !strings.Contains(r.errs[0], UpdateEnv+"=1") {
		t.Fatalf("missing file report %q", r.errs)
	}
	if _, err := os.Stat(filepath.Join(dir, "missing.golden")); !os.IsNotExist(err) {
		t.Fatalf("a missing golden was created without the switch: %v", err)
	}
}

func TestCheckUpdateWrites(t *testing.T) {
	t.Setenv(UpdateEnv, "1")
	path := filepath.Join(t.TempDir(), "sub", "b.snap")
	r := &recorder{TB: t}
	Check(r, path, []byte("new\n"))
	if len(r.errs) != 0 {
		t.Fatalf("update run reported: %q", r.errs)
	}
	if b, err := os.ReadFile(path); err != nil || string(b) != "new\n" {
		t.Fatalf("update wrote %q, %v", b, err)
	}
	Check(r, path, []byte("newer\n"))
	if b, _ := os.ReadFile(path); string(b) != "newer\n" || len(r.errs) != 0 {
		t.Fatalf("second update wrote %q, reported %q", b, r.errs)
	}
}

func TestCheckDirStale(t *testing.T) {
	dir := t.TempDir()
	for _, n := range []string{"a.snap", "b.snap", "gone.snap", "notes.txt"} {
		if err := os.WriteFile(filepath.Join(dir, n), []byte("{}"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	t.Setenv(UpdateEnv, "")
	r := &recorder{TB: t}
	CheckDir(r, dir, ".snap", []string{"a", "b"})
	if len(r.errs) != 2 || !strings.Contains(r.errs[0], "no longer exist: gone.snap (") || !strings.Contains(r.errs[1], "not .snap snapshots: notes.txt") {
		t.Fatalf("stale report %q", r.errs)
	}
	if _, err := os.Stat(filepath.Join(dir, "gone.snap")); err != nil {
		t.Fatalf("stale snapshot removed without the switch: %v", err)
	}

	t.Setenv(UpdateEnv, "1")
	r.errs = nil
	CheckDir(r, dir, ".snap", []string{"a", "b"})
	if len(r.errs) != 1 || !strings.Contains(r.errs[0], "notes.txt") {
		t.Fatalf("update run: want only the stray file reported, got %q", r.errs)
	}
	if _, err := os.Stat(filepath.Join(dir, "gone.snap")); !os.IsNotExist(err) {
		t.Fatalf("stale snapshot kept under the switch: %v", err)
	}
	for _, n := range []string{"a.snap", "b.snap", "notes.txt"} {
		if _, err := os.Stat(filepath.Join(dir, n)); err != nil {
			t.Fatalf("%s removed: %v", n, err)
		}
	}
}
