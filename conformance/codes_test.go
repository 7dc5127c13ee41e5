package conformance_test

import (
	"context"
	"strings"
	"testing"

	"github.com/celint/celint/engine"
)

// TestEveryCodeHasAnInvalidExample: each named code of a rule is reported
// by at least one of the rule's invalid examples, so that conformance
// proves every finding, not only one of them.
func TestEveryCodeHasAnInvalidExample(t *testing.T) {
	rs := seedRuleset(t)
	for _, r := range rs.Rules {
		seen := map[string]bool{}
		for i := range r.Examples.Invalid {
			doc, err := rs.LoadExample(r, &r.Examples.Invalid[i], engine.ExampleOptions{})
			if err != nil {
				continue // conformance reports it
			}
			ds, err := rs.Lint(context.Background(), doc, engine.LintOptions{Filter: func(x *engine.Rule) bool { return x == r }})
			if err != nil {
				t.Fatal(err)
			}
			for _, d := range ds {
				seen[d.Code] = true
			}
		}
		for _, c := range r.Codes[1:] {
			if !seen[c.Name] {
				t.Errorf("%s/%s: no invalid example of the rule reports this code", r.ID, c.Name)
			}
		}
	}
}

// TestRequiredByQuotes: every requiredBy entry of the mcpdesc rules cites
// its section and a quote of at most 12 words.
func TestRequiredByQuotes(t *testing.T) {
	rs := seedRuleset(t)
	for _, r := range rs.Rules {
		if len(r.Doc.RequiredBy) == 0 {
			t.Errorf("%s: no requiredBy", r.ID)
		}
		for _, q := range r.Doc.RequiredBy {
			if q.Section == "" || q.Quote == "" {
				t.Errorf("%s: requiredBy needs a section and a quote (section %q, quote %q)", r.ID, q.Section, q.Quote)
				continue
			}
			if n := len(strings.Fields(q.Quote)); n > 12 {
				t.Errorf("%s: the quote of section %s has %d words, more than 12", r.ID, q.Section, n)
			}
		}
	}
}
