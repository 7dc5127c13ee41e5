package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// sideBySide writes a 0.7.0, a 0.8.0 and a 0.9.0 description into dir and
// returns their paths: the 0.7.0 one clean, the others with the example's
// one deliberate mistake.
func sideBySide(t *testing.T, dir string) (v070, v080, v090 string) {
	t.Helper()
	src, err := os.ReadFile(example)
	if err != nil {
		t.Fatal(err)
	}
	old, err := os.ReadFile("../../testdata/mcpdesc-0.7.0/fleet-monitor.yaml")
	if err != nil {
		t.Fatal(err)
	}
	v070 = write(t, dir, "a-old.yaml", string(old))
	stable := strings.Replace(string(src), `mcpdesc: "0.9.0"`, `mcpdesc: "0.8.0"`, 1)
	stable = strings.Replace(stable, "mcp-description/0.9.0-rc.3.json", "mcp-description/0.8.0.json", 1)
	v080 = write(t, dir, "b-stable.yaml", stable)
	v090 = write(t, dir, "c-draft.yaml", string(src))
	return v070, v080, v090
}

// TestVersionsSideBySide: one run checks each document with the ruleset of
// the version it declares, and every format says which; a version no
// ruleset knows is one input error that lists the known versions.
func TestVersionsSideBySide(t *testing.T) {
	dir := t.TempDir()
	v070, v080, v090 := sideBySide(t, dir)
	code, out, errOut := runCLI(t, "check", "--no-config", "--format", "json", v070, v080, v090)
	if code != exitFindings {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	var r struct {
		Files []struct {
			File     string
			Rulesets []string
		}
		Diagnostics []struct{ File, RuleID string }
	}
	if err := json.Unmarshal([]byte(out), &r); err != nil {
		t.Fatal(err)
	}
	want := map[string]string{v070: "mcpdesc@v0.7.0", v080: "mcpdesc@v0.8.0", v090: "mcpdesc@v0.9.0-rc.3"}
	if len(r.Files) != 3 {
		t.Fatalf("files %+v", r.Files)
	}
	for _, f := range r.Files {
		if len(f.Rulesets) != 1 || f.Rulesets[0] != want[f.File] {
			t.Errorf("%s checked with %v, want %s", f.File, f.Rulesets, want[f.File])
		}
	}
	if len(r.Diagnostics) != 2 || r.Diagnostics[0].File != v080 || r.Diagnostics[1].File != v090 {
		t.Errorf("diagnostics %+v: want the example's mistake in the 0.8.0 and the 0.9.0 documents", r.Diagnostics)
	}

	_, out, _ = runCLI(t, "check", "--no-config", v070, v080, v090)
	for _, line := range []string{
		v080 + "  mcpdesc@v0.8.0\n",
		v090 + "  mcpdesc@v0.9.0-rc.3\n",
		"in 2 of 3 files with mcpdesc@v0.7.0 (1), mcpdesc@v0.8.0 (1), mcpdesc@v0.9.0-rc.3 (1)\n",
	} {
		if !strings.Contains(out, line) {
			t.Errorf("text report lacks %q:\n%s", line, out)
		}
	}
	_, out, _ = runCLI(t, "check", "--no-config", "--format", "sarif", v070, v080, v090)
	for _, rs := range want {
		if !strings.Contains(out, `"`+rs+`"`) {
			t.Errorf("sarif does not name %s", rs)
		}
	}

	// Pinned, the 0.8.0 document is checked with the draft's rules.
	if _, out, _ := runCLI(t, "check", "--no-config", "--spec", "v0.9.0-rc.3", v080); !strings.Contains(out, "with mcpdesc@v0.9.0-rc.3") {
		t.Errorf("--spec v0.9.0-rc.3 on 0.8.0:\n%s", out)
	}

	unknown := write(t, dir, "d-future.yaml", "mcpdesc: \"0.6.0\"\ninfo: {name: s, version: \"1\"}\n")
	code, out, _ = runCLI(t, "check", "--no-config", unknown)
	if code != exitError || !strings.Contains(out, `1:10  error  input error: mcpdesc "0.6.0" is not a version celint has rules for; it knows 0.7.0 (mcpdesc@v0.7.0), 0.8.0 (mcpdesc@v0.9.0-rc.3, mcpdesc@v0.8.0), 0.9.0 (mcpdesc@v0.9.0-rc.3)`) {
		t.Errorf("an unknown version: exit %d\n%s", code, out)
	}
}

// TestHouseRulesetKeepsOtherVersions: a --rules folder whose ruleset
// extends one version takes that version's place only; documents of the
// other versions keep theirs.
func TestHouseRulesetKeepsOtherVersions(t *testing.T) {
	dir := t.TempDir()
	v070, v080, v090 := sideBySide(t, dir)
	house := filepath.Join(dir, "house")
	write(t, house, "ruleset.yaml", "name: house\ntag: v1.0.0\nextends: mcpdesc@v0.8.0\nlevels: {mcpdesc.elicitation.form-schema.consistency: should}\n")
	write(t, house, "described.yaml", `rules:
  - id: house.tools.described
    title: Describe every tool
    level: should
    given: $tools
    checks:
      - assert: has(self.description)
        message: the tool has no description
    examples:
      valid: [{document: {tools: [{name: t, description: d}]}}]
      invalid: [{document: {tools: [{name: t}]}}]
`)
	_, out, errOut := runCLI(t, "check", "--no-config", "--rules", house, "--format", "json", v070, v080, v090)
	var r struct {
		Files []struct {
			File     string
			Rulesets []string
		}
	}
	if err := json.Unmarshal([]byte(out), &r); err != nil {
		t.Fatalf("%v: %s%s", err, out, errOut)
	}
	want := map[string]string{v070: "mcpdesc@v0.7.0", v080: "house@v1.0.0", v090: "mcpdesc@v0.9.0-rc.3"}
	for _, f := range r.Files {
		if len(f.Rulesets) == 0 || f.Rulesets[0] != want[f.File] {
			t.Errorf("%s checked with %v, want %s first", f.File, f.Rulesets, want[f.File])
		}
	}
	if len(r.Files) != 3 {
		t.Errorf("files %+v", r.Files)
	}
}
