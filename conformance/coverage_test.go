package conformance_test

import (
	"os"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/celint/celint/engine"
)

// TestCoverageMatrixNamesRealRules: every rule id and code the coverage
// matrix names exists in the embedded ruleset.
func TestCoverageMatrixNamesRealRules(t *testing.T) {
	data, err := os.ReadFile("../docs/coverage/mcpdesc-v0.9.0-rc.3.md")
	if err != nil {
		t.Fatal(err)
	}
	rs := seedRuleset(t)
	names := regexp.MustCompile("`(mcpdesc\\.[a-z0-9._-]+)(/[a-z0-9._-]+)?`").FindAllStringSubmatch(string(data), -1)
	if len(names) == 0 {
		t.Fatal("the matrix names no rule")
	}
	for _, m := range names {
		r := rs.Rule(m[1])
		if r == nil {
			t.Errorf("the matrix names %s, which is not a rule", m[0])
			continue
		}
		code := strings.TrimPrefix(m[2], "/")
		if code != "" && !slices.ContainsFunc(r.Codes, func(c engine.Code) bool { return c.Name == code }) {
			t.Errorf("the matrix names %s, which is not a code of %s", m[0], m[1])
		}
	}
}
