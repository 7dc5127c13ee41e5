package engine_test

import (
	"context"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/celint/celint/engine"
	"github.com/celint/celint/loader"
)

// fixRoundRules: two fixes of one value (lower case, then trimmed), a fix
// that would bring an error of another rule, one that cannot be made, and
// two that undo each other.
const fixRoundRules = `rules:
  - id: t.lower
    title: Lower-case names
    level: must
    given: name
    checks:
      - assert: self == self.lowerAscii()
        fix: {edits: [{op: replace, value: self.lowerAscii()}]}
  - id: t.trim
    title: Trimmed names
    level: must
    given: name
    checks:
      - assert: self == self.trim()
        fix: {edits: [{op: replace, value: self.trim()}]}
  - id: t.size
    title: Sizes are numbers
    level: must
    given: size
    checks:
      - assert: type(self) == int
        fix: {edits: [{op: replace, value: '-5'}]}
  - id: t.positive
    title: Sizes are positive
    level: must
    given: size
    checks:
      - assert: type(self) != int || self > 0
  - id: t.gone
    title: Nothing is gone
    level: should
    given: $
    checks:
      - assert: '!("gone" in self)'
        fix: {edits: [{op: remove, at: nowhere}]}
  - id: t.on
    title: On
    level: should
    given: flag
    checks:
      - assert: self
        fix: {edits: [{op: replace, value: 'true'}]}
  - id: t.off
    title: Off
    level: should
    given: flag
    checks:
      - assert: '!self'
        fix: {edits: [{op: replace, value: 'false'}]}
`

func fixRuleset(t *testing.T) *engine.Ruleset {
	t.Helper()
	fsys := fstest.MapFS{"rs/ruleset.yaml": {Data: []byte("name: t\ntag: v1\n")}, "rs/rules.yaml": {Data: []byte(fixRoundRules)}}
	rs, err := engine.LoadRuleset(fsys, "rs", engine.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return rs
}

// TestApplyFixes: fixes of one value are made in turn, one round each; a
// fix that would bring an error, or that cannot be written, is refused
// with why; fixes that undo each other stop at the round limit.
func TestApplyFixes(t *testing.T) {
	rs := fixRuleset(t)
	for _, tc := range []struct {
		name, src, want string
		rounds          int
		stable          bool
		refused         []string
	}{
		{"two fixes of one value", "name: ' ABC'   # keep\n", "name: 'abc'   # keep\n", 2, true, nil},
		{"a fix that brings an error", "size: x\n", "size: x\n", 0, true, []string{"t.size: it would bring t.positive"}},
		{"a fix that cannot be made", "gone: 1\nname: a\n", "gone: 1\nname: a\n", 0, true, []string{"t.gone: edit 1 at \"/nowhere\""}},
		{"fixes that undo each other", "flag: true\n", "", 3, false, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			doc, err := loader.Parse("d.yaml", []byte(tc.src), rs.LoadOptions)
			if err != nil {
				t.Fatal(err)
			}
			res, err := engine.ApplyFixes(context.Background(), rs, doc, engine.FixOptions{MaxRounds: 3})
			if err != nil {
				t.Fatal(err)
			}
			if tc.want != "" && string(res.Source) != tc.want {
				t.Errorf("source %q, want %q", res.Source, tc.want)
			}
			if res.Rounds != tc.rounds || res.Stable != tc.stable {
				t.Errorf("rounds %d stable %v, want %d %v", res.Rounds, res.Stable, tc.rounds, tc.stable)
			}
			var refused []string
			for _, r := range res.Refused {
				refused = append(refused, r.RuleID+": "+r.Reason)
			}
			if len(refused) != len(tc.refused) {
				t.Fatalf("refused %q, want %q", refused, tc.refused)
			}
			for i, want := range tc.refused {
				if !strings.HasPrefix(refused[i], want) {
					t.Errorf("refused %q, want %q…", refused[i], want)
				}
			}
			if string(doc.Source) != tc.src {
				t.Error("the document changed")
			}
		})
	}
}
