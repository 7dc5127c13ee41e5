package engine_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/celint/celint/engine"
	"github.com/celint/celint/loader"
)

const oneRule = `rules:
  - id: t.base
    level: must
    given: items.#
    checks:
      - assert: self != "bad"
`

// TestRulesetsAreValues builds rulesets from one base concurrently (run it
// with -race): each gets its own rules, and the base is never changed.
func TestRulesetsAreValues(t *testing.T) {
	base, err := engine.LoadRuleset(rulesetFS("", oneRule), "rs", engine.Options{})
	if err != nil {
		t.Fatal(err)
	}
	const n = 16
	got := make([]*engine.Ruleset, n)
	var wg sync.WaitGroup
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			rule := fmt.Sprintf("rules:\n  - id: t.extra%d\n    level: may\n    given: items.#\n    checks: [{assert: \"true\"}]\n", i)
			rs, err := base.WithRuleFiles(engine.RuleFile{Name: "house/elicitation.yaml", Data: []byte(rule)})
			if err != nil {
				t.Error(err)
				return
			}
			got[i] = rs
		}()
	}
	wg.Wait()
	if len(base.Rules) != 1 || base.Rules[0].ID != "t.base" {
		t.Fatalf("the base changed: %d rules", len(base.Rules))
	}
	for i, rs := range got {
		if rs == nil {
			continue
		}
		want := fmt.Sprintf("t.extra%d", i)
		if len(rs.Rules) != 2 || rs.Rule(want) == nil || rs.Rule("t.base") == nil {
			t.Errorf("ruleset %d has %d rules, want t.base and %s", i, len(rs.Rules), want)
		}
		if f := rs.Rule(want).File; f != "house/elicitation.yaml" {
			t.Errorf("rule file named %q, want the name it was given", f)
		}
	}
}

// TestRuleFileReportsEveryProblem: five different problems of one rule
// file come back together, each at its line:col.
func TestRuleFileReportsEveryProblem(t *testing.T) {
	rules := `rules:
  - id: Not.An.Id
    level: must
    given: a
    colour: red
    checks:
      - when: "true"
  - id: t.two
    given: a
    checks: [{assert: "true"}]
    examples:
      valid:
        - title: neither source nor document
`
	_, err := engine.LoadRuleset(rulesetFS("name: t\ntag: v1\nfixtures: fx\n", rules), "rs", engine.Options{})
	var issues loader.Issues
	if !errors.As(err, &issues) {
		t.Fatalf("got %v (%T), want loader.Issues", err, err)
	}
	want := []string{
		`rs/rules.yaml:5:5: unknown field "colour"`,
		`rs/rules.yaml:2:9: rule id "Not.An.Id" must be dotted lower-case words`,
		`rs/rules.yaml:7:9: a check needs exactly one of 'assert' or 'forbid'`,
		`rs/rules.yaml:8:5: rule t.two needs a 'level'`,
		`rs/rules.yaml:13:11: an example needs exactly one of 'source'`,
	}
	if len(issues) != len(want) {
		t.Errorf("got %d issues, want %d:\n%v", len(issues), len(want), err)
	}
	for _, w := range want {
		if !strings.Contains(err.Error(), w) {
			t.Errorf("missing %q in:\n%v", w, err)
		}
	}
}

// TestBudgetInVariable: a variable that spends the budget is one rule
// error, located at the variable, whose cause is ErrBudget.
func TestBudgetInVariable(t *testing.T) {
	rules := `rules:
  - id: t.costly
    level: must
    given: items.#
    variables:
      heavy: root.items.map(a, root.items.map(b, a + b)).size()
    checks:
      - assert: heavy >= 0
      - assert: heavy < 1000000
      - assert: heavy != 3
`
	rs, err := engine.LoadRuleset(rulesetFS("", rules), "rs", engine.Options{})
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	b.WriteString("items: [")
	for i := range 150 {
		if i > 0 {
			b.WriteString(", ")
		}
		fmt.Fprint(&b, i)
	}
	b.WriteString("]\n")
	d, err := loader.Parse("doc.yaml", []byte(b.String()), rs.LoadOptions)
	if err != nil {
		t.Fatal(err)
	}
	got := mustLint(t, rs, d, engine.LintOptions{Budget: 20_000, RuleTimeout: time.Hour})
	if len(got) != 1 {
		t.Fatalf("got %d diagnostics, want one rule error: %q", len(got), messages(got))
	}
	e := got[0]
	if !e.RuleError || !errors.Is(e.Cause, engine.ErrBudget) {
		t.Errorf("%v: want a rule error caused by ErrBudget (cause %v)", e, e.Cause)
	}
	if !strings.Contains(e.Message, "rs/rules.yaml:6:14:") || !strings.Contains(e.Message, "in variable heavy") {
		t.Errorf("message %q does not name the variable and its position", e.Message)
	}
}

