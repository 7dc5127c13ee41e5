package conformance_test

import (
	"context"
	"strings"
	"testing"

	"github.com/celint/celint/engine"
	"github.com/celint/celint/rulesets"
)

// TestEveryCodeHasAnInvalidExample: each named code of a rule is reported
// by at least one of the rule's invalid examples, so that conformance
// proves every finding, not only one of them.
func TestEveryCodeHasAnInvalidExample(t *testing.T) {
	for _, rs := range embeddedRulesets(t) {
		everyCodeHasAnInvalidExample(t, rs)
	}
}

func everyCodeHasAnInvalidExample(t *testing.T, rs *engine.Ruleset) {
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
				t.Errorf("%s: %s/%s: no invalid example of the rule reports this code", rs, r.ID, c.Name)
			}
		}
	}
}

// TestRequiredByQuotes: every requiredBy entry of the mcpdesc rules names
// its document and section and a quote of at most 12 words. A rule of
// v0.7.0 cites the 0.7.0 text (a rule shared with the later versions cites
// theirs too).
func TestRequiredByQuotes(t *testing.T) {
	for _, rs := range embeddedRulesets(t) {
		for _, r := range rs.Rules {
			if len(r.Doc.RequiredBy) == 0 {
				t.Errorf("%s: %s: no requiredBy", rs, r.ID)
			}
			cites := false
			for _, q := range r.Doc.RequiredBy {
				if q.Document == "" || q.Section == "" || q.Quote == "" {
					t.Errorf("%s: %s: requiredBy needs a document, a section and a quote (%q, section %q, quote %q)", rs, r.ID, q.Document, q.Section, q.Quote)
					continue
				}
				cites = cites || q.Document == "MCP Description 0.7.0"
				if n := len(strings.Fields(q.Quote)); n > 12 {
					t.Errorf("%s: %s: the quote of section %s has %d words, more than 12", rs, r.ID, q.Section, n)
				}
			}
			if rs.Tag == "v0.7.0" && !cites {
				t.Errorf("%s: %s: no requiredBy entry cites MCP Description 0.7.0", rs, r.ID)
			}
		}
	}
}

// embeddedRulesets are the embedded rulesets, newest first.
func embeddedRulesets(t *testing.T) []*engine.Ruleset {
	t.Helper()
	cat, err := rulesets.Catalog(engine.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return cat.Rulesets()
}
