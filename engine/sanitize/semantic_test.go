package sanitize

import "testing"

func TestCheck(t *testing.T) {
	cases := []struct {
		in     string
		class  Class
		offset int
	}{
		{"path", "", 0},
		{"日本語_é", "", 0},
		{"a\tb", ClassControl, 1},
		{"a\nb", ClassControl, 1},
		{"a\rb", ClassControl, 1},
		{"\x00", ClassControl, 0},
		{"x\x7f", ClassControl, 1},
		{"é\u0085", ClassControl, 2},
		{"\x1b[31m", ClassControl, 0},
		{"ab\u202e", ClassBidi, 2},
		{"\u2066", ClassBidi, 0},
		{"\u061c", ClassBidi, 0},
		{"a\u200b", ClassInvisible, 1},
		{"\ufeff", ClassInvisible, 0},
		{"a\u2028", ClassInvisible, 1},
		{"tag\U000e0041", ClassInvisible, 3},
		{"vs\ufe0f", ClassInvisible, 2},
		{"a\xff", ClassInvalidUTF8, 1},
		{"a\ufffd", "", 0},
	}
	for _, tc := range cases {
		v := Check(tc.in)
		if tc.class == "" {
			if v != nil {
				t.Errorf("Check(%q) = %v, want nil", tc.in, v)
			}
			continue
		}
		if v == nil || v.Class != tc.class || v.Offset != tc.offset {
			t.Errorf("Check(%q) = %+v, want class %s at %d", tc.in, v, tc.class, tc.offset)
			continue
		}
		if v.Error() == "" {
			t.Errorf("empty violation message")
		}
	}
}

// Every bidi control the Unicode PropList names is refused and stripped.
func TestAllBidiControls(t *testing.T) {
	for _, r := range []rune{0x61c, 0x200e, 0x200f, 0x202a, 0x202b, 0x202c, 0x202d, 0x202e, 0x2066, 0x2067, 0x2068, 0x2069} {
		s := "a" + string(r) + "b"
		if v := Check(s); v == nil || v.Class != ClassBidi {
			t.Errorf("U+%04X: Check = %v, want bidi", r, v)
		}
		if got := Text(s); got != "ab" {
			t.Errorf("U+%04X: Text = %q", r, got)
		}
	}
}
