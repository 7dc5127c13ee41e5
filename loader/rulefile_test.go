package loader

import "testing"

// TestScalarsKeepTheirText: a number or boolean where the format wants a
// string is read as it is written, as a YAML decoder into a string would.
func TestScalarsKeepTheirText(t *testing.T) {
	src := "rules:\n  - id: a.b\n    title: 1.10\n    owner: true # a comment\n    level: must\n    given: [x]\n" +
		"    requiredBy: [{section: 12.10, title: 0x1F}]\n    checks: [{assert: \"true\"}]\n"
	rf, err := ReadRuleFile("r.yaml", []byte(src), RuleFileOptions{})
	if err != nil {
		t.Fatal(err)
	}
	d := rf.Rules[0].Doc
	if d.Title != "1.10" || d.Owner != "true" || d.RequiredBy[0].Section != "12.10" || d.RequiredBy[0].Title != "0x1F" {
		t.Errorf("title %q, owner %q, section %q, requirement title %q", d.Title, d.Owner, d.RequiredBy[0].Section, d.RequiredBy[0].Title)
	}
}
