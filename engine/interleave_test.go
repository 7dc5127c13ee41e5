package engine_test

import (
	"context"
	"fmt"
	"os"
	"reflect"
	"strings"
	"testing"

	"github.com/celint/celint/engine"
	"github.com/celint/celint/internal/benchgen"
	"github.com/celint/celint/loader"
	"github.com/celint/celint/rulesets"
)

// TestInterleavedSameAsOneByOne: on a large document, rules that select
// the same nodes lint them together, node by node, in groups shared out
// over the workers; the diagnostics, rule errors and budget stops are
// those of one rule after the other, whatever the number of workers. The document has findings
// everywhere, and a budget small enough that some rules stop part-way.
func TestInterleavedSameAsOneByOne(t *testing.T) {
	cat, err := engine.NewCatalog(withSyntheticRules(t, 40)...)
	if err != nil {
		t.Fatal(err)
	}
	// Findings in many rules: names that are not snake_case, URL
	// elicitations over http, example inputs with undeclared members.
	src := string(benchgen.Description(80))
	src = strings.ReplaceAll(src, `"name": "tool_1`, `"name": "Tool-1`)
	src = strings.ReplaceAll(src, `"https://`, `"http://`)
	src = strings.ReplaceAll(src, `"input": {`, `"input": {"undeclared": 1, `)
	data := []byte(src)
	doc, rs, err := cat.Load("big.json", data, nil)
	if err != nil {
		t.Fatal(err)
	}
	if doc.Values < 4096 {
		t.Fatalf("the document has %d values; it must be large enough to be linted interleaved", doc.Values)
	}
	for _, budget := range []uint64{0, 5_000} {
		opts := engine.LintOptions{Budget: budget}
		want, err := rs.Lint(context.Background(), doc, engine.OneByOne(opts))
		if err != nil {
			t.Fatal(err)
		}
		stops := 0
		for _, d := range want {
			if d.RuleError && strings.Contains(d.Message, "budget") {
				stops++
			}
		}
		if len(want) < 50 || budget != 0 && stops == 0 {
			t.Fatalf("budget %d: %d diagnostics, %d budget stops: not enough to compare", budget, len(want), stops)
		}
		for _, workers := range []int{0, 1, 2, 3, 8} {
			d2, err := loader.Parse("big.json", data, rs.LoadOptions)
			if err != nil {
				t.Fatal(err)
			}
			opts.Workers = workers
			got, err := rs.Lint(context.Background(), d2, opts)
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(diagTexts(got), diagTexts(want)) {
				t.Errorf("budget %d, %d workers: %d diagnostics, one rule after the other %d:\n%s", budget, workers, len(got), len(want), firstDifference(diagTexts(got), diagTexts(want)))
			}
		}
	}
}

func diagTexts(ds []engine.Diagnostic) []string {
	out := make([]string, len(ds))
	for i, d := range ds {
		out[i] = fmt.Sprintf("%s %s %s %v", d.String(), d.Message, d.Code, d.RuleError)
		for _, r := range d.Related {
			out[i] += " [" + r.Pointer + "]"
		}
	}
	return out
}

func firstDifference(a, b []string) string {
	for i := range min(len(a), len(b)) {
		if a[i] != b[i] {
			return fmt.Sprintf("at %d:\n  %s\n  %s", i, a[i], b[i])
		}
	}
	return fmt.Sprintf("one is a prefix of the other (%d, %d)", len(a), len(b))
}

// TestProgramsPlan: cel-go's program of every expression of the embedded
// rulesets, and of the synthetic rules, can be made (evaluations make it
// when they first need it, instead of when the rule compiles).
func TestProgramsPlan(t *testing.T) {
	n := 0
	for _, ext := range withSyntheticRules(t, 10) {
		for _, r := range ext.Rules {
			prgs, err := engine.Programs(r)
			if err != nil {
				t.Fatalf("%s: %v", r.ID, err)
			}
			for _, p := range prgs {
				if err := p.Plan(); err != nil {
					t.Errorf("%s: %v", r.ID, err)
				}
				n++
			}
		}
	}
	if n < 300 {
		t.Errorf("planned %d expressions; the rulesets have more", n)
	}
	t.Logf("%d expressions planned", n)
}

// withSyntheticRules returns the embedded rulesets, each with n synthetic
// rules of internal/benchgen added as a --rules folder.
func withSyntheticRules(t *testing.T, n int) []*engine.Ruleset {
	t.Helper()
	dir := t.TempDir()
	if err := benchgen.WriteRules(dir, n); err != nil {
		t.Fatal(err)
	}
	base, err := rulesets.Catalog(engine.Options{})
	if err != nil {
		t.Fatal(err)
	}
	cat, err := base.WithFolder(engine.Folder{FS: os.DirFS(dir), Dir: ".", Name: dir})
	if err != nil {
		t.Fatal(err)
	}
	return cat.Rulesets()
}
