package shellcmd

import (
	"regexp"
	"strings"

	"github.com/relavium/relavium/tui/render"
)

// Lines lays a command's words (unquoted) out within w cells for a
// person to select, so that what is selected and pasted is the same
// command: lines end in " \\" (one command still), and a flag stays on
// one line with its value, so no line break ever falls inside a flag. A
// flag whose value would not fit beside it goes on a line of its own; a
// word longer than a line is cut into pieces, each quoted for the shell
// and ended with a backslash where it is cut, the next piece at the start
// of the next line (the shell drops a backslash-newline outside quotes,
// so the pieces are one word again).
func Lines(words []string, w int) []string {
	w = max(w, 8)
	var units [][]string
	for i := 0; i < len(words); i++ {
		if strings.HasPrefix(words[i], "--") && i+1 < len(words) && !strings.HasPrefix(words[i+1], "--") {
			units = append(units, []string{words[i], words[i+1]})
			i++
			continue
		}
		units = append(units, []string{words[i]})
	}
	var lines []string
	line := ""
	// add puts one quoted word, or a flag and its value, after what is on
	// the line, on a continuation line when it does not fit (room is kept
	// for the " \\" that ends a continued line).
	add := func(text string) bool {
		switch {
		case line == "":
			if render.Width(text)+2 > w {
				return false
			}
			line = text
		case render.Width(line)+1+render.Width(text)+2 <= w:
			line += " " + text
		case render.Width(text)+4 <= w:
			lines = append(lines, line+" \\")
			line = "  " + text
		default:
			return false
		}
		return true
	}
	for _, u := range units {
		quoted := make([]string, len(u))
		for i, x := range u {
			quoted[i] = Quote(x)
		}
		if add(strings.Join(quoted, " ")) {
			continue
		}
		// Too wide even for a line of its own: the flag, then its value
		// cut into pieces, the first beside the flag.
		prefix := ""
		if line != "" {
			lines = append(lines, line+" \\")
			prefix = "  "
		}
		if len(u) == 2 {
			prefix += quoted[0] + " "
		}
		pieces := cutWord(u[len(u)-1], w-1-render.Width(prefix), w-1)
		pieces[0] = prefix + pieces[0]
		for _, p := range pieces[:len(pieces)-1] {
			lines = append(lines, p+"\\")
		}
		line = pieces[len(pieces)-1]
	}
	return append(lines, line)
}

// cutWord cuts word into pieces whose shell quoting is at most first
// cells (the first piece) or rest (the others), never inside a character
// (a piece holds one at least); joined, the quoted pieces are the word.
// One pass: a piece's quoted width only grows as it takes characters.
func cutWord(word string, first, rest int) []string {
	var out []string
	start, cells, unsafe, w := 0, 0, false, first
	for i, r := range word {
		c := render.Width(string(r))
		if r == '\'' {
			c = 4 // '\''
		}
		u := unsafe || !safe.MatchString(string(r))
		quoted := cells + c
		if u {
			quoted += 2
		}
		if quoted > w && i > start {
			out = append(out, Quote(word[start:i]))
			start, cells, u, w = i, c, !safe.MatchString(string(r)), rest
		} else {
			cells += c
		}
		unsafe = u
	}
	return append(out, Quote(word[start:]))
}

// Command is words on one line, each quoted for a POSIX shell.
func Command(words []string) string {
	quoted := make([]string, len(words))
	for i, w := range words {
		quoted[i] = Quote(w)
	}
	return strings.Join(quoted, " ")
}

var safe = regexp.MustCompile(`^[A-Za-z0-9_@%+=:,./-]+$`)

// Quote quotes s for a POSIX shell: single quotes, each ' as '\”.
func Quote(s string) string {
	if safe.MatchString(s) {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}
