package engine_test

import (
	"fmt"
	"slices"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/celint/celint/cel"
	"github.com/celint/celint/engine"
	"github.com/celint/celint/loader"
)

// lintWith loads a ruleset from a header and one rule file, lints doc, and
// returns "line:col severity pointer [rule/code] message" lines.
func lintWith(t *testing.T, header, rules, doc string) []string {
	t.Helper()
	return lintNamed(t, header, rules, "doc.yaml", doc)
}

// lintNamed is lintWith on a document of that name, which chooses its
// format.
func lintNamed(t *testing.T, header, rules, name, doc string) []string {
	t.Helper()
	rs, err := engine.LoadRuleset(rulesetFS(header, rules), "rs", engine.Options{})
	if err != nil {
		t.Fatal(err)
	}
	d, err := loader.Parse(name, []byte(doc), rs.LoadOptions)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, x := range mustLint(t, rs, d, engine.LintOptions{}) {
		label := x.RuleID
		if x.Code != "" {
			label += "/" + x.Code
		}
		line := fmt.Sprintf("%d:%d %s %s [%s] %s", x.Line, x.Column, x.Severity, x.Pointer, label, x.Message)
		if len(x.Aliases) > 0 {
			line += " aliases=" + strings.Join(x.Aliases, ",")
		}
		if x.RuleError {
			line += " RULE ERROR"
		}
		out = append(out, line)
	}
	return out
}

func sameLines(t *testing.T, got, want []string) {
	t.Helper()
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("got:\n  %s\nwant:\n  %s", strings.Join(got, "\n  "), strings.Join(want, "\n  "))
	}
}

const orderedHeader = `name: t
tag: v1
context:
  scope:
    member: versions
    values: [a, b, c, d]
    at: ["$", "items.#"]
  references:
    key: $ref
selections:
  items: items.#
  names: $items.name
`

func TestCodesLevelsAliases(t *testing.T) {
	rules := `rules:
  - id: t.pair
    level: must
    aliases: [ref-pair]
    given: $items
    checks:
      - assert: has(self.name)
        message: no name
      - code: short
        level: should
        aliases: [ref-short, ref-len]
        assume: {required: [name], properties: {name: {type: string}}}
        assert: size(self.name) > 2
        at: name
        message: "name {self.name} is short"
`
	got := lintWith(t, orderedHeader, rules, "items:\n  - {}\n  - {name: ab}\n  - {name: 12}\n")
	sameLines(t, got, []string{
		"2:5 error /items/0 [t.pair] no name aliases=ref-pair",
		"3:6 warning /items/1/name [t.pair/short] name \"ab\" is short aliases=ref-short,ref-len",
	})
}

func TestOrderedScopes(t *testing.T) {
	rules := `rules:
  - id: t.from
    level: must
    versions: {from: c}
    given: $items
    checks:
      - assert: "false"
        messageExpression: "'from c; scope ' + scope.join(',') + '; parent ' + parentScope.join(',')"
      - code: old
        versions: {until: a}
        assert: "false"
        message: old only
  - id: t.order
    level: may
    versions: independent
    given: $items
    checks:
      - assert: scope.all(v, scopeCompare(v, 'b') >= 0)
        message: "scope starts before b: {scope}"
`
	// The scope member counts at the root and on items; the "versions"
	// member inside "schema" is data, not a scope.
	doc := `versions: [a, b, c]
items:
  - {name: x}
  - {name: y, versions: [d]}
  - {name: z, schema: {versions: [d]}}
`
	got := lintWith(t, orderedHeader, rules, doc)
	sameLines(t, got, []string{
		`3:5 error /items/0 [t.from] from c; scope a,b,c; parent a,b,c`,
		`3:5 error /items/0 [t.from/old] old only`,
		`3:5 info /items/0 [t.order] scope starts before b: ["a","b","c"]`,
		`4:5 error /items/1 [t.from] from c; scope d; parent a,b,c`,
		`5:5 error /items/2 [t.from] from c; scope a,b,c; parent a,b,c`,
		`5:5 error /items/2 [t.from/old] old only`,
		`5:5 info /items/2 [t.order] scope starts before b: ["a","b","c"]`,
	})
	// Without a root scope, a node's scope is every declared value.
	got = lintWith(t, orderedHeader, rules, "items:\n  - {name: x}\n")
	sameLines(t, got, []string{
		`2:5 error /items/0 [t.from] from c; scope a,b,c,d; parent a,b,c,d`,
		`2:5 error /items/0 [t.from/old] old only`,
		`2:5 info /items/0 [t.order] scope starts before b: ["a","b","c","d"]`,
	})
}

