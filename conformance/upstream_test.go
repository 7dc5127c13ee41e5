package conformance_test

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/celint/celint/conformance"
	"github.com/celint/celint/engine"
	"github.com/celint/celint/internal/sharedtest"
	"github.com/celint/celint/loader"
	"github.com/celint/celint/rulesets"
)

const (
	membersRule     = "mcpdesc.elicitation.members"
	consistencyRule = "mcpdesc.elicitation.form-schema.consistency"
)

func seedRuleset(t *testing.T) *engine.Ruleset {
	t.Helper()
	cat, err := rulesets.Catalog(engine.Options{})
	if err != nil {
		t.Fatal(err)
	}
	rs, err := cat.Find("v0.9.0-rc.3")
	if err != nil {
		t.Fatal(err)
	}
	return rs
}

func upstreamFixtures(t *testing.T) string {
	return sharedtest.Path(t, "upstream", "mcpdesc-specification", "spec", "draft", "fixtures")
}

func lintRule(t *testing.T, rs *engine.Ruleset, file, rule string) []engine.Diagnostic {
	t.Helper()
	doc, err := loader.ParseFile(file, rs.LoadOptions)
	if err != nil {
		t.Fatal(err)
	}
	ds, err := rs.Lint(context.Background(), doc, engine.LintOptions{Filter: func(r *engine.Rule) bool { return r.ID == rule }})
	if err != nil {
		t.Fatal(err)
	}
	return ds
}

// TestSeedExamplesAgainstUpstream runs the seed rules' examples against the
// upstream fixture corpus: examples whose fixture upstream lacks are skipped.
func TestSeedExamplesAgainstUpstream(t *testing.T) {
	rs := seedRuleset(t)
	results := conformance.Check(t, rs, conformance.Options{FixturesDir: upstreamFixtures(t), Rules: []string{membersRule, consistencyRule}})
	var pass, skip int
	for _, r := range results {
		switch r.Status {
		case conformance.Pass:
			pass++
		case conformance.Skip:
			skip++
		}
	}
	// Upstream has elicitation-declarations, -branch-mixing and
	// -form-semantics; the other two seed fixtures are ours only. The
	// fifth and sixth passes are inline examples, which need no fixture.
	if pass != 6 || skip != 2 {
		t.Errorf("pass=%d skip=%d, want 6 and 2", pass, skip)
	}
}

func TestMembersOnBranchMixing(t *testing.T) {
	rs := seedRuleset(t)
	ds := lintRule(t, rs, filepath.Join(upstreamFixtures(t), "expected-invalid", "elicitation-branch-mixing.json"), membersRule)
	if len(ds) == 0 {
		t.Fatal("no diagnostic")
	}
	for _, d := range ds {
		if !strings.HasPrefix(d.Pointer+"/", "/resources/0/elicitations/0/") || d.RuleError {
			t.Errorf("unexpected diagnostic %v", d)
		}
	}
}

// TestConsistencyOnFormSemantics compares locations with the reference
// validator's verdict for the same fixture.
func TestConsistencyOnFormSemantics(t *testing.T) {
	rs := seedRuleset(t)
	const fixture = "elicitation-form-semantics.json"
	ds := lintRule(t, rs, filepath.Join(upstreamFixtures(t), "expected-invalid", fixture), consistencyRule)
	var got []string
	for _, d := range ds {
		got = append(got, d.Pointer)
	}
	want := referencePointers(t, "spec/draft/fixtures/expected-invalid/"+fixture, "/prompts/0/elicitations/0/requestedSchema")
	if len(want) != 3 {
		t.Fatalf("reference verdicts give %d locations under the requestedSchema, want 3: %q", len(want), want)
	}
	slices.Sort(got)
	slices.Sort(want)
	if !slices.Equal(got, want) {
		t.Errorf("got %q, want the reference locations %q", got, want)
	}
}

// referencePointers reads the reference validator's diagnostic locations for
// one fixture, as JSON Pointers, keeping those under prefix.
func referencePointers(t *testing.T, file, prefix string) []string {
	t.Helper()
	for _, v := range readVerdicts(t, "draft") {
		if v.File != file {
			continue
		}
		var out []string
		for _, d := range v.Diagnostics {
			if p := d.pointer(); strings.HasPrefix(p, prefix+"/") {
				out = append(out, p)
			}
		}
		return out
	}
	t.Fatalf("%s not in the reference verdicts", file)
	return nil
}

// TestSeedRulesQuietOnValidFixtures: neither seed rule reports anything on
// any expected-valid fixture.
func TestSeedRulesQuietOnValidFixtures(t *testing.T) {
	rs := seedRuleset(t)
	dir := filepath.Join(upstreamFixtures(t), "expected-valid")
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(entries) != 20 {
		t.Errorf("%d expected-valid fixtures, want 20", len(entries))
	}
	for _, e := range entries {
		for _, rule := range []string{membersRule, consistencyRule} {
			if ds := lintRule(t, rs, filepath.Join(dir, e.Name()), rule); len(ds) > 0 {
				t.Errorf("%s: %s reported %v", e.Name(), rule, ds)
			}
		}
	}
}
