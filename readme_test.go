package main

import (
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// codeDef matches one stable error code declared as a constant (optionally
// typed): `CodeX = "E123"`, `const CodeX Code = "E123"`.
var codeDef = regexp.MustCompile(`(?m)^\s*(?:const\s+)?\w+(?:\s+[\w.]+)?\s*=\s*"(E\d{3})"`)

// TestEveryErrorCodeIsDocumented keeps the README's error-code tables and
// skipped-tool reason table in step with the code: every stable code a
// package defines, and every discovery skip reason, must appear in README.md.
func TestEveryErrorCodeIsDocumented(t *testing.T) {
	readme, err := os.ReadFile("README.md")
	if err != nil {
		t.Fatal(err)
	}
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

// declaredCodes maps every stable error code declared in non-test Go source
// to the files that declare it.
func declaredCodes(t *testing.T) map[string][]string {
	t.Helper()
	decl := map[string][]string{}
	err := filepath.WalkDir(".", func(path string, d fs.DirEntry, err error) error {
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
			decl[string(m[1])] = append(decl[string(m[1])], path)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return decl
}

// TestEveryDocumentedCodeIsDeclaredOnce is the other direction: every code
// a row of the README's error tables names is declared by some package, and
// no code is declared twice (one package owns each code: the one that raises
// it; another package that passes it on refers to that constant).
func TestEveryDocumentedCodeIsDeclaredOnce(t *testing.T) {
	readme, err := os.ReadFile("README.md")
	if err != nil {
		t.Fatal(err)
	}
	decl := declaredCodes(t)
	if len(decl) < 100 {
		t.Fatalf("found only %d declared codes: the walk or the pattern is broken", len(decl))
	}
	row := regexp.MustCompile(`(?m)^\|\s*(E\d{3})\s*\|`)
	rows := row.FindAllSubmatch(readme, -1)
	if len(rows) < 100 {
		t.Fatalf("found only %d error-table rows in README.md", len(rows))
	}
	seen := map[string]bool{}
	for _, m := range rows {
		code := string(m[1])
		if seen[code] {
			t.Errorf("README.md has two rows for %s", code)
		}
		seen[code] = true
		if len(decl[code]) == 0 {
			t.Errorf("README.md documents %s, which no package declares", code)
		}
	}
	for code, files := range decl {
		if len(files) > 1 {
			t.Errorf("%s is declared %d times (%s): keep it in the package that raises it", code, len(files), strings.Join(files, ", "))
		}
	}
}
