package sanitize

import (
	"fmt"
	"unicode/utf8"
)

// Violation is the first character that makes a semantic string unusable.
type Violation struct {
	Class  Class
	Rune   rune // utf8.RuneError for ClassInvalidUTF8
	Offset int  // byte offset of the character in the checked string
}

func (v *Violation) Error() string {
	if v.Class == ClassInvalidUTF8 {
		return fmt.Sprintf("invalid UTF-8 at byte %d", v.Offset)
	}
	return fmt.Sprintf("%s character U+%04X at byte %d", v.Class, v.Rune, v.Offset)
}

// Check returns nil when s may be used as a semantic value unchanged, else
// the first offending character. It never rewrites s.
func Check(s string) *Violation {
	for i := 0; i < len(s); {
		b := s[i]
		if b < utf8.RuneSelf {
			if b < 0x20 || b == 0x7f {
				return &Violation{Class: ClassControl, Rune: rune(b), Offset: i}
			}
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			return &Violation{Class: ClassInvalidUTF8, Rune: r, Offset: i}
		}
		if c := classify(r); c != "" {
			return &Violation{Class: c, Rune: r, Offset: i}
		}
		i += size
	}
	return nil
}
