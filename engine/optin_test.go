package engine_test

import (
	"fmt"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/celint/celint/engine"
	"github.com/celint/celint/loader"
)

// TestOptInCodes: the findings of an opt-in code are marked OptIn, and the
// code's Code says so; an extending ruleset's levels entry naming the code
// turns it on (the mark goes), while one for the whole rule does not. It
// runs with the base compiled when it loads and lazily.
func TestOptInCodes(t *testing.T) {
	for _, lazy := range []bool{false, true} {
		t.Run(fmt.Sprintf("lazy=%v", lazy), func(t *testing.T) {
			base, err := engine.LoadRuleset(rulesetFS(orderedHeader, `rules:
  - id: t.one
    level: must
    given: $items
    checks:
      - assert: "false"
        message: one
      - code: quiet
        level: may
        optIn: true
        assert: "false"
        message: quiet
`), "rs", engine.Options{Lazy: lazy})
			if err != nil {
				t.Fatal(err)
			}
			if c := base.Rule("t.one").Codes[1]; c.Name != "quiet" || !c.OptIn {
				t.Fatalf("code %+v is not opt-in", c)
			}
			bases := func(string) (*engine.Ruleset, error) { return base, nil }
			for _, tc := range []struct{ levels, want string }{
				{"", "t.one/ error false one|t.one/quiet info true quiet"},
				{"levels: {t.one: should}", "t.one/ warning false one|t.one/quiet info true quiet"},
				{"levels: {t.one/quiet: should}", "t.one/ error false one|t.one/quiet warning false quiet"},
			} {
				rs := base
				if tc.levels != "" {
					fs := fstest.MapFS{
						"l/ruleset.yaml": {Data: []byte("name: lv\ntag: v0.1.0\nextends: t@v1\n" + tc.levels + "\n")},
						"l/r.yaml":       {Data: []byte("rules: []\n")},
					}
					if rs, err = engine.LoadRuleset(fs, "l", engine.Options{Bases: bases}); err != nil {
						t.Fatal(err)
					}
				}
				d, err := loader.Parse("doc.yaml", []byte("items:\n  - {name: x}\n"), rs.LoadOptions)
				if err != nil {
					t.Fatal(err)
				}
				var got []string
				for _, x := range mustLint(t, rs, d, engine.LintOptions{}) {
					got = append(got, fmt.Sprintf("%s/%s %s %v %s", x.RuleID, x.Code, x.Severity, x.OptIn, x.Message))
				}
				sameLines(t, got, strings.Split(tc.want, "|"))
			}
		})
	}
}
