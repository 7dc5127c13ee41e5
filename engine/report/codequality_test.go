package report

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/celint/celint/engine"
)

// codeQualityIssues decodes a codequality report.
func codeQualityIssues(t *testing.T, out string) []codeQualityIssue {
	t.Helper()
	var issues []codeQualityIssue
	if err := json.Unmarshal([]byte(out), &issues); err != nil {
		t.Fatalf("not a JSON array of issues: %v\n%s", err, out)
	}
	return issues
}

// TestCodeQualityFingerprint: a finding's fingerprint does not change when
// its line moves or its message is reworded, nor, when the ruleset
// identifies the items on its way, when an item is inserted above it (its
// pointer changes, its path does not); it changes with the rule, the code
// and the file; and a report never repeats one.
func TestCodeQualityFingerprint(t *testing.T) {
	base := engine.Diagnostic{File: "./servers/a.yaml", RuleID: "r", Severity: engine.Warning, Message: "m",
		Pointer: "/tools/0/description", Path: `/tools/[name="get"]/description`, Line: 4, Column: 5}
	fp := func(d engine.Diagnostic) string {
		return codeQualityIssues(t, render(t, "codequality", Input{Diagnostics: []engine.Diagnostic{d}}))[0].Fingerprint
	}
	want := fp(base)
	if len(want) != 32 {
		t.Fatalf("fingerprint %q is not 32 hex digits", want)
	}
	same := map[string]func(*engine.Diagnostic){
		"line moved":         func(d *engine.Diagnostic) { d.Line, d.Column = 40, 1 },
		"message reworded":   func(d *engine.Diagnostic) { d.Message = "other words" },
		"item inserted":      func(d *engine.Diagnostic) { d.Pointer = "/tools/1/description" },
		"severity changed":   func(d *engine.Diagnostic) { d.Severity = engine.Error },
		"without leading ./": func(d *engine.Diagnostic) { d.File = "servers/a.yaml" },
	}
	for name, change := range same {
		d := base
		change(&d)
		if got := fp(d); got != want {
			t.Errorf("%s: fingerprint %s, want %s", name, got, want)
		}
	}
	differ := map[string]func(*engine.Diagnostic){
		"rule":  func(d *engine.Diagnostic) { d.RuleID = "s" },
		"code":  func(d *engine.Diagnostic) { d.Code = "c" },
		"file":  func(d *engine.Diagnostic) { d.File = "servers/b.yaml" },
		"place": func(d *engine.Diagnostic) { d.Path = `/tools/[name="put"]/description` },
	}
	for name, change := range differ {
		d := base
		change(&d)
		if got := fp(d); got == want {
			t.Errorf("another %s: the same fingerprint %s", name, got)
		}
	}

	// Two findings of the same rule at the same place, and a third.
	other := base
	other.Message = "another finding there"
	third := base
	third.Message = "a third"
	issues := codeQualityIssues(t, render(t, "codequality", Input{Diagnostics: []engine.Diagnostic{base, other, third}}))
	seen := map[string]bool{}
	for _, is := range issues {
		if seen[is.Fingerprint] {
			t.Errorf("fingerprint %s repeated: %+v", is.Fingerprint, issues)
		}
		seen[is.Fingerprint] = true
	}
	if issues[0].Fingerprint != want {
		t.Errorf("the first of the same place has %s, want %s", issues[0].Fingerprint, want)
	}
}

// TestCodeQualityFields: the severities, the labels of rule and input
// errors, the check name with its code, and a line for a problem with a
// file as a whole.
func TestCodeQualityFields(t *testing.T) {
	ds := []engine.Diagnostic{
		{File: "a.json", RuleID: "r", Code: "c", Severity: engine.Info, Message: "i", Line: 1, Column: 1},
		{File: "a.json", RuleID: "r", Severity: engine.Error, Message: "boom", Line: 2, Column: 1, RuleError: true},
		{File: "b.json", RuleID: "celint.input", Severity: engine.Error, Message: "cannot read", InputError: true},
	}
	issues := codeQualityIssues(t, render(t, "codequality", Input{Diagnostics: ds}))
	want := []struct{ check, severity, description string }{
		{"r/c", "info", "i"},
		{"r", "critical", "rule error: boom"},
		{"celint.input", "critical", "input error: cannot read"},
	}
	if len(issues) != len(want) {
		t.Fatalf("%d issues, want %d", len(issues), len(want))
	}
	for i, w := range want {
		is := issues[i]
		if is.CheckName != w.check || is.Severity != w.severity || is.Description != w.description {
			t.Errorf("issue %d = %+v, want %+v", i, is, w)
		}
	}
	if issues[2].Location.Lines.Begin != 1 || issues[2].Location.Path != "b.json" {
		t.Errorf("a file's problem is at %+v, want b.json line 1", issues[2].Location)
	}
	if got := render(t, "codequality", Input{Files: []string{"a.json"}}); got != "[]\n" {
		t.Errorf("nothing to report: got %q, want []", got)
	}
}

// TestCodeQualityHostile: hostile text in a file name, a rule id or a
// message stays inside its JSON string: the report decodes to the very
// strings given, and prints no raw character a terminal acts on.
func TestCodeQualityHostile(t *testing.T) {
	for _, tc := range append(hostileText, struct{ name, text, shown string }{"json breakout", `"}],[{"x":"`, ""}) {
		t.Run(tc.name, func(t *testing.T) {
			d := engine.Diagnostic{File: tc.text + ".json", RuleID: "r" + tc.text, Severity: engine.Error,
				Message: tc.text + "\n" + tc.text, Pointer: "/" + tc.text, Line: 1, Column: 1}
			got := render(t, "codequality", Input{Diagnostics: []engine.Diagnostic{d}})
			checkHumanOutput(t, "codequality", got, false)
			issues := codeQualityIssues(t, got)
			if len(issues) != 1 {
				t.Fatalf("%d issues, want 1:\n%s", len(issues), got)
			}
			is := issues[0]
			if is.Description != d.Message || is.CheckName != d.RuleID || is.Location.Path != strings.TrimPrefix(d.File, "./") {
				t.Errorf("the text changed: %+v", is)
			}
		})
	}
}
