package config

import (
	"math/rand/v2"
	"path"
	"strings"
	"testing"
)

// refMatch is Pattern.Match written as a plain backtracking search: the
// reference the automaton is compared with. It takes exponential time in
// the number of '**', so it only runs on small inputs.
func refMatch(text, rel string) bool {
	segs := strings.Split(rel, "/")
	pat := strings.Split(strings.TrimPrefix(text, "./"), "/")
	if !strings.Contains(strings.TrimPrefix(text, "./"), "/") {
		for _, s := range segs {
			if ok, _ := path.Match(text, s); ok {
				return true
			}
		}
		return false
	}
	for n := len(segs); n > 0; n-- {
		if refMatchSegments(pat, segs[:n]) {
			return true
		}
	}
	return false
}

// refMatchSegments matches path segments against pattern segments, '**'
// standing for any number of segments, by trying every split.
func refMatchSegments(pat, segs []string) bool {
	if len(pat) == 0 {
		return len(segs) == 0
	}
	if pat[0] == "**" {
		for i := 0; i <= len(segs); i++ {
			if refMatchSegments(pat[1:], segs[i:]) {
				return true
			}
		}
		return false
	}
	if len(segs) == 0 {
		return false
	}
	if ok, _ := path.Match(pat[0], segs[0]); !ok {
		return false
	}
	return refMatchSegments(pat[1:], segs[1:])
}

// randomPattern joins up to 6 pattern segments, some of them '**' or not
// valid for path.Match, sometimes after "./"; a single segment is a bare
// name.
func randomPattern(rng *rand.Rand) string {
	pieces := []string{"a", "b", "ab", "*", "*", "?", "a*", "*b", "[ab]", "[!a]", "**", "**", "**", "", ".x", "[", "a\\"}
	n := 1 + rng.IntN(5)
	segs := make([]string, n)
	stars := 0
	for i := range segs {
		segs[i] = pieces[rng.IntN(len(pieces))]
		if segs[i] == "**" {
			if stars == MaxDoubleStars {
				segs[i] = "*"
			}
			stars++
		}
	}
	p := strings.Join(segs, "/")
	if rng.IntN(5) == 0 {
		p = "./" + p
	}
	return p
}

// randomPath joins up to 8 path segments.
func randomPath(rng *rand.Rand) string {
	pieces := []string{"a", "a", "b", "ab", "ba", "", ".x", "x.yaml"}
	n := 1 + rng.IntN(8)
	segs := make([]string, n)
	for i := range segs {
		segs[i] = pieces[rng.IntN(len(pieces))]
	}
	return strings.Join(segs, "/")
}

// TestMatchAgainstReference: the automaton gives the backtracking search's
// answer on generated patterns and paths, for Pattern.Match (any leading
// part of the path) and MatchPath (the whole path).
func TestMatchAgainstReference(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	matched := 0
	for range 50_000 {
		text, rel := randomPattern(rng), randomPath(rng)
		want := refMatch(text, rel)
		if got := (Pattern{Text: text}).Match(rel); got != want {
			t.Fatalf("Pattern{%q}.Match(%q) = %v, the reference says %v", text, rel, got, want)
		}
		if want {
			matched++
		}
		pat, segs := strings.Split(text, "/"), strings.Split(rel, "/")
		if got, want := MatchPath(pat, segs), refMatchSegments(pat, segs); got != want {
			t.Fatalf("MatchPath(%q, %q) = %v, the reference says %v", pat, segs, got, want)
		}
	}
	// Both answers occur often enough for the comparison to mean something.
	if matched < 2_500 || matched > 47_500 {
		t.Errorf("%d of 50000 generated cases match", matched)
	}
}

