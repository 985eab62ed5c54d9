package sanitize

import (
	"strings"
	"unicode/utf8"
)

// Text cleans multi-line presentation text (a description). See the
// package documentation for exactly what is removed and what is kept.
func Text(s string) string { return clean(s, false) }

// Line cleans single-line presentation text (a title, a name in a list):
// like Text, but every line break becomes one space too.
func Line(s string) string { return clean(s, true) }

// C1 code points that open a control sequence or end a control string.
const (
	c1DCS = 0x90
	c1SOS = 0x98
	c1CSI = 0x9b
	c1ST  = 0x9c
	c1OSC = 0x9d
	c1PM  = 0x9e
	c1APC = 0x9f
)

const (
	esc = 0x1b
	bel = 0x07
	can = 0x18
	sub = 0x1a
)

// clean is the single pass behind Text and Line. Strings that need no
// change are returned as they are, without allocating.
func clean(s string, line bool) string {
	i := firstDirty(s, line)
	if i == len(s) {
		return s
	}
	var b strings.Builder
	b.Grow(len(s))
	b.WriteString(s[:i])
	var tabs tabStops
	for i < len(s) {
		c := s[i]
		if c < utf8.RuneSelf {
			switch {
			case c == esc:
				i = skipEscape(s, i+1)
				continue
			case c == '\t':
				// A TAB's width is the terminal's tab stops, not one cell:
				// left raw it would break the column arithmetic of a table
				// or a frame. One line: one space (a name must not look
				// like two). Text: spaces to the next stop of 8, so a
				// tab-separated result keeps its columns.
				if line {
					b.WriteByte(' ')
				} else {
					b.WriteString(tabs.expand(&b))
				}
			case c == '\n':
				if line {
					b.WriteByte(' ')
				} else {
					b.WriteByte(c)
				}
			case c == '\r':
				if i+1 < len(s) && s[i+1] == '\n' {
					break // the LF that follows is written next
				}
				if line {
					b.WriteByte(' ')
				} else {
					b.WriteByte('\n')
				}
			case c < 0x20 || c == 0x7f:
				// other C0 controls and DEL are dropped
			default:
				b.WriteByte(c)
			}
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			// A raw byte 0x80..0x9F is an 8-bit C1 control to a terminal
			// that reads bytes; anything else invalid becomes U+FFFD.
			if c <= 0x9f {
				i = skipC1(s, rune(c), i+1)
				continue
			}
			b.WriteRune(utf8.RuneError)
			i++
			continue
		}
		switch {
		case isC1(r):
			i = skipC1(s, r, i+size)
			continue
		case r == 0x2028 || r == 0x2029:
			if line {
				b.WriteByte(' ')
			} else {
				b.WriteByte('\n')
			}
		case isBidi(r) || isInvisible(r):
			// dropped
		default:
			b.WriteString(s[i : i+size])
		}
		i += size
	}
	return b.String()
}

// firstDirty returns the offset of the first byte clean must act on, or
// len(s) when s is already clean.
func firstDirty(s string, line bool) int {
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			if c < 0x20 || c == 0x7f {
				if c == '\n' && !line {
					i++
					continue
				}
				return i
			}
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if (r == utf8.RuneError && size == 1) || classify(r) != "" {
			return i
		}
		i += size
	}
	return len(s)
}

// skipC1 skips a C1 control r whose encoding ended at i, together with the
// sequence or string it introduces, and returns the offset after it.
func skipC1(s string, r rune, i int) int {
	switch r {
	case c1CSI:
		return skipCSI(s, i)
	case c1OSC:
		return skipString(s, i, true)
	case c1DCS, c1SOS, c1PM, c1APC:
		return skipString(s, i, false)
	}
	return i
}

// skipEscape skips the escape sequence whose ESC ended at i.
func skipEscape(s string, i int) int {
	if i >= len(s) {
		return i
	}
	c := s[i]
	switch {
	case c == '[':
		return skipCSI(s, i+1)
	case c == ']':
		return skipString(s, i+1, true)
	case c == 'P' || c == 'X' || c == '^' || c == '_':
		return skipString(s, i+1, false)
	case c >= 0x20 && c <= 0x2f:
		// nF: intermediates, then one final byte 0x30..0x7E.
		for i < len(s) && s[i] >= 0x20 && s[i] <= 0x2f {
			i++
		}
		if i < len(s) && s[i] >= 0x30 && s[i] <= 0x7e {
			i++
		}
		return i
	case c >= 0x30 && c <= 0x7e:
		return i + 1 // Fp, Fe, Fs: ESC and one byte
	}
	return i // a lone ESC: only the ESC goes
}

// skipCSI skips CSI parameter and intermediate bytes and the final byte. A
// byte that cannot belong to the sequence ends it and is processed as text.
func skipCSI(s string, i int) int {
	for i < len(s) {
		c := s[i]
		switch {
		case c >= 0x20 && c <= 0x3f:
			i++
		case c >= 0x40 && c <= 0x7e:
			return i + 1
		case c == can || c == sub:
			return i + 1 // CAN and SUB abort the sequence
		default:
			return i
		}
	}
	return i
}

// skipString skips a control string (OSC when osc, else DCS, SOS, PM or
// APC) up to and including its terminator: ST as ESC \ or C1 U+009C (or
// the raw byte 0x9C), BEL for OSC. CAN or SUB aborts it; another ESC ends
// it before the ESC. An unterminated string runs to the end of s.
func skipString(s string, i int, osc bool) int {
	for i < len(s) {
		c := s[i]
		switch {
		case c == bel && osc:
			return i + 1
		case c == can || c == sub:
			return i + 1
		case c == esc:
			if i+1 < len(s) && s[i+1] == '\\' {
				return i + 2
			}
			return i
		case c >= utf8.RuneSelf:
			r, size := utf8.DecodeRuneInString(s[i:])
			if r == c1ST || (r == utf8.RuneError && size == 1 && c == c1ST) {
				return i + size // ST as U+009C or as the raw byte 0x9C
			}
			i += size
			continue
		}
		i++
	}
	return i
}

// tabStops expands TABs in Text to the next multiple of tabWidth columns,
// counting one column per code point since the last line break written.
// The count is kept incrementally (only the output written since the last
// TAB or line break is counted), so a line of a million TABs stays linear.
type tabStops struct {
	at  int // byte offset in the output up to which col is counted
	col int // columns from the last line break to at
}

const tabWidth = 8

const spaces = "        " // tabWidth spaces

func (t *tabStops) expand(b *strings.Builder) string {
	out := b.String()
	if nl := strings.LastIndexByte(out[t.at:], '\n'); nl >= 0 {
		t.at, t.col = t.at+nl+1, 0
	}
	t.col += utf8.RuneCountInString(out[t.at:])
	n := tabWidth - t.col%tabWidth
	t.col += n
	t.at = len(out) + n
	return spaces[:n]
}
