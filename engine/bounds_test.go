package engine_test

import (
	"context"
	"fmt"
	"reflect"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/celint/celint/engine"
	"github.com/celint/celint/loader"
)

// TestExplodingSchemaFragmentRefusedAtLoad: a rule's schema fragment whose
// $defs double per level is refused when the ruleset loads, at the
// fragment's line:col, instead of validating for weeks.
func TestExplodingSchemaFragmentRefusedAtLoad(t *testing.T) {
	var defs strings.Builder
	for i := 0; i < 40; i++ {
		fmt.Fprintf(&defs, "          d%d: {allOf: [{$ref: '#/$defs/d%d'}, {$ref: '#/$defs/d%d'}]}\n", i, i+1, i+1)
	}
	rules := "rules:\n  - id: t.bomb\n    level: must\n    given: items\n    schema:\n      $ref: '#/$defs/d0'\n      $defs:\n" +
		defs.String() + "          d40: {type: array}\n"
	_, err := engine.LoadRuleset(rulesetFS("", rules), "rs", engine.Options{})
	if err == nil || !strings.Contains(err.Error(), "rs/rules.yaml:") || !strings.Contains(err.Error(), "expands to more than") {
		t.Fatalf("got %v, want the fragment refused at its position", err)
	}
}

// TestDepthCeiling: a ruleset cannot raise the nesting depth past
// loader.MaxDepth (its header is refused at the number), and a caller's
// higher limit is lowered to it; at the ceiling, CEL's recursive equality
// still runs.
func TestDepthCeiling(t *testing.T) {
	header := "name: t\ntag: v1\nloader:\n  limits: {depth: 5000000}\n"
	_, err := engine.LoadRuleset(rulesetFS(header, "rules: []\n"), "rs", engine.Options{})
	if err == nil || !strings.Contains(err.Error(), "rs/ruleset.yaml:4:19") || !strings.Contains(err.Error(), "10000") {
		t.Fatalf("got %v, want the depth refused at rs/ruleset.yaml:4:19", err)
	}
	deep := func(n int) []byte { return []byte(strings.Repeat("[", n) + strings.Repeat("]", n)) }
	opts := loader.DefaultOptions()
	opts.Limits.Depth = 1 << 30
	if _, err := loader.Parse("d.json", deep(loader.MaxDepth+1), opts); err == nil || !strings.Contains(err.Error(), "nesting depth") {
		t.Fatalf("a document deeper than the ceiling: %v", err)
	}
	rules := "rules:\n  - id: t.eq\n    level: must\n    given: a\n    checks:\n      - assert: self == self\n"
	rs, err := engine.LoadRuleset(rulesetFS("name: t\ntag: v1\nloader:\n  limits: {depth: 10000}\n", rules), "rs", engine.Options{})
	if err != nil {
		t.Fatal(err)
	}
	d, err := loader.Parse("d.json", append(append([]byte(`{"a":`), deep(loader.MaxDepth-1)...), '}'), rs.LoadOptions)
	if err != nil {
		t.Fatal(err)
	}
	if ds := mustLint(t, rs, d, engine.LintOptions{}); len(ds) != 0 {
		t.Fatalf("self == self at the ceiling: %v", ds)
	}
}

// TestSharedViolationsRefused: a check returning, as its violations, a
// value built by sharing (small to build, huge to convert) is a rule
// error, not an exhausted memory.
func TestSharedViolationsRefused(t *testing.T) {
	expr := "cel.bind(a0, ['x', 'y'], "
	for i := 1; i <= 30; i++ {
		expr += fmt.Sprintf("cel.bind(a%d, [a%d, a%d].flatten(), ", i, i-1, i-1)
	}
	rules := "rules:\n  - id: t.hostile\n    level: must\n    given: items\n    checks:\n      - assert: \"" + expr + "[{'at': '', 'message': quote(a30[0])}] + a30.map(x, {'at': x})" + strings.Repeat(")", 31) + "\"\n" + fineRule
	ds, _ := lintHostile(t, engine.Options{}, rules, "items: [1, 2]\n")
	hostile := ruleOnly(ds, "t.hostile")
	if len(hostile) != 1 || !hostile[0].RuleError || !strings.Contains(hostile[0].Message, "cost limit") {
		t.Fatalf("got %v, want one cost-limit rule error", hostile)
	}
}

// TestSameDiagnosticsUnderLoad: a rule close to its budget gives the same
// diagnostics linted alone and linted with many documents at once on every
// core: its bound is its cost, not the clock.
func TestSameDiagnosticsUnderLoad(t *testing.T) {
	rules := `rules:
  - id: t.heavy
    level: must
    given: items
    checks:
      - assert: self.all(a, self.all(b, a + b >= 0))
        message: negative sum
  - id: t.over
    level: must
    given: items
    checks:
      - assert: self.all(a, self.all(b, self.all(c, a + b + c >= 0)))
`
	rs, err := engine.LoadRuleset(rulesetFS("", rules), "rs", engine.Options{})
	if err != nil {
		t.Fatal(err)
	}
	items := "items: [" + strings.TrimSuffix(strings.Repeat("1, ", 200), ", ") + "]\n"
	d, err := loader.Parse("doc.yaml", []byte(items), rs.LoadOptions)
	if err != nil {
		t.Fatal(err)
	}
	opts := engine.LintOptions{Budget: 3_000_000}
	alone := mustLint(t, rs, d, opts)
	if over := ruleOnly(alone, "t.over"); len(over) != 1 || !over[0].RuleError {
		t.Fatalf("t.over: %v, want its cost error", over)
	}
	if heavy := ruleOnly(alone, "t.heavy"); len(heavy) != 0 {
		t.Fatalf("t.heavy: %v, want no diagnostic", heavy)
	}
	var wg sync.WaitGroup
	results := make([][]engine.Diagnostic, 8)
	for i := range results {
		wg.Add(1)
		go func() {
			defer wg.Done()
			results[i], _ = rs.Lint(context.Background(), d, opts)
		}()
	}
	wg.Wait()
	for i, got := range results {
		if !reflect.DeepEqual(strip(got), strip(alone)) {
			t.Fatalf("run %d of 8 at once differs:\n%v\nalone:\n%v", i, got, alone)
		}
	}
}

