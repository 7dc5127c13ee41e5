package engine_test

import (
	"fmt"
	"strings"
	"testing"
	"time"

	gocel "github.com/google/cel-go/cel"
	"github.com/google/cel-go/common/types/ref"

	"github.com/celint/celint/engine"
	"github.com/celint/celint/loader"
)

// lintHostile loads rules (with extra options) and lints doc, returning the
// diagnostics and how long linting took.
func lintHostile(t *testing.T, opts engine.Options, rules, doc string) ([]engine.Diagnostic, time.Duration) {
	t.Helper()
	rs, err := engine.LoadRuleset(rulesetFS("", rules), "rs", opts)
	if err != nil {
		t.Fatal(err)
	}
	d, err := loader.Parse("doc.yaml", []byte(doc), rs.LoadOptions)
	if err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	ds := mustLint(t, rs, d, engine.LintOptions{})
	return ds, time.Since(start)
}

func ruleOnly(ds []engine.Diagnostic, id string) []engine.Diagnostic {
	var out []engine.Diagnostic
	for _, d := range ds {
		if d.RuleID == id {
			out = append(out, d)
		}
	}
	return out
}

// fineRule is a rule that must keep working next to a hostile one.
const fineRule = `  - id: t.fine
    level: must
    given: items
    checks:
      - assert: size(self) < 2
        message: many items
`

// TestHostileRules checks that each hostile rule ends in a rule error that
// names the rule and the rule file's line:col, and that the other rules run.
func TestHostileRules(t *testing.T) {
	items := "items: [" + strings.TrimSuffix(strings.Repeat("1, ", 3000), ", ") + "]\n"
	tests := []struct {
		name  string
		rule  string
		doc   string
		want  []string
		quiet bool // the hostile rule reports nothing at all
	}{
		{
			name: "unbounded comprehension",
			rule: `  - id: t.hostile
    level: must
    given: items
    checks:
      - assert: lists.range(100000000).all(i, i >= 0)
`,
			want: []string{"rs/rules.yaml:6:17", "cost limit"},
		},
		{
			name: "quadratic comprehension",
			rule: `  - id: t.hostile
    level: must
    given: items
    checks:
      - assert: self.all(a, self.all(b, a == b))
`,
			want: []string{"rs/rules.yaml:6:17", "cost limit"},
		},
		{
			name: "quadratic list built in a variable",
			rule: `  - id: t.hostile
    level: must
    given: items
    variables:
      pairs: self.map(a, self.map(b, [a, b]))
    checks:
      - assert: size(pairs) > 0
`,
			want: []string{"variable pairs", "rs/rules.yaml:6:14", "cost limit"},
		},
		{
			name: "reference cycle through many hops",
			rule: `  - id: t.hostile
    level: must
    given: start
    checks:
      - assert: has(resolve(root, self).x)
`,
			doc:  refChain(50, true),
			want: []string{"rs/rules.yaml:6:17", "reference cycle"},
		},
		{
			name: "long reference chain",
			rule: `  - id: t.hostile
    level: must
    given: start
    checks:
      - assert: has(resolve(root, self).x)
`,
			doc:  refChain(200, false),
			want: []string{"rs/rules.yaml:6:17", "64"},
		},
		{
			name: "pathological regex stays linear",
			rule: `  - id: t.hostile
    level: must
    given: text
    checks:
      - assert: self.matches('^(a+)+$') && self.matches('(a|aa)*b') == false
`,
			doc:   "text: \"" + strings.Repeat("a", 100000) + "\"\nitems: [1, 2]\n",
			quiet: true,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			doc := tt.doc
			if doc == "" {
				doc = items
			}
			ds, took := lintHostile(t, engine.Options{}, "rules:\n"+tt.rule+fineRule, doc)
			t.Logf("linted in %v", took)
			hostile := ruleOnly(ds, "t.hostile")
			if tt.quiet {
				if len(hostile) != 0 {
					t.Errorf("got %v", hostile)
				}
			} else {
				if len(hostile) != 1 || !hostile[0].RuleError {
					t.Fatalf("got %v, want one rule error", hostile)
				}
				for _, w := range tt.want {
					// Under the race detector a cost-limited rule may reach
					// its time limit first: that too must name the rule file.
					if strings.Contains(hostile[0].Message, "ran longer than") && strings.Contains(hostile[0].Message, "rs/rules.yaml:2:5") {
						break
					}
					if !strings.Contains(hostile[0].Message, w) {
						t.Errorf("message %q lacks %q", hostile[0].Message, w)
					}
				}
			}
			fine := ruleOnly(ds, "t.fine")
			if len(fine) != 1 || fine[0].RuleError {
				t.Errorf("the other rule did not run: %v", fine)
			}
		})
	}
}

// refChain builds start -> d0 -> d1 -> ... -> d(n-1) -> (d0 when cycle, else {x: 1}).
func refChain(n int, cycle bool) string {
	var b strings.Builder
	b.WriteString("items: [1, 2]\nstart: {$ref: '#/defs/d0'}\ndefs:\n")
	for i := 0; i < n; i++ {
		next := fmt.Sprintf("{$ref: '#/defs/d%d'}", i+1)
		if i == n-1 {
			next = "{x: 1}"
			if cycle {
				next = "{$ref: '#/defs/d0'}"
			}
		}
		fmt.Fprintf(&b, "  d%d: %s\n", i, next)
	}
	return b.String()
}

