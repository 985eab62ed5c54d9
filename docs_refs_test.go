package main

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// citedOutside matches a citation of a document that is not in this
// repository: design notes, specs and research notes that lived beside the
// code while it was written. A reader cannot follow such a citation, so the
// reason goes into the comment itself, or into a docs/ page.
var citedOutside = regexp.MustCompile(`DESIGN\.md|\b(?:spec|notes)/[\w-]+\.md|/shared/|\b(?:peers|go-sdk|anchors|architecture-review|peer-features)\.md|\(spec[: ]|\bspec: ["A-Za-z]|\.md §|\b[Tt]he spec\b`)

// docsRef matches a reference to a docs page.
var docsRef = regexp.MustCompile(`\bdocs/([\w-]+\.md)`)

// TestCitationsStayInTheRepository keeps what the code and its prose cite
// inside the repository: no comment, script or page cites a design, spec or
// notes file from outside it, and every docs/<page>.md named anywhere
// exists.
func TestCitationsStayInTheRepository(t *testing.T) {
	self := "docs_refs_test.go"
	checked := walkShipped(t, func(path, name string) bool {
		return path != self && (strings.HasSuffix(name, ".go") || strings.HasSuffix(name, ".md") ||
			strings.HasSuffix(name, ".sh") || name == "Makefile")
	}, func(path, name string, src []byte) {
		goFile := strings.HasSuffix(name, ".go")
		for i, line := range strings.Split(string(src), "\n") {
			prose := line
			if goFile { // in Go, only comments cite (a field named spec is not a citation)
				_, prose, _ = strings.Cut(line, "//")
			}
			if m := citedOutside.FindString(prose); m != "" {
				t.Errorf("%s:%d cites %q, which is not in this repository: write the reason here or point to docs/", path, i+1, m)
			}
			for _, m := range docsRef.FindAllStringSubmatch(line, -1) {
				if _, err := os.Stat(filepath.Join("docs", m[1])); err != nil {
					t.Errorf("%s:%d names docs/%s, which does not exist", path, i+1, m[1])
				}
			}
		}
	})
	if checked < 100 {
		t.Fatalf("checked only %d files: the walk is broken", checked)
	}
}

// TestDocsLinksResolve checks every relative link between the docs pages
// (and from them to the repository) names a file that exists.
func TestDocsLinksResolve(t *testing.T) {
	link := regexp.MustCompile(`\]\(([^)#:]+)(?:#[^)]*)?\)`)
	pages, err := filepath.Glob(filepath.Join("docs", "*.md"))
	if err != nil || len(pages) < 4 {
		t.Fatalf("docs pages %v (%v): want the index and its pages", pages, err)
	}
	for _, page := range append(pages, "README.md") {
		src, err := os.ReadFile(page)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range link.FindAllStringSubmatch(string(src), -1) {
			if _, err := os.Stat(filepath.Join(filepath.Dir(page), m[1])); err != nil {
				t.Errorf("%s links to %s, which does not exist", page, m[1])
			}
		}
	}
}
