package authored

import (
	"strings"

	"github.com/goccy/go-yaml/token"
)

// badYAMLEscape returns the first escape of a double-quoted YAML scalar, as
// written in raw (the source from its opening quote on), that names no Unicode scalar
// value, and why; "" when every escape is text. goccy/go-yaml decodes such an
// escape without complaint — a lone UTF-16 surrogate (\udc00, \U0000D800) or
// a code point past U+10FFFF becomes U+FFFD, non-hex digits become some
// other character — so the value it hands over is not the one authored, and
// a program argument, env value or url must never silently change. A lone
// surrogate is also exactly what the consent fingerprint refuses: it has no
// UTF-8 form at all. (TOML's parser refuses these escapes itself.)
func badYAMLEscape(raw string) (esc, why string) {
	q := strings.IndexByte(raw, '"')
	if q < 0 {
		return "", ""
	}
	s := raw[q+1:]
	for i := 0; i < len(s); i++ {
		if s[i] == '"' {
			return "", "" // the closing quote: every escape was text
		}
		if s[i] != '\\' || i+1 >= len(s) {
			continue
		}
		kind := s[i+1]
		digits := map[byte]int{'x': 2, 'u': 4, 'U': 8}[kind]
		if digits == 0 {
			i++ // a one-character escape (\\, \", \n, \N …): skip what it escapes
			continue
		}
		start := i
		cp, ok := hexAt(s, i+2, digits)
		end := min(i+2+digits, len(s))
		if !ok {
			return s[start:end], "its digits are not hexadecimal, so it names no character"
		}
		i = end - 1
		switch {
		case kind == 'u' && cp >= 0xD800 && cp <= 0xDBFF:
			if low, ok := hexAt(s, end+2, 4); ok && strings.HasPrefix(s[end:], `\u`) && low >= 0xDC00 && low <= 0xDFFF {
				i = end + 6 - 1 // a surrogate pair: one character
				continue
			}
			return s[start:end], "a UTF-16 high surrogate with no low surrogate after it, which no UTF-8 text can hold"
		case cp >= 0xD800 && cp <= 0xDFFF:
			return s[start:end], "a lone UTF-16 surrogate, which no UTF-8 text can hold"
		case cp > 0x10FFFF:
			return s[start:end], "past U+10FFFF, the last Unicode character"
		}
	}
	return "", ""
}

// hexAt reads n hex digits of s at off.
func hexAt(s string, off, n int) (rune, bool) {
	if off < 0 || off+n > len(s) {
		return 0, false
	}
	var v rune
	for _, c := range []byte(s[off : off+n]) {
		switch {
		case c >= '0' && c <= '9':
			v = v<<4 | rune(c-'0')
		case c >= 'a' && c <= 'f':
			v = v<<4 | rune(c-'a'+10)
		case c >= 'A' && c <= 'F':
			v = v<<4 | rune(c-'A'+10)
		default:
			return 0, false
		}
	}
	return v, true
}

// quotedSource returns the file's text from a double-quoted scalar's opening
// quote on, or "" when it cannot be found. goccy/go-yaml keeps no escape in
// a token's Origin, so the escapes are read from the file itself; a token's
// Position.Offset counts runes from 1.
func (r *reader) quotedSource(t *token.Token) string {
	if t == nil || t.Position == nil || !strings.Contains(t.Origin, `\`) {
		return ""
	}
	if r.runeStarts == nil {
		r.runeStarts = make([]int, 0, len(r.data))
		for i := range string(r.data) {
			r.runeStarts = append(r.runeStarts, i)
		}
	}
	off := t.Position.Offset - 1
	if off < 0 || off >= len(r.runeStarts) || r.data[r.runeStarts[off]] != '"' {
		return ""
	}
	return string(r.data[r.runeStarts[off]:])
}
