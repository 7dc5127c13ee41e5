package engine_test

import (
	"fmt"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/celint/celint/engine"
	"github.com/celint/celint/loader"
)

// TestSharedRules lints a large document with rules that test the same
// thing and say it differently, evaluated once for all of them, and
// compares every diagnostic and every rule's cost with a lint that runs
// each rule alone: findings on items of lists and maps, violation lists,
// evaluation errors (which each rule reports at its own check) and a
// budget that runs out part-way.
func TestSharedRules(t *testing.T) {
	checks := func(msg string) string {
		return fmt.Sprintf(`
    documentVariables: {total: "size(root.items)"}
    variables: {twice: "self.n * 2"}
    checks:
      - assert: self.n / self.d %% 100 != 42 && self.n < total
        message: %[1]s {self.n}
      - each: self.tags
        assert: item != 'bad'
        at: tags/{index}
        message: %[1]s tag {item}
      - each: self.m
        when: item > 0
        assert: item < twice
        at: m/{key}
        message: %[1]s member {key}
      - assert: "self.tags.exists(t, t == 'worse') ? [{'at': 'tags', 'message': 'worse tag'}] : []"
`, msg)
	}
	broken := func(msg string) string {
		return fmt.Sprintf(`
    documentVariables: {broken: "root.items[7].n / root.items[7].d"}
    checks:
      - assert: broken > 0 || self.n >= 0
        message: %[1]s {self.n}
      - assert: self.n != 1234 || broken > 0
        message: %[1]s 1234
`, msg)
	}
	rules := "rules:\n" +
		// The first to run says more, at a greater cost: a follower may
		// have more of its budget left than its leader.
		"  - id: s.a-lead\n    level: must\n    given: items.#" + strings.ReplaceAll(checks("lead"), "{self.n}", "{self.n} {self.n + self.d} {self.tags}") +
		"  - id: s.b-follow\n    level: should\n    given: items.#" + checks("follow") +
		// Schemas that differ, and the same checks: each validates its own.
		"  - id: s.e-schema\n    level: may\n    given: items.#\n    schema: {properties: {n: {maximum: 250}}}" + checks("e") +
		"  - id: s.f-schema\n    level: may\n    given: items.#\n    schema: {properties: {n: {maximum: 300}}}" + checks("f") +
		"  - id: s.other-selection\n    level: may\n    given: items.#(n>=0)#" + checks("other") +
		// Its schema's messages are computed: it is linted alone.
		"  - id: s.g-schema-message\n    level: may\n    given: items.#\n    schema: {properties: {n: {maximum: 200}}}\n" +
		"    schemaMessages: {maximum: {messageExpression: '\"n \" + string(item.n) + \" passes 200\"'}}" + checks("g") +
		// Its message reads a variable: it is linted alone.
		"  - id: s.reads-variable\n    level: may\n    given: items.#" +
		strings.Replace(checks("var"), "var {self.n}", "var {twice}", 1) +
		// A document variable that is an error, which the first check
		// absorbs: each rule computes it, and reports it, itself.
		"  - id: s.c-broken\n    level: may\n    given: items.#" + broken("c") +
		"  - id: s.d-broken\n    level: may\n    given: items.#" + broken("d")
	var doc strings.Builder
	doc.WriteString("items:\n")
	const items = 1500
	for i := range items {
		d, tag, worse := 1, "ok", ""
		if i%400 == 7 {
			d = 0 // a division by zero: a rule error
		}
		if i%97 == 3 {
			tag = "bad"
		}
		if i%131 == 5 {
			worse = ", worse"
		}
		fmt.Fprintf(&doc, "  - {n: %d, d: %d, tags: [a, %s%s], m: {x: %d, y: %d}}\n", i, d, tag, worse, i%5, 3*i)
	}
	rs, err := engine.LoadRuleset(rulesetFS("", rules), "rs", engine.Options{})
	if err != nil {
		t.Fatal(err)
	}
	parse := func() *loader.Document {
		d, err := loader.Parse("doc.yaml", []byte(doc.String()), rs.LoadOptions)
		if err != nil {
			t.Fatal(err)
		}
		if d.Values < 4096 {
			t.Fatalf("the document has %d values; it must be large enough to be linted interleaved", d.Values)
		}
		return d
	}
	lint := func(opts engine.LintOptions) (texts []string, stats map[string]engine.RuleStats) {
		stats = map[string]engine.RuleStats{}
		opts.Stats = func(s engine.RuleStats) { stats[s.Rule.ID] = s }
		ds := mustLint(t, rs, parse(), opts)
		for _, d := range ds {
			texts = append(texts, fmt.Sprintf("%s %s %s %v", d.String(), d.Message, d.Code, d.RuleError))
		}
		return texts, stats
	}
	for _, budget := range []uint64{0, 20_000, 40_000, 40_300, 60_000} {
		want, alone := lint(engine.OneByOne(engine.LintOptions{Budget: budget}))
		count := func(part string) (n int) {
			for _, d := range want {
				if strings.Contains(d, part) {
					n++
				}
			}
			return n
		}
		for _, part := range []string{"follow tag", "follow member", "worse tag", "follow 142", "division by zero", "want 250", "want 300", "n 201 passes 200"} {
			if count(part) == 0 {
				t.Fatalf("budget %d: no %q among the diagnostics: not enough to compare", budget, part)
			}
		}
		if stops := count("exceeded its CEL budget"); budget != 0 && stops == 0 {
			t.Fatalf("budget %d: no rule ran out of budget", budget)
		}
		for _, workers := range []int{1, 2, 3} {
			got, shared := lint(engine.LintOptions{Budget: budget, Workers: workers})
			if !reflect.DeepEqual(got, want) {
				t.Errorf("budget %d, %d workers: %d diagnostics, each rule alone %d:\n%s", budget, workers, len(got), len(want), firstDifference(got, want))
			}
			for id, st := range alone {
				if shared[id].Cost != st.Cost || shared[id].Nodes != st.Nodes {
					t.Errorf("budget %d, %d workers: %s cost %d on %d nodes, alone %d on %d", budget, workers, id, shared[id].Cost, shared[id].Nodes, st.Cost, st.Nodes)
				}
				if st.Shared != 0 {
					t.Errorf("%s alone: %d nodes shared", id, st.Shared)
				}
			}
			// Three of the four rules that test the same thing took over the
			// nodes the fourth evaluated without error, and linted the
			// others themselves; the rest ran alone.
			var counts []int
			for _, id := range []string{"s.a-lead", "s.b-follow", "s.e-schema", "s.f-schema"} {
				counts = append(counts, shared[id].Shared)
			}
			slices.Sort(counts)
			if counts[0] != 0 || counts[1] == 0 || counts[3] >= shared["s.a-lead"].Nodes {
				t.Errorf("budget %d, %d workers: the four rules that test the same thing shared %v of %d nodes; want one that shares none", budget, workers, counts, shared["s.a-lead"].Nodes)
			}
			for _, id := range []string{"s.other-selection", "s.reads-variable", "s.g-schema-message", "s.c-broken", "s.d-broken"} {
				if n := shared[id].Shared; n != 0 {
					t.Errorf("budget %d, %d workers: %s shared %d nodes", budget, workers, id, n)
				}
			}
		}
	}
}