// TestLintCancelled: a cancelled context is returned as Lint's error, not
// as a rule error.
func TestLintCancelled(t *testing.T) {
	rs, err := engine.LoadRuleset(rulesetFS("", oneRule), "rs", engine.Options{})
	if err != nil {
		t.Fatal(err)
	}
	d, err := loader.Parse("doc.yaml", []byte("items: [bad, good]\n"), rs.LoadOptions)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	ds, err := rs.Lint(ctx, d, engine.LintOptions{})
	if !errors.Is(err, context.Canceled) || ds != nil {
		t.Errorf("Lint on a cancelled context = %v, %v; want nil, context.Canceled", ds, err)
	}
	ds, err = rs.Lint(context.Background(), d, engine.LintOptions{})
	if err != nil || len(ds) != 1 {
		t.Errorf("Lint = %v, %v; want one finding", ds, err)
	}
}

// TestInlineExamplesPointIntoTheRuleFile: the document of an inline
// example keeps its positions in the rule file, so a finding on it names
// the rule file, line and column.
func TestInlineExamplesPointIntoTheRuleFile(t *testing.T) {
	rules := oneRule + `    examples:
      invalid:
        - document:
            items:
              - good
              - bad
          selected: /items/1
`
	rs, err := engine.LoadRuleset(rulesetFS("", rules), "rs", engine.Options{})
	if err != nil {
		t.Fatal(err)
	}
	r := rs.Rule("t.base")
	doc, err := rs.LoadExample(r, &r.Examples.Invalid[0], engine.ExampleOptions{})
	if err != nil {
		t.Fatal(err)
	}
	ds := mustLint(t, rs, doc, engine.LintOptions{})
	if len(ds) != 1 {
		t.Fatalf("got %q", messages(ds))
	}
	d := ds[0]
	if d.File != "rs/rules.yaml" || d.Line != 12 || d.Column != 17 || d.Pointer != "/items/1" {
		t.Errorf("finding at %s:%d:%d %s, want rs/rules.yaml:12:17 /items/1", d.File, d.Line, d.Column, d.Pointer)
	}
	if d.EndLine != 12 || d.EndColumn != 20 {
		t.Errorf("finding ends at %d:%d, want 12:20", d.EndLine, d.EndColumn)
	}
	if got := engine.ExampleName(r, &r.Examples.Invalid[0]); got != "inline rs/rules.yaml:9" {
		t.Errorf("ExampleName = %q", got)
	}
}

// TestRelatedUseSites: a finding inside a referenced value is reported
// once, where the value is written, with every reference that reached it.
func TestRelatedUseSites(t *testing.T) {
	rules := `rules:
  - id: t.titled
    level: must
    given: forms.#
    resolve: true
    checks:
      - forbid: self.title == "x"
        at: title
        message: bad title
`
	doc := "defs:\n  g: {title: x}\nforms:\n  - {$ref: \"#/defs/g\"}\n  - {$ref: \"#/defs/g\"}\n"
	rs, err := engine.LoadRuleset(rulesetFS("", rules), "rs", engine.Options{})
	if err != nil {
		t.Fatal(err)
	}
	d, err := loader.Parse("doc.yaml", []byte(doc), rs.LoadOptions)
	if err != nil {
		t.Fatal(err)
	}
	ds := mustLint(t, rs, d, engine.LintOptions{})
	if len(ds) != 1 {
		t.Fatalf("got %q, want one finding", messages(ds))
	}
	f := ds[0]
	if f.Pointer != "/defs/g/title" || f.Line != 2 || f.Column != 7 {
		t.Errorf("finding at %d:%d %s, want 2:7 /defs/g/title", f.Line, f.Column, f.Pointer)
	}
	want := []engine.Related{
		{Message: "referenced here", Pointer: "/forms/0", Line: 4, Column: 5},
		{Message: "referenced here", Pointer: "/forms/1", Line: 5, Column: 5},
	}
	if fmt.Sprint(f.Related) != fmt.Sprint(want) {
		t.Errorf("related = %v, want %v", f.Related, want)
	}
}
