package mcpjson

import (
	"strconv"
	"strings"
	"unicode/utf16"
	"unicode/utf8"
)

// The scalars of the JSON reader: numbers (kept as written) and strings
// (escapes decoded, and refused where a decoder would substitute).

func (p *parser) number() string {
	start := p.off
	for p.off < len(p.src) {
		c := p.src[p.off]
		if !(c == '-' || c == '+' || c == '.' || c == 'e' || c == 'E' || c >= '0' && c <= '9') {
			break
		}
		p.off++
	}
	text := string(p.src[start:p.off])
	if _, err := strconv.ParseFloat(text, 64); err != nil && !strings.Contains(err.Error(), "range") || !validNumber(text) {
		p.fail(start, "%q is not a JSON number", text)
	}
	return text
}

// validNumber is JSON's grammar: -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?
func validNumber(s string) bool {
	i := 0
	digits := func() int {
		n := 0
		for i < len(s) && s[i] >= '0' && s[i] <= '9' {
			i, n = i+1, n+1
		}
		return n
	}
	if i < len(s) && s[i] == '-' {
		i++
	}
	if i < len(s) && s[i] == '0' {
		i++
	} else if digits() == 0 {
		return false
	}
	if i < len(s) && s[i] == '.' {
		i++
		if digits() == 0 {
			return false
		}
	}
	if i < len(s) && (s[i] == 'e' || s[i] == 'E') {
		i++
		if i < len(s) && (s[i] == '+' || s[i] == '-') {
			i++
		}
		if digits() == 0 {
			return false
		}
	}
	return i == len(s)
}

// str reads a double-quoted string and decodes its escapes. Invalid UTF-8,
// a raw control character and an escape that names no character (a lone
// surrogate) are refused: a decoder would put another character in its
// place, and the value would not be what was written.
func (p *parser) str() string {
	start := p.off
	p.off++ // "
	var b strings.Builder
	for {
		if p.off >= len(p.src) {
			p.fail(start, "a string is never closed")
			return ""
		}
		c := p.src[p.off]
		switch {
		case c == '"':
			p.off++
			return b.String()
		case c == '\\':
			if !p.escape(&b) {
				return ""
			}
		case c < 0x20:
			p.fail(p.off, "a string holds a raw control character (0x%02x); write it as an escape", c)
			return ""
		case c < utf8.RuneSelf:
			b.WriteByte(c)
			p.off++
		default:
			r, n := utf8.DecodeRune(p.src[p.off:])
			if r == utf8.RuneError && n <= 1 {
				p.fail(p.off, "a string holds a byte that is not UTF-8")
				return ""
			}
			b.WriteString(string(p.src[p.off : p.off+n]))
			p.off += n
		}
	}
}

func (p *parser) escape(b *strings.Builder) bool {
	at := p.off
	if p.off+1 >= len(p.src) {
		p.fail(at, "a string ends inside an escape")
		return false
	}
	e := p.src[p.off+1]
	p.off += 2
	if r, ok := simpleEscape(e); ok {
		b.WriteByte(r)
		return true
	}
	if e != 'u' {
		p.fail(at, "\\%c is not a JSON escape", e)
		return false
	}
	r1, ok := p.hex4(at)
	if !ok {
		return false
	}
	if !utf16.IsSurrogate(r1) {
		b.WriteRune(r1)
		return true
	}
	if r1 < 0xDC00 && p.off+1 < len(p.src) && p.src[p.off] == '\\' && p.src[p.off+1] == 'u' {
		p.off += 2
		r2, ok := p.hex4(at)
		if !ok {
			return false
		}
		if r := utf16.DecodeRune(r1, r2); r != utf8.RuneError {
			b.WriteRune(r)
			return true
		}
	}
	p.fail(at, "a \\u escape names half of a surrogate pair, which is no character")
	return false
}

func simpleEscape(e byte) (byte, bool) {
	switch e {
	case '"', '\\', '/':
		return e, true
	case 'b':
		return '\b', true
	case 'f':
		return '\f', true
	case 'n':
		return '\n', true
	case 'r':
		return '\r', true
	case 't':
		return '\t', true
	}
	return 0, false
}

func (p *parser) hex4(at int) (rune, bool) {
	if p.off+4 > len(p.src) {
		p.fail(at, "a \\u escape needs four hex digits")
		return 0, false
	}
	n, err := strconv.ParseUint(string(p.src[p.off:p.off+4]), 16, 32)
	if err != nil {
		p.fail(at, "a \\u escape needs four hex digits")
		return 0, false
	}
	p.off += 4
	return rune(n), true
}
