package discovery

import (
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/relavium/relavium/engine/sanitize"
)

// Server text that ends up in a SkippedTool row or an error message is
// never shown raw: show escapes every character a display sanitizer would
// drop (so the person sees that it is there) and truncates.

const maxShown = 96

// show renders a server string for a detail message, quoted.
func show(s string) string { return `"` + escapeText(s, maxShown, true) + `"` }

// displayName renders a tool name for SkippedTool.Tool (unquoted).
func displayName(s string) string { return escapeText(s, 128, true) }

// escapeText escapes what a display sanitizer would drop (and, with
// quotes, '"' and '\\'), truncating after about limit bytes.
func escapeText(s string, limit int, quotes bool) string {
	var b strings.Builder
	for i := 0; i < len(s); {
		if b.Len() >= limit {
			b.WriteString("…")
			break
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			fmt.Fprintf(&b, `\x%02x`, s[i])
		case sanitize.Check(s[i:i+size]) != nil:
			if r <= 0xffff {
				fmt.Fprintf(&b, `\u%04x`, r)
			} else {
				fmt.Fprintf(&b, `\U%08x`, r)
			}
		case quotes && (r == '"' || r == '\\'):
			b.WriteByte('\\')
			b.WriteRune(r)
		default:
			b.WriteString(s[i : i+size])
		}
		i += size
	}
	return b.String()
}

// skip is why one tool is refused.
type skip struct {
	code   string
	detail string
}

func skipf(code, format string, a ...any) *skip {
	return &skip{code: code, detail: fmt.Sprintf(format, a...)}
}

// semanticSkip checks a semantic string; where names the field for the
// detail (already display-safe).
func semanticSkip(s string, bad bool, where string) *skip {
	if bad {
		return skipf(ReasonInvalidUTF8, "%s holds invalid UTF-8 or a lone surrogate: %s", where, show(s))
	}
	v := sanitize.Check(s)
	if v == nil {
		return nil
	}
	code := ReasonInvisibleChar
	switch v.Class {
	case sanitize.ClassControl:
		code = ReasonControlChar
	case sanitize.ClassBidi:
		code = ReasonBidiChar
	case sanitize.ClassInvalidUTF8:
		code = ReasonInvalidUTF8
	}
	return skipf(code, "%s holds %s character U+%04X at byte %d: %s", where, v.Class, v.Rune, v.Offset, show(s))
}

// pointerToken escapes one JSON pointer token (RFC 6901) for display.
func pointerToken(s string) string {
	s = strings.ReplaceAll(s, "~", "~0")
	s = strings.ReplaceAll(s, "/", "~1")
	return escapeText(s, maxShown, true)
}
