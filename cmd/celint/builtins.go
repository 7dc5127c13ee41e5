package main

import (
	"github.com/celint/celint/engine/lint"
	"github.com/celint/celint/engine/report"
)

// builtinRule is a rule id that celint itself reports under, whatever
// rulesets run: `celint rules` lists them, marked as built in.
type builtinRule struct {
	ID    string
	Level string // "" when the level is that of the findings it stands for
	Title string
	Codes []string
}

// builtinRules are the rule ids of the diagnostics that no ruleset makes.
var builtinRules = []builtinRule{
	{ID: lint.InputRuleID, Level: "must", Title: "a file that cannot be read, is not valid JSON or YAML, or declares a version no ruleset accepts"},
	{ID: lint.SuppressionRuleID, Level: "should", Title: "a suppression comment that is malformed or suppresses nothing", Codes: []string{"malformed", "unused"}},
	{ID: report.LimitRuleID, Title: "how many more findings of a file --max-diagnostics leaves out; as severe as the worst of them"},
}
