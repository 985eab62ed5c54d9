package canonjson

import (
	"strings"
	"testing"
)

// CheckInteger is the one rule for an integer no float64 holds exactly:
// Marshal applies it to json.Number literals, engine to workflow inputs,
// discovery to call arguments.
func TestCheckInteger(t *testing.T) {
	for lit, want := range map[string]string{
		"9007199254740993":     "the integer 9007199254740993 is written 9007199254740992 by JavaScript",
		"-9007199254740993":    "the integer -9007199254740993 is written -9007199254740992 by JavaScript",
		"+9007199254740993":    "the integer 9007199254740993 is written 9007199254740992 by JavaScript",
		"12345678901234567890": "is written 12345678901234567000 by JavaScript",
		"9007199254740992":     "",
		"123":                  "",
		"9007199254740993.0":   "", // not an integer literal: float64 rounding is JSON's
		"1e400":                "", // not an integer literal; range is the caller's concern
		"x":                    "",
	} {
		err := CheckInteger(lit)
		switch {
		case want == "" && err != nil:
			t.Errorf("CheckInteger(%s) = %v", lit, err)
		case want != "" && (err == nil || !strings.Contains(err.Error(), want)):
			t.Errorf("CheckInteger(%s) = %v, want %q", lit, err, want)
		}
	}
}