func TestAssumeKeepsMalformedDocumentsQuiet(t *testing.T) {
	rules := `rules:
  - id: t.names
    level: must
    given: $items
    assume: {type: object, required: [tags], properties: {tags: {type: array, items: {type: string}}}}
    checks:
      - assert: self.tags.all(t, t.size() > 1)
        message: short tag
  - id: t.cel
    level: must
    given: $items
    assume: type(self) == map && has(self.count)
    checks:
      - assert: self.count + 1 > 1
        message: count
`
	doc := "items:\n  - {tags: [a, bb]}\n  - {tags: 12}\n  - [x]\n  - {tags: [1]}\n  - {count: 0}\n  - {count: x}\n"
	got := lintWith(t, orderedHeader, rules, doc)
	// Items 1, 2 and 3 lack the shape t.names needs; item 5 makes t.cel's
	// check fail at run time, which is a rule error: assume is a guard on
	// shape, not on every value.
	sameLines(t, got, []string{
		"2:5 error /items/0 [t.names] short tag",
		"6:5 error /items/4 [t.cel] count",
		"7:5 error /items/5 [t.cel] rs/rules.yaml:14:17: no such overload: string + int RULE ERROR",
	})
}

func TestNamedSelectionsAndKeys(t *testing.T) {
	rules := `rules:
  - id: t.keys
    level: may
    given: $names
    checks:
      - assert: "false"
        messageExpression: "'key ' + string(selfKey)"
  - id: t.members
    level: may
    given: items.0
    checks:
      - assert: "false"
        messageExpression: "selfKeys.join(',')"
      - code: at
        assert: "false"
        pointer: "'/' + selfKeys[1]"
        message: second member
  - id: t.parent
    level: may
    given: "items.#.#"
    assume: type(parent) == map
    checks:
      - assert: "false"
        messageExpression: "'member of a map with ' + string(size(parent)) + ' members'"
`
	got := lintWith(t, orderedHeader, rules, "items:\n  - {zeta: 1, name: n, alpha: 2}\n")
	sameLines(t, got, []string{
		"2:5 info /items/0 [t.members] zeta,name,alpha",
		"2:6 info /items/0/zeta [t.parent] member of a map with 3 members",
		"2:15 info /items/0/name [t.keys] key name",
		"2:15 info /items/0/name [t.members/at] second member",
		"2:15 info /items/0/name [t.parent] member of a map with 3 members",
		"2:24 info /items/0/alpha [t.parent] member of a map with 3 members",
	})
	_, err := engine.LoadRuleset(rulesetFS(orderedHeader, strings.Replace(rules, "$names", "$nope.x", 1)), "rs", engine.Options{})
	if err == nil || !strings.Contains(err.Error(), `rs/rules.yaml:4:12: no selection named "nope"; declared: items, names`) {
		t.Errorf("unknown selection: %v", err)
	}
}

func TestReferencesReportedOnce(t *testing.T) {
	rules := `rules:
  - id: t.refs
    level: must
    given: "**"
    assume: "resolveError != ''"
    checks:
      - assert: "false"
        messageExpression: resolveError
  - id: t.a
    level: must
    given: $items
    resolve: true
    checks:
      - assert: has(self.name)
        message: no name
  - id: t.b
    level: should
    given: $items
    resolve: true
    checks:
      - assert: "true"
`
	doc := `defs:
  ok: {name: fine}
items:
  - {$ref: "#/defs/missing"}
  - {$ref: "#/defs/ok"}
  - {$ref: "#/defs/loop"}
loopy: {$ref: "#/defs/loop"}
`
	doc = strings.Replace(doc, "  ok: {name: fine}\n", "  ok: {name: fine}\n  loop: {$ref: \"#/defs/loop\"}\n", 1)
	header := strings.Replace(orderedHeader, "    key: $ref\n", "    key: $ref\n    rule: t.refs\n", 1)
	got := lintWith(t, header, rules, doc)
	sameLines(t, got, []string{
		`3:3 error /defs/loop [t.refs] reference cycle: #/defs/loop -> #/defs/loop`,
		`5:5 error /items/0 [t.refs] reference "#/defs/missing" does not resolve`,
		`7:5 error /items/2 [t.refs] reference cycle: #/defs/loop -> #/defs/loop`,
		`8:1 error /loopy [t.refs] reference cycle: #/defs/loop -> #/defs/loop`,
	})
}

