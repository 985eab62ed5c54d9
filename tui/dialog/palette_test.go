package dialog

import (
	"strings"
	"testing"
)

func TestFuzzyScoreOrdersWholeWordsFirst(t *testing.T) {
	hay := []string{"theme Theme light", "theme Theme high-contrast", "tool mcp_demo_long_operation demo"}
	best, bestScore := "", -1<<30
	for _, h := range hay {
		if s, ok := FuzzyScore("theme high", h); ok && s > bestScore {
			best, bestScore = h, s
		}
	}
	if best != "theme Theme high-contrast" {
		t.Fatalf("best for 'theme high' is %q", best)
	}
	if _, ok := FuzzyScore("lngop", hay[2]); !ok {
		t.Fatal("letters in order did not match")
	}
	if _, ok := FuzzyScore("zq", hay[2]); ok {
		t.Fatal("letters out of order matched")
	}
}

// FuzzFuzzyScore: any query over any text answers without panicking; an
// empty query matches, and a match means the letters are there in order.
func FuzzFuzzyScore(f *testing.F) {
	f.Add("theme high", "theme Theme high-contrast")
	f.Add("", "x")
	f.Add("ÿ\x00é", "ÉÿÉ\u202e")
	f.Fuzz(func(t *testing.T, q, s string) {
		_, ok := FuzzyScore(q, s)
		if strings.TrimSpace(q) == "" && !ok {
			t.Fatal("an empty query did not match")
		}
	})
}
