package sanitize

import "unicode"

// Class names a kind of character that a semantic field must not hold.
type Class string

// The classes Check reports.
const (
	ClassControl     Class = "control"      // C0, DEL or C1 (TAB, LF and CR included)
	ClassBidi        Class = "bidi"         // a Unicode Bidi_Control character
	ClassInvisible   Class = "invisible"    // zero-width, BOM, tags, variation selectors, line/paragraph separators, other format characters
	ClassInvalidUTF8 Class = "invalid_utf8" // a byte sequence that is not UTF-8
)

// isC1 reports whether r is a C1 control (U+0080..U+009F).
func isC1(r rune) bool { return r >= 0x80 && r <= 0x9f }

// isBidi reports whether r is one of the 12 Bidi_Control code points.
func isBidi(r rune) bool {
	return r >= 0x61c && unicode.Is(unicode.Bidi_Control, r)
}

// isInvisible reports whether r is a format (Cf) character, a default
// ignorable code point, a variation selector, a Unicode tag or a
// line/paragraph separator. Bidi controls are Cf too; classify calls isBidi
// first so they are reported as bidi.
func isInvisible(r rune) bool {
	if r < 0xad {
		return false
	}
	switch r {
	case 0x2028, 0x2029:
		return true
	}
	return unicode.Is(unicode.Cf, r) ||
		unicode.Is(unicode.Other_Default_Ignorable_Code_Point, r) ||
		unicode.Is(unicode.Variation_Selector, r) ||
		(r >= 0xe0000 && r <= 0xe0fff) // tags and the rest of the ignorable plane-14 block
}

// classify returns the class r belongs to, or "" when r is ordinary text.
func classify(r rune) Class {
	switch {
	case r < 0x80:
		if r < 0x20 || r == 0x7f {
			return ClassControl
		}
		return ""
	case isC1(r):
		return ClassControl
	case isBidi(r):
		return ClassBidi
	case isInvisible(r):
		return ClassInvisible
	}
	return ""
}
