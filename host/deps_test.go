package host

import (
	"bytes"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// host's rooms stand below its root: no package under host/ depends, even
// transitively, on package host itself (the root composes them; they never
// reach back).
func TestHostRoomsStayBelowTheRoot(t *testing.T) {
	const module = "github.com/relavium/relavium/"
	out, err := exec.Command("go", "list", module+"host/...").CombinedOutput()
	if err != nil {
		t.Fatalf("go list: %v\n%s", err, out)
	}
	pkgs := strings.Fields(string(out))
	if !slices.Contains(pkgs, module+"host/proc") || !slices.Contains(pkgs, module+"host/discovery") {
		t.Fatalf("go list found too few rooms: %q", pkgs)
	}
	for _, pkg := range pkgs {
		if pkg == module+"host" {
			continue
		}
		out, err := exec.Command("go", "list", "-deps", pkg).CombinedOutput()
		if err != nil {
			t.Fatalf("go list -deps %s: %v\n%s", pkg, err, out)
		}
		if slices.Contains(strings.Fields(string(out)), module+"host") {
			t.Errorf("%s depends on package host, the root above it", strings.TrimPrefix(pkg, module))
		}
	}
}

// No room of host, and not its root, holds more than 40 files or 5,000
// lines of non-test Go (comments included); a package that outgrows it
// splits by concern rather than growing.
func TestHostRoomsStaySmall(t *testing.T) {
	const maxFiles, maxLines = 40, 5000
	files, lines := map[string]int{}, map[string]int{}
	err := filepath.WalkDir(".", func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if name := d.Name(); path != "." && (name == "testdata" || strings.HasPrefix(name, ".") || strings.HasPrefix(name, "_")) {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		dir := filepath.Join("host", filepath.Dir(path))
		files[dir]++
		lines[dir] += bytes.Count(b, []byte("\n"))
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if files["host"] == 0 || files["host/discovery"] == 0 || files["host/proc"] == 0 {
		t.Fatalf("found too little to judge: %v", files)
	}
	for dir, n := range files {
		switch {
		case n > maxFiles:
			t.Errorf("%s holds %d files of non-test Go (at most %d): split it by concern", dir, n, maxFiles)
		case lines[dir] > maxLines:
			t.Errorf("%s holds %d lines of non-test Go (at most %d): split it by concern", dir, lines[dir], maxLines)
		}
	}
}
