package lint_test

import (
	"context"
	"fmt"
	"os"

	"github.com/celint/celint/engine"
	"github.com/celint/celint/engine/lint"
	"github.com/celint/celint/engine/report"
	"github.com/celint/celint/rulesets"
)

// server is an editor's unsaved buffer: a description with a member a
// tool does not have, and a list written as a string.
const server = `$schema: https://developer.cisco.com/mcp-description/schema/0.7.0
mcpdesc: 0.7.0
info:
  name: unit-converter
  version: 0.3.1
transports:
  - type: stdio
    command: unit-converter
tools:
  - name: convert
    colour: blue
    inputSchema:
      type: object
      required: value
`

// An embedder lints a document held in memory with the embedded rulesets
// and prints the text report of it.
func Example() {
	rules, err := lint.LoadRulesets(lint.Sources{Embedded: rulesets.Load, Options: engine.Options{Lazy: true}})
	if err != nil {
		panic(err)
	}
	checker := lint.NewChecker(rules, lint.Options{})
	res := checker.Lint(context.Background(), "server.yaml", []byte(server))

	out, err := report.NewStream("text", os.Stdout, report.Input{})
	if err != nil {
		panic(err)
	}
	rep := checker.NewReport(out, nil)
	rep.Add(res)
	if err := rep.Close(); err != nil {
		panic(err)
	}
	// Output:
	// server.yaml  mcpdesc@v0.7.0
	//   11:5  error  colour is not a Tool member in 0.7.0 (extensions belong at the root; tool metadata may go in _meta)  mcpdesc.tools.tool
	//     at /tools/0/colour
	//     11 |     colour: blue
	//        |     ^
	//   14:7  error  got string, want array                                                                               mcpdesc.tools.tool
	//     at /tools/0/inputSchema/required
	//     14 |       required: value
	//        |       ^
	//
	// ✖ 2 problems (2 errors, 0 warnings, 0 infos) in 1 of 1 file with mcpdesc@v0.7.0
}

// A language server keeps one Checker and lints the buffer on every edit;
// each diagnostic carries its range and the page of its rule.
func ExampleChecker_Lint() {
	rules, err := lint.LoadRulesets(lint.Sources{Embedded: rulesets.Load, Options: engine.Options{Lazy: true}})
	if err != nil {
		panic(err)
	}
	checker := lint.NewChecker(rules, lint.Options{})
	res := checker.Lint(context.Background(), "server.yaml", []byte(server))
	fmt.Println(res.Rulesets[0])
	for _, d := range res.Diagnostics {
		fmt.Printf("%d:%d-%d:%d %s %s\n", d.Line, d.Column, d.EndLine, d.EndColumn, d.Severity, d.RuleID)
		fmt.Println(" ", d.URL)
	}
	// Output:
	// mcpdesc@v0.7.0
	// 11:5-11:17 error mcpdesc.tools.tool
	//   https://mcpdesc.org/docs/rules/0.7.0/mcpdesc/tools-tool/
	// 14:7-14:22 error mcpdesc.tools.tool
	//   https://mcpdesc.org/docs/rules/0.7.0/mcpdesc/tools-tool/
}
