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

// "connect" chooses the entry whose title starts with it over one that
// only contains it (Reconnect), however the letters score.
func TestPaletteRanksTitlePrefixAndWholeWordsFirst(t *testing.T) {
	st := monoStyles()
	items := []PaletteItem{
		{Kind: "action", Title: "Reconnect everything", Hint: "r"},
		{Kind: "action", Title: "Reconnect demo", Hint: "r"},
		{Kind: "action", Title: "Disconnect demo", Hint: "d"},
		{Kind: "server", Title: "connector", Hint: "stdio"},
		{Kind: "action", Title: "Connect a server by URL or command…", Hint: "ad-hoc"},
	}
	p := NewPalette(st, items)
	press(p, "c", "o", "n", "n", "e", "c", "t")
	if got := p.Items[p.shown[0]].Title; got != "Connect a server by URL or command…" && got != "connector" {
		t.Fatalf("first for connect: %q", got)
	}
	for _, i := range p.shown[:2] {
		if strings.HasPrefix(p.Items[i].Title, "Reconnect") || strings.HasPrefix(p.Items[i].Title, "Disconnect") {
			t.Fatalf("an entry only containing the word is in the first two: %q", p.Items[i].Title)
		}
	}
	if TitleTier("server", "Connect a server by URL") != 1 || TitleTier("connect", "Reconnect demo") != 0 || TitleTier("conn", "Connect a server") != 2 {
		t.Fatal("TitleTier tiers")
	}
}

// Letters found within a title beat letters straddling title and hint.
func TestPalettePrefersMatchesWithinTheTitle(t *testing.T) {
	p := NewPalette(monoStyles(), []PaletteItem{
		{Kind: "tool", Title: "mcp_demo_test_trigger_prompt_change", Hint: "demo"},
		{Kind: "tool", Title: "mcp_demo_echo", Hint: "demo"},
	})
	press(p, "m", "c", "p", "e", "c", "h", "o")
	if got := p.Items[p.shown[0]].Title; got != "mcp_demo_echo" {
		t.Fatalf("first for mcpecho: %s", got)
	}
}
