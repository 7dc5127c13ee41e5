package lint_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/celint/celint/engine"
	"github.com/celint/celint/engine/lint"
	"github.com/celint/celint/rulesets"
)

// TestOptInCodes: an opt-in code (mcpdesc.tools.schema/open-input) is
// reported only where a config file names it, at the level it gives, or
// with Filter.OptIn; a level for its whole rule does not turn it on.
func TestOptInCodes(t *testing.T) {
	rules, err := lint.LoadRulesets(lint.Sources{Embedded: rulesets.Load, Options: engine.Options{Lazy: true}})
	if err != nil {
		t.Fatal(err)
	}
	const doc = `mcpdesc: "0.9.0"
$schema: https://mcpdesc.org/schema/mcp-description/0.9.0-rc.3.json
info: {name: demo, version: 1.0.0}
protocolVersions: ["2025-11-25"]
transports: [{type: stdio, command: demo}]
tools: [{name: t, inputSchema: {type: object}}]
`
	dir := t.TempDir()
	filter := func(config string, optIn bool) lint.Filter {
		f := lint.Filter{OptIn: optIn}
		if config != "" {
			file := filepath.Join(dir, ".celint.yaml")
			if err := os.WriteFile(file, []byte(config), 0o644); err != nil {
				t.Fatal(err)
			}
			cfg, err := lint.LoadConfig(file, dir)
			if err != nil {
				t.Fatal(err)
			}
			f.Config = cfg
		}
		return f
	}
	for _, tc := range []struct {
		name   string
		config string
		optIn  bool
		want   string // the findings, as rule/code severity
	}{
		{"off by default", "", false, "[]"},
		{"named by the config", "rules:\n  mcpdesc.tools.schema/open-input: warning\n", false, "[mcpdesc.tools.schema/open-input warning]"},
		{"its rule named by the config", "rules:\n  mcpdesc.tools.schema: error\n", false, "[]"},
		{"turned off by name", "rules:\n  mcpdesc.tools.schema/open-input: off\n", true, "[]"},
		{"every opt-in code", "", true, "[mcpdesc.tools.schema/open-input info]"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			res := lint.NewChecker(rules, lint.Options{Filter: filter(tc.config, tc.optIn)}).Lint(context.Background(), filepath.Join(dir, "d.yaml"), []byte(doc))
			var got []string
			for _, d := range res.Diagnostics {
				got = append(got, d.Label()+" "+d.Severity.String())
			}
			if s := fmt.Sprint(got); s != tc.want {
				t.Errorf("got %s, want %s", s, tc.want)
			}
		})
	}
}
