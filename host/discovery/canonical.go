package discovery

import (
	"math"
	"slices"
	"strconv"
	"strings"
	"unicode/utf16"
	"unicode/utf8"
)

// Canonical JSON (the spec's canonicalJson): object keys sorted by UTF-16
// code units, no insignificant whitespace, ECMAScript JSON.stringify string
// escaping and number formatting. Bounds measure this form; pins hash it.

// appendCanonical appends the canonical JSON of n.
func appendCanonical(dst []byte, n *node) []byte {
	switch n.kind {
	case kObject:
		idx := make([]int, len(n.obj))
		for i := range idx {
			idx[i] = i
		}
		slices.SortStableFunc(idx, func(a, b int) int { return compareUTF16(n.obj[a].key, n.obj[b].key) })
		dst = append(dst, '{')
		for j, i := range idx {
			if j > 0 {
				dst = append(dst, ',')
			}
			dst = appendJSONString(dst, n.obj[i].key)
			dst = append(dst, ':')
			dst = appendCanonical(dst, n.obj[i].val)
		}
		return append(dst, '}')
	case kArray:
		dst = append(dst, '[')
		for i, v := range n.arr {
			if i > 0 {
				dst = append(dst, ',')
			}
			dst = appendCanonical(dst, v)
		}
		return append(dst, ']')
	}
	return appendScalar(dst, n)
}

// appendOrdered appends n as compact JSON in the order the server sent it
// (for the schema a form or a model reads).
func appendOrdered(dst []byte, n *node) []byte {
	switch n.kind {
	case kObject:
		dst = append(dst, '{')
		for i, m := range n.obj {
			if i > 0 {
				dst = append(dst, ',')
			}
			dst = appendJSONString(dst, m.key)
			dst = append(dst, ':')
			dst = appendOrdered(dst, m.val)
		}
		return append(dst, '}')
	case kArray:
		dst = append(dst, '[')
		for i, v := range n.arr {
			if i > 0 {
				dst = append(dst, ',')
			}
			dst = appendOrdered(dst, v)
		}
		return append(dst, ']')
	}
	return appendScalar(dst, n)
}

func appendScalar(dst []byte, n *node) []byte {
	switch n.kind {
	case kNull, kTooDeep:
		return append(dst, "null"...)
	case kBool:
		if n.b {
			return append(dst, "true"...)
		}
		return append(dst, "false"...)
	case kNumber:
		return append(dst, canonicalNumber(n.str)...)
	case kString:
		return appendJSONString(dst, n.str)
	}
	return dst
}

// canonicalLen is len(appendCanonical(nil, n)) without building it: key
// order does not change the length.
func canonicalLen(n *node) int {
	switch n.kind {
	case kObject:
		l := 2 + max(len(n.obj)-1, 0) // braces and commas
		for _, m := range n.obj {
			l += jsonStringLen(m.key) + 1 + canonicalLen(m.val)
		}
		return l
	case kArray:
		l := 2 + max(len(n.arr)-1, 0)
		for _, v := range n.arr {
			l += canonicalLen(v)
		}
		return l
	case kString:
		return jsonStringLen(n.str)
	case kNumber:
		return len(canonicalNumber(n.str))
	case kBool:
		if n.b {
			return 4
		}
		return 5
	}
	return 4
}

// compareUTF16 orders strings by UTF-16 code units (ECMAScript sort order).
func compareUTF16(a, b string) int {
	for a != "" && b != "" {
		ra, sa := utf8.DecodeRuneInString(a)
		rb, sb := utf8.DecodeRuneInString(b)
		if ra != rb {
			ua, ub := utf16Unit(ra), utf16Unit(rb)
			if ua != ub {
				if ua < ub {
					return -1
				}
				return 1
			}
			// same first unit (both supplementary in one lead range)
			la, lb := utf16Low(ra), utf16Low(rb)
			if la < lb {
				return -1
			}
			return 1
		}
		a, b = a[sa:], b[sb:]
	}
	return len(a) - len(b)
}

func utf16Unit(r rune) rune {
	if r >= 0x10000 {
		hi, _ := utf16.EncodeRune(r)
		return hi
	}
	return r
}

func utf16Low(r rune) rune {
	if r >= 0x10000 {
		_, lo := utf16.EncodeRune(r)
		return lo
	}
	return 0
}

const hexDigits = "0123456789abcdef"

// appendJSONString appends s with JSON.stringify escaping: ", \ and C0
// controls are escaped (with the short forms where they exist); all else,
// non-ASCII included, is written as UTF-8.
func appendJSONString(dst []byte, s string) []byte {
	dst = append(dst, '"')
	start := 0
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c >= 0x20 && c != '"' && c != '\\' {
			continue
		}
		dst = append(dst, s[start:i]...)
		switch c {
		case '"', '\\':
			dst = append(dst, '\\', c)
		case '\b':
			dst = append(dst, '\\', 'b')
		case '\f':
			dst = append(dst, '\\', 'f')
		case '\n':
			dst = append(dst, '\\', 'n')
		case '\r':
			dst = append(dst, '\\', 'r')
		case '\t':
			dst = append(dst, '\\', 't')
		default:
			dst = append(dst, '\\', 'u', '0', '0', hexDigits[c>>4], hexDigits[c&0xf])
		}
		start = i + 1
	}
	dst = append(dst, s[start:]...)
	return append(dst, '"')
}

func jsonStringLen(s string) int {
	l := 2 + len(s)
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c == '"' || c == '\\' || c == '\b' || c == '\f' || c == '\n' || c == '\r' || c == '\t':
			l++
		case c < 0x20:
			l += 5
		}
	}
	return l
}

// canonicalNumber formats a JSON number literal as ECMAScript's
// Number.prototype.toString does for its float64 value. A literal outside
// the float64 range is kept as written (the schema check refuses it).
func canonicalNumber(lit string) string {
	f, err := strconv.ParseFloat(lit, 64)
	if err != nil || math.IsInf(f, 0) {
		return lit
	}
	return esNumber(f)
}

// esNumber implements ECMA-262 Number::toString(x) for finite x.
func esNumber(f float64) string {
	if f == 0 {
		return "0"
	}
	neg := f < 0
	if neg {
		f = -f
	}
	// Shortest round-trip digits and exponent: d.ddde±x
	e := strconv.FormatFloat(f, 'e', -1, 64)
	mant, exp, _ := strings.Cut(e, "e")
	digits := strings.Replace(mant, ".", "", 1)
	x, _ := strconv.Atoi(exp)
	k := len(digits)
	n := x + 1 // position of the decimal point relative to digits
	var out string
	switch {
	case k <= n && n <= 21:
		out = digits + strings.Repeat("0", n-k)
	case 0 < n && n <= 21:
		out = digits[:n] + "." + digits[n:]
	case -6 < n && n <= 0:
		out = "0." + strings.Repeat("0", -n) + digits
	default:
		sign := "+"
		if n-1 < 0 {
			sign = "-"
		}
		ex := strconv.Itoa(abs(n - 1))
		if k == 1 {
			out = digits + "e" + sign + ex
		} else {
			out = digits[:1] + "." + digits[1:] + "e" + sign + ex
		}
	}
	if neg {
		return "-" + out
	}
	return out
}

func abs(i int) int {
	if i < 0 {
		return -i
	}
	return i
}
