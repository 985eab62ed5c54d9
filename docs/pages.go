package docs

import (
	"embed"
	"regexp"
	"strings"
)

// pages holds every Markdown page of this directory; embed.FS is read-only.
//
//go:embed *.md
var pages embed.FS

// indexPage is the page that lists the others; it is not a topic.
const indexPage = "README.md"

// Topic is one page of the reference.
type Topic struct {
	Name    string `json:"name"`    // the page's file name without .md
	Title   string `json:"title"`   // its first heading
	Summary string `json:"summary"` // what the index says it holds
}

// indexRow matches a row of the index's table: | [name.md](name.md) | summary |.
var indexRow = regexp.MustCompile(`(?m)^\| \[([a-z0-9-]+)\.md\]\([a-z0-9-]+\.md\) \| (.+) \|$`)

// Topics lists the pages in the order the index gives them. A page the
// index does not list is still a topic (listed last, without a summary):
// the repository's tests keep the index complete.
func Topics() []Topic {
	index, _ := pages.ReadFile(indexPage)
	var out []Topic
	seen := map[string]bool{}
	for _, m := range indexRow.FindAllStringSubmatch(string(index), -1) {
		if _, ok := Page(m[1]); ok && !seen[m[1]] {
			seen[m[1]] = true
			out = append(out, Topic{Name: m[1], Title: title(m[1]), Summary: m[2]})
		}
	}
	entries, _ := pages.ReadDir(".")
	for _, e := range entries {
		name, ok := strings.CutSuffix(e.Name(), ".md")
		if ok && e.Name() != indexPage && !seen[name] {
			out = append(out, Topic{Name: name, Title: title(name)})
		}
	}
	return out
}

// Page returns the Markdown of the topic name (a page's file name without
// .md; the index is not a topic).
func Page(name string) ([]byte, bool) {
	if name == "" || strings.ContainsAny(name, `/\.`) || name+".md" == indexPage {
		return nil, false
	}
	b, err := pages.ReadFile(name + ".md")
	return b, err == nil
}

// title is the text of a page's first line when it is a heading.
func title(name string) string {
	b, _ := Page(name)
	first, _, _ := strings.Cut(string(b), "\n")
	if t, ok := strings.CutPrefix(first, "# "); ok {
		return strings.TrimSpace(t)
	}
	return name
}
