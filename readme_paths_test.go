package main

import (
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestDocsNameNoMachinePaths keeps the prose that ships with the code — every
// Markdown page, shell script and Makefile — free of paths that exist only on
// the machine it was written on (a checkout under /work, a home directory, a
// named temporary directory). A reader's paths differ: the docs say
// <checkout>, <project> or $PWD instead.
func TestDocsNameNoMachinePaths(t *testing.T) {
	machinePath := regexp.MustCompile(`(^|[^\w.<$])(/work/|/root/|/home/[A-Za-z_][\w.-]*|/tmp/[\w.-]+)`)
	checked := 0
	err := filepath.WalkDir(".", func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		name := d.Name()
		if d.IsDir() {
			if path != "." && (name == ".git" || name == ".peers" || name == "node_modules" || name == "bin") {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(name, ".md") && !strings.HasSuffix(name, ".sh") && name != "Makefile" {
			return nil
		}
		src, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		checked++
		for i, line := range strings.Split(string(src), "\n") {
			if m := machinePath.FindStringSubmatch(line); m != nil {
				t.Errorf("%s:%d names a machine path %q: write <checkout>, <project> or $PWD instead", path, i+1, m[2])
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if checked < 3 {
		t.Fatalf("checked only %d files: the walk missed README.md and the scripts", checked)
	}
}
