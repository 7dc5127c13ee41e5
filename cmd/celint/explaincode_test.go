package main

import (
	"strings"
	"testing"
)

// TestExplainCode: explain takes ID/CODE, as diagnostics print it, or the
// code's alias, and shows the code's level, aliases, message and check
// before the whole rule; a code the rule lacks lists those it has.
func TestExplainCode(t *testing.T) {
	const id = "mcpdesc.elicitation.form-schema.consistency"
	for _, arg := range []string{id + "/required-undeclared", id + "/elicitation-form-required-property-unknown"} {
		code, out, errOut := runCLI(t, "explain", "--spec", "v0.9.0-rc.3", arg)
		if code != exitOK {
			t.Fatalf("explain %s: exit %d %s", arg, code, errOut)
		}
		for _, want := range []string{
			id + "/required-undeclared (must, mcpdesc@v0.9.0-rc.3)",
			"aliases: elicitation-form-required-property-unknown",
			"required name {item} is not a declared property",
			"- code: required-undeclared",
			"\n" + id + " (must, mcpdesc@v0.9.0-rc.3)\n", // the rule around it
		} {
			if !strings.Contains(out, want) {
				t.Errorf("explain %s lacks %q:\n%s", arg, want, out)
			}
		}
	}
	code, _, errOut := runCLI(t, "explain", id+"/nope")
	if code != exitError || !strings.Contains(errOut, `reports no code "nope"; its codes: required-undeclared`) {
		t.Errorf("an unknown code: exit %d %s", code, errOut)
	}
}

// TestRulesListBuiltIns: the rule ids celint reports itself are listed by
// rules, in text and JSON, marked as built in, and explain knows them.
func TestRulesListBuiltIns(t *testing.T) {
	_, out, _ := runCLI(t, "rules")
	for _, id := range []string{"celint.input", "celint.suppression", "celint.suppression/unused", "celint.limit"} {
		found := false
		for _, l := range strings.Split(out, "\n") {
			f := strings.Fields(l)
			found = found || len(f) > 0 && f[0] == id && (strings.HasSuffix(l, "(built in)") || strings.Contains(id, "/"))
		}
		if !found {
			t.Errorf("rules does not list %s as built in", id)
		}
	}
	_, out, _ = runCLI(t, "rules", "--format", "json")
	if !strings.Contains(out, `"ruleset": "celint",
    "builtIn": true,`) || !strings.Contains(out, `"id": "celint.suppression"`) {
		t.Errorf("rules --format json lacks the built-in rules:\n%.2000s", out[max(0, len(out)-2000):])
	}
	if code, out, _ := runCLI(t, "explain", "celint.input"); code != exitOK || !strings.Contains(out, "built in") {
		t.Errorf("explain celint.input: exit %d %s", code, out)
	}
}
