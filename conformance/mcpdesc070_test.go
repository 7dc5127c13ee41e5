package conformance_test

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/celint/celint/engine"
	"github.com/celint/celint/loader"
	"github.com/celint/celint/rulesets"
)

// The checks the tests of this package make of v0.9.0-rc.3, made of the
// MCP Description 0.7.0 ruleset: every code proved by an invalid example,
// every requiredBy a section and a short quote, and a coverage matrix that
// names real rules.

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

func TestMcpdesc070EveryCodeHasAnInvalidExample(t *testing.T) {
	rs := ruleset070(t)
	for _, r := range rs.Rules {
		seen := map[string]bool{}
		for i := range r.Examples.Invalid {
			doc, err := rs.LoadExample(r, &r.Examples.Invalid[i], engine.ExampleOptions{})
			if err != nil {
				continue // conformance reports it
			}
			ds, err := rs.Lint(context.Background(), doc, engine.LintOptions{Filter: func(x *engine.Rule) bool { return x == r }})
			if err != nil {
				t.Fatal(err)
			}
			for _, d := range ds {
				seen[d.Code] = true
			}
		}
		for _, c := range r.Codes[1:] {
			if !seen[c.Name] {
				t.Errorf("%s/%s: no invalid example of the rule reports this code", r.ID, c.Name)
			}
		}
	}
}

// TestMcpdesc070RequiredByQuotes: every rule of v0.7.0 cites the 0.7.0
// text, and every citation (a rule shared with the later versions cites
// theirs too) has a section and a quote of at most 12 words.
func TestMcpdesc070RequiredByQuotes(t *testing.T) {
	rs := ruleset070(t)
	for _, r := range rs.Rules {
		cites := false
		for _, q := range r.Doc.RequiredBy {
			if q.Document == "" || q.Section == "" || q.Quote == "" {
				t.Errorf("%s: requiredBy needs a document, a section and a quote (%q, section %q, quote %q)", r.ID, q.Document, q.Section, q.Quote)
				continue
			}
			cites = cites || q.Document == "MCP Description 0.7.0"
			if n := len(strings.Fields(q.Quote)); n > 12 {
				t.Errorf("%s: the quote of section %s has %d words, more than 12", r.ID, q.Section, n)
			}
		}
		if !cites {
			t.Errorf("%s: no requiredBy entry cites MCP Description 0.7.0", r.ID)
		}
	}
}

// TestMcpdesc070CoverageMatrixNamesRealRules: every rule id and code the
// 0.7.0 coverage matrix names exists in v0.7.0 (its own rules and those it
// shares with the later versions), and every rule of v0.7.0 is named.
func TestMcpdesc070CoverageMatrixNamesRealRules(t *testing.T) {
	data, err := os.ReadFile("../docs/coverage/mcpdesc-v0.7.0.md")
	if err != nil {
		t.Fatal(err)
	}
	rs := ruleset070(t)
	names := regexp.MustCompile("`(mcpdesc\\.[a-z0-9._-]+)(/[a-z0-9._-]+)?`").FindAllStringSubmatch(string(data), -1)
	if len(names) == 0 {
		t.Fatal("the matrix names no rule")
	}
	for _, m := range names {
		r := rs.Rule(m[1])
		if r == nil {
			t.Errorf("the matrix names %s, which is not a rule of v0.7.0", m[0])
			continue
		}
		code := strings.TrimPrefix(m[2], "/")
		if code != "" && !slices.ContainsFunc(r.Codes, func(c engine.Code) bool { return c.Name == code }) {
			t.Errorf("the matrix names %s, which is not a code of %s", m[0], m[1])
		}
	}
	// and every rule of v0.7.0 is in the matrix
	for _, r := range rs.Rules {
		if !strings.Contains(string(data), "`"+r.ID+"`") {
			t.Errorf("the matrix does not name %s", r.ID)
		}
	}
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