// TestPanickingFunction registers a custom function that panics: the panic
// becomes a rule error naming the rule and the expression, and the other
// rules still run.
func TestPanickingFunction(t *testing.T) {
	boom := gocel.Function("boom", gocel.Overload("boom_dyn", []*gocel.Type{gocel.DynType}, gocel.BoolType,
		gocel.UnaryBinding(func(ref.Val) ref.Val { panic("kaboom") })))
	rules := `rules:
  - id: t.hostile
    level: must
    given: items.#
    checks:
      - assert: boom(self)
` + fineRule
	ds, _ := lintHostile(t, engine.Options{Functions: []gocel.EnvOption{boom}}, rules, "items: [1, 2]\n")
	hostile := ruleOnly(ds, "t.hostile")
	if len(hostile) == 0 {
		t.Fatal("no rule error")
	}
	for _, d := range hostile {
		if !d.RuleError || !strings.Contains(d.Message, "kaboom") || !strings.Contains(d.Message, "rs/rules.yaml:6:17") {
			t.Errorf("got %+v", d)
		}
	}
	if fine := ruleOnly(ds, "t.fine"); len(fine) != 1 {
		t.Errorf("the other rule did not run: %v", fine)
	}
}

// TestResolveCycleDiagnostic: with resolve: true, a cycle or a missing
// target is a diagnostic of the rule at the node, not a hang.
func TestResolveCycleDiagnostic(t *testing.T) {
	rules := `rules:
  - id: t.hostile
    level: must
    given: start
    resolve: true
    checks:
      - assert: "true"
` + fineRule
	ds, _ := lintHostile(t, engine.Options{}, rules, refChain(500, true))
	hostile := ruleOnly(ds, "t.hostile")
	if len(hostile) != 1 || !strings.Contains(hostile[0].Message, "cannot resolve") || hostile[0].Pointer != "/start" {
		t.Errorf("got %v", hostile)
	}
}

// TestNoIncludesOutsideFolder: rule files cannot include anything, and an
// example's fixture must stay inside the ruleset's fixture folder.
func TestNoIncludesOutsideFolder(t *testing.T) {
	rules := `rules:
  - id: t.x
    level: must
    given: a
    checks:
      - assert: "true"
    examples:
      valid: [{source: ../../etc/passwd, selected: /a}]
      invalid: [{source: /etc/passwd, selected: /a}]
`
	_, err := engine.LoadRuleset(rulesetFS("name: t\ntag: v1\nfixtures: fx\n", rules), "rs", engine.Options{})
	if err == nil {
		t.Fatal("loaded")
	}
	for _, w := range []string{`rs/rules.yaml:8:24: example source "../../etc/passwd" must be a relative path inside the fixtures folder`, `rs/rules.yaml:9:26: example source "/etc/passwd"`} {
		if !strings.Contains(err.Error(), w) {
			t.Errorf("error lacks %q:\n%v", w, err)
		}
	}
	for _, include := range []string{"include: other.yaml\nrules: []\n", "rules: []\n$ref: other.yaml\n"} {
		if _, err := engine.LoadRuleset(rulesetFS("", include), "rs", engine.Options{}); err == nil || !strings.Contains(err.Error(), "unknown field") {
			t.Errorf("%q: got %v, want an unknown-field error", include, err)
		}
	}
}

// TestRuleTimeout stops a slow rule at its time limit with a rule error; the
// other rules still run.
func TestRuleTimeout(t *testing.T) {
	rules := `rules:
  - id: t.hostile
    level: must
    given: items
    checks:
      - assert: self.all(a, self.all(b, a == b))
` + fineRule
	rs, err := engine.LoadRuleset(rulesetFS("", rules), "rs", engine.Options{CostLimit: 1 << 40})
	if err != nil {
		t.Fatal(err)
	}
	d, err := loader.Parse("doc.yaml", []byte("items: ["+strings.TrimSuffix(strings.Repeat("1, ", 3000), ", ")+"]\n"), rs.LoadOptions)
	if err != nil {
		t.Fatal(err)
	}
	ds := mustLint(t, rs, d, engine.LintOptions{RuleTimeout: 50 * time.Millisecond, Budget: 1 << 40})
	hostile := ruleOnly(ds, "t.hostile")
	if len(hostile) != 1 || !hostile[0].RuleError || !strings.Contains(hostile[0].Message, "ran longer than 50ms") {
		t.Errorf("got %v", hostile)
	}
	if fine := ruleOnly(ds, "t.fine"); len(fine) != 1 {
		t.Errorf("the other rule did not run: %v", fine)
	}
}

// TestRuleTimeoutBetweenNodes: a rule whose every evaluation ends within
// its cost limit, but which is slow over many nodes, is stopped at the
// first node after its time limit, with the same rule error.
func TestRuleTimeoutBetweenNodes(t *testing.T) {
	rules := `rules:
  - id: t.slow
    level: must
    given: items.#
    checks:
      - assert: lists.range(300).all(i, lists.range(300).all(j, i + j >= 0))
` + fineRule
	rs, err := engine.LoadRuleset(rulesetFS("", rules), "rs", engine.Options{})
	if err != nil {
		t.Fatal(err)
	}
	d, err := loader.Parse("doc.yaml", []byte("items: ["+strings.TrimSuffix(strings.Repeat("1, ", 2000), ", ")+"]\n"), rs.LoadOptions)
	if err != nil {
		t.Fatal(err)
	}
	ds := mustLint(t, rs, d, engine.LintOptions{RuleTimeout: 30 * time.Millisecond, Budget: 1 << 40})
	slow := ruleOnly(ds, "t.slow")
	if len(slow) != 1 || !slow[0].RuleError || !strings.Contains(slow[0].Message, "ran longer than 30ms") || !strings.HasPrefix(slow[0].Pointer, "/items/") {
		t.Errorf("got %v", slow)
	}
	if fine := ruleOnly(ds, "t.fine"); len(fine) != 1 {
		t.Errorf("the other rule did not run: %v", fine)
	}
}
