package invoke

import (
	"github.com/relavium/relavium/invoke/cli"
	"strings"
	"testing"
)

// TestManEscapesRoffSpecials: text from the table never starts a roff
// request and never carries a raw backslash escape.
func TestManEscapesRoffSpecials(t *testing.T) {
	for in, want := range map[string]string{
		".so /etc/passwd": `\&.so /etc/passwd`,
		"'br":             `\&'br`,
		`a\fBb`:           `a\efBb`,
		"--flag":          `\-\-flag`,
		"two\nlines":      "two lines",
	} {
		if got := roff(in); got != want {
			t.Errorf("roff(%q) = %q, want %q", in, got, want)
		}
	}
	tbl := Commands()
	tbl.Commands = append(tbl.Commands, &cli.Command{Path: []string{"x"}, Summary: ".TH evil", Run: runMan})
	page := manPage(tbl, `1.0\"`)
	for _, line := range strings.Split(page, "\n") {
		if strings.HasPrefix(line, ".TH evil") {
			t.Fatalf("a summary became a request: %q", line)
		}
	}
}
