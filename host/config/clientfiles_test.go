package config

import (
	"bufio"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// The client files people write, collected from public repositories
// (testdata/clientfiles, provenance in PROVENANCE.tsv): each is read as
// `config import` reads it. The share that imports and every file refused
// are what docs/client-config.md's table says.
func TestRealClientFiles(t *testing.T) {
	root := filepath.Join("..", "..", "testdata", "clientfiles")
	files, err := filepath.Glob(filepath.Join(root, "*", "*.json"))
	if err != nil || len(files) < 40 {
		t.Fatalf("%d client files (%v), want at least 40", len(files), err)
	}
	prov := provenance(t, filepath.Join(root, "PROVENANCE.tsv"))
	doc, err := os.ReadFile(filepath.Join("..", "..", "docs", "client-config.md"))
	if err != nil {
		t.Fatal(err)
	}
	imported, servers, admitted := 0, 0, 0
	var refused []string
	for _, f := range files {
		rel := filepath.ToSlash(strings.TrimPrefix(f, root+string(filepath.Separator)))
		if !prov[rel] {
			t.Errorf("%s has no provenance row (repo, path, commit)", rel)
		}
		cfg, err := LoadFrom(t.TempDir(), t.TempDir(), Sources{Files: []string{f}})
		if err == nil {
			servers += len(cfg.Servers) + len(cfg.Failed)
			admitted += len(cfg.Servers)
		}
		if err == nil && len(cfg.Servers) > 0 {
			imported++
			continue
		}
		refused = append(refused, rel)
		if !strings.Contains(string(doc), "`"+rel+"`") {
			t.Errorf("docs/client-config.md does not justify the refusal of %s (%v)", rel, firstProblem(cfg, err))
		}
	}
	line := fmt.Sprintf("%d of %d files import (%d%%); %d of %d servers in the files that parse",
		imported, len(files), 100*imported/len(files), admitted, servers)
	t.Log(line, "refused:", refused)
	if !strings.Contains(string(doc), line) {
		t.Errorf("docs/client-config.md does not say %q", line)
	}
	for _, m := range regexp.MustCompile("`((?:mcp\\.json|cursor|vscode|claude-desktop)/[^`]+\\.json)`").FindAllStringSubmatch(string(doc), -1) {
		if !slices.Contains(refused, m[1]) {
			t.Errorf("docs/client-config.md names %s as refused, and it imports", m[1])
		}
	}
}

func firstProblem(cfg *Config, err error) string {
	switch {
	case err != nil:
		return err.Error()
	case len(cfg.Failed) > 0:
		return cfg.Failed[0].Code() + " " + cfg.Failed[0].Reason()
	}
	return "no server"
}

func provenance(t *testing.T, path string) map[string]bool {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	out := map[string]bool{}
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		cols := strings.Split(sc.Text(), "\t")
		if len(cols) >= 4 && cols[0] != "file" && cols[1] != "" && cols[2] != "" && len(cols[3]) == 40 {
			out[cols[0]] = true
		}
	}
	return out
}
