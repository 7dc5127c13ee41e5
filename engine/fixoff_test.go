package engine_test

import (
	"context"
	"fmt"
	"testing"
	"testing/fstest"

	"github.com/celint/celint/engine"
	"github.com/celint/celint/loader"
)

// fixOffRules is a rule with three fixes: one only where the param open
// is true, one only where the param least is above 0, and one whose when
// reads the document as well as a param.
const fixOffRules = `rules:
  - id: t.items
    title: Items
    level: must
    given: items.#
    schema:
      type: object
      properties: {tags: {type: array, minItems: {$param: least}}}
      additionalProperties: false
    schemaFixes:
      additionalProperties:
        description: renamed
        when: params.open && !(("x-" + key) in item)
        edits: [{op: move, from: '{key}', at: 'x-{key}'}]
      minItems:
        description: removed
        when: params.least > 0 && size(item[key]) == 0
        edits: [{op: remove, at: '{key}'}]
    checks:
      - code: kind
        assert: has(self.kind) || !params.open
        fix:
          description: added
          when: '!params.open || has(self.name)'
          edits: [{op: add, at: kind, value: '"k"'}]
    examples:
      valid: [{document: {items: [{kind: a}]}}]
      invalid: [{document: {items: [{colour: red}]}}]
`

// TestFixOff: a fix whose when has a condition that reads only params,
// false for the ruleset's values, is no fix of that ruleset: neither
// listed nor made, and a rule left without fixes is not fixable.
func TestFixOff(t *testing.T) {
	for _, tc := range []struct {
		params, fixes, edits string
		fixable              bool
	}{
		{"{open: true, least: 1}", "[added renamed removed]", "[{move /items/0/colour /items/0/x-colour <nil>} {remove  /items/0/tags <nil>}]", true},
		{"{open: false, least: 1}", "[added removed]", "[{remove  /items/0/tags <nil>}]", true},
		{"{open: false, least: 0}", "[added]", "[]", true},
	} {
		fsys := fstest.MapFS{
			"rs/ruleset.yaml": {Data: []byte("name: t\ntag: v1\nparams: " + tc.params + "\n")},
			"rs/rules.yaml":   {Data: []byte(fixOffRules)},
		}
		rs, err := engine.LoadRuleset(fsys, "rs", engine.Options{})
		if err != nil {
			t.Fatal(err)
		}
		r := rs.Rule("t.items")
		var fixes []string
		for _, f := range r.Fixes {
			fixes = append(fixes, f.Description)
		}
		if got := fmt.Sprint(fixes); got != tc.fixes || r.Fixable != tc.fixable {
			t.Errorf("%s: fixes %s (fixable %v), want %s", tc.params, got, r.Fixable, tc.fixes)
		}
		doc, err := loader.Parse("d.yaml", []byte("items:\n  - {colour: red, tags: []}\n"), rs.LoadOptions)
		if err != nil {
			t.Fatal(err)
		}
		ds, err := rs.Lint(context.Background(), doc, engine.LintOptions{})
		if err != nil {
			t.Fatal(err)
		}
		edits := []loader.Edit{}
		for _, d := range ds {
			edits = append(edits, d.Fix...)
		}
		if got := fmt.Sprint(edits); got != tc.edits {
			t.Errorf("%s: edits %s, want %s", tc.params, got, tc.edits)
		}
	}
}
