package engine_test

import (
	"strings"
	"testing"
	"testing/fstest"

	"github.com/celint/celint/engine"
	"github.com/celint/celint/loader"
)

// schemaMessageRules is a rule file whose schema findings about members
// get their messages from a messageExpression: a member that the
// header's table names has a message of its own, any other keeps the
// template's.
const schemaMessageRules = `rules:
  - id: fmt.item
    level: must
    given: items.#
    schema:
      type: object
      properties:
        name: {type: string}
        size: {$param: sizeMember}
      additionalProperties: false
    schemaMessages:
      additionalProperties:
        message: "{member} is not an item member"
        messageExpression: 'params.notes[?key].orValue(message) + " (" + string(size(item)) + " members)"'
      "false":
        messageExpression: '"%s: %s, not in version %s".format([key, message, root.version])'
      type: "{message}!"
`

// TestSchemaMessageExpression: a schema keyword's messageExpression gives
// the message of each of its findings, in place of the template's
// (message, which it reads) and not beside it; it sees the finding's
// holder (item) and member (key), the rule's variables, root and params.
func TestSchemaMessageExpression(t *testing.T) {
	fsys := fstest.MapFS{
		"fmt/shared/item.yaml": {Data: []byte(schemaMessageRules)},
		"fmt/v1/ruleset.yaml": {Data: []byte(`name: fmt
tag: v1.0.0
accepts: {path: version, versions: ["1"]}
include: [../shared]
params:
  sizeMember: false
  notes: {colour: colour is an item member from version 2 on}
`)},
	}
	rs, err := engine.LoadRuleset(fsys, "fmt/v1", engine.Options{})
	if err != nil {
		t.Fatal(err)
	}
	doc, err := loader.Parse("d.json", []byte(`{"version": "1", "items": [{"name": 7, "colour": 1, "size": 2, "shape": 3}]}`), rs.LoadOptions)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{
		`1:29 error /items/0/name got number, want string!`,
		`1:40 error /items/0/colour colour is an item member from version 2 on (4 members)`,
		`1:53 error /items/0/size size: not allowed (the schema is false), not in version 1`,
		`1:64 error /items/0/shape shape is not an item member (4 members)`,
	}
	got := messages(mustLint(t, rs, doc, engine.LintOptions{}))
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("got\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// TestSchemaMessageExpressionErrors: a schema message that names neither
// a template nor an expression, or an unknown field, is a load error at
// its place; an expression that does not compile is one at the
// expression; one that yields no string is a rule error at the finding.
func TestSchemaMessageExpressionErrors(t *testing.T) {
	header := "name: fmt\ntag: v1.0.0\naccepts: {path: version, versions: [\"1\"]}\ninclude: [../shared]\nparams: {sizeMember: false, notes: {}}\n"
	apMessage := `      additionalProperties:
        message: "{member} is not an item member"
        messageExpression: 'params.notes[?key].orValue(message) + " (" + string(size(item)) + " members)"'
`
	for _, tc := range []struct{ replace, with, want string }{
		{apMessage, "      additionalProperties: {}\n", "a schema message takes a 'message' template, a 'messageExpression', or both"},
		{apMessage, "      additionalProperties: {text: x}\n", `unknown field "text"; expected one of: message, messageExpression`},
		{"format([key, message, root.version])", "format([key, nope])", "undeclared reference to 'nope'"},
	} {
		if !strings.Contains(schemaMessageRules, tc.replace) {
			t.Fatalf("the rules lack %q", tc.replace)
		}
		fsys := fstest.MapFS{
			"fmt/shared/item.yaml": {Data: []byte(strings.Replace(schemaMessageRules, tc.replace, tc.with, 1))},
			"fmt/v1/ruleset.yaml":  {Data: []byte(header)},
		}
		if _, err := engine.LoadRuleset(fsys, "fmt/v1", engine.Options{}); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%q: got %v, want %q", tc.with, err, tc.want)
		}
	}
	fsys := fstest.MapFS{
		"fmt/shared/item.yaml": {Data: []byte(strings.Replace(schemaMessageRules, `'"%s: %s, not in version %s".format([key, message, root.version])'`, "size(message)", 1))},
		"fmt/v1/ruleset.yaml":  {Data: []byte(header)},
	}
	rs, err := engine.LoadRuleset(fsys, "fmt/v1", engine.Options{})
	if err != nil {
		t.Fatal(err)
	}
	doc, err := loader.Parse("d.json", []byte(`{"version": "1", "items": [{"name": "a", "size": 2}]}`), rs.LoadOptions)
	if err != nil {
		t.Fatal(err)
	}
	ds := mustLint(t, rs, doc, engine.LintOptions{})
	if len(ds) != 1 || !ds[0].RuleError || !strings.Contains(ds[0].Message, "messageExpression must yield a string, got int") {
		t.Errorf("got %q", messages(ds))
	}
}