// TestReferencesInJSONText: however a JSON document spells its reference
// members (white space around the colon, a member name written with an
// escape), they are found and resolved; the JSON is then either the input
// itself or a rendering of the tree.
func TestReferencesInJSONText(t *testing.T) {
	rules := `rules:
  - id: t.refs
    level: must
    given: $items
    checks:
      - assert: "resolveError == ''"
        messageExpression: resolveError
  - id: t.a
    level: must
    given: $items
    resolve: true
    checks:
      - assert: has(self.name)
        message: no name
`
	header := strings.Replace(orderedHeader, "    key: $ref\n", "    key: $ref\n    rule: t.refs\n", 1)
	want := []string{
		`1:46 error /items/0 [t.refs] reference "#/defs/missing" does not resolve`,
		`1:74 error /items/1 [t.a] no name`,
	}
	for _, doc := range []string{
		`{"defs": {"ok": {"name": "fine"}}, "items": [{"$ref":"#/defs/missing"}, {"$ref":"#/defs/nameless"}, {"$ref":"#/defs/ok"}], "x": 1}`,
		`{"defs": {"ok": {"name": "fine"}}, "items": [{"$ref" :"#/defs/missing"}, {"$ref"  : "#/defs/nameless"},{"$ref"
:"#/defs/ok"}], "x": 1}`,
		`{"defs": {"ok": {"name": "fine"}}, "items": [{"\u0024ref":"#/defs/missing"},{"\u0024ref":"#/defs/nameless"}, {"$r\u0065f":"#/defs/ok"}]}`,
	} {
		doc = strings.Replace(doc, `"defs": {`, `"defs": {"nameless": {"id": 1}, `, 1)
		got := lintNamed(t, header, rules, "doc.json", doc)
		for i := range got {
			// Columns differ with the spelling: compare without them.
			got[i] = got[i][strings.Index(got[i], " "):]
		}
		exp := slices.Clone(want)
		for i := range exp {
			exp[i] = exp[i][strings.Index(exp[i], " "):]
		}
		if !slices.Equal(got, exp) {
			t.Errorf("%s:\n got %q\nwant %q", doc, got, exp)
		}
	}
}

// TestExtendsDisableLevels runs with the base ruleset compiled when it
// loads and compiled lazily: levels given to a rule that is not compiled
// yet apply once it is.
func TestExtendsDisableLevels(t *testing.T) {
	for _, lazy := range []bool{false, true} {
		t.Run(fmt.Sprintf("lazy=%v", lazy), func(t *testing.T) { testExtendsDisableLevels(t, lazy) })
	}
}

