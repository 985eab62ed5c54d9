package engine

import "strings"

// Suggest returns the candidate closest to word by edit distance (case
// folded), or "" when nothing is close enough to be a plausible typo: at
// most a third of the word's letters changed, at least one. Every "did you
// mean" in relavium — commands, flags, config keys, transports, agents,
// themes, tools — comes from here.
func Suggest(word string, candidates []string) string {
	best, bestD := "", max(1, len(word)/3)+1
	lw := strings.ToLower(word)
	for _, c := range candidates {
		if d := editDistance(lw, strings.ToLower(c)); d < bestD {
			best, bestD = c, d
		}
	}
	return best
}

// editDistance is the optimal-string-alignment distance: insertions,
// deletions, substitutions and transpositions of neighbours ("stdoi" is one
// edit from "stdio") each cost one.
func editDistance(a, b string) int {
	ra, rb := []rune(a), []rune(b)
	prev2 := make([]int, len(rb)+1)
	prev := make([]int, len(rb)+1)
	cur := make([]int, len(rb)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(ra); i++ {
		cur[0] = i
		for j := 1; j <= len(rb); j++ {
			cost := 1
			if ra[i-1] == rb[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
			if i > 1 && j > 1 && ra[i-1] == rb[j-2] && ra[i-2] == rb[j-1] {
				cur[j] = min(cur[j], prev2[j-2]+1)
			}
		}
		prev2, prev, cur = prev, cur, prev2
	}
	return prev[len(rb)]
}
