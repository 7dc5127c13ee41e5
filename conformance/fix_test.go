package conformance_test

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/celint/celint/conformance"
	"github.com/celint/celint/engine"
	"github.com/celint/celint/loader"
)

// fixRules is a rule with a fix: an empty tags list is taken out, and a
// missing kind is added. Its examples state the fixed documents, one of
// them wrongly.
const fixRules = `rules:
  - id: t.tags
    title: Leave empty lists out
    level: must
    given: items.#
    checks:
      - code: empty-tags
        assert: '!has(self.tags) || size(self.tags) > 0'
        at: tags
        message: an empty tags list is left out
        fix:
          edits: [{op: remove, at: tags}]
      - code: kind
        assert: has(self.kind)
        message: an item names its kind
        fix:
          when: has(self.name)
          edits: [{op: add, at: kind, value: '"thing-" + self.name'}]
    examples:
      valid:
        - document: {items: [{name: a, kind: x, tags: [t]}]}
      invalid:
        - title: both fixed
          document: {items: [{name: a, tags: []}]}
          fixed: {items: [{name: a, kind: thing-a}]}
        - title: a wrong fixed document
          document: {items: [{name: b, kind: k, tags: []}]}
          fixed: {items: [{name: b, kind: k, tags: []}]}
        - title: nothing that fixes
          document: {items: [{tags: [t]}]}
          fixed: {items: [{tags: [t], kind: z}]}
`

// TestFixes: a finding carries its fix, with pointers from the root and
// values computed by CEL; conformance applies the fixes of an invalid
// example and compares the result with its fixed document, both ways.
func TestFixes(t *testing.T) {
	fsys := fstest.MapFS{
		"rs/ruleset.yaml": {Data: []byte("name: t\ntag: v1\n")},
		"rs/rules.yaml":   {Data: []byte(fixRules)},
	}
	rs, err := engine.LoadRuleset(fsys, "rs", engine.Options{})
	if err != nil {
		t.Fatal(err)
	}
	doc, err := loader.Parse("d.yaml", []byte("# keep me\nitems:\n  - name: a   # the first\n    tags: []\n"), rs.LoadOptions)
	if err != nil {
		t.Fatal(err)
	}
	ds, err := rs.Lint(context.Background(), doc, engine.LintOptions{})
	if err != nil {
		t.Fatal(err)
	}
	var edits []loader.Edit
	for _, d := range ds {
		edits = append(edits, d.Fix...)
	}
	if got := fmt.Sprint(edits); got != "[{add /items/0/kind thing-a} {remove /items/0/tags <nil>}]" {
		t.Errorf("fixes %s", got)
	}
	out, err := loader.Edits("d.yaml", doc.Source, rs.LoadOptions, edits)
	if err != nil || string(out) != "# keep me\nitems:\n  - name: a   # the first\n    kind: \"thing-a\"\n" {
		t.Errorf("fixed source %q, %v", out, err)
	}

	var got []string
	for _, r := range conformance.Run(context.Background(), rs, conformance.Options{}) {
		got = append(got, fmt.Sprintf("%s %s: %s", r.Status, r.Kind, r.Got))
	}
	for i, want := range []string{"pass valid", "pass invalid", "FAIL invalid: the fixes give", "FAIL invalid: the rule's findings carry no fix"} {
		if i >= len(got) || !strings.HasPrefix(got[i], want) {
			t.Errorf("result %d: got %q, want %q…", i, got, want)
		}
	}
}