func testExtendsDisableLevels(t *testing.T, lazy bool) {
	base, err := engine.LoadRuleset(rulesetFS(orderedHeader, `rules:
  - id: t.refs
    level: must
    given: $items
    checks: [{assert: "resolveError == ''"}]
  - id: t.one
    level: must
    given: $items
    checks:
      - assert: "false"
        message: one
      - code: loud
        assert: "false"
        message: loud
      - code: own
        level: should
        assert: "false"
        message: own
  - id: t.two
    level: must
    given: $items
    checks: [{assert: "false", message: two}]
`), "rs", engine.Options{Lazy: lazy})
	if err != nil {
		t.Fatal(err)
	}
	house := fstest.MapFS{
		"h/ruleset.yaml": {Data: []byte("name: house\ntag: v0.1.0\nextends: t@v1\ndisable: [t.two]\nlevels: {t.one/loud: may}\nselections:\n  named: $items.name\n")},
		"h/house.yaml": {Data: []byte(`rules:
  - id: house.named
    level: should
    given: $named
    checks: [{assert: "self != 'x'", message: no x}]
`)},
	}
	bases := func(nameTag string) (*engine.Ruleset, error) {
		if nameTag == "t@v1" {
			return base, nil
		}
		return nil, fmt.Errorf("no ruleset %s", nameTag)
	}
	rs, err := engine.LoadRuleset(house, "h", engine.Options{Bases: bases})
	if err != nil {
		t.Fatal(err)
	}
	if rs.Extends != "t@v1" || rs.Rule("t.two") != nil || rs.Rule("t.one") == nil || rs.Rule("house.named") == nil {
		t.Fatalf("extended ruleset has the wrong rules: %v", rs.Rules)
	}
	d, err := loader.Parse("doc.yaml", []byte("items:\n  - {name: x}\n"), rs.LoadOptions)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, x := range mustLint(t, rs, d, engine.LintOptions{}) {
		got = append(got, fmt.Sprintf("%s/%s %s %s", x.RuleID, x.Code, x.Severity, x.Message))
	}
	sameLines(t, got, []string{"t.one/ error one", "t.one/loud info loud", "t.one/own warning own", "house.named/ warning no x"})
	if len(base.Rules) != 3 || base.Rule("t.one").Codes[1].Level != "must" {
		t.Error("extending changed the base ruleset")
	}

	// A levels entry for a rule also moves its codes that set no level of
	// their own, not those that do, nor a code given its own entry.
	for _, tc := range []struct{ levels, want string }{
		{"{t.one: may}", "t.one/ info one|t.one/loud info loud|t.one/own warning own"},
		{"{t.one: may, t.one/loud: must}", "t.one/ info one|t.one/loud error loud|t.one/own warning own"},
		{"{t.one/loud: must, t.one: may}", "t.one/ info one|t.one/loud error loud|t.one/own warning own"},
	} {
		fs := fstest.MapFS{
			"l/ruleset.yaml": {Data: []byte("name: lv\ntag: v0.1.0\nextends: t@v1\ndisable: [t.two, t.refs]\nlevels: " + tc.levels + "\n")},
			"l/r.yaml":       {Data: []byte("rules: []\n")},
		}
		lv, err := engine.LoadRuleset(fs, "l", engine.Options{Bases: bases})
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, x := range mustLint(t, lv, d, engine.LintOptions{}) {
			got = append(got, fmt.Sprintf("%s/%s %s %s", x.RuleID, x.Code, x.Severity, x.Message))
		}
		sameLines(t, got, strings.Split(tc.want, "|"))
	}
	bad := fstest.MapFS{"h/ruleset.yaml": {Data: []byte("name: house\ntag: v1\nextends: t@v1\ndisable: [t.nope]\n")}, "h/r.yaml": {Data: []byte("rules: []\n")}}
	if _, err := engine.LoadRuleset(bad, "h", engine.Options{Bases: bases}); err == nil || !strings.Contains(err.Error(), `h/ruleset.yaml:4:11: disable: t@v1 has no rule "t.nope"`) {
		t.Errorf("disabling an unknown rule: %v", err)
	}
}

