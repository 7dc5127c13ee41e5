package engine

import (
	"fmt"
	"testing"

	"github.com/celint/celint/loader"
)

// TestParamConditions: the conditions of a when that fixOff decides, and
// those it leaves to the document.
func TestParamConditions(t *testing.T) {
	params := map[string]*loader.Node{}
	for name, v := range map[string]string{"open": "true", "shut": "false", "least": "1", "hint": `"x-"`} {
		doc, err := loader.Parse("p.yaml", []byte(v), loader.Options{})
		if err != nil {
			t.Fatal(err)
		}
		params[name] = doc.Root
	}
	rs := &Ruleset{params: params}
	for _, tc := range []struct {
		when string
		off  bool
	}{
		{"params.shut && size(item) > 0", true},
		{"size(item) > 0 && params.open", false},
		{"size(item) > 0 && !params.open", true},
		{"params.least > 0 && key == 'a'", false},
		{"params.least >= 2 && key == 'a'", true},
		{"params.least == 1", false},
		{`params.hint == "x-" && true`, false},
		{`params.hint != "x-" && true`, true},
		{"params.shut || key == 'a'", false},               // not a conjunction at the top
		{"key == 'a' ? params.shut : true", false},         // nor is a choice
		{"(params.shut) && key == 'a'", false},             // a form not read
		{`key == "params.shut && " && params.open`, false}, // a string is not split
		{"f(params.shut && x) && params.open", false},      // nor a call's arguments
		{"params.nope && key == 'a'", false},               // no such param
		{"params.least && key == 'a'", false},              // not a boolean
		{"key.matches('^a|b$') && params.shut", true},      // a | in a string is no ||
	} {
		got := rs.fixOff(&loader.FixSpec{When: &loader.Expr{Text: tc.when}})
		if got != tc.off {
			t.Errorf("%s: off %v, want %v (conjuncts %q)", tc.when, got, tc.off, fmt.Sprint(topConjuncts(tc.when)))
		}
	}
}
