package canonjson

import (
	"encoding/json"
	"fmt"
	"math"
	"math/big"
	"strconv"
	"strings"
)

// maxSafeInteger is ECMAScript's Number.MAX_SAFE_INTEGER (2^53 − 1): the
// largest magnitude an integer can have and still round-trip through a
// JavaScript number.
const maxSafeInteger = 1<<53 - 1

// AppendNumber appends f as ECMAScript Number::toString formats it:
// shortest round-trip digits, plain notation for 1e-6 <= |f| < 1e21,
// otherwise exponent notation without a zero-padded exponent ("1e-7",
// "1e+21"); -0 is "0". NaN and ±Inf have no JSON form and are refused.
func AppendNumber(dst []byte, f float64) ([]byte, error) {
	if math.IsNaN(f) || math.IsInf(f, 0) {
		return nil, refused(fmt.Sprintf("the non-finite number %v has no JSON form", f))
	}
	if f == 0 {
		return append(dst, '0'), nil
	}
	abs := math.Abs(f)
	format := byte('f')
	if abs < 1e-6 || abs >= 1e21 {
		format = 'e'
	}
	dst = strconv.AppendFloat(dst, f, format, -1, 64)
	if format == 'e' {
		// Go writes 1e-07; ECMAScript writes 1e-7.
		n := len(dst)
		if n >= 4 && dst[n-4] == 'e' && dst[n-3] == '-' && dst[n-2] == '0' {
			dst[n-2] = dst[n-1]
			dst = dst[:n-1]
		}
	}
	return dst, nil
}

func appendInt(b []byte, v int64) ([]byte, error) {
	if v > maxSafeInteger || v < -maxSafeInteger {
		return nil, refused(fmt.Sprintf("the integer %d is beyond ±2^53−1 and has no faithful JSON number form", v))
	}
	return strconv.AppendInt(b, v, 10), nil
}

func appendUint(b []byte, v uint64) ([]byte, error) {
	if v > maxSafeInteger {
		return nil, refused(fmt.Sprintf("the integer %d is beyond 2^53−1 and has no faithful JSON number form", v))
	}
	return strconv.AppendUint(b, v, 10), nil
}

// appendLiteral appends the JSON number literal lit as JSON.stringify writes
// JSON.parse(lit). A literal that is not JSON number syntax, that overflows
// float64, or that is an integer a float64 cannot hold exactly (so two
// different integers would share one form) is refused.
func appendLiteral(b []byte, lit string) ([]byte, error) {
	if lit == "" || !isDigit(lit[len(lit)-1]) || !(lit[0] == '-' || isDigit(lit[0])) || !json.Valid([]byte(lit)) {
		return nil, refused(fmt.Sprintf("%q is not a JSON number", lit))
	}
	f, err := strconv.ParseFloat(lit, 64)
	if err != nil || math.IsInf(f, 0) {
		return nil, refused(fmt.Sprintf("the number %s is beyond the float64 range and has no JSON form", lit))
	}
	n := len(b)
	if b, err = AppendNumber(b, f); err != nil {
		return nil, err
	}
	if err := inexactInteger(lit, string(b[n:])); err != nil {
		return nil, err
	}
	return b, nil
}

// CheckInteger refuses an integer literal (digits with an optional sign, no
// fraction or exponent) that no float64 holds exactly: two such integers
// share one JSON form, so a reader that decodes numbers as float64 (a
// schema validator, JavaScript, a plan id) would see another value than the
// one written. Other literals pass; whether they are numbers at all is the
// caller's concern.
func CheckInteger(lit string) error {
	if strings.ContainsAny(lit, ".eE") {
		return nil
	}
	f, err := strconv.ParseFloat(lit, 64)
	if err != nil {
		return nil
	}
	b, err := AppendNumber(nil, f)
	if err != nil {
		return err
	}
	return inexactInteger(strings.TrimPrefix(lit, "+"), string(b))
}

// inexactInteger refuses the integer literal lit when written, its
// JSON.stringify form, denotes another number.
func inexactInteger(lit, written string) error {
	if isLongInteger(lit) && !sameNumber(lit, written) {
		return refused(fmt.Sprintf("the integer %s is written %s by JavaScript and has no faithful JSON number form", lit, written))
	}
	return nil
}

// isLongInteger reports whether lit is an integer literal with more than 15
// digits: only those can name an integer no float64 holds (2^53 has 16).
func isLongInteger(lit string) bool {
	return len(strings.TrimPrefix(lit, "-")) > 15 && !strings.ContainsAny(lit, ".eE")
}

// sameNumber reports whether two JSON number literals denote the same
// rational number.
func sameNumber(a, b string) bool {
	x, okx := new(big.Rat).SetString(a)
	y, oky := new(big.Rat).SetString(b)
	return okx && oky && x.Cmp(y) == 0
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }
