package engine

import (
	"slices"
	"unicode/utf8"
)

// A glob is a compiled gjson key wildcard: '*' matches any run of
// characters, '?' any one character, and '\' makes the next character
// literal. It matches as gjson's matcher (github.com/tidwall/match) does,
// but in time proportional to the product of the pattern's and the name's
// lengths at worst, where that matcher backtracks once per '*' and gives
// up after a step limit (10,000 steps per byte of the name): a pattern
// like *a*a*a*a*a*a*a*ab*a took seconds on a long member name, and an
// abandoned match was indistinguishable from no match.
type glob struct {
	toks  []globTok
	never bool // a trailing lone '\': the pattern matches no name
}

type globTok struct {
	kind uint8 // globLit, globOne or globStar
	r    rune  // globLit: the character
}

const (
	globLit uint8 = iota
	globOne
	globStar
)

func compileGlob(pattern string) glob {
	var g glob
	for i := 0; i < len(pattern); {
		r, w := utf8.DecodeRuneInString(pattern[i:])
		i += w
		switch r {
		case '*':
			if n := len(g.toks); n == 0 || g.toks[n-1].kind != globStar {
				g.toks = append(g.toks, globTok{kind: globStar})
			}
		case '?':
			g.toks = append(g.toks, globTok{kind: globOne})
		case '\\':
			if i == len(pattern) {
				// gjson's matcher reads a trailing lone '\' as a literal
				// when a '*' comes before it (it matches a star's suffix
				// from the end), and otherwise as matching nothing.
				if !slices.ContainsFunc(g.toks, func(t globTok) bool { return t.kind == globStar }) {
					g.never = true
					return g
				}
				g.toks = append(g.toks, globTok{kind: globLit, r: '\\'})
				continue
			}
			r, w = utf8.DecodeRuneInString(pattern[i:])
			i += w
			g.toks = append(g.toks, globTok{kind: globLit, r: r})
		default:
			g.toks = append(g.toks, globTok{kind: globLit, r: r})
		}
	}
	return g
}

// match reports whether name matches. It is the classic greedy match that
// remembers only the last '*': when a later literal fails, that star takes
// one more character and matching resumes after it.
func (g glob) match(name string) bool {
	if g.never {
		return false
	}
	t, s := 0, 0
	star, starAt := -1, 0
	for s < len(name) {
		r, w := utf8.DecodeRuneInString(name[s:])
		if t < len(g.toks) {
			switch tok := g.toks[t]; {
			case tok.kind == globStar:
				star, starAt = t, s
				t++
				continue
			case tok.kind == globOne, tok.r == r:
				t++
				s += w
				continue
			}
		}
		if star < 0 {
			return false
		}
		_, sw := utf8.DecodeRuneInString(name[starAt:])
		starAt += sw
		t, s = star+1, starAt
	}
	for t < len(g.toks) && g.toks[t].kind == globStar {
		t++
	}
	return t == len(g.toks)
}