// strip drops the causes, which hold no text of their own.
func strip(ds []engine.Diagnostic) []string {
	var out []string
	for _, d := range ds {
		out = append(out, d.String()+" "+d.Message)
	}
	return out
}

// TestFusedWhen: a check's when and test evaluated in one program give
// what evaluating them apart gives: no finding when when is false, the
// finding when it holds, and a failing when (not a bool, or an error) is a
// rule error at the when's own position, not the test's.
func TestFusedWhen(t *testing.T) {
	rules := `rules:
  - id: t.when
    level: must
    given: items.#
    checks:
      - when: self > 1 // a comment the fused text must survive
        assert: self < 3
        message: big {self}
  - id: t.notbool
    level: must
    given: items.#
    checks:
      - when: '"yes"'
        assert: "true"
  - id: t.fails
    level: must
    given: items.#
    checks:
      - when: self.missing
        assert: "true"
`
	ds, _ := lintHostile(t, engine.Options{}, rules, "items: [1, 2, 3, 4]\n")
	var got []string
	for _, d := range ds {
		got = append(got, fmt.Sprintf("%s %s %s", d.RuleID, d.Pointer, d.Message))
	}
	want := []string{
		"t.when /items/2 big 3",
		"t.when /items/3 big 4",
	}
	for _, w := range want {
		if !slices.Contains(got, w) {
			t.Errorf("lacks %q in %q", w, got)
		}
	}
	for _, id := range []string{"t.notbool", "t.fails"} {
		errs := ruleOnly(ds, id)
		if len(errs) == 0 || !errs[0].RuleError {
			t.Errorf("%s: %v, want rule errors", id, errs)
			continue
		}
		if !strings.Contains(errs[0].Message, "rs/rules.yaml:") || strings.Contains(errs[0].Message, ":14:17") || strings.Contains(errs[0].Message, ":20:17") {
			t.Errorf("%s: %q, want the error at the when, not the test", id, errs[0].Message)
		}
	}
	if m := ruleOnly(ds, "t.notbool")[0].Message; !strings.Contains(m, "rs/rules.yaml:13:16") || !strings.Contains(m, "a 'when' condition must yield a bool") {
		t.Errorf("t.notbool: %q", m)
	}
	if m := ruleOnly(ds, "t.fails")[0].Message; !strings.Contains(m, "rs/rules.yaml:19:15") {
		t.Errorf("t.fails: %q", m)
	}
}

// TestAmplifyingSchemaFragment: a rule's schema fragment that applies
// itself twice to the same member is measured on each node before it is
// validated. On a value nested 40 deep (2^40 steps) it stops with one rule
// error at the fragment, within the cost limit; on a shallow value it
// validates as usual; two rules sharing the fragment are charged alike.
func TestAmplifyingSchemaFragment(t *testing.T) {
	rule := func(id string) string {
		return "  - id: " + id + "\n    level: must\n    given: items\n    schema:\n" +
			"      allOf:\n        - properties: {a: {$ref: '#'}}\n        - properties: {a: {$ref: '#'}, b: {type: string}}\n"
	}
	rs, err := engine.LoadRuleset(rulesetFS("", "rules:\n"+rule("t.one")+rule("t.two")), "rs", engine.Options{})
	if err != nil {
		t.Fatal(err)
	}
	nest := func(n int) string { return strings.Repeat(`{"a": `, n) + `{"b": 1}` + strings.Repeat("}", n) }
	for _, tc := range []struct {
		depth int
		want  []string
	}{
		{40, []string{"d.json:1:2: error: rs/rules.yaml:6:7: validating this node against the rule's schema would cost more than the limit of 1000000 [t.one]",
			"d.json:1:2: error: rs/rules.yaml:13:7: validating this node against the rule's schema would cost more than the limit of 1000000 [t.two]"}},
		{6, []string{"d.json:1:48: error: got number, want string [t.one]", "d.json:1:48: error: got number, want string [t.two]"}},
	} {
		d, err := loader.Parse("d.json", []byte(`{"items": `+nest(tc.depth)+`}`), rs.LoadOptions)
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, diag := range mustLint(t, rs, d, engine.LintOptions{}) {
			got = append(got, diag.String())
		}
		if !slices.Equal(got, tc.want) {
			t.Errorf("depth %d:\n got %q\nwant %q", tc.depth, got, tc.want)
		}
	}
}
