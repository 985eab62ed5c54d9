package main

import (
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"unicode"
)

// The reference pages the doc-binding tests read: the README is the front
// door, and the reference it links to lives in docs/, one page per topic.
const (
	codesPage        = "docs/error-codes.md"
	commandsPage     = "docs/commands.md"
	architecturePage = "docs/architecture.md"
	docsIndex        = "docs/README.md"
	readmeMaxLines   = 300
)

// readDoc reads one page of the checkout (a path relative to the module
// root, slash-separated).
func readDoc(t *testing.T, page string) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.FromSlash(page))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestReadmeStaysShort keeps the README a front door read in ten minutes:
// at most readmeMaxLines lines; the reference belongs in docs/.
func TestReadmeStaysShort(t *testing.T) {
	readme := string(readDoc(t, "README.md"))
	if n := strings.Count(readme, "\n"); n > readmeMaxLines {
		t.Errorf("README.md has %d lines, over %d: move the reference into a docs/ page and link it", n, readmeMaxLines)
	}
	for _, want := range []string{"go run . demo", "make test", "go install", "testdata/tui/screenshot.png"} {
		if !strings.Contains(readme, want) {
			t.Errorf("README.md does not say %q", want)
		}
	}
}

// TestDocsIndexListsEveryPage holds the docs index and the README's
// reference table to the pages in docs/: each page is linked from both.
func TestDocsIndexListsEveryPage(t *testing.T) {
	pages, err := filepath.Glob(filepath.Join("docs", "*.md"))
	if err != nil || len(pages) < 10 {
		t.Fatalf("docs pages %v (%v): want one page per topic", pages, err)
	}
	index := string(readDoc(t, docsIndex))
	readme := string(readDoc(t, "README.md"))
	for _, p := range pages {
		name := filepath.Base(p)
		if name == "README.md" {
			continue
		}
		if !strings.Contains(index, "]("+name+")") {
			t.Errorf("%s does not link %s", docsIndex, name)
		}
		if !strings.Contains(readme, "](docs/"+name+")") {
			t.Errorf("README.md's reference table does not link docs/%s", name)
		}
	}
}

// mdLink matches a Markdown link's target: a file (possibly empty, for a
// link within the page) and an optional #anchor.
var mdLink = regexp.MustCompile(`\]\(([^)#:\s]*)(?:#([^)\s]*))?\)`)

// TestDocsAnchorsResolve checks every #anchor a page links to (within
// itself or on another page) names a heading of that page, as GitHub
// derives anchors from headings. A section that moved pages must take its
// links along.
func TestDocsAnchorsResolve(t *testing.T) {
	pages, err := filepath.Glob(filepath.Join("docs", "*.md"))
	if err != nil {
		t.Fatal(err)
	}
	pages = append(pages, "README.md")
	anchors := map[string]map[string]bool{}
	for _, p := range pages {
		anchors[filepath.Clean(p)] = headingAnchors(string(readDoc(t, filepath.ToSlash(p))))
	}
	linked := 0
	for _, p := range pages {
		for _, m := range mdLink.FindAllStringSubmatch(string(readDoc(t, filepath.ToSlash(p))), -1) {
			if m[2] == "" {
				continue
			}
			target := filepath.Clean(p)
			if m[1] != "" {
				target = filepath.Clean(filepath.Join(filepath.Dir(p), m[1]))
			}
			set, ok := anchors[target]
			if !ok {
				continue // not a page (a source file): TestDocsLinksResolve checks it exists
			}
			linked++
			if !set[m[2]] {
				t.Errorf("%s links to %s#%s, which has no such heading", p, target, m[2])
			}
		}
	}
	if linked < 10 {
		t.Fatalf("only %d anchored links found: the parse is broken", linked)
	}
}

// headingAnchors returns the anchors GitHub gives a page's headings:
// lower case, punctuation dropped (hyphens and underscores kept), spaces
// to hyphens, and -1, -2 … on repeats. Headings inside code blocks are
// not headings.
func headingAnchors(page string) map[string]bool {
	out := map[string]bool{}
	seen := map[string]int{}
	fenced := false
	for _, line := range strings.Split(page, "\n") {
		if strings.HasPrefix(line, "```") {
			fenced = !fenced
			continue
		}
		if fenced || !strings.HasPrefix(line, "#") {
			continue
		}
		text := strings.TrimSpace(strings.TrimLeft(line, "#"))
		var b strings.Builder
		for _, r := range strings.ToLower(text) {
			switch {
			case r == ' ':
				b.WriteByte('-')
			case r == '-' || r == '_' || unicode.IsLetter(r) || unicode.IsDigit(r):
				b.WriteRune(r)
			}
		}
		a := b.String()
		if n := seen[a]; n > 0 {
			seen[a] = n + 1
			a = a + "-" + strconv.Itoa(n)
		} else {
			seen[a] = 1
		}
		out[a] = true
	}
	return out
}
