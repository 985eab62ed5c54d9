package lock

import (
	"strings"

	"github.com/relavium/relavium/engine/sanitize"
)

// maxDiffWords bounds the word diff (its table is quadratic): longer texts
// are shown whole, old then new.
const maxDiffWords = 400

// maxDiffText bounds the rendered diff.
const maxDiffText = 2000

// WordDiff is a word-level diff of two texts: removed words as [-…-],
// added ones as {+…+}, the rest as it was. Both texts are sanitized to one
// line first.
func WordDiff(a, b string) string {
	aw, bw := strings.Fields(sanitize.Line(a)), strings.Fields(sanitize.Line(b))
	if len(aw) > maxDiffWords || len(bw) > maxDiffWords {
		return clipText("[-" + strings.Join(aw, " ") + "-] {+" + strings.Join(bw, " ") + "+}")
	}
	// lcs[i][j]: the longest common subsequence of aw[i:] and bw[j:].
	lcs := make([][]int, len(aw)+1)
	for i := range lcs {
		lcs[i] = make([]int, len(bw)+1)
	}
	for i := len(aw) - 1; i >= 0; i-- {
		for j := len(bw) - 1; j >= 0; j-- {
			if aw[i] == bw[j] {
				lcs[i][j] = lcs[i+1][j+1] + 1
			} else {
				lcs[i][j] = max(lcs[i+1][j], lcs[i][j+1])
			}
		}
	}
	var out []string
	var del, add []string
	flush := func() {
		if len(del) > 0 {
			out = append(out, "[-"+strings.Join(del, " ")+"-]")
		}
		if len(add) > 0 {
			out = append(out, "{+"+strings.Join(add, " ")+"+}")
		}
		del, add = nil, nil
	}
	i, j := 0, 0
	for i < len(aw) || j < len(bw) {
		switch {
		case i < len(aw) && j < len(bw) && aw[i] == bw[j]:
			flush()
			out = append(out, aw[i])
			i, j = i+1, j+1
		case j < len(bw) && (i == len(aw) || lcs[i][j+1] >= lcs[i+1][j]):
			add = append(add, bw[j])
			j++
		default:
			del = append(del, aw[i])
			i++
		}
	}
	flush()
	return clipText(strings.Join(out, " "))
}

func clipText(s string) string {
	if len(s) <= maxDiffText {
		return s
	}
	cut := maxDiffText
	for cut > 0 && !isRuneStart(s[cut]) {
		cut--
	}
	return s[:cut] + "…"
}

func isRuneStart(b byte) bool { return b&0xC0 != 0x80 }
