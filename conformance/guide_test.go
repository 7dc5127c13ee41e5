package conformance_test

import (
	"context"
	"os"
	"regexp"
	"strings"
	"testing"

	"github.com/celint/celint/conformance"
	"github.com/celint/celint/engine"
)

const guideDir = "../engine/testdata/rulesets/guide/v1"

// TestGuideRuleset: the worked examples of docs/rule-format.md pass
// their own examples, with no warning.
func TestGuideRuleset(t *testing.T) {
	rs, err := engine.LoadRuleset(os.DirFS(guideDir), ".", engine.Options{DisplayDir: guideDir})
	if err != nil {
		t.Fatal(err)
	}
	if len(rs.Rules) < 6 {
		t.Fatalf("the guide has %d rules", len(rs.Rules))
	}
	for _, r := range conformance.Check(t, rs, conformance.Options{}) {
		if r.Status == conformance.Warn {
			t.Errorf("%s: %s", r.RuleID, r.Got)
		}
	}
}

// TestGuideMatchesDocs: every rule the worked section of the rule-format
// page shows is, word for word, a rule of the guide ruleset, so the page
// cannot drift from rules that are tested.
func TestGuideMatchesDocs(t *testing.T) {
	page, err := os.ReadFile("../docs/rule-format.md")
	if err != nil {
		t.Fatal(err)
	}
	_, worked, ok := strings.Cut(string(page), "\n## Worked examples")
	if !ok {
		t.Fatal("docs/rule-format.md has no '## Worked examples' section")
	}
	var files strings.Builder
	for _, name := range []string{"tools.yaml", "structure.yaml"} {
		data, err := os.ReadFile(guideDir + "/" + name)
		if err != nil {
			t.Fatal(err)
		}
		files.Write(data)
	}
	blocks := regexp.MustCompile("(?s)```yaml\n(.*?)```").FindAllStringSubmatch(worked, -1)
	shown := 0
	for _, b := range blocks {
		if !strings.Contains(b[1], "- id: guide.") {
			continue
		}
		shown++
		if !strings.Contains(files.String(), b[1]) {
			t.Errorf("the page shows a rule that the guide ruleset does not have word for word:\n%s", b[1])
		}
	}
	if shown < 5 {
		t.Errorf("the worked section shows %d rules, want at least 5", shown)
	}
}

// TestWarnsAboutSelectionsThatSelectNothing: a 'given' with a typo selects
// nothing in any example, which conformance reports as a warning.
func TestWarnsAboutSelectionsThatSelectNothing(t *testing.T) {
	rs, err := engine.LoadRuleset(os.DirFS(guideDir), ".", engine.Options{DisplayDir: guideDir})
	if err != nil {
		t.Fatal(err)
	}
	rs, err = rs.WithRuleFiles(engine.RuleFile{Name: "typo.yaml", Data: []byte(`rules:
  - id: guide.typo
    level: must
    given: tols.#
    checks: [{assert: "false"}]
    examples:
      valid: [{document: {mcpdesc: "0.9.0", tools: [{name: a}]}}]
      invalid: [{document: {mcpdesc: "0.9.0", tools: [{name: a}]}}]
`)})
	if err != nil {
		t.Fatal(err)
	}
	var warned bool
	for _, r := range conformance.Run(context.Background(), rs, conformance.Options{Rules: []string{"guide.typo"}}) {
		if r.Status == conformance.Warn && strings.Contains(r.Got, "selects nothing in any of the 2 examples") {
			warned = true
		}
	}
	if !warned {
		t.Error("no warning for a selection that selects nothing")
	}
}
