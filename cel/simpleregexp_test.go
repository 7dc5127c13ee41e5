package cel

import (
	"regexp"
	"testing"
)

// Which patterns get the single-scan matcher: the anchored runs of ASCII
// classes, and nothing a greedy scan could get wrong.
func TestSimplePatternShapes(t *testing.T) {
	for _, tc := range []struct {
		pattern string
		simple  bool
	}{
		{`^[a-z][a-z0-9_]*$`, true},
		{`^[A-Za-z0-9._-]+$`, true},
		{`^[0-9]+$`, true},
		{`^x-`, true},
		{`^/tools/[0-9]+/inputSchema/`, true},
		{`^[0-9]{4}-[0-9]{2}$`, true},
		{`^$`, true},
		{`^a?b$`, true},
		{`^[a-z]*a$`, false}, // the run could take the a the end needs
		{`^a?a$`, false},     // likewise
		{`[a-z]+`, false},    // not anchored: a search
		{`^(?i)abc$`, false}, // case folding
		{`^[^01]$`, false},   // a class beyond ASCII
		{`^é$`, false},       // a character beyond ASCII
		{`^[a-z]+?$`, false}, // non-greedy
		{`^(ab)+$`, false},   // a repeated group
		{`^a|b$`, false},     // an alternation
		{`^.$`, false},       // any character
		{`^a{2,5}$`, false},  // a bounded range: nested optionals
		{`^[a-z]+\.[a-z]+$`, true},
		{`^\d+$`, true},
		{`(?m)^a$`, false}, // line anchors
	} {
		re := regexp.MustCompile(tc.pattern)
		if got := simplePattern(re) != nil; got != tc.simple {
			t.Errorf("%q: simple = %v, want %v", tc.pattern, got, tc.simple)
		}
	}
}

// The single scan agrees with regexp on every pattern it takes.
func TestSimpleRegexpAgrees(t *testing.T) {
	patterns := []string{`^[a-z][a-z0-9_]*$`, `^[A-Za-z0-9._-]+$`, `^[0-9]+$`, `^x-`, `^/tools/[0-9]+/inputSchema/`,
		`^[0-9]{4}-[0-9]{2}$`, `^$`, `^`, `^a?b$`, `^[a-z]+\.[a-z]+$`, `^\d+$`, `^a?b?c?$`, `^[ab]*c+$`}
	inputs := []string{"", "a", "ab", "a_1", "A", "1a", "abc-", "x-", "x-y", "y-x", "/tools/12/inputSchema/x", "/tools//inputSchema/",
		"2026-12", "2026-1", "b", "ab", "aab", "ab.cd", "ab.", "12", "１２", "é", "\xff", "a\n", "abcc", "c", "ababc", "a.b.c"}
	for _, p := range patterns {
		re := regexp.MustCompile(p)
		m := simplePattern(re)
		if m == nil {
			t.Errorf("%q is not simple", p)
			continue
		}
		for _, s := range inputs {
			if got, want := m.MatchString(s), re.MatchString(s); got != want {
				t.Errorf("%q on %q: %v, regexp says %v", p, s, got, want)
			}
		}
	}
}

// FuzzSimpleRegexp compares the single scan with regexp on patterns
// built from the fuzzer's bytes out of a few classes and quantifiers, so
// that most are of the simple shape, and on inputs over their alphabet.
func FuzzSimpleRegexp(f *testing.F) {
	f.Add([]byte{0, 1, 2, 3}, "abc", true)
	f.Add([]byte{5, 6, 7}, "a-b", false)
	f.Add([]byte{8, 9, 10, 11, 12}, "", true)
	atoms := []string{"a", "b", "c", "-", "[ab]", "[bc]", "[a-c]", "[-a]", `\d`, "[0-9a]"}
	quants := []string{"", "?", "*", "+", "{2}", "{0,1}"}
	f.Fuzz(func(t *testing.T, spec []byte, s string, end bool) {
		if len(spec) > 12 {
			return
		}
		pattern := "^"
		for _, b := range spec {
			pattern += atoms[int(b)%len(atoms)] + quants[int(b/16)%len(quants)]
		}
		if end {
			pattern += "$"
		}
		re := regexp.MustCompile(pattern)
		m := simplePattern(re)
		if m == nil {
			return
		}
		if got, want := m.MatchString(s), re.MatchString(s); got != want {
			t.Errorf("%q on %q: %v, regexp says %v", pattern, s, got, want)
		}
	})
}

// What compileRegexp gives the schema library: the same errors as
// regexp, and a matcher that keeps the pattern's text.
func TestCompileRegexp(t *testing.T) {
	if _, err := compileRegexp(`^[a-z`); err == nil {
		t.Error("a bad pattern compiled")
	}
	re, err := compileRegexp(`^[a-z]+$`)
	if err != nil || re.String() != `^[a-z]+$` || !re.MatchString("abc") || re.MatchString("ab1") {
		t.Errorf("compileRegexp: %v, %v", re, err)
	}
	if _, ok := re.(*simpleRegexp); !ok {
		t.Errorf("compileRegexp(^[a-z]+$) is a %T", re)
	}
}
