package cel

import (
	"regexp"
	"regexp/syntax"

	"github.com/celint/celint/internal/librarypaths"
	"github.com/santhosh-tekuri/jsonschema/v6"
)

// Most patterns that rules and schemas test names with are a run of ASCII
// character classes anchored at the start, such as ^[a-z][a-z0-9_]*$ or
// ^[A-Za-z0-9._-]+$. Go's regexp decides them with its one-pass matcher,
// at some 60 instructions a character. A single scan with a bit set per
// class decides them exactly, at a few: a simpleRegexp. Every other
// pattern is left to regexp, and a simpleRegexp keeps its *regexp.Regexp
// for everything but MatchString.

// simpleRegexp is a compiled pattern that is ^ followed by a sequence of
// items, optionally ending in $. An item is an ASCII character class (a
// literal character is a class of one) repeated from min to max times.
// Every item whose count may vary shares no character with the items after
// it, up to the first that must take at least one: the character after the
// item's run could not start what follows, so a match never stops the run
// early, and a greedy scan finds a match exactly when there is one.
type simpleRegexp struct {
	*regexp.Regexp
	items []simpleItem
	end   bool // ends in $: the match must reach the end of the text
}

// simpleItem is one class and how many times it repeats.
type simpleItem struct {
	set      [2]uint64 // the ASCII characters of the class
	min, max int       // max < 0: no bound
}

func (it *simpleItem) has(b byte) bool { return b < 128 && it.set[b>>6]&(1<<(b&63)) != 0 }

// MatchString reports whether s contains a match of the pattern.
func (m *simpleRegexp) MatchString(s string) bool {
	i := 0
	for k := range m.items {
		it := &m.items[k]
		n := 0
		for n != it.max && i < len(s) && it.has(s[i]) {
			i++
			n++
		}
		if n < it.min {
			return false
		}
	}
	return !m.end || i == len(s)
}

// compileRegexp compiles a pattern as regexp.Compile does, and returns a
// simpleRegexp when the pattern has its shape.
func compileRegexp(pattern string) (jsonschema.Regexp, error) {
	re, err := regexp.Compile(pattern)
	if err != nil {
		return nil, err
	}
	if librarypaths.On {
		return re, nil
	}
	if m := simplePattern(re); m != nil {
		return m, nil
	}
	return re, nil
}

// maxSimpleItems bounds the items of a simpleRegexp: a pattern with more
// (a long literal, a large repeat count) is left to regexp.
const maxSimpleItems = 64

// simplePattern returns re as a simpleRegexp; nil when it is not of that
// shape.
func simplePattern(re *regexp.Regexp) *simpleRegexp {
	tree, err := syntax.Parse(re.String(), syntax.Perl)
	if err != nil {
		return nil
	}
	tree = tree.Simplify()
	var parts []*syntax.Regexp
	if tree.Op == syntax.OpConcat {
		parts = tree.Sub
	} else {
		parts = []*syntax.Regexp{tree}
	}
	if len(parts) == 0 || parts[0].Op != syntax.OpBeginText {
		return nil
	}
	m := &simpleRegexp{Regexp: re}
	parts = parts[1:]
	if n := len(parts); n > 0 && parts[n-1].Op == syntax.OpEndText {
		m.end, parts = true, parts[:n-1]
	}
	for _, p := range parts {
		if !m.add(p) {
			return nil
		}
	}
	// A variable item shares no character with the items after it, up to
	// the first that must take one.
	for i, it := range m.items {
		if it.min == it.max {
			continue
		}
		for _, later := range m.items[i+1:] {
			if it.set[0]&later.set[0] != 0 || it.set[1]&later.set[1] != 0 {
				return nil
			}
			if later.min > 0 {
				break
			}
		}
	}
	return m
}

// add appends the items of one part of the concatenation; false when the
// part is not a class, a literal or a repeated class.
func (m *simpleRegexp) add(p *syntax.Regexp) bool {
	switch p.Op {
	case syntax.OpConcat: // as Simplify writes a repeat count, x{3}
		for _, q := range p.Sub {
			if !m.add(q) {
				return false
			}
		}
	case syntax.OpLiteral:
		if p.Flags&syntax.FoldCase != 0 {
			return false
		}
		for _, r := range p.Rune {
			var it simpleItem
			if !it.addRange(r, r) {
				return false
			}
			it.min, it.max = 1, 1
			m.items = append(m.items, it)
		}
	case syntax.OpCharClass:
		it, ok := classItem(p)
		if !ok {
			return false
		}
		it.min, it.max = 1, 1
		m.items = append(m.items, it)
	case syntax.OpStar, syntax.OpPlus, syntax.OpQuest:
		if p.Flags&syntax.NonGreedy != 0 || len(p.Sub) != 1 {
			return false
		}
		it, ok := classItem(p.Sub[0])
		if !ok {
			return false
		}
		switch p.Op {
		case syntax.OpStar:
			it.min, it.max = 0, -1
		case syntax.OpPlus:
			it.min, it.max = 1, -1
		default:
			it.min, it.max = 0, 1
		}
		m.items = append(m.items, it)
	default:
		return false
	}
	return len(m.items) <= maxSimpleItems
}

// classItem is the class of a character class or of a one-character
// literal; false for anything else, or a class with a character outside
// ASCII.
func classItem(p *syntax.Regexp) (simpleItem, bool) {
	var it simpleItem
	switch {
	case p.Op == syntax.OpCharClass:
		for i := 0; i+1 < len(p.Rune); i += 2 {
			if !it.addRange(p.Rune[i], p.Rune[i+1]) {
				return it, false
			}
		}
		return it, true
	case p.Op == syntax.OpLiteral && len(p.Rune) == 1 && p.Flags&syntax.FoldCase == 0:
		return it, it.addRange(p.Rune[0], p.Rune[0])
	}
	return it, false
}

// addRange adds the characters lo to hi; false when they are not ASCII.
func (it *simpleItem) addRange(lo, hi rune) bool {
	if lo < 0 || hi >= 128 || lo > hi {
		return false
	}
	for r := lo; r <= hi; r++ {
		it.set[r>>6] |= 1 << (r & 63)
	}
	return true
}
