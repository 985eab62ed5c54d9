package invoke

import (
	"strings"
	"testing"

	"github.com/relavium/relavium/invoke/cli"
)

// splitShell splits an example as a POSIX shell would for the simple
// quoting examples use (double quotes around a word with spaces).
func splitShell(s string) []string {
	var out []string
	var cur strings.Builder
	inQ, any := false, false
	for _, r := range s {
		switch {
		case r == '"':
			inQ, any = !inQ, true
		case r == ' ' && !inQ:
			if any {
				out = append(out, cur.String())
			}
			cur.Reset()
			any = false
		default:
			cur.WriteRune(r)
			any = true
		}
	}
	if any {
		out = append(out, cur.String())
	}
	return out
}

// Every command a person runs has a --help example, and every example
// parses against the command table as it stands (its path, its flags,
// its arguments' count), so help never shows what is not there.
func TestEveryCommandHasAnExampleThatParses(t *testing.T) {
	tbl := Commands()
	ex := cli.CommandExamples()
	for _, c := range tbl.Commands {
		if c.Run == nil || c.Hidden {
			continue
		}
		if len(ex[c.Name()]) == 0 {
			t.Errorf("%s has no --help example", c.Name())
		}
	}
	for name, list := range ex {
		for _, e := range list {
			words := splitShell(e)
			if len(words) == 0 || words[0] != "relavium" {
				t.Errorf("%s: example %q does not start with relavium", name, e)
				continue
			}
			inv, err := tbl.Parse(&cli.Env{}, words[1:])
			if err != nil {
				t.Errorf("%s: example %q does not parse: %v", name, e, err)
				continue
			}
			if got := inv.Cmd.Name(); got != name {
				t.Errorf("example %q is filed under %s but runs %s", e, name, got)
			}
		}
	}
	h := tbl.Help([]string{"mcp", "call"})
	var b strings.Builder
	if err := h.WriteHuman(&b); err != nil || !strings.Contains(b.String(), "Examples:\n  relavium mcp call echo message=hi --yes") {
		t.Fatalf("mcp call --help shows no example:\n%s", b.String())
	}
}