// FuzzMatchPath compares the automaton with the backtracking search on
// short patterns and paths.
func FuzzMatchPath(f *testing.F) {
	for _, s := range [][2]string{
		{"**/*.yaml", "x/y/a.yaml"},
		{"walk/**/*.yaml", "walk/a.yaml"},
		{"./docs/*.md", "docs/a.md"},
		{"a/b", "a/b/c.yaml"},
		{"**/a/**/a/**/b/zz", "a/a/a/b/zz"},
		{"**/**/[ab]/?", "a//b/c"},
		{"node_modules", "src/node_modules/p.json"},
	} {
		f.Add(s[0], s[1])
	}
	f.Fuzz(func(t *testing.T, text, rel string) {
		if len(text) > 40 || len(rel) > 60 || strings.Count(text, "**") > MaxDoubleStars {
			return // the reference is exponential in the number of '**'
		}
		if got, want := (Pattern{Text: text}).Match(rel), refMatch(text, rel); got != want {
			t.Fatalf("Pattern{%q}.Match(%q) = %v, the reference says %v", text, rel, got, want)
		}
		pat, segs := strings.Split(text, "/"), strings.Split(rel, "/")
		if got, want := MatchPath(pat, segs), refMatchSegments(pat, segs); got != want {
			t.Fatalf("MatchPath(%q, %q) = %v, the reference says %v", pat, segs, got, want)
		}
	})
}

// TestMatchDeepPath: a pattern with four '**' over a path 400 folders
// deep, which the backtracking search would not finish, is answered with at
// most len(pattern) × len(path) segment comparisons.
func TestMatchDeepPath(t *testing.T) {
	const text = "**/a/**/a/**/a/**/b/zz"
	deep := strings.Repeat("a/", 400)
	pat := strings.Split(text, "/")
	for _, tt := range []struct {
		rel           string
		whole, prefix bool
	}{
		{deep + "x.yaml", false, false},
		{deep + "b/zz", true, true},
		{deep + "b/zz/x.yaml", false, true},
		{deep + "b/x/zz", false, false},
	} {
		segs := strings.Split(tt.rel, "/")
		for _, prefixes := range []bool{false, true} {
			got, steps := matchSegments(pat, segs, prefixes)
			want := tt.whole
			if prefixes {
				want = tt.prefix
			}
			if got != want {
				t.Errorf("%d segments, prefixes %v: matched %v, want %v", len(segs), prefixes, got, want)
			}
			if limit := len(pat) * len(segs); steps > limit {
				t.Errorf("%d segments, prefixes %v: %d segment comparisons, more than %d", len(segs), prefixes, steps, limit)
			}
		}
		if got := (Pattern{Text: text}).Match(tt.rel); got != tt.prefix {
			t.Errorf("Pattern.Match over %d segments: %v, want %v", len(segs), got, tt.prefix)
		}
	}
}

// TestPatternLimits: a pattern with more than MaxDoubleStars '**' is
// refused at its line:col, in ignore and in an override's files.
func TestPatternLimits(t *testing.T) {
	dir := t.TempDir()
	p := write(t, dir, ".celint.yaml", `ignore: ["**/a/**/a/**/a/**/a/**/b", "**/a/**/a/**/a/**/b"]
overrides:
  - files: ["x/**/**/**/**/**"]
    rules: {a.rule: off}
`)
	_, err := Load(p)
	if err == nil {
		t.Fatal("loaded")
	}
	for _, want := range []string{
		`.celint.yaml:1:10: ignore: pattern "**/a/**/a/**/a/**/a/**/b": at most 4 '**' in a pattern, found 5`,
		`.celint.yaml:3:13: files: pattern "x/**/**/**/**/**": at most 4 '**' in a pattern, found 5`,
	} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error lacks %q:\n%v", want, err)
		}
	}
	if strings.Contains(err.Error(), `"**/a/**/a/**/a/**/b"`) {
		t.Errorf("a pattern with four '**' is refused:\n%v", err)
	}
	for _, ok := range []string{"**/a/**/a/**/a/**/b", "a/b", "*.json"} {
		if err := CheckPattern(ok); err != nil {
			t.Errorf("CheckPattern(%q): %v", ok, err)
		}
	}
	for _, bad := range []string{"", "[", "a/**/**/**/**/**"} {
		if err := CheckPattern(bad); err == nil {
			t.Errorf("CheckPattern(%q) accepted it", bad)
		}
	}
}