func TestFolderFixtures(t *testing.T) {
	base, err := engine.LoadRuleset(rulesetFS(orderedHeader, "rules: []\n"), "rs", engine.Options{})
	if err != nil {
		t.Fatal(err)
	}
	folder := fstest.MapFS{
		"house.yaml": {Data: []byte(`rules:
  - id: house.x
    level: must
    given: $items
    checks: [{assert: "has(self.name)"}]
    examples:
      valid: [{source: ok.yaml, selected: /items/0}]
      invalid: [{source: bad.yaml, selected: /items/0}]
`)},
		"fixtures/ok.yaml":  {Data: []byte("items: [{name: a}]\n")},
		"fixtures/bad.yaml": {Data: []byte("items: [{}]\n")},
	}
	rs, err := base.WithFolder(engine.Folder{FS: folder, Dir: ".", Name: "my-rules"})
	if err != nil {
		t.Fatal(err)
	}
	r := rs.Rule("house.x")
	doc, err := rs.LoadExample(r, &r.Examples.Invalid[0], engine.ExampleOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if doc.Name != "my-rules/fixtures/bad.yaml" {
		t.Errorf("fixture named %q", doc.Name)
	}
}

// TestBadV2Parts: each part of the format checked when the rules load,
// with the file:line:col of the problem.
func TestBadV2Parts(t *testing.T) {
	base := "rules:\n  - id: t.x\n    level: must\n    given: $items\n    checks:\n      - assert: \"true\"\n"
	check := func(extra string) string { return strings.Replace(base, `      - assert: "true"`, extra, 1) }
	tests := []struct {
		name, header, rules, want string
	}{
		{"unknown scope value", orderedHeader, strings.Replace(base, "level: must", "level: must\n    versions: [a, z]", 1),
			`rs/rules.yaml:4:15: versions: "z" is not one of the ruleset's values (a, b, c, d)`},
		{"from after until", orderedHeader, strings.Replace(base, "level: must", "level: must\n    versions: {from: c, until: a}", 1),
			`rs/rules.yaml:4:15: versions: 'from' c comes after 'until' a`},
		{"from without ordered values", "name: t\ntag: v1\ncontext:\n  scope: {member: versions}\nselections: {items: items.#}\n",
			strings.Replace(base, "level: must", "level: must\n    versions: {from: a}", 1),
			`rs/rules.yaml:4:15: versions: 'from' and 'until' need the ruleset to list its scope values in order`},
		{"assume keyword not supported", orderedHeader, strings.Replace(base, "given: $items", "given: $items\n    assume: {type: object, pattern: x}", 1),
			`rs/rules.yaml:5:28: assume: keyword "pattern" is not supported in a precondition`},
		{"assume unknown type", orderedHeader, strings.Replace(base, "given: $items", "given: $items\n    assume: {type: thing}", 1),
			`rs/rules.yaml:5:20: assume: unknown type "thing"`},
		{"level without code", orderedHeader, check("      - level: should\n        assert: \"true\""),
			`rs/rules.yaml:6:9: a check with its own level or aliases needs a 'code'`},
		{"optIn without code", orderedHeader, check("      - optIn: true\n        assert: \"true\""),
			`rs/rules.yaml:6:9: a check with optIn needs a 'code'`},
		{"optIn not a boolean", orderedHeader, check("      - {code: a, optIn: maybe, assert: \"true\"}"),
			`rs/rules.yaml:6:`},
		{"duplicate code", orderedHeader, check("      - {code: a, assert: \"true\"}\n      - {code: a, assert: \"true\"}"),
			`rs/rules.yaml:7:16: code "a" is already used by the check at 6:9`},
		{"bad code", orderedHeader, check("      - {code: Big Code, assert: \"true\"}"),
			`rs/rules.yaml:6:16: code "Big Code" must be lower-case words`},
		{"at and pointer", orderedHeader, check("      - {assert: \"true\", at: a, pointer: \"'/a'\"}"),
			`rs/rules.yaml:6:30: a check takes 'at' (a template) or 'pointer' (a CEL expression), not both`},
		{"library 1 lacks version 2 functions", strings.Replace(orderedHeader, "tag: v1\n", "tag: v1\nlibrary: 1\n", 1), check("      - assert: asList(self).size() > 0"),
			`rs/rules.yaml:6:23: undeclared reference to 'asList'`},
		{"library newer than celint", strings.Replace(orderedHeader, "tag: v1\n", "tag: v1\nlibrary: 99\n", 1), base,
			`rs/ruleset.yaml:3:10: library 99 is newer than this celint knows`},
		{"schema fragment that does not compile", orderedHeader, strings.Replace(base, "    checks:\n      - assert: \"true\"\n", "    schema:\n      properties:\n        a: {$ref: \"#/$defs/gone\"}\n", 1),
			`rs/rules.yaml:7:19: schema: $ref "#/$defs/gone" points to nothing in the schema`},
		{"schema fragment that refers only to itself", orderedHeader, strings.Replace(base, "    checks:\n      - assert: \"true\"\n", "    schema:\n      $ref: '#/$defs/a'\n      $defs:\n        a: {$ref: '#/$defs/a'}\n", 1),
			`rs/rules.yaml:8:19: schema: reference cycle that never descends into the value (/$defs/a → /$defs/a): validation would never end`},
		{"unknown reference rule", strings.Replace(orderedHeader, "    key: $ref\n", "    key: $ref\n    rule: t.nope\n", 1), base,
			`rs/ruleset.yaml:10:11: context.references.rule: no rule "t.nope" in the ruleset`},
		{"identity without member", strings.Replace(orderedHeader, "    key: $ref\n", "    key: $ref\n  identity:\n    - at: [$items]\n", 1), base,
			`rs/ruleset.yaml:11:7: a context.identity item needs 'member', the name of the member that identifies an item`},
		{"identity at an unknown selection", strings.Replace(orderedHeader, "    key: $ref\n", "    key: $ref\n  identity:\n    - {at: [$things], member: name}\n", 1), base,
			`rs/ruleset.yaml:11:13: no selection named "things"`},
		{"identity that is not a list", strings.Replace(orderedHeader, "    key: $ref\n", "    key: $ref\n  identity: {at: [$items], member: name}\n", 1), base,
			`rs/ruleset.yaml:10:13: expected a list of {at, member}`},
		{"constant schema that does not compile", orderedHeader, check("      - assert: \"matchesSchema(self, {'type': 'strin'})\""),
			`rs/rules.yaml:6:38: JSON Schema does not compile: at /type: "type" must be one of`},
		{"constant schema options that do not parse", orderedHeader, check("      - assert: \"matchesSchema(self, {}, {'dialect': '7'})\""),
			`rs/rules.yaml:6:42: schema option dialect: got "7"`},
		{"constant schema beyond the schema bounds", orderedHeader, check("      - assert: \"schemaErrors(self, " + expandingSchema(21) + ").size() == 0\""),
			fmt.Sprintf("rs/rules.yaml:6:37: JSON Schema does not compile: the schema expands to more than %d subschemas", cel.MaxSchemaExpansion)},
		{"extends without bases", "name: h\ntag: v1\nextends: t@v1\n", base,
			`rs/ruleset.yaml:3:10: extends t@v1: no rulesets to extend are available here`},
		{"disable without extends", "name: h\ntag: v1\ndisable: [a.b]\n", base,
			`rs/ruleset.yaml:3:1: 'disable' and 'levels' change inherited or included rules: they need 'extends' or 'include'`},
		{"selection that is not a path", strings.Replace(orderedHeader, "  names: $items.name\n", "  names: $items.@reverse\n", 1), base,
			`rs/ruleset.yaml:12:10: selection names: selection path "items.#.@reverse": modifiers`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := engine.LoadRuleset(rulesetFS(tt.header, tt.rules), "rs", engine.Options{})
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("got error:\n%v\nwant it to contain %q", err, tt.want)
			}
		})
	}
}

