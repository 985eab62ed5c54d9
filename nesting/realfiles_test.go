package nesting

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/goccy/go-yaml/parser"
)

// TestYAMLRepoFilesMeasureClose: every YAML file of the repository is
// measured at least as deep as goccy builds it, and at most two levels more
// when it has no anchors, aliases or tags (the scan is conservative, not
// sloppy: real files pass the real caps).
func TestYAMLRepoFilesMeasureClose(t *testing.T) {
	n := 0
	err := filepath.WalkDir("..", func(path string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (d.Name() == ".peers" || d.Name() == "node_modules" || d.Name() == ".git") {
			return filepath.SkipDir
		}
		if d.IsDir() || !(strings.HasSuffix(path, ".yaml") || strings.HasSuffix(path, ".yml")) {
			return nil
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		f, perr := parser.ParseBytes(data, 0)
		if perr != nil {
			return nil
		}
		got := 0
		for _, doc := range f.Docs {
			got = max(got, astDepth(doc))
		}
		st, _ := YAML(data, Limits{})
		n++
		// Anchors, aliases and tags count a level each for the rest of the
		// document: only files without them are held to the close bound.
		props := strings.ContainsAny(string(data), "&*!")
		if st.Depth < got || (!props && st.Depth > got+2) {
			t.Errorf("%s: scanned depth %d, goccy %d", path, st.Depth, got)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("%d YAML files", n)
	if n < 5 {
		t.Fatalf("only %d YAML files found", n)
	}
}
