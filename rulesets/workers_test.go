package rulesets_test

import (
	"context"
	"reflect"
	"testing"

	"github.com/celint/celint/engine"
	"github.com/celint/celint/internal/benchgen"
	"github.com/celint/celint/loader"
	"github.com/celint/celint/rulesets"
)

// TestWorkersSameDiagnostics: linting a document with its rules spread
// over several goroutines gives exactly the diagnostics of one rule after
// the other, on the generated workload and on a document with references
// and findings; and so does the ruleset loaded lazily, as check loads it.
// Bounded by LintOptions.MaxDiagnostics, it keeps the first of them.
func TestWorkersSameDiagnostics(t *testing.T) {
	cat, err := rulesets.Catalog(engine.Options{})
	if err != nil {
		t.Fatal(err)
	}
	lazy, err := rulesets.Catalog(engine.Options{Lazy: true})
	if err != nil {
		t.Fatal(err)
	}
	docs := map[string][]byte{
		"big.json": benchgen.Description(60),
		"refs.yaml": []byte(`mcpdesc: "0.9.0"
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
      two: {$componentRef: "#/components/toolExamples/missing"}
  - name: a
    inputSchema: {type: object}
`),
	}
	for name, data := range docs {
		doc, rs, err := cat.Load(name, data, nil)
		if err != nil {
			t.Fatal(err)
		}
		one, err := rs.Lint(context.Background(), doc, engine.LintOptions{})
		if err != nil {
			t.Fatal(err)
		}
		if len(one) == 0 && name == "refs.yaml" {
			t.Fatalf("%s: no diagnostics to compare", name)
		}
		lazyRS, err := lazy.Find(rs.Name + "@" + rs.Tag)
		if err != nil {
			t.Fatal(err)
		}
		for _, w := range []int{2, 8, -8} { // -8: 8 workers, the lazy ruleset compiling its rules at once
			d2, err := loader.Parse(name, data, rs.LoadOptions)
			if err != nil {
				t.Fatal(err)
			}
			r := rs
			if w < 0 {
				r, w = lazyRS, -w
			}
			many, err := r.Lint(context.Background(), d2, engine.LintOptions{Workers: w})
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(texts(many), texts(one)) {
				t.Errorf("%s with %d workers:\n%v\none after the other:\n%v", name, w, texts(many), texts(one))
			}
			// Bounded, the lint keeps the first findings of the whole.
			half := (len(one) + 1) / 2
			d3, err := loader.Parse(name, data, rs.LoadOptions)
			if err != nil {
				t.Fatal(err)
			}
			capped, err := r.Lint(context.Background(), d3, engine.LintOptions{Workers: w, MaxDiagnostics: half})
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(texts(capped), texts(one[:half])) {
				t.Errorf("%s with %d workers, at most %d diagnostics:\n%v\nthe first of all:\n%v", name, w, half, texts(capped), texts(one[:half]))
			}
		}
	}
}

func texts(ds []engine.Diagnostic) []string {
	out := make([]string, len(ds))
	for i, d := range ds {
		out[i] = d.String() + " " + d.Message + " " + d.Code
		for _, r := range d.Related {
			out[i] += " [" + r.Pointer + "]"
		}
	}
	return out
}
