package docs

import (
	"regexp"
	"strings"
	"unicode/utf8"
)

var (
	// image is ![alt](target); link is [text](target), target possibly
	// page.md#anchor, #anchor, a repository path or a url.
	image    = regexp.MustCompile(`!\[([^\]]*)\]\([^)\s]*\)`)
	link     = regexp.MustCompile(`\[([^\]]+)\]\(([^)\s]*)\)`)
	autolink = regexp.MustCompile(`<(https?://[^>\s]+)>`)
	pageRef  = regexp.MustCompile(`^([a-z0-9-]+)\.md(?:#.*)?$`)
	tableSep = regexp.MustCompile(`^\|(?:\s*:?-+:?\s*\|)+$`)
)

// Plain renders a page's Markdown as plain text for a terminal: a heading
// becomes its text underlined (= for the title, - for a section), a fenced
// block its lines indented four spaces, a link its text followed by where
// it leads (another page: `relavium help NAME`; a url: the url), bold its
// text, a table's rows their cells between bars (the separator row goes).
func Plain(markdown []byte) string {
	var b strings.Builder
	fenced := false
	for _, line := range strings.Split(strings.TrimRight(string(markdown), "\n"), "\n") {
		if strings.HasPrefix(line, "```") {
			fenced = !fenced
			continue
		}
		if fenced {
			b.WriteString("    " + line + "\n")
			continue
		}
		switch {
		case strings.HasPrefix(line, "# "):
			underline(&b, inline(line[2:]), "=")
		case strings.HasPrefix(line, "## "):
			underline(&b, inline(line[3:]), "-")
		case strings.HasPrefix(line, "### "), strings.HasPrefix(line, "#### "):
			b.WriteString(inline(strings.TrimLeft(line, "# ")) + "\n")
		case tableSep.MatchString(strings.TrimSpace(line)):
			// the separator row says nothing in plain text
		case strings.HasPrefix(line, "| ") && strings.HasSuffix(line, " |"):
			b.WriteString(inline(strings.TrimSuffix(strings.TrimPrefix(line, "| "), " |")) + "\n")
		default:
			b.WriteString(inline(line) + "\n")
		}
	}
	return b.String()
}

func underline(b *strings.Builder, text, mark string) {
	b.WriteString(text + "\n" + strings.Repeat(mark, max(3, utf8.RuneCountInString(text))) + "\n")
}

// inline rewrites a line's links, images and bold.
func inline(s string) string {
	s = image.ReplaceAllString(s, "$1")
	s = autolink.ReplaceAllString(s, "$1")
	s = link.ReplaceAllStringFunc(s, func(m string) string {
		sub := link.FindStringSubmatch(m)
		text, target := sub[1], sub[2]
		switch {
		case strings.HasPrefix(target, "http://") || strings.HasPrefix(target, "https://"):
			return text + " <" + target + ">"
		case pageRef.MatchString(target):
			name := pageRef.FindStringSubmatch(target)[1]
			if _, ok := Page(name); ok {
				return text + " (relavium help " + name + ")"
			}
		}
		return text // an anchor on this page, or a file of the repository
	})
	// Bold may open on one line and close on the next: drop every ** that
	// is not inside a code span.
	parts := strings.Split(s, "`")
	for i := 0; i < len(parts); i += 2 {
		parts[i] = strings.ReplaceAll(parts[i], "**", "")
	}
	return strings.Join(parts, "`")
}
