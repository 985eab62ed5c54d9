package consent

import (
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"
)

// quoteArg renders one word for a person to read and, where possible, paste
// into a POSIX shell: bare when it holds only safe characters, single-quoted
// when it holds printable text, and ANSI-C quoted ($'…') when it holds a
// control, format (bidi, zero-width) or otherwise unprintable character or
// invalid UTF-8 — so a hostile argument can neither move the cursor, recolour
// the terminal nor reorder what the person reads. Nothing is truncated.
func quoteArg(s string) string {
	if s == "" {
		return "''"
	}
	safe, printable := true, true
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && n == 1 {
			safe, printable = false, false
			break
		}
		if !isSafeShellRune(r) {
			safe = false
			if r != ' ' && !unicode.IsPrint(r) {
				printable = false
				break
			}
		}
		i += n
	}
	switch {
	case safe:
		return s
	case printable:
		return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
	}
	var b strings.Builder
	b.WriteString("$'")
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && n == 1:
			fmt.Fprintf(&b, `\x%02x`, s[i])
		case r == '\\' || r == '\'':
			b.WriteByte('\\')
			b.WriteRune(r)
		case r == '\n':
			b.WriteString(`\n`)
		case r == '\t':
			b.WriteString(`\t`)
		case r == '\r':
			b.WriteString(`\r`)
		case r == 0x1b:
			b.WriteString(`\E`)
		case r < 0x80 && (r < 0x20 || r == 0x7f):
			fmt.Fprintf(&b, `\x%02x`, r)
		case r == ' ' || unicode.IsPrint(r):
			b.WriteRune(r)
		case r <= 0xFFFF:
			fmt.Fprintf(&b, `\u%04x`, r)
		default:
			fmt.Fprintf(&b, `\U%08x`, r)
		}
		i += n
	}
	b.WriteByte('\'')
	return b.String()
}

func isSafeShellRune(r rune) bool {
	switch {
	case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z', r >= '0' && r <= '9':
		return true
	}
	return strings.ContainsRune("@%+=:,./_-", r)
}

// commandLine renders command and args as one display line.
func commandLine(command string, args []string) string {
	var b strings.Builder
	b.WriteString(quoteArg(command))
	for _, a := range args {
		b.WriteByte(' ')
		b.WriteString(quoteArg(a))
	}
	return b.String()
}

// Display renders any server-derived text (a name, a path) for a terminal,
// quoting it as quoteArg does when it is not plain.
func Display(s string) string { return quoteArg(s) }
