package main

import (
	"strings"
	"testing"
)

// TestConfigEmptyAndBadSpec: a config file with no document (empty,
// comments only, "---" alone) means no settings; a spec no ruleset has is
// an error at its file:line:col, also when a config it extends sets it.
func TestConfigEmptyAndBadSpec(t *testing.T) {
	dir := project(t)
	for _, text := range []string{"", "\n\n", "# nothing yet\n", "---\n", "~\n"} {
		write(t, dir, ".celint.yaml", text)
		code, out, errOut := runCLI(t, "check", "server.yaml")
		if code != exitFindings || !strings.Contains(out, finding) {
			t.Errorf("config %q: exit %d\n%s%s", text, code, out, errOut)
		}
	}
	write(t, dir, ".celint.yaml", "rules: {}\nspec: v9.9\n")
	code, _, errOut := runCLI(t, "check", "server.yaml")
	if code != exitError || !strings.Contains(errOut, `.celint.yaml:2:7: spec: no pinned ruleset "v9.9"`) {
		t.Errorf("bad spec: exit %d %s", code, errOut)
	}
	write(t, dir, "base.yaml", "spec: v9.8\n")
	write(t, dir, ".celint.yaml", "extends: base.yaml\n")
	code, _, errOut = runCLI(t, "check", "server.yaml")
	if code != exitError || !strings.Contains(errOut, `base.yaml:1:7: spec: no pinned ruleset "v9.8"`) {
		t.Errorf("bad spec in an extended config: exit %d %s", code, errOut)
	}
	// The command line's --spec is its own: no config position.
	code, _, errOut = runCLI(t, "check", "--spec", "v9.7", "server.yaml")
	if code != exitError || strings.Contains(errOut, "yaml:") {
		t.Errorf("bad --spec: exit %d %s", code, errOut)
	}
}

// TestQuietCounts: with --quiet the summary still counts the warnings it
// hides, and says how many it hid, so that it agrees with --max-warnings;
// the json counts have them too.
func TestQuietCounts(t *testing.T) {
	dir := project(t)
	write(t, dir, ".celint.yaml", "rules:\n  mcpdesc.elicitation.form-schema.consistency: warning\n")
	code, out, errOut := runCLI(t, "check", "--quiet", "--max-warnings", "0", "server.yaml")
	if code != exitFindings || !strings.Contains(errOut, "1 warning, more than --max-warnings 0") ||
		!strings.Contains(out, "1 problem (0 errors, 1 warning, 0 infos) in 1 of 1 file") || !strings.Contains(out, "; 1 hidden by --quiet") {
		t.Errorf("exit %d\n%s%s", code, out, errOut)
	}
	for _, format := range []string{"json", "jsonl"} {
		_, out, _ = runCLI(t, "check", "--quiet", "--format", format, "server.yaml")
		if !strings.Contains(strings.ReplaceAll(out, " ", ""), `"warnings":1,`) || !strings.Contains(strings.ReplaceAll(out, " ", ""), `"quieted":1`) {
			t.Errorf("%s counts:\n%s", format, out)
		}
	}
}
