package engine_test

import (
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/celint/celint/engine"
	"github.com/celint/celint/internal/benchgen"
	"github.com/celint/celint/loader"
)

// splitRuleErrors returns the findings of ds and its rule errors.
func splitRuleErrors(ds []engine.Diagnostic) (findings, ruleErrors []engine.Diagnostic) {
	for _, d := range ds {
		if d.RuleError {
			ruleErrors = append(ruleErrors, d)
		} else {
			findings = append(findings, d)
		}
	}
	return findings, ruleErrors
}

// TestMaxDiagnostics: with LintOptions.MaxDiagnostics, a lint keeps the
// first findings of the uncapped lint, in its order, and every rule error;
// the others are counted by severity. The kept set is the same whatever
// the number of workers, on a document with findings everywhere, rule
// errors (a small budget), and a finding reached through references from
// several places, whose related positions are merged.
func TestMaxDiagnostics(t *testing.T) {
	cat, err := engine.NewCatalog(withSyntheticRules(t, 20)...)
	if err != nil {
		t.Fatal(err)
	}
	src := string(benchgen.Description(60))
	src = strings.ReplaceAll(src, `"name": "tool_1`, `"name": "Tool-1`)
	src = strings.ReplaceAll(src, `"https://`, `"http://`)
	src = strings.ReplaceAll(src, `"input": {`, `"input": {"undeclared": 1, `)
	data := []byte(src)
	refs := []byte(`mcpdesc: "0.9.0"
protocolVersions: ["2025-06-18", "2025-11-25"]
info: {name: x, version: "1"}
components:
  schemas:
    In: {type: object, properties: {n: {type: integer}}, required: [n]}
  toolExamples:
    bad: {input: {n: "one"}, result: {content: []}}
tools:
  - name: a
    inputSchema: {$componentRef: "#/components/schemas/In"}
    examples:
      one: {$componentRef: "#/components/toolExamples/bad"}
      two: {$componentRef: "#/components/toolExamples/bad"}
      three: {$componentRef: "#/components/toolExamples/missing"}
  - name: a
    inputSchema: {type: object}
`)
	for _, tc := range []struct {
		name   string
		data   []byte
		budget uint64
	}{{"big.json", data, 0}, {"big.json", data, 5_000}, {"refs.yaml", refs, 0}} {
		doc, rs, err := cat.Load(tc.name, tc.data, nil)
		if err != nil {
			t.Fatal(err)
		}
		if tc.name == "big.json" && doc.Values < 4096 {
			t.Fatalf("the document has %d values; it must be large enough to be linted interleaved", doc.Values)
		}
		opts := engine.LintOptions{Budget: tc.budget}
		all := mustLint(t, rs, doc, engine.OneByOne(opts))
		findings, ruleErrors := splitRuleErrors(all)
		if len(findings) < 3 || tc.budget != 0 && len(ruleErrors) == 0 {
			t.Fatalf("%s, budget %d: %d findings, %d rule errors: not enough to compare", tc.name, tc.budget, len(findings), len(ruleErrors))
		}
		for _, max := range []int{1, len(findings) / 3, len(findings) - 1, len(findings) + 1} {
			for _, workers := range []int{0, 2, 8} {
				d, err := loader.Parse(tc.name, tc.data, rs.LoadOptions)
				if err != nil {
					t.Fatal(err)
				}
				var omitted engine.Counts
				calls := 0
				opts := opts
				opts.Workers, opts.MaxDiagnostics = workers, max
				opts.Omitted = func(c engine.Counts) { omitted = omitted.Add(c); calls++ }
				got := mustLint(t, rs, d, opts)
				kept := min(max, len(findings))
				var want []engine.Diagnostic
				for _, d := range all {
					if d.RuleError || kept > 0 {
						want = append(want, d)
					}
					if !d.RuleError && kept > 0 {
						kept--
					}
				}
				if !reflect.DeepEqual(diagTexts(got), diagTexts(want)) {
					t.Errorf("%s, budget %d, at most %d, %d workers: %d diagnostics, want %d:\n%s", tc.name, tc.budget, max, workers, len(got), len(want), firstDifference(diagTexts(got), diagTexts(want)))
				}
				wantOmitted := engine.Count(findings[min(max, len(findings)):])
				if omitted != wantOmitted || (calls == 1) != (max < len(findings)) {
					t.Errorf("%s, at most %d, %d workers: omitted %+v in %d calls, want %+v", tc.name, max, workers, omitted, calls, wantOmitted)
				}
			}
		}
	}
}

// TestAdjust: LintOptions.Adjust sees each finding once (not the
// repetitions of a finding reached through several references), never a
// rule error, and what it drops or changes is neither kept nor counted as
// it was: the bound applies to what it keeps.
func TestAdjust(t *testing.T) {
	rules := `rules:
  - id: t.a
    level: must
    given: $items
    resolve: true
    checks:
      - forbid: has(self.x) && self.x == 1
        at: x
        message: x is one
  - id: t.b
    level: should
    given: $items
    checks:
      - assert: "false"
        message: always
  - id: t.c
    level: must
    given: $items
    checks:
      - assert: self.no.such > 0
`
	doc := `defs:
  nameless: {x: 1}
items:
  - {$ref: "#/defs/nameless"}
  - {$ref: "#/defs/nameless"}
  - {name: n}
  - {x: 2}
`
	rs, err := engine.LoadRuleset(rulesetFS(orderedHeader, rules), "rs", engine.Options{})
	if err != nil {
		t.Fatal(err)
	}
	d, err := loader.Parse("doc.yaml", []byte(doc), rs.LoadOptions)
	if err != nil {
		t.Fatal(err)
	}
	var seen []string
	var omitted engine.Counts
	opts := engine.LintOptions{MaxDiagnostics: 2, Omitted: func(c engine.Counts) { omitted = c }}
	opts.Adjust = func(d *engine.Diagnostic) bool {
		seen = append(seen, d.Pointer+" "+d.RuleID)
		if d.RuleID == "t.b" {
			d.Severity = engine.Info
			return d.Pointer != "/items/0"
		}
		return true
	}
	var got []string
	for _, x := range mustLint(t, rs, d, opts) {
		line := fmt.Sprintf("%d:%d %s %s [%s] %s", x.Line, x.Column, x.Severity, x.Pointer, x.RuleID, x.Message)
		for _, r := range x.Related {
			line += " (related " + r.Pointer + ")"
		}
		if x.RuleError {
			line = line[:strings.Index(line, "]")+1] + " RULE ERROR"
		}
		got = append(got, line)
	}
	sameLines(t, got, []string{
		"2:14 error /defs/nameless/x [t.a] x is one (related /items/0) (related /items/1)",
		"4:5 error /items/0 [t.c] RULE ERROR",
		"5:5 info /items/1 [t.b] always",
		"5:5 error /items/1 [t.c] RULE ERROR",
		"6:5 error /items/2 [t.c] RULE ERROR",
		"7:5 error /items/3 [t.c] RULE ERROR",
	})
	if want := (engine.Counts{Infos: 2}); omitted != want {
		t.Errorf("omitted %+v, want %+v", omitted, want)
	}
	if len(seen) != 5 {
		t.Errorf("Adjust saw %d findings, want 5 (the repeated one once):\n%s", len(seen), strings.Join(seen, "\n"))
	}
}
