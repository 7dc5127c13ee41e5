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
	if got := fmt.Sprint(edits); got != "[{add  /items/0/kind thing-a} {remove  /items/0/tags <nil>}]" {
		t.Errorf("fixes %s", got)
	}
	out, err := loader.Edits("d.yaml", doc.Source, rs.LoadOptions, edits)
	if err != nil || string(out) != "# keep me\nitems:\n  - name: a   # the first\n    kind: thing-a\n" {
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

// schemaFixRules is a rule whose schema findings carry fixes: an unknown
// member is renamed with an x- prefix, unless that name is taken (the
// first of two fixes of the keyword writes an X- prefix x-), and a missing
// type is added.
const schemaFixRules = `rules:
  - id: t.members
    title: Name extensions with x-
    level: must
    given: items.#
    schema:
      type: object
      required: [type]
      properties:
        type: {const: thing}
        name: {type: string}
        meta: {type: object, additionalProperties: false, patternProperties: {"^x-": true}}
      patternProperties: {"^x-": true}
      additionalProperties: false
    schemaFixes:
      additionalProperties:
        - description: an extension written with X- is written with x-
          when: key.startsWith("X-") && !(("x-" + key.substring(2)) in item)
          edits: [{op: move, from: '{key}', at: 'x-{key.substring(2)}'}]
        - when: '!key.startsWith("X-") && !(("x-" + key) in item)'
          edits: [{op: move, from: '{key}', at: 'x-{key}'}]
      required:
        edits: [{op: add, at: '{key}', value: '"thing"'}]
    examples:
      valid:
        - document: {items: [{type: thing, name: a, x-colour: red}]}
      invalid:
        - title: renamed, nested too, and the type added
          document: {items: [{name: a, colour: red, meta: {size: 1, X-Shape: round}}]}
          fixed: {items: [{name: a, x-colour: red, meta: {x-size: 1, x-Shape: round}, type: thing}]}
        - title: a name that is taken is left to the author (fixed is the document itself)
          document: {items: [{type: thing, colour: red, x-colour: blue}]}
          fixed: {items: [{type: thing, colour: red, x-colour: blue}]}
        - title: a fixed document that claims a fix where none is made
          document: {items: [{type: thing, colour: red, x-colour: blue}]}
          fixed: {items: [{type: thing, x-colour: blue}]}
`

// TestSchemaFixes: the findings of a schema fragment carry the fixes of
// their keyword, with item the value the keyword failed on and key the
// member; a move renames the member where it stands.
func TestSchemaFixes(t *testing.T) {
	fsys := fstest.MapFS{
		"rs/ruleset.yaml": {Data: []byte("name: t\ntag: v1\n")},
		"rs/rules.yaml":   {Data: []byte(schemaFixRules)},
	}
	rs, err := engine.LoadRuleset(fsys, "rs", engine.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if !rs.Rules[0].Fixable {
		t.Error("a rule with schemaFixes is not marked fixable")
	}
	src := "items:\n  - name: a # keep\n    colour: red   # and this\n"
	doc, err := loader.Parse("d.yaml", []byte(src), rs.LoadOptions)
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
	if got := fmt.Sprint(edits); got != "[{add  /items/0/type thing} {move /items/0/colour /items/0/x-colour <nil>}]" {
		t.Errorf("fixes %s", got)
	}
	out, err := loader.Edits("d.yaml", doc.Source, rs.LoadOptions, edits)
	if want := "items:\n  - name: a # keep\n    x-colour: red   # and this\n    type: thing\n"; err != nil || string(out) != want {
		t.Errorf("fixed source %q, %v; want %q", out, err, want)
	}
	var got []string
	for _, r := range conformance.Run(context.Background(), rs, conformance.Options{}) {
		got = append(got, fmt.Sprintf("%s %s: %s", r.Status, r.Kind, r.Got))
	}
	for i, want := range []string{"pass valid", "pass invalid", "pass invalid", "FAIL invalid: the rule's findings carry no fix"} {
		if i >= len(got) || !strings.HasPrefix(got[i], want) {
			t.Errorf("result %d: got %q, want %q…", i, got, want)
		}
	}
}

// roundRules are two rules: t.unique removes the later of equal items,
// one finding (and one removal) each, and t.dropped takes out a member
// that t.kept requires, an error the fix brings.
const roundRules = `rules:
  - id: t.unique
    title: List each item once
    level: must
    given: items
    checks:
      - each: duplicateIndexes(self)
        assert: "false"
        at: "{item}"
        message: an item listed before
        fix:
          edits: [{op: remove, at: "{item}"}]
    examples:
      valid:
        - document: {items: [a, b]}
      invalid:
        - title: three repetitions, each removed where it stands
          document: {items: [a, a, b, a, c, b]}
          fixed: {items: [a, b, c]}
  - id: t.dropped
    title: Leave out the note
    level: should
    given: $
    checks:
      - assert: '!has(self.note)'
        at: note
        fix:
          edits: [{op: remove, at: note}]
    examples:
      valid:
        - document: {items: []}
      invalid:
        - document: {items: [], note: n}
          fixed: {items: []}
  - id: t.kept
    title: Keep a note
    level: must
    given: $
    checks:
      - assert: has(self.note)
    examples:
      valid:
        - document: {note: n}
      invalid:
        - document: {}
`

// TestFixRounds: the fixes of several findings in one array are made
// together, each removing the item it was found at; a fix that gives the
// document an error of another rule fails its example.
func TestFixRounds(t *testing.T) {
	fsys := fstest.MapFS{
		"rs/ruleset.yaml": {Data: []byte("name: t\ntag: v1\n")},
		"rs/rules.yaml":   {Data: []byte(roundRules)},
	}
	rs, err := engine.LoadRuleset(fsys, "rs", engine.Options{})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, r := range conformance.Run(context.Background(), rs, conformance.Options{}) {
		got = append(got, fmt.Sprintf("%s %s %s: %s", r.RuleID, r.Status, r.Kind, r.Got))
	}
	for i, want := range []string{
		"t.dropped pass valid", "t.dropped FAIL invalid: the fixes bring a new error: t.kept at the document root",
		"t.kept pass valid", "t.kept pass invalid",
		"t.unique pass valid", "t.unique pass invalid",
	} {
		if i >= len(got) || !strings.HasPrefix(got[i], want) {
			t.Errorf("result %d: got %q, want %q…", i, got, want)
		}
	}
}

// TestFixSpecErrors: a malformed fix is a load error at its place.
func TestFixSpecErrors(t *testing.T) {
	for _, tc := range []struct{ fix, want string }{
		{"{edits: [{op: move, at: b}]}", "a move edit has a 'from'"},
		{"{edits: [{op: move, from: a, at: b, value: '1'}]}", "a move edit has a 'from'"},
		{"{edits: [{op: remove, from: a}]}", "only a move edit has a 'from'"},
		{"{edits: [{op: copy, at: a}]}", `op "copy" is not one of replace, remove, add, move`},
		{"{edits: [{op: add, at: '{nope}', value: '1'}]}", "undeclared reference to 'nope'"},
	} {
		rules := "rules:\n  - id: t.r\n    title: T\n    level: must\n    given: a\n    schema: {type: string}\n    schemaFixes:\n      type: " + tc.fix + "\n"
		fsys := fstest.MapFS{"rs/ruleset.yaml": {Data: []byte("name: t\ntag: v1\n")}, "rs/rules.yaml": {Data: []byte(rules)}}
		_, err := engine.LoadRuleset(fsys, "rs", engine.Options{})
		if err == nil || !strings.Contains(err.Error(), tc.want) || !strings.Contains(err.Error(), "rules.yaml:8:") {
			t.Errorf("%s: got %v, want an error at rules.yaml:8 saying %q", tc.fix, err, tc.want)
		}
	}
}
