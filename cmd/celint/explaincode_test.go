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
