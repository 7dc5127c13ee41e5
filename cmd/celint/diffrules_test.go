package main

import (
	"encoding/json"
	"strings"
	"testing"
)

// TestDiffRules: the rules of v0.9.0-rc.3 that v0.8.0 lacks are added, the
// shared rules whose params differ are changed with each param's two
// values, and the reverse diff swaps added and removed.
func TestDiffRules(t *testing.T) {
	code, out, errOut := runCLI(t, "diff-rules", "v0.8.0", "v0.9.0-rc.3")
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	for _, want := range []string{
		"from mcpdesc@v0.8.0 to mcpdesc@v0.9.0-rc.3: 2 added, 0 removed, 9 changed, ",
		"  mcpdesc.document.schema-reference\n    param schemaURIs: ",
		"  mcpdesc.provenance.registry (must) ",
		"  mcpdesc.document.structure\n    param mcpdescVersions: [\"0.8.0\"] → [\"0.8.0\",\"0.9.0\"]\n    param provenanceMember: false → true\n    param memberVersions: {",
		// a param that the rule reads through a document variable of the header
		"  mcpdesc.info.structure\n    param mcpdescVersions: [\"0.8.0\"] → [\"0.8.0\",\"0.9.0\"]\n    param memberVersions: {",
		`"Tool":{"provenanceIds":{"from":"0.9.0"}},"root":{"provenance":{"from":"0.9.0"}}} → {"Info":{"protocolVersion":{"until":"0.7.0"}}}`,
		"  mcpdesc.interactions.step\n    param elicitationStepRequired: [] → [\"declaration\"]\n",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("the diff lacks %q:\n%s", want, out)
		}
	}
	code, out, _ = runCLI(t, "diff-rules", "--format", "json", "v0.9.0-rc.3", "v0.8.0")
	var d rulesDiff
	if err := json.Unmarshal([]byte(out), &d); err != nil || code != exitOK {
		t.Fatalf("exit %d, %v: %s", code, err, out)
	}
	if d.From != "mcpdesc@v0.9.0-rc.3" || len(d.Added) != 0 || len(d.Removed) != 2 || len(d.Changed) != 9 || d.Unchanged < 80 {
		t.Errorf("reverse diff: %+v", d)
	}
	code, out, _ = runCLI(t, "diff-rules", "v0.8.0", "v0.8.0")
	if code != exitOK || !strings.Contains(out, "0 added, 0 removed, 0 changed") {
		t.Errorf("a ruleset against itself: exit %d\n%s", code, out)
	}
	for _, args := range [][]string{
		{"diff-rules", "v0.8.0"},
		{"diff-rules", "v0.8.0", "v9"},
		{"diff-rules", "--format", "yaml", "v0.8.0", "v0.8.0"},
		{"diff-rules", "--spec", "v0.8.0", "v0.8.0", "v0.8.0"},
	} {
		if code, _, errOut := runCLI(t, args...); code != exitError || errOut == "" {
			t.Errorf("%q: exit %d, stderr %q; want a usage error", args, code, errOut)
		}
	}
}
