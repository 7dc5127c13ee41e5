package conformance_test

import (
	"testing"

	"github.com/celint/celint/conformance"
	"github.com/celint/celint/engine"
	"github.com/celint/celint/rulesets"
)

// TestEmbeddedRulesets runs every example of every embedded rule.
func TestEmbeddedRulesets(t *testing.T) {
	all, err := rulesets.Load(engine.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(all) == 0 {
		t.Fatal("no embedded rulesets")
	}
	for _, rs := range all {
		t.Run(rs.String(), func(t *testing.T) {
			results := conformance.Check(t, rs, conformance.Options{})
			for _, r := range results {
				t.Logf("%s %s %s %s: %s", r.Status, r.RuleID, r.Kind, r.Example, r.Got)
			}
		})
	}
}
