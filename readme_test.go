package main

import (
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestEveryErrorCodeIsDocumented keeps the README's error-code tables and
// skipped-tool reason table in step with the code: every stable code a
// package defines, and every discovery skip reason, must appear in README.md.
func TestEveryErrorCodeIsDocumented(t *testing.T) {
	readme, err := os.ReadFile("README.md")
	if err != nil {
		t.Fatal(err)
	}
	codeDef := regexp.MustCompile(`(?m)^\s*(?:const\s+)?\w+\s*=\s*"(E\d{3})"`)
	reasonDef := regexp.MustCompile(`(?m)^\s*Reason\w+\s*=\s*"([a-z0-9_]+)"`)
	var missing []string
	err = filepath.WalkDir(".", func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (strings.HasPrefix(d.Name(), ".") && path != "." || d.Name() == "testdata") {
			return filepath.SkipDir
		}
		if d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		src, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		for _, m := range codeDef.FindAllSubmatch(src, -1) {
			if !strings.Contains(string(readme), "| "+string(m[1])+" |") {
				missing = append(missing, string(m[1])+" ("+path+")")
			}
		}
		if filepath.Dir(path) != filepath.Join("host", "discovery") {
			return nil // skipped-tool reasons live in discovery; netguard's pair 1:1 with its codes
		}
		for _, m := range reasonDef.FindAllSubmatch(src, -1) {
			if !strings.Contains(string(readme), "`"+string(m[1])+"`") {
				missing = append(missing, string(m[1])+" ("+path+")")
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(missing) > 0 {
		t.Fatalf("codes defined but not documented in README.md:\n  %s", strings.Join(missing, "\n  "))
	}
}
