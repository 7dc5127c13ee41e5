package rulesets_test

import (
	"strings"
	"testing"

	"github.com/celint/celint/engine"
	"github.com/celint/celint/rulesets"
)

// TestEmbeddedRulesets loads every embedded ruleset and checks that each
// sits in the folder its header names, and that every rule is pinned at
// that tag.
func TestEmbeddedRulesets(t *testing.T) {
	all, err := rulesets.Load(engine.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(all) == 0 {
		t.Fatal("no embedded ruleset")
	}
	for _, rs := range all {
		if rs.Dir != rs.Name+"/"+rs.Tag {
			t.Errorf("ruleset %s lives in %s; want %s/%s", rs, rs.Dir, rs.Name, rs.Tag)
		}
		if len(rs.Rules) == 0 {
			t.Errorf("ruleset %s has no rules", rs)
		}
		for _, r := range rs.Rules {
			if r.Tag != rs.Tag || !strings.HasPrefix(r.ID, rs.Name+".") {
				t.Errorf("rule %s (tag %s) does not belong to %s", r.ID, r.Tag, rs)
			}
		}
	}
	if _, err := rulesets.Catalog(engine.Options{}); err != nil {
		t.Fatal(err)
	}
}