// expandingSchema is a schema, in CEL, whose $defs refer twice to the
// next level, levels deep: it expands to 2^levels subschemas.
func expandingSchema(levels int) string {
	var defs []string
	for i := 0; i < levels; i++ {
		defs = append(defs, fmt.Sprintf("'d%d': {'allOf': [{'$ref': '#/$defs/d%d'}, {'$ref': '#/$defs/d%d'}]}", i, i+1, i+1))
	}
	defs = append(defs, fmt.Sprintf("'d%d': {'type': 'string'}", levels))
	return "{'$defs': {" + strings.Join(defs, ", ") + "}, '$ref': '#/$defs/d0'}"
}

// TestNonConstantSchemaLoads: a schema that does not compile, passed to a
// schema function through dyn() or read from the document, is not a load
// error: the rule loads, and the call says false when it runs, a finding
// at each node rather than a rule error.
func TestNonConstantSchemaLoads(t *testing.T) {
	for _, assert := range []string{
		"matchesSchema(self, dyn({'type': 'strin'}))",
		"matchesSchema(self, root.schema)",
	} {
		rules := "rules:\n  - id: t.s\n    level: must\n    given: $items\n    checks:\n      - assert: \"" + assert + "\"\n"
		rs, err := engine.LoadRuleset(rulesetFS(orderedHeader, rules), "rs", engine.Options{})
		if err != nil {
			t.Fatalf("%s: %v", assert, err)
		}
		d, err := loader.Parse("doc.yaml", []byte("schema: {type: strin}\nitems: [a, b]\n"), rs.LoadOptions)
		if err != nil {
			t.Fatal(err)
		}
		ds := mustLint(t, rs, d, engine.LintOptions{})
		if len(ds) != 2 || ds[0].RuleError || ds[1].RuleError {
			t.Errorf("%s: got %v, want a finding at each of the two items", assert, ds)
		}
	}
}

