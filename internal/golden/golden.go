package golden

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
)

// UpdateEnv is the environment variable that, set to 1, makes Check and
// CheckDir rewrite the files they compare with.
const UpdateEnv = "RELAVIUM_UPDATE_GOLDEN"

// Update reports whether the update switch is on.
func Update() bool { return os.Getenv(UpdateEnv) == "1" }

// Check compares got with the file at path. With the update switch on it
// first writes got there.
func Check(t testing.TB, path string, got []byte) {
	t.Helper()
	if Update() {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatalf("golden: %v", err)
		}
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatalf("golden: %v", err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Errorf("golden %s: %v (%s=1 go test -run '%s' writes it)", path, err, UpdateEnv, t.Name())
		return
	}
	if bytes.Equal(got, want) {
		return
	}
	t.Errorf("%s differs from what the test produced (%s=1 go test -run '%s' accepts it, then review the diff)\n%s\n--- want\n%s\n--- got\n%s",
		path, UpdateEnv, t.Name(), firstDiff(string(want), string(got)), want, got)
}

// CheckDir holds dir to exactly the snapshots of names: every file in it
// must be <name><suffix> for one of names. A snapshot of an item that is
// gone is reported, and removed when the update switch is on; any other
// file is always reported (the switch removes only snapshots).
func CheckDir(t testing.TB, dir, suffix string, names []string) {
	t.Helper()
	keep := make(map[string]bool, len(names))
	for _, n := range names {
		keep[n+suffix] = true
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		if os.IsNotExist(err) && len(names) == 0 {
			return
		}
		t.Errorf("golden %s: %v", dir, err)
		return
	}
	var stale, stray []string
	for _, e := range entries {
		switch {
		case keep[e.Name()]:
		case e.IsDir() || !strings.HasSuffix(e.Name(), suffix):
			stray = append(stray, e.Name())
		case Update():
			if err := os.Remove(filepath.Join(dir, e.Name())); err != nil {
				t.Fatalf("golden: %v", err)
			}
		default:
			stale = append(stale, e.Name())
		}
	}
	if len(stale) > 0 {
		sort.Strings(stale)
		t.Errorf("%s holds snapshots of items that no longer exist: %s (%s=1 removes them)", dir, strings.Join(stale, ", "), UpdateEnv)
	}
	if len(stray) > 0 {
		sort.Strings(stray)
		t.Errorf("%s holds files that are not %s snapshots: %s", dir, suffix, strings.Join(stray, ", "))
	}
}

// firstDiff names the first line where want and got differ.
func firstDiff(want, got string) string {
	w, g := strings.Split(want, "\n"), strings.Split(got, "\n")
	line := func(ls []string, i int) string {
		if i < len(ls) {
			return fmt.Sprintf("%q", ls[i])
		}
		return "(end of file)"
	}
	for i := 0; i < len(w) || i < len(g); i++ {
		if i >= len(w) || i >= len(g) || w[i] != g[i] {
			return fmt.Sprintf("first difference at line %d:\n  want %s\n  got  %s", i+1, line(w, i), line(g, i))
		}
	}
	return "the files differ"
}
