package main

import (
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/relavium/relavium/invoke"
	"github.com/relavium/relavium/invoke/cli"
)

// synopsisEntry is one command of the synopsis in docs/commands.md: its path and every
// --flag its synopsis lines name.
type synopsisEntry struct {
	path  string
	flags []string
}

var (
	synopsisFlag = regexp.MustCompile(`--([a-z][a-z0-9-]*)`)
	synopsisWord = regexp.MustCompile(`^[a-z_][a-z_-]*$`)
)

// readmeSynopsis parses the first code block of docs/commands.md: the first
// line holds the global flags; a line indented two spaces starts a command
// (its path is its leading lowercase words); a line indented further
// continues the one before when it starts with a flag or a bracket. On each
// line the synopsis ends at the first gap of two spaces (a summary follows).
func readmeSynopsis(t *testing.T) (globals []string, entries []synopsisEntry) {
	t.Helper()
	page := string(readDoc(t, commandsPage))
	if !strings.HasPrefix(page, "# Commands\n") {
		t.Fatalf("%s does not start with its title # Commands", commandsPage)
	}
	_, after, ok := strings.Cut(page, "```\n")
	block, _, ok2 := strings.Cut(after, "\n```")
	if !ok || !ok2 {
		t.Fatalf("%s has no code block", commandsPage)
	}
	lines := strings.Split(block, "\n")
	if !strings.HasPrefix(lines[0], "relavium ") {
		t.Fatalf("the synopsis starts %q, want the global line `relavium [--project DIR] ...`", lines[0])
	}
	flagsOf := func(s string) []string {
		s, _, _ = strings.Cut(s, "  ")
		var out []string
		for _, m := range synopsisFlag.FindAllStringSubmatch(s, -1) {
			out = append(out, m[1])
		}
		return out
	}
	globals = flagsOf(lines[0])
	for _, line := range lines[1:] {
		body := strings.TrimLeft(line, " ")
		switch indent := len(line) - len(body); {
		case indent == 2:
			body = strings.TrimPrefix(body, "(no command) / ")
			syn, _, _ := strings.Cut(body, "  ")
			var path []string
			for _, w := range strings.Fields(syn) {
				if !synopsisWord.MatchString(w) {
					break
				}
				path = append(path, w)
			}
			entries = append(entries, synopsisEntry{path: strings.Join(path, " "), flags: flagsOf(body)})
		case indent > 2 && len(entries) > 0 && (strings.HasPrefix(body, "[") || strings.HasPrefix(body, "--")):
			e := &entries[len(entries)-1]
			e.flags = append(e.flags, flagsOf(body)...)
		}
	}
	return globals, entries
}

func flagNames(fs []cli.Flag) []string {
	var out []string
	for _, f := range fs {
		out = append(out, f.Name)
	}
	return out
}

// sameSet reports whether a and b hold the same names (order and repeats
// aside).
func sameSet(a, b []string) bool {
	a, b = slices.Clone(a), slices.Clone(b)
	slices.Sort(a)
	slices.Sort(b)
	return slices.Equal(slices.Compact(a), slices.Compact(b))
}

// TestReadmeSynopsisMatchesCommandTable holds the command synopsis in docs/commands.md
// to the command table (invoke/commands.go), both ways: every runnable
// command of the table has one synopsis entry naming exactly its flags, the
// global line names exactly the global flags, and the synopsis names no
// command the table lacks.
func TestReadmeSynopsisMatchesCommandTable(t *testing.T) {
	table := invoke.Commands()
	globals, entries := readmeSynopsis(t)
	if want := flagNames(table.Globals); !sameSet(globals, want) {
		t.Errorf("the synopsis's global flags %v, the table's %v", globals, want)
	}
	seen := map[string]bool{}
	for _, e := range entries {
		if seen[e.path] {
			t.Errorf("the synopsis lists %q twice", e.path)
		}
		seen[e.path] = true
		c := table.Lookup(strings.Fields(e.path))
		if c == nil || c.Run == nil {
			t.Errorf("the synopsis lists %q, which is not a runnable command of the table", e.path)
			continue
		}
		if want := flagNames(c.Flags); !sameSet(e.flags, want) {
			t.Errorf("the synopsis of %q names flags %v, the table's are %v", e.path, e.flags, want)
		}
	}
	runnable := 0
	for _, c := range table.Commands {
		if c.Run == nil {
			continue
		}
		runnable++
		if !seen[c.Name()] {
			t.Errorf("command %q is in the table but not in the the synopsis", c.Name())
		}
	}
	if runnable < 10 || len(entries) < 10 {
		t.Fatalf("%d runnable commands, %d synopsis entries: the parse is broken", runnable, len(entries))
	}
}
