package conformance_test

import (
	"context"
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"github.com/celint/celint/engine"
	"github.com/celint/celint/loader"
	"github.com/celint/celint/rulesets"
)

func ruleset070(t *testing.T) *engine.Ruleset {
	t.Helper()
	cat, err := rulesets.Catalog(engine.Options{})
	if err != nil {
		t.Fatal(err)
	}
	rs, err := cat.Find("mcpdesc@v0.7.0")
	if err != nil {
		t.Fatal(err)
	}
	return rs
}

// TestMcpdesc070OneFindingPerMutation: every document of
// testdata/mcpdesc-0.7.0, changed in one place (a member deleted, a value
// of another JSON type, an unknown member added), gets at most one
// diagnostic from v0.7.0, and no rule error: a rule skips what another
// rule reports, so one fault is one finding.
func TestMcpdesc070OneFindingPerMutation(t *testing.T) {
	rs := ruleset070(t)
	files, err := filepath.Glob("../testdata/mcpdesc-0.7.0/*")
	if err != nil || len(files) == 0 {
		t.Fatalf("no test documents: %v", err)
	}
	mutated := 0
	for _, f := range files {
		doc, err := loader.ParseFile(f, rs.LoadOptions)
		if err != nil {
			t.Fatal(err)
		}
		for i, m := range mutations(doc.Root.Value(), 6) {
			if raceEnabled && i%10 != 0 {
				continue
			}
			mutated++
			data, err := json.Marshal(m.value)
			if err != nil {
				t.Fatal(err)
			}
			d, err := loader.Parse("mutated.json", data, rs.LoadOptions)
			if err != nil {
				t.Fatal(err)
			}
			ds, err := rs.Lint(context.Background(), d, engine.LintOptions{})
			if err != nil {
				t.Fatal(err)
			}
			for _, x := range ds {
				if x.RuleError {
					t.Errorf("%s, %s: rule error: %v", filepath.Base(f), m.what, x)
				}
			}
			if len(ds) > 1 {
				var b strings.Builder
				for _, x := range ds {
					b.WriteString("\n  " + x.RuleID + " at " + x.Pointer + ": " + x.Message)
				}
				t.Errorf("%s, %s: %d diagnostics for one change:%s", filepath.Base(f), m.what, len(ds), b.String())
			}
		}
	}
	t.Logf("%d mutated documents, at most one finding each", mutated)
}
