// Package spelling suggests, for a name that matches nothing, the known
// names it is most likely a misspelling of.
package spelling

import "strings"

// Nearest returns the ids closest to id: those within a few edits of it, or
// else those that contain it, at most three.
func Nearest(id string, ids []string) []string {
	best, bestD := []string(nil), len(id)/3+2
	for _, c := range ids {
		switch d := editDistance(id, c); {
		case d < bestD:
			best, bestD = []string{c}, d
		case d == bestD:
			best = append(best, c)
		}
	}
	if len(best) == 0 && id != "" {
		for _, c := range ids {
			if strings.Contains(c, id) {
				best = append(best, c)
			}
		}
	}
	if len(best) > 3 {
		best = best[:3]
	}
	return best
}

// editDistance is the Levenshtein distance of a and b, in bytes.
func editDistance(a, b string) int {
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}
