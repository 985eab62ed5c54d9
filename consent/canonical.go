package consent

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"unicode/utf8"
)

// maxSafeInteger is ECMAScript's Number.MAX_SAFE_INTEGER (2^53 − 1): the
// largest magnitude an integer can have and still round-trip through a
// JavaScript number.
const maxSafeInteger = 1<<53 - 1

// CanonicalJSON encodes v as canonicalJson from the spec: object keys sorted
// by UTF-16 code-unit order, no insignificant whitespace, ECMAScript
// JSON.stringify string escaping and number formatting.
//
// Accepted values: nil, bool, string, float64/float32, the integer kinds
// (within ±2^53−1), []any, []string, map[string]any, map[string]string.
// Anything else — a non-finite number, an integer a JavaScript number cannot
// hold, a struct, a time — has no faithful JSON form and is refused, as is a
// lone surrogate or any other invalid UTF-8 in a string or key.
func CanonicalJSON(v any) ([]byte, error) {
	return appendCanonical(make([]byte, 0, 256), v, "$")
}

// appendCanonical appends the canonical form of v; path names the value in
// errors ($, $.env.A.value, $.args[2]).
func appendCanonical(b []byte, v any, path string) ([]byte, error) {
	switch x := v.(type) {
	case nil:
		return append(b, "null"...), nil
	case bool:
		if x {
			return append(b, "true"...), nil
		}
		return append(b, "false"...), nil
	case string:
		return appendJSString(b, x, path)
	case float64:
		return appendNumber(b, x, path)
	case float32:
		return appendNumber(b, float64(x), path)
	case int:
		return appendInt(b, int64(x), path)
	case int8:
		return appendInt(b, int64(x), path)
	case int16:
		return appendInt(b, int64(x), path)
	case int32:
		return appendInt(b, int64(x), path)
	case int64:
		return appendInt(b, x, path)
	case uint:
		return appendUint(b, uint64(x), path)
	case uint8:
		return appendUint(b, uint64(x), path)
	case uint16:
		return appendUint(b, uint64(x), path)
	case uint32:
		return appendUint(b, uint64(x), path)
	case uint64:
		return appendUint(b, x, path)
	case []string:
		b = append(b, '[')
		for i, s := range x {
			if i > 0 {
				b = append(b, ',')
			}
			var err error
			if b, err = appendJSString(b, s, indexPath(path, i)); err != nil {
				return nil, err
			}
		}
		return append(b, ']'), nil
	case []any:
		b = append(b, '[')
		for i, e := range x {
			if i > 0 {
				b = append(b, ',')
			}
			var err error
			if b, err = appendCanonical(b, e, indexPath(path, i)); err != nil {
				return nil, err
			}
		}
		return append(b, ']'), nil
	case map[string]any:
		return appendObject(b, x, path)
	case map[string]string:
		m := make(map[string]any, len(x))
		for k, s := range x {
			m[k] = s
		}
		return appendObject(b, m, path)
	}
	return nil, notCanonical(path, fmt.Sprintf("a %T has no faithful JSON form", v))
}

func appendObject(b []byte, m map[string]any, path string) ([]byte, error) {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.SortFunc(keys, CompareUTF16)
	b = append(b, '{')
	for i, k := range keys {
		if i > 0 {
			b = append(b, ',')
		}
		var err error
		if b, err = appendJSString(b, k, path+" key"); err != nil {
			return nil, err
		}
		b = append(b, ':')
		if b, err = appendCanonical(b, m[k], path+"."+k); err != nil {
			return nil, err
		}
	}
	return append(b, '}'), nil
}

