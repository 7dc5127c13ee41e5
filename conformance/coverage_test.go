package conformance_test

import (
	"os"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/celint/celint/engine"
	"github.com/celint/celint/rulesets"
)

// TestCoverageMatrixNamesRealRules: every rule id and code a coverage
// matrix names exists in the embedded ruleset of the version it covers.
func TestCoverageMatrixNamesRealRules(t *testing.T) {
	cat, err := rulesets.Catalog(engine.Options{})
	if err != nil {
		t.Fatal(err)
	}
	names := regexp.MustCompile("`(mcpdesc\\.[a-z0-9._-]+)(/[a-z0-9._-]+)?`")
	for _, tc := range []struct {
		matrix, tag string
	}{
		{"../docs/coverage/mcpdesc-v0.7.0.md", "v0.7.0"},
		{"../docs/coverage/mcpdesc-v0.8.0.md", "v0.8.0"},
		{"../docs/coverage/mcpdesc-v0.9.0-rc.3.md", "v0.9.0-rc.3"},
	} {
		t.Run(tc.tag, func(t *testing.T) {
			data, err := os.ReadFile(tc.matrix)
			if err != nil {
				t.Fatal(err)
			}
			rs, err := cat.Find(tc.tag)
			if err != nil {
				t.Fatal(err)
			}
			found := names.FindAllStringSubmatch(string(data), -1)
			if len(found) == 0 {
				t.Fatalf("%s names no rule", tc.matrix)
			}
			for _, m := range found {
				r := rs.Rule(m[1])
				if r == nil {
					t.Errorf("%s names %s, which is not a rule of mcpdesc@%s", tc.matrix, m[0], tc.tag)
					continue
				}
				code := strings.TrimPrefix(m[2], "/")
				if code != "" && !slices.ContainsFunc(r.Codes, func(c engine.Code) bool { return c.Name == code }) {
					t.Errorf("%s names %s, which is not a code of %s", tc.matrix, m[0], m[1])
				}
			}
			// and every rule of the version is in its matrix, alone or with
			// one of its codes
			for _, r := range rs.Rules {
				if !strings.Contains(string(data), "`"+r.ID+"`") && !strings.Contains(string(data), "`"+r.ID+"/") {
					t.Errorf("%s does not name %s", tc.matrix, r.ID)
				}
			}
		})
	}
}
