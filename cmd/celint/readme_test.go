package main

import (
	"os"
	"strings"
	"testing"
)

// TestReadmeInstall: until the module is published, the README's commands
// install celint from a clone; no command line runs 'go install …@latest',
// which cannot find the module yet, and the README says what the
// published path will be.
func TestReadmeInstall(t *testing.T) {
	data, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	text := string(data)
	for _, want := range []string{"git clone https://github.com/celint/celint && cd celint\ngo install ./cmd/celint", "its path will\nbe `github.com/celint/celint`"} {
		if !strings.Contains(text, want) {
			t.Errorf("README lacks %q", want)
		}
	}
	for _, l := range strings.Split(text, "\n") {
		cmd := strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(l), "- run:"))
		if strings.HasPrefix(cmd, "go install") && strings.Contains(cmd, "@latest") {
			t.Errorf("README offers a command that cannot work until the module is published: %s", l)
		}
	}
}

// TestReadmeConformanceOutput: conformance prints what the README says:
// a line of counts per ruleset, a table only of the examples that failed
// or were skipped, and every example with -v.
func TestReadmeConformanceOutput(t *testing.T) {
	data, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(data), "preceded by a table (result, rule, example, expected,\ngot) of the examples that failed or were skipped, when there are any; `-v`\nlists every example in the table") {
		t.Error("the README does not say when conformance prints a table")
	}
	code, out, _ := runCLI(t, "conformance", "--spec", "v0.7.0")
	if code != exitOK || !strings.Contains(out, " passed, 0 failed") || strings.Contains(out, "  pass ") {
		t.Errorf("conformance: exit %d\n%.2000s", code, out)
	}
	code, out, _ = runCLI(t, "conformance", "--spec", "v0.7.0", "-v")
	if code != exitOK || !strings.Contains(out, "RESULT") || !strings.Contains(out, "  pass ") {
		t.Errorf("conformance -v: exit %d\n%.2000s", code, out)
	}
}