func indexPath(path string, i int) string {
	return path + "[" + strconv.Itoa(i) + "]"
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

const hexDigits = "0123456789abcdef"

// appendJSString appends s quoted exactly as ECMAScript JSON.stringify
// quotes it: \" \\ \b \f \n \r \t, other C0 controls as \u00xx (lowercase
// hex), everything else — DEL, <, >, &, U+2028, U+2029, non-BMP — verbatim.
// A lone surrogate (WTF-8 bytes ED A0–BF xx) or any other invalid UTF-8 is
// refused: it has no UTF-8 encoding, so no implementation can reproduce it.
func appendJSString(b []byte, s, path string) ([]byte, error) {
	b = append(b, '"')
	start := 0
	for i := 0; i < len(s); {
		c := s[i]
		if c >= utf8.RuneSelf {
			r, n := utf8.DecodeRuneInString(s[i:])
			if r == utf8.RuneError && n == 1 {
				return nil, notCanonical(path, invalidUTF8Reason(s, i))
			}
			i += n
			continue
		}
		if c >= 0x20 && c != '"' && c != '\\' {
			i++
			continue
		}
		b = append(b, s[start:i]...)
		switch c {
		case '"':
			b = append(b, '\\', '"')
		case '\\':
			b = append(b, '\\', '\\')
		case '\b':
			b = append(b, '\\', 'b')
		case '\f':
			b = append(b, '\\', 'f')
		case '\n':
			b = append(b, '\\', 'n')
		case '\r':
			b = append(b, '\\', 'r')
		case '\t':
			b = append(b, '\\', 't')
		default:
			b = append(b, '\\', 'u', '0', '0', hexDigits[c>>4], hexDigits[c&0xF])
		}
		i++
		start = i
	}
	b = append(b, s[start:]...)
	return append(b, '"'), nil
}

// invalidUTF8Reason says what is wrong at byte offset i of s.
func invalidUTF8Reason(s string, i int) string {
	if i+2 < len(s) && s[i] == 0xED && s[i+1] >= 0xA0 && s[i+1] <= 0xBF && s[i+2]&0xC0 == 0x80 {
		u := 0xD000 | rune(s[i+1]&0x3F)<<6 | rune(s[i+2]&0x3F)
		return fmt.Sprintf("lone surrogate U+%04X at byte %d (no UTF-8 encoding exists)", u, i)
	}
	return fmt.Sprintf("invalid UTF-8 byte 0x%02x at byte %d", s[i], i)
}

// appendNumber formats f as ECMAScript Number::toString does for finite
// values: shortest round-trip digits, plain notation for 1e-6 <= |f| < 1e21,
// otherwise exponent notation without a zero-padded exponent; -0 is "0".
func appendNumber(b []byte, f float64, path string) ([]byte, error) {
	if math.IsNaN(f) || math.IsInf(f, 0) {
		return nil, notCanonical(path, fmt.Sprintf("the non-finite number %v has no JSON form", f))
	}
	if f == 0 {
		return append(b, '0'), nil
	}
	abs := math.Abs(f)
	format := byte('f')
	if abs < 1e-6 || abs >= 1e21 {
		format = 'e'
	}
	b = strconv.AppendFloat(b, f, format, -1, 64)
	if format == 'e' {
		// Go writes 1e-07; ECMAScript writes 1e-7.
		n := len(b)
		if n >= 4 && b[n-4] == 'e' && b[n-3] == '-' && b[n-2] == '0' {
			b[n-2] = b[n-1]
			b = b[:n-1]
		}
	}
	return b, nil
}

func appendInt(b []byte, v int64, path string) ([]byte, error) {
	if v > maxSafeInteger || v < -maxSafeInteger {
		return nil, notCanonical(path, fmt.Sprintf("the integer %d is beyond ±2^53−1 and has no faithful JSON number form", v))
	}
	return strconv.AppendInt(b, v, 10), nil
}

func appendUint(b []byte, v uint64, path string) ([]byte, error) {
	if v > maxSafeInteger {
		return nil, notCanonical(path, fmt.Sprintf("the integer %d is beyond 2^53−1 and has no faithful JSON number form", v))
	}
	return strconv.AppendUint(b, v, 10), nil
}

func notCanonical(path, reason string) *Error {
	return &Error{ErrCode: CodeNotCanonical, Msg: fmt.Sprintf("%s: %s", path, reason), Exit: exitUsage}
}
