package canonjson

import (
	"fmt"
	"unicode/utf8"
)

const hexDigits = "0123456789abcdef"

// AppendString appends s quoted exactly as ECMAScript JSON.stringify quotes
// it: \" \\ \b \f \n \r \t, the other C0 controls as \u00xx (lowercase
// hex), everything else — DEL, <, >, &, U+2028, U+2029, non-BMP — verbatim.
//
// valid is false when s is not valid UTF-8 (a lone surrogate's WTF-8 bytes
// ED A0–BF xx included): such a string has no canonical form, and a strict
// encoder refuses it (Marshal does). The output is well-formed JSON even
// then: each invalid byte is written as U+FFFD, as encoding/json does.
func AppendString(dst []byte, s string) (out []byte, valid bool) {
	valid = true
	dst = append(dst, '"')
	start := 0
	for i := 0; i < len(s); {
		c := s[i]
		if c >= utf8.RuneSelf {
			r, n := utf8.DecodeRuneInString(s[i:])
			if r == utf8.RuneError && n == 1 {
				dst = append(dst, s[start:i]...)
				dst = utf8.AppendRune(dst, utf8.RuneError)
				valid = false
				start = i + 1
			}
			i += n
			continue
		}
		if !needsEscape(c) {
			i++
			continue
		}
		dst = append(dst, s[start:i]...)
		if e := shortEscape(c); e != 0 {
			dst = append(dst, '\\', e)
		} else {
			dst = append(dst, '\\', 'u', '0', '0', hexDigits[c>>4], hexDigits[c&0xF])
		}
		i++
		start = i
	}
	dst = append(dst, s[start:]...)
	return append(dst, '"'), valid
}

// StringLen is len(AppendString(nil, s)), computed without building it.
func StringLen(s string) int {
	n := 2 + len(s)
	for i := 0; i < len(s); {
		c := s[i]
		if c >= utf8.RuneSelf {
			r, size := utf8.DecodeRuneInString(s[i:])
			if r == utf8.RuneError && size == 1 {
				n += utf8.RuneLen(utf8.RuneError) - 1
			}
			i += size
			continue
		}
		if needsEscape(c) {
			if shortEscape(c) != 0 {
				n++ // \x
			} else {
				n += 5 // \u00xx
			}
		}
		i++
	}
	return n
}

func needsEscape(c byte) bool { return c < 0x20 || c == '"' || c == '\\' }

// shortEscape is the letter of JSON.stringify's two-character escape for c,
// or 0 when c has none.
func shortEscape(c byte) byte {
	switch c {
	case '"', '\\':
		return c
	case '\b':
		return 'b'
	case '\f':
		return 'f'
	case '\n':
		return 'n'
	case '\r':
		return 'r'
	case '\t':
		return 't'
	}
	return 0
}

// appendValidString is AppendString refusing invalid UTF-8, saying where.
func appendValidString(b []byte, s string) ([]byte, error) {
	out, valid := AppendString(b, s)
	if !valid {
		return nil, refused(invalidUTF8Reason(s))
	}
	return out, nil
}

// invalidUTF8Reason says what is wrong at the first invalid byte of s.
func invalidUTF8Reason(s string) string {
	i := 0
	for i < len(s) {
		r, n := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && n == 1 {
			break
		}
		i += n
	}
	if i+2 < len(s) && s[i] == 0xED && s[i+1] >= 0xA0 && s[i+1] <= 0xBF && s[i+2]&0xC0 == 0x80 {
		u := 0xD000 | rune(s[i+1]&0x3F)<<6 | rune(s[i+2]&0x3F)
		return fmt.Sprintf("lone surrogate U+%04X at byte %d (no UTF-8 encoding exists)", u, i)
	}
	return fmt.Sprintf("invalid UTF-8 byte 0x%02x at byte %d", s[i], i)
}

// CompareUTF16 orders two valid UTF-8 strings as JavaScript compares strings:
// by UTF-16 code units. It differs from Go's byte order only where a
// supplementary character (U+10000 and up, two surrogate units starting at
// 0xD800) meets a BMP character in U+E000–U+FFFF: UTF-16 puts the
// supplementary one first.
func CompareUTF16(a, b string) int {
	for i, j := 0, 0; ; {
		if i == len(a) || j == len(b) {
			switch {
			case i < len(a):
				return 1
			case j < len(b):
				return -1
			}
			return 0
		}
		// ASCII fast path: identical ordering in every encoding.
		if a[i] < utf8.RuneSelf && b[j] < utf8.RuneSelf {
			if a[i] != b[j] {
				if a[i] < b[j] {
					return -1
				}
				return 1
			}
			i++
			j++
			continue
		}
		ra, na := utf8.DecodeRuneInString(a[i:])
		rb, nb := utf8.DecodeRuneInString(b[j:])
		if ra != rb {
			ua, ub := firstUnit(ra), firstUnit(rb)
			if ua == ub { // both supplementary with the same high surrogate
				ua, ub = ra, rb
			}
			if ua < ub {
				return -1
			}
			return 1
		}
		i += na
		j += nb
	}
}

// firstUnit is the first UTF-16 code unit of r.
func firstUnit(r rune) rune {
	if r >= 0x10000 {
		return 0xD800 + (r-0x10000)>>10
	}
	return r
}
