package canonjson

import (
	"math/rand/v2"
	"strings"
	"testing"
	"unicode/utf16"
)

// TestCompareUTF16MatchesEncoding checks the comparator against a direct
// comparison of the UTF-16 encodings, on random strings biased towards the
// ranges where byte order and UTF-16 order disagree.
func TestCompareUTF16MatchesEncoding(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	pick := []func() rune{
		func() rune { return rune('a' + rng.IntN(3)) },
		func() rune { return rune(0xE000 + rng.IntN(3)) },
		func() rune { return rune(0xFFFD + rng.IntN(3)) },
		func() rune { return rune(0x10000 + rng.IntN(3)) },
		func() rune { return rune(0x1F600 + rng.IntN(2)) },
		func() rune { return rune(0x10FFFF - rng.IntN(2)) },
		func() rune { return rune(0xD7FF) },
	}
	gen := func() string {
		var b strings.Builder
		for n := rng.IntN(4); n > 0; n-- {
			b.WriteRune(pick[rng.IntN(len(pick))]())
		}
		return b.String()
	}
	for i := 0; i < 20000; i++ {
		a, b := gen(), gen()
		want := compareUnits(utf16.Encode([]rune(a)), utf16.Encode([]rune(b)))
		if got := CompareUTF16(a, b); got != want {
			t.Fatalf("CompareUTF16(%+q, %+q) = %d, want %d", a, b, got, want)
		}
	}
}

func compareUnits(a, b []uint16) int {
	for i := 0; i < len(a) && i < len(b); i++ {
		if a[i] != b[i] {
			if a[i] < b[i] {
				return -1
			}
			return 1
		}
	}
	switch {
	case len(a) < len(b):
		return -1
	case len(a) > len(b):
		return 1
	}
	return 0
}
