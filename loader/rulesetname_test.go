package loader

import (
	"strings"
	"testing"
)

// TestRulesetNameAndTag: a ruleset header's name is lower-case words and
// its tag a semantic-version-like tag; anything else — escape sequences,
// bidi characters, a workflow command, a path — is refused at its
// line:col, saying what was expected.
func TestRulesetNameAndTag(t *testing.T) {
	for _, tc := range []struct {
		name, header string
		want         string // "" when accepted
	}{
		{"plain", "name: mcpdesc\ntag: v0.9.0-rc.3\n", ""},
		{"words", "name: my-tools_2\ntag: v1\n", ""},
		{"two numbers", "name: a\ntag: 1.2\n", ""},
		{"build", "name: a\ntag: v1.2.3-rc-1.2+build.7\n", ""},
		{"extends", "name: house\ntag: v0.0.1\nextends: mcpdesc@v0.9.0-rc.3\n", ""},
		{"upper case", "name: MCP\ntag: v1\n", `r.yaml:1:7: ruleset name "MCP": expected lower-case words`},
		{"escape in name", "name: \"a\\e[2J\"\ntag: v1\n", `r.yaml:1:7: ruleset name "a\x1b[2J": expected lower-case words`},
		{"bidi in name", "name: \"ab\\u202Ec\"\ntag: v1\n", `r.yaml:1:7: ruleset name "ab\u202ec": expected`},
		{"workflow command", "name: \"::error::x\"\ntag: v1\n", `r.yaml:1:7: ruleset name "::error::x"`},
		{"path", "name: ../x\ntag: v1\n", `r.yaml:1:7: ruleset name "../x"`},
		{"too long", "name: " + strings.Repeat("a", 65) + "\ntag: v1\n", `r.yaml:1:7: ruleset name "aaaa`},
		{"escape in tag", "name: a\ntag: \"v1\\e]0;t\\a\"\n", `r.yaml:2:6: ruleset tag "v1\x1b]0;t\a": expected a version like v1, v0.9.0 or v1.2.3-rc.1`},
		{"word tag", "name: a\ntag: latest\n", `r.yaml:2:6: ruleset tag "latest": expected a version`},
		{"four numbers", "name: a\ntag: v1.2.3.4\n", `r.yaml:2:6: ruleset tag "v1.2.3.4"`},
		{"space in tag", "name: a\ntag: v1 beta\n", `r.yaml:2:6: ruleset tag "v1 beta"`},
		{"extends a bad name", "name: a\ntag: v1\nextends: \"x\\e@v1\"\n", `r.yaml:3:10: extends "x\x1b@v1": expected name@tag`},
		{"extends without tag", "name: a\ntag: v1\nextends: mcpdesc@\n", `r.yaml:3:10: extends "mcpdesc@": expected name@tag`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := ReadRulesetSpec("r.yaml", []byte(tc.header))
			switch {
			case tc.want == "" && err != nil:
				t.Errorf("refused: %v", err)
			case tc.want != "" && err == nil:
				t.Errorf("accepted, want %q", tc.want)
			case tc.want != "" && !strings.Contains(err.Error(), tc.want):
				t.Errorf("error %q, want it to contain %q", err, tc.want)
			}
		})
	}
}
