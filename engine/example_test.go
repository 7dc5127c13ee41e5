package engine_test

import (
	"context"
	"fmt"
	"log"
	"strings"

	gocel "github.com/google/cel-go/cel"
	"github.com/google/cel-go/common/types"
	"github.com/google/cel-go/common/types/ref"

	"github.com/celint/celint/engine"
	"github.com/celint/celint/rulesets"
)

// A document with one deliberate mistake: the form requires a property it
// does not declare.
const server = `mcpdesc: "0.9.0"
$schema: https://example.com/mcpdesc/0.9.0.json
info: {name: notes, version: 1.0.0}
protocolVersions: ["2025-11-25"]
tools:
  - name: delete_note
    inputSchema: {type: object, additionalProperties: false}
    elicitations:
      - name: confirm
        mode: form
        message: Delete the note?
        requestedSchema:
          type: object
          properties: {sure: {type: boolean}}
          required: [confirmed]
`

// Load the embedded rulesets and let the catalog choose the one that
// accepts the version a document declares.
func ExampleCatalog_Load() {
	cat, err := rulesets.Catalog(engine.Options{})
	if err != nil {
		log.Fatal(err)
	}
	doc, rs, err := cat.Load("server.yaml", []byte(server), nil)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(rs, doc.Format)
	// Output: mcpdesc@v0.9.0-rc.3 yaml
}

// Lint a document held in memory.
func ExampleRuleset_Lint() {
	cat, err := rulesets.Catalog(engine.Options{})
	if err != nil {
		log.Fatal(err)
	}
	doc, rs, err := cat.Load("server.yaml", []byte(server), nil)
	if err != nil {
		log.Fatal(err)
	}
	diags, err := rs.Lint(context.Background(), doc, engine.LintOptions{})
	if err != nil {
		log.Fatal(err)
	}
	for _, d := range diags {
		fmt.Printf("%d:%d-%d:%d %s %s [%s]\n", d.Line, d.Column, d.EndLine, d.EndColumn, d.Severity, d.Message, d.RuleID)
	}
	// Output: 15:22-15:31 error required name "confirmed" is not a declared property [mcpdesc.elicitation.form-schema.consistency]
}

// Add a rule written in YAML, from bytes, to the embedded mcpdesc ruleset.
// The ruleset it is added to does not change.
func ExampleRuleset_WithRuleFiles() {
	cat, err := rulesets.Catalog(engine.Options{})
	if err != nil {
		log.Fatal(err)
	}
	base, err := cat.Find("v0.9.0-rc.3")
	if err != nil {
		log.Fatal(err)
	}
	rule := []byte(`rules:
  - id: acme.tools.snake-case
    title: Tool names are snake_case
    level: should
    given: tools.#
    checks:
      - assert: self.name.matches('^[a-z][a-z0-9_]*$')
        at: name
        message: "tool name {self.name} is not snake_case"
`)
	rs, err := base.WithRuleFiles(engine.RuleFile{Name: "acme.yaml", Data: rule})
	if err != nil {
		log.Fatal(err)
	}
	doc, _, err := cat.Load("server.yaml", []byte("mcpdesc: \"0.9.0\"\ntools:\n  - name: DeleteNote\n"), rs)
	if err != nil {
		log.Fatal(err)
	}
	diags, err := rs.Lint(context.Background(), doc, engine.LintOptions{
		Filter: func(r *engine.Rule) bool { return strings.HasPrefix(r.ID, "acme.") },
	})
	if err != nil {
		log.Fatal(err)
	}
	for _, d := range diags {
		fmt.Println(d)
	}
	fmt.Println(len(rs.Rules)-len(base.Rules), "rule added")
	// Output:
	// server.yaml:3:5: warning: tool name "DeleteNote" is not snake_case [acme.tools.snake-case]
	// 1 rule added
}

// Give rules a CEL function of the embedding program's own.
func ExampleOptions() {
	shout := gocel.Function("shout",
		gocel.MemberOverload("string_shout", []*gocel.Type{gocel.StringType}, gocel.StringType,
			gocel.UnaryBinding(func(v ref.Val) ref.Val {
				return types.String(strings.ToUpper(string(v.(types.String))) + "!")
			})))
	cat, err := rulesets.Catalog(engine.Options{Functions: []gocel.EnvOption{shout}})
	if err != nil {
		log.Fatal(err)
	}
	base, err := cat.Find("v0.9.0-rc.3")
	if err != nil {
		log.Fatal(err)
	}
	rs, err := base.WithRuleFiles(engine.RuleFile{Name: "loud.yaml", Data: []byte(`rules:
  - id: acme.tools.loud
    level: may
    given: tools.#
    checks:
      - assert: "false"
        messageExpression: self.name.shout()
`)})
	if err != nil {
		log.Fatal(err)
	}
	doc, _, err := cat.Load("server.yaml", []byte(server), rs)
	if err != nil {
		log.Fatal(err)
	}
	diags, err := rs.Lint(context.Background(), doc, engine.LintOptions{
		Filter: func(r *engine.Rule) bool { return r.ID == "acme.tools.loud" },
	})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(diags[0].Message)
	// Output: DELETE_NOTE!
}
