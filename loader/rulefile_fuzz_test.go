package loader

import (
	"errors"
	"os"
	"path/filepath"
	"testing"
)

// FuzzReadRuleFile feeds arbitrary bytes to the rule-file reader: it must
// never panic, and every error must be located issues or a located error.
func FuzzReadRuleFile(f *testing.F) {
	seeds, _ := filepath.Glob("../rulesets/*/*/*.yaml")
	for _, s := range seeds {
		if data, err := os.ReadFile(s); err == nil {
			f.Add(data)
		}
	}
	f.Add([]byte("rules:\n  - id: a.b\n    level: must\n    given: x\n    checks:\n      - assert: \"true\"\n"))
	f.Add([]byte("rules: [{id: a.b, level: may, given: [x, y], schema: {type: object}, variables: {v: '1'}}]"))
	f.Add([]byte("rules:\n  - id: &a a.b\n    title: *a\n"))
	f.Add([]byte("name: x\ntag: v1\nloader: {reject: [aliases, bogus]}\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		rf, err := ReadRuleFile("f.yaml", data, RuleFileOptions{ScopeKey: "versions"})
		if err == nil {
			if rf == nil {
				t.Fatal("nil rule file without error")
			}
			for _, r := range rf.Rules {
				if r.ID.Value == "" || len(r.Given) == 0 {
					t.Fatalf("accepted a rule without id or given: %+v", r)
				}
			}
		} else {
			checkLocated(t, err)
		}
		if _, err := ReadRulesetSpec("r.yaml", data); err != nil {
			checkLocated(t, err)
		}
	})
}

func checkLocated(t *testing.T, err error) {
	t.Helper()
	var issues Issues
	var le *Error
	switch {
	case errors.As(err, &issues):
		if len(issues) == 0 {
			t.Fatal("empty issue list")
		}
		for _, is := range issues {
			if is.File == "" {
				t.Fatalf("issue without file: %v", is)
			}
		}
	case errors.As(err, &le):
		if le.File == "" {
			t.Fatalf("error without file: %v", le)
		}
	default:
		t.Fatalf("unlocated error %T: %v", err, err)
	}
}
