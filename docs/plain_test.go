package docs

import (
	"strings"
	"testing"
)

// TestPlain renders each construct the pages use.
func TestPlain(t *testing.T) {
	md := "# A title\n\nSee [the keys](keys.md#keys), [OAuth](#oauth), [spec](https://example.org/s), " +
		"[code](../invoke/commands.go) and <https://example.org/x>; **bold** and `code`.\n\n" +
		"## A section\n\n### Sub\n\n| a | b |\n|---|---|\n| `x` | y |\n\n```toml\nname = \"x\"\n```\n"
	want := "A title\n=======\n\nSee the keys (relavium help keys), OAuth, spec <https://example.org/s>, " +
		"code and https://example.org/x; bold and `code`.\n\n" +
		"A section\n---------\n\nSub\n\na | b\n`x` | y\n\n    name = \"x\"\n"
	if got := Plain([]byte(md)); got != want {
		t.Fatalf("Plain:\n%s\nwant:\n%s", got, want)
	}
}

// TestTopicsAndPages: every topic has its page, the index is not one, and
// no name reaches outside the embedded directory.
func TestTopicsAndPages(t *testing.T) {
	topics := Topics()
	if len(topics) < 10 {
		t.Fatalf("%d topics", len(topics))
	}
	for _, tp := range topics {
		b, ok := Page(tp.Name)
		if !ok || !strings.HasPrefix(string(b), "# "+tp.Title+"\n") {
			t.Errorf("topic %+v: page %v, starts %.40q", tp, ok, b)
		}
	}
	for _, bad := range []string{"", "README", "../README", "keys.md", "./keys", `a\b`} {
		if _, ok := Page(bad); ok {
			t.Errorf("Page(%q) found a page", bad)
		}
	}
}