// TestOverlappingPaths: a node that several of a rule's paths select is
// linted once; paths that do not overlap keep all their nodes.
func TestOverlappingPaths(t *testing.T) {
	doc := `names: [x, y]
items:
  - {name: a}
  - {name: b}
`
	for given, want := range map[string]int{
		`[items.1, names.#, items.#, $items, "**.name"]`: 6,
		`[names.0, names.1, items.0]`:                    3,
		`[items.#, items.#.name, items.1]`:               4,
	} {
		rules := "rules:\n  - id: t.each\n    level: may\n    given: " + given + "\n    checks: [{assert: \"true\"}]\n"
		rs, err := engine.LoadRuleset(rulesetFS(orderedHeader, rules), "rs", engine.Options{})
		if err != nil {
			t.Fatal(err)
		}
		d, err := loader.Parse("doc.yaml", []byte(doc), rs.LoadOptions)
		if err != nil {
			t.Fatal(err)
		}
		nodes := -1
		mustLint(t, rs, d, engine.LintOptions{Stats: func(s engine.RuleStats) { nodes = s.Nodes }})
		if nodes != want {
			t.Errorf("given %s: %d nodes, want %d", given, nodes, want)
		}
	}
}

// TestSharedDocumentVariables: rules whose document variables have the
// same expression, reading only root, compute it once per document, yet
// each is charged its cost as if alone; a variable that reads one of its
// rule's own is never shared.
func TestSharedDocumentVariables(t *testing.T) {
	rules := `rules:
  - id: t.a
    level: may
    given: $items
    documentVariables: {names: "root.items.map(i, i.name)"}
    checks: [{assert: "false", messageExpression: "'a ' + names[1]"}]
  - id: t.b
    level: may
    given: $items
    documentVariables: {names: "root.items.map(i, i.name)"}
    checks: [{assert: "false", messageExpression: "'b ' + names[0]"}]
  - id: t.x
    level: may
    given: $items
    documentVariables: {k: "'x'", names: "[k]"}
    checks: [{assert: "false", messageExpression: "'x ' + names[0]"}]
  - id: t.y
    level: may
    given: $items
    documentVariables: {k: "'y'", names: "[k]"}
    checks: [{assert: "false", messageExpression: "'y ' + names[0]"}]
`
	doc := "items:\n  - {name: p}\n  - {name: q}\n"
	rs, err := engine.LoadRuleset(rulesetFS(orderedHeader, rules), "rs", engine.Options{})
	if err != nil {
		t.Fatal(err)
	}
	d, err := loader.Parse("doc.yaml", []byte(doc), rs.LoadOptions)
	if err != nil {
		t.Fatal(err)
	}
	lint := func(only string, workers int) (msgs []string, costs map[string]uint64) {
		costs = map[string]uint64{}
		opts := engine.LintOptions{Workers: workers, Stats: func(s engine.RuleStats) { costs[s.Rule.ID] = s.Cost }}
		if only != "" {
			opts.Filter = func(r *engine.Rule) bool { return r.ID == only }
		}
		for _, x := range mustLint(t, rs, d, opts) {
			msgs = append(msgs, x.Message)
		}
		slices.Sort(msgs)
		return msgs, costs
	}
	for _, workers := range []int{1, 2} {
		msgs, costs := lint("", workers)
		want := []string{"a q", "a q", "b p", "b p", "x x", "x x", "y y", "y y"}
		if !slices.Equal(msgs, want) {
			t.Errorf("workers=%d: %q, want %q", workers, msgs, want)
		}
		for _, id := range []string{"t.a", "t.b", "t.x", "t.y"} {
			_, alone := lint(id, 1)
			if costs[id] != alone[id] || costs[id] == 0 {
				t.Errorf("workers=%d: %s charged %d with the others, %d alone", workers, id, costs[id], alone[id])
			}
		}
	}
}
