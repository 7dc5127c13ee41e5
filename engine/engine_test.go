package engine_test

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"
	"testing/fstest"
	"time"
	"weak"

	"github.com/celint/celint/engine"
	"github.com/celint/celint/loader"
)

func loadTiny(t *testing.T) *engine.Catalog {
	t.Helper()
	fsys := os.DirFS("testdata/rulesets")
	var all []*engine.Ruleset
	for _, dir := range []string{"tiny/v1.0.0", "tiny/v2.0.0"} {
		rs, err := engine.LoadRuleset(fsys, dir, engine.Options{})
		if err != nil {
			t.Fatal(err)
		}
		all = append(all, rs)
	}
	cat, err := engine.NewCatalog(all...)
	if err != nil {
		t.Fatal(err)
	}
	return cat
}

func writeDoc(t *testing.T, text string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "doc.yaml")
	if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

func messages(ds []engine.Diagnostic) []string {
	var out []string
	for _, d := range ds {
		out = append(out, fmt.Sprintf("%d:%d %s %s %s", d.Line, d.Column, d.Severity, d.Pointer, d.Message))
	}
	return out
}

// TestPinnedRulesetsCoexist shows two tags of one ruleset side by side: the
// document's declared version picks the newest that accepts it, --spec pins
// one, and the two give different results on the same document.
func TestPinnedRulesetsCoexist(t *testing.T) {
	cat := loadTiny(t)
	p := writeDoc(t, "format: \"2\"\nitems:\n  - name: abcd\n")

	doc, rs, err := cat.LoadFile(p, nil)
	if err != nil {
		t.Fatal(err)
	}
	if rs.Tag != "v2.0.0" {
		t.Fatalf("auto-selected %s, want v2.0.0 (the newest that accepts format 2)", rs)
	}
	got := messages(mustLint(t, rs, doc, engine.LintOptions{}))
	want := []string{`3:5 warning /items/0/name name "abcd" is longer than 3`}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("v2 got %q, want %q", got, want)
	}

	v1, err := cat.Find("v1.0.0")
	if err != nil {
		t.Fatal(err)
	}
	doc, _, err = cat.LoadFile(p, v1)
	if err != nil {
		t.Fatal(err)
	}
	if got := mustLint(t, v1, doc, engine.LintOptions{}); len(got) != 0 {
		t.Errorf("v1 got %q, want nothing", messages(got))
	}

	// format 1 is accepted only by v1.
	p1 := writeDoc(t, "format: \"1\"\nitems:\n  - name: abcdefg\n")
	doc, rs, err = cat.LoadFile(p1, nil)
	if err != nil {
		t.Fatal(err)
	}
	if rs.Tag != "v1.0.0" {
		t.Fatalf("auto-selected %s, want v1.0.0", rs)
	}
	if got := mustLint(t, rs, doc, engine.LintOptions{}); len(got) != 1 || got[0].Severity != engine.Error {
		t.Errorf("v1 on format 1 got %q, want one error", messages(got))
	}

	// A version nobody accepts is an input error naming the versions.
	p3 := writeDoc(t, "format: \"3\"\n")
	if _, _, err := cat.LoadFile(p3, nil); err == nil || !strings.Contains(err.Error(), `format "3" is not a version celint has rules for; it knows 1 (tiny@v1.0.0), 2 (tiny@v2.0.0, tiny@v1.0.0)`) || !errors.Is(err, engine.ErrNoRuleset) {
		t.Errorf("format 3: got %v, want an error wrapping ErrNoRuleset", err)
	}
	if _, err := cat.Find("v9"); err == nil {
		t.Error("Find(v9) succeeded")
	}
}

func TestCompareTags(t *testing.T) {
	order := []string{"v0.8.0", "v0.9.0-rc.1", "v0.9.0-rc.2", "v0.9.0-rc.10", "v0.9.0", "v0.10.0", "v1.0.0"}
	for i := 0; i+1 < len(order); i++ {
		if engine.CompareTags(order[i], order[i+1]) >= 0 || engine.CompareTags(order[i+1], order[i]) <= 0 {
			t.Errorf("%s should sort before %s", order[i], order[i+1])
		}
	}
}

// mustLint lints doc with rs, failing the test if Lint returns an error.
func mustLint(t testing.TB, rs *engine.Ruleset, doc *loader.Document, opts engine.LintOptions) []engine.Diagnostic {
	t.Helper()
	ds, err := rs.Lint(context.Background(), doc, opts)
	if err != nil {
		t.Fatal(err)
	}
	return ds
}

// rulesetFS builds a one-file ruleset around the given rule file text.
func rulesetFS(header, rules string) fstest.MapFS {
	if header == "" {
		header = "name: t\ntag: v1\ncontext:\n  scope: {member: versions}\n  references: {key: $ref}\n"
	}
	return fstest.MapFS{
		"rs/ruleset.yaml": {Data: []byte(header)},
		"rs/rules.yaml":   {Data: []byte(rules)},
	}
}

func lintText(t *testing.T, rules, doc string) []string {
	t.Helper()
	rs, err := engine.LoadRuleset(rulesetFS("", rules), "rs", engine.Options{})
	if err != nil {
		t.Fatal(err)
	}
	d, err := loader.Parse("doc.yaml", []byte(doc), rs.LoadOptions)
	if err != nil {
		t.Fatal(err)
	}
	return messages(mustLint(t, rs, d, engine.LintOptions{}))
}

func TestEvaluation(t *testing.T) {
	tests := []struct {
		name, rules, doc string
		want             []string
	}{
		{
			name: "inherited scope, and a rule limited to scope values under the scope's own key",
			rules: `rules:
  - id: t.scope
    level: should
    versions: ["b"]
    given: items.#
    checks:
      - assert: "false"
        messageExpression: "'scope ' + scope.join(',')"
`,
			doc:  "versions: [a, b]\nitems:\n  - {name: x}\n  - {name: y, versions: [a]}\n  - {name: z, versions: [b]}\n",
			want: []string{"3:5 warning /items/0 scope a,b", "5:5 warning /items/2 scope b"},
		},
		{
			name: "a scope inherited through nested values and lists, the nearest declaring holder's",
			rules: `rules:
  - id: t.deep
    level: should
    given: items.#.meta.tags.#
    checks:
      - assert: "false"
        messageExpression: "self + ' ' + scope.join(',') + ' ' + parentScope.join(',')"
`,
			doc:  "versions: [a, b]\nitems:\n  - meta: {tags: [p]}\n  - versions: [c]\n    meta: {tags: [q], versions: [d]}\n  - versions: [e]\n    meta: {tags: [r]}\n",
			want: []string{"3:19 warning /items/0/meta/tags/0 p a,b a,b", "5:19 warning /items/1/meta/tags/0 q d d", "7:19 warning /items/2/meta/tags/0 r e e"},
		},
		{
			name: "document variables, each over a list and a map, messages",
			rules: `rules:
  - id: t.refs
    level: must
    documentVariables:
      declared: root.defs.map(d, d.name)
    given: uses
    checks:
      - each: self
        assert: item in declared
        at: "{index}"
        message: "{item} is not declared (index {index}-{'}' == '}' ? 0 : 1}-{ {'a': 7}['a'] })"
  - id: t.map
    level: may
    given: props
    checks:
      - each: self
        when: type(item) == int
        forbid: item > 1
        at: "{key}"
        message: "{key} is {item}"
`,
			doc:  "defs: [{name: a}, {name: b}]\nuses: [a, c, b, d]\nprops: {\"x/y\": 2, z: 1, w: nope}\n",
			want: []string{`2:11 error /uses/1 "c" is not declared (index 1-0-7)`, `2:17 error /uses/3 "d" is not declared (index 3-0-7)`, `3:9 info /props/x~1y "x/y" is 2`},
		},
		{
			name: "list of violations with their own locations",
			rules: `rules:
  - id: t.list
    level: must
    given: obj
    checks:
      - assert: "lists.range(size(self.keys)).filter(i, self.keys[i].startsWith('_')).map(i, {'at': 'keys/' + string(i), 'message': 'private ' + self.keys[i]})"
`,
			doc:  "obj:\n  keys: [a, _b, c, _d]\n",
			want: []string{"2:13 error /obj/keys/1 private _b", "2:20 error /obj/keys/3 private _d"},
		},
		{
			name: "references are resolved before checking",
			rules: `rules:
  - id: t.resolve
    level: must
    given: forms.#
    resolve: true
    checks:
      - assert: has(self.fields)
        message: no fields
`,
			doc:  "defs: {f: {fields: [1]}, g: {other: 1}, loop: {$ref: '#/defs/loop'}}\nforms:\n  - {$ref: '#/defs/f'}\n  - {$ref: '#/defs/g'}\n  - {$ref: '#/defs/missing'}\n  - {$ref: '#/defs/loop'}\n",
			want: []string{"4:5 error /forms/1 no fields", "5:5 error /forms/2 cannot resolve references", "6:5 error /forms/3 cannot resolve references"},
		},
		{
			name: "findings inside referenced values land where the value is written, once",
			rules: `rules:
  - id: t.follow
    level: must
    given: forms.#
    resolve: true
    checks:
      - each: self.fields
        assert: item != 'bad'
        at: "fields/{index}"
        message: bad field
`,
			doc:  "defs:\n  f: {fields: [ok, bad]}\n  g: {$ref: '#/defs/f'}\nforms:\n  - {$ref: '#/defs/f'}\n  - {$ref: '#/defs/g'}\n  - {fields: [bad]}\n",
			want: []string{"2:20 error /defs/f/fields/1 bad field", "7:15 error /forms/2/fields/0 bad field"},
		},
		{
			name: "json schema errors land at their instance location",
			rules: `rules:
  - id: t.schema
    level: must
    given: items.#
    schema:
      type: object
      required: [name]
      properties:
        name: {type: string, minLength: 2}
      additionalProperties: false
`,
			doc: "items:\n  - {name: ok}\n  - {name: x}\n  - {nom: y}\n",
			// A missing member is reported at the object's position with
			// the member's pointer; an unknown one at itself.
			want: []string{"3:6 error /items/1/name", "4:5 error /items/2/name missing", "4:6 error /items/2/nom unknown member \"nom\""},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := lintText(t, tt.rules, tt.doc)
			if len(got) != len(tt.want) {
				t.Fatalf("got %d diagnostics %q, want %q", len(got), got, tt.want)
			}
			for i := range got {
				if !strings.HasPrefix(got[i], tt.want[i]) {
					t.Errorf("diagnostic %d: got %q, want prefix %q", i, got[i], tt.want[i])
				}
			}
		})
	}
}

// TestReferenceTargets checks that a reference whose target is not one its
// place takes (context.references.targets) does not resolve: the rule that
// reports unresolvable references sees why, and a rule that resolves skips
// the node rather than checking the wrong kind of value, while a reference
// to a target its place takes, or one at a place no targets item limits,
// resolves as before.
func TestReferenceTargets(t *testing.T) {
	header := `name: t
tag: v1
context:
  references:
    key: $ref
    rule: t.unresolved
    targets:
      - at: [forms.#]
        to: [defs.forms.*]
`
	rules := `rules:
  - id: t.unresolved
    level: must
    given: [forms.#, loose.#]
    assume: resolveError != ""
    checks:
      - assert: "false"
        messageExpression: resolveError
  - id: t.form
    level: must
    given: [forms.#, loose.#]
    resolve: true
    checks:
      - assert: has(self.fields)
        message: no fields
`
	rs, err := engine.LoadRuleset(rulesetFS(header, rules), "rs", engine.Options{})
	if err != nil {
		t.Fatal(err)
	}
	doc := "defs:\n  forms: {f: {fields: [1]}}\n  other: {o: {kind: other}}\nforms:\n  - {$ref: '#/defs/forms/f'}\n  - {$ref: '#/defs/other/o'}\nloose:\n  - {$ref: '#/defs/other/o'}\n"
	d, err := loader.Parse("doc.yaml", []byte(doc), rs.LoadOptions)
	if err != nil {
		t.Fatal(err)
	}
	got := messages(mustLint(t, rs, d, engine.LintOptions{}))
	want := []string{
		`6:5 error /forms/1 reference "#/defs/other/o" names a value its place does not take`,
		"8:5 error /loose/0 no fields",
	}
	if len(got) != len(want) {
		t.Fatalf("got %d diagnostics %q, want %q", len(got), got, want)
	}
	for i := range got {
		if !strings.HasPrefix(got[i], want[i]) {
			t.Errorf("diagnostic %d: got %q, want prefix %q", i, got[i], want[i])
		}
	}
}

// TestRuleErrorsAreContained checks that a failing rule becomes a rule
// error and the other rules still run; and that the cost budget stops a
// runaway rule.
func TestRuleErrorsAreContained(t *testing.T) {
	rules := `rules:
  - id: t.broken
    level: must
    given: items.#
    checks:
      - assert: self.nosuchmember == 1
  - id: t.expensive
    level: must
    given: items
    checks:
      - assert: "self.all(a, self.all(b, self.all(c, self.all(d, a + b + c + d >= 0))))"
  - id: t.fine
    level: must
    given: items.#
    checks:
      - assert: self < 2
        message: too big
`
	rs, err := engine.LoadRuleset(rulesetFS("", rules), "rs", engine.Options{})
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	b.WriteString("items: [")
	for i := 0; i < 60; i++ {
		if i > 0 {
			b.WriteString(", ")
		}
		fmt.Fprint(&b, i)
	}
	b.WriteString("]\n")
	d, err := loader.Parse("doc.yaml", []byte(b.String()), rs.LoadOptions)
	if err != nil {
		t.Fatal(err)
	}
	// The time limit is not what this test is about: under the race
	// detector on a busy machine the runaway rule may take longer than it.
	got := mustLint(t, rs, d, engine.LintOptions{Budget: 5_000_000, RuleTimeout: time.Hour})
	var broken, expensive, fine int
	for _, d := range got {
		switch d.RuleID {
		case "t.broken":
			if !d.RuleError {
				t.Errorf("t.broken: %v is not a rule error", d)
			}
			broken++
		case "t.expensive":
			if !d.RuleError || !(strings.Contains(d.Message, "cost") || strings.Contains(d.Message, "budget")) {
				t.Errorf("t.expensive: %v", d)
			}
			expensive++
		case "t.fine":
			fine++
		}
	}
	if broken == 0 || broken > 11 || expensive != 1 || fine != 58 {
		t.Errorf("broken=%d expensive=%d fine=%d; diagnostics: %q", broken, expensive, fine, messages(got))
	}
}

func TestBadRuleFiles(t *testing.T) {
	base := "rules:\n  - id: t.x\n    level: must\n    given: a\n    checks:\n      - assert: \"true\"\n"
	tests := []struct {
		name, rules, want string
	}{
		{"unknown field", base + "    colour: red\n", "rs/rules.yaml:7:5: unknown field \"colour\""},
		{"missing id", strings.Replace(base, "id: t.x", "title: x", 1), "rs/rules.yaml:2:5: a rule needs an 'id'"},
		{"bad level", strings.Replace(base, "level: must", "level: mustn't", 1), "rs/rules.yaml:3:12: level \"mustn't\""},
		{"bad gjson path", strings.Replace(base, "given: a", "given: a.@reverse", 1), "rs/rules.yaml:4:12: selection path"},
		{"cel does not compile", strings.Replace(base, `assert: "true"`, `assert: "self.x +"`, 1), "rs/rules.yaml:6:"},
		{"cel type error", strings.Replace(base, `assert: "true"`, `assert: "1 + 'a'"`, 1), "rs/rules.yaml:6:"},
		{"missing fixture", base + "    examples:\n      valid:\n        - source: nope.json\n", "rs/rules.yaml:9:19: example source \"nope.json\""},
		{"duplicate id", base + strings.TrimPrefix(base, "rules:\n"), "duplicate rule id \"t.x\""},
		{"not yaml", "rules: [\n", "rs/rules.yaml:"},
		{"bad template", strings.Replace(base, `assert: "true"`, "assert: \"true\"\n        message: \"oops {self.\"", 1), "rs/rules.yaml:7:"},
		{"scope values without a declared scope", strings.Replace(base, "level: must", "level: must\n    versions: [a]", 1), "rs/rules.yaml:4:5: unknown field \"versions\""},
		{"resolve without references", base + "    resolve: true\n", "rs/rules.yaml:2:5: resolve: true needs the ruleset to declare context.references"},
		{"constant regex that does not compile", strings.Replace(base, `assert: "true"`, `assert: "self.matches('[a-z')"`, 1), "rs/rules.yaml:6:31: regular expression \"[a-z\" does not compile: missing closing ]"},
		{"constant regex in regex.replace", strings.Replace(base, `assert: "true"`, `assert: "regex.replace(self, '(', '') == ''"`, 1), "rs/rules.yaml:6:38: regular expression \"(\" does not compile: missing closing )"},
		{"template placeholder that names nothing", strings.Replace(base, `assert: "true"`, "assert: \"true\"\n        message: \"bad {nope}\"", 1), "rs/rules.yaml:7:24: undeclared reference to 'nope'"},
		{"assert and forbid", strings.Replace(base, `assert: "true"`, "assert: \"true\"\n        forbid: \"true\"", 1), "exactly one of 'assert' or 'forbid'"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := engine.LoadRuleset(rulesetFS("name: t\ntag: v1\nfixtures: fx\n", tt.rules), "rs", engine.Options{})
			if err == nil {
				t.Fatalf("loaded; want an error containing %q", tt.want)
			}
			if !strings.Contains(err.Error(), tt.want) {
				t.Errorf("got error:\n%v\nwant it to contain %q", err, tt.want)
			}
		})
	}
}

// TestCompileErrorPositions checks that CEL compile errors point at the
// exact line and column inside the rule file, for plain, quoted and block
// scalars.
func TestCompileErrorPositions(t *testing.T) {
	head := "rules:\n  - id: t.x\n    level: must\n    given: a\n    checks:\n"
	tests := []struct {
		name, check, want string
	}{
		{"plain", "      - assert: self.a + nope\n", "rs/rules.yaml:6:26:"},
		{"double quoted", "      - assert: \"self.a + nope\"\n", "rs/rules.yaml:6:27:"},
		{"block", "      - assert: >-\n          self.a &&\n          nope\n", "rs/rules.yaml:8:11:"},
		{"message template", "      - assert: \"true\"\n        message: \"value {nope} here\"\n", "rs/rules.yaml:7:26:"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := engine.LoadRuleset(rulesetFS("", head+tt.check), "rs", engine.Options{})
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("got %v, want it to contain %q", err, tt.want)
			}
		})
	}
}

// TestLazyCompile: a ruleset loaded with Options.Lazy compiles a rule on
// the first document that selects something for it. A rule with a
// mistake then loads; it fails, as a rule error at its file:line:col, on
// a document it applies to, and not on one it does not. The diagnostics
// of a good rule are those of the same rule compiled when it loads.
func TestLazyCompile(t *testing.T) {
	rules := `rules:
  - id: t.good
    level: must
    given: items.#
    variables:
      n: self.?name.orValue("")
    checks:
      - {assert: "n != 'x'", message: "no x"}
      - {code: short, level: should, each: "[n]", assert: "size(item) > 1", message: "too short"}
  - id: t.bad
    level: must
    given: other
    checks: [{assert: "self.nope(", message: broken}]
`
	if _, err := engine.LoadRuleset(rulesetFS("", rules), "rs", engine.Options{}); err == nil || !strings.Contains(err.Error(), "rs/rules.yaml:13:") {
		t.Fatalf("eager load of a broken rule: %v, want an error at rs/rules.yaml:13", err)
	}
	lazy, err := engine.LoadRuleset(rulesetFS("", rules), "rs", engine.Options{Lazy: true})
	if err != nil {
		t.Fatalf("lazy load: %v", err)
	}
	if codes := lazy.Rule("t.good").Codes; len(codes) != 2 || codes[1].Name != "short" || codes[1].Severity != engine.Warning {
		t.Errorf("lazy rule's codes before compiling: %+v", codes)
	}
	good := rules[:strings.Index(rules, "  - id: t.bad")]
	eager, err := engine.LoadRuleset(rulesetFS("", good), "rs", engine.Options{})
	if err != nil {
		t.Fatal(err)
	}
	items := "items: [{name: x}, {name: yy}]\n"
	doc := parseYAML(t, items)
	want := lintStrings(mustLint(t, eager, doc, engine.LintOptions{}))
	if len(want) != 2 {
		t.Fatalf("eager diagnostics: %v, want two", want)
	}
	for _, workers := range []int{1, 4} { // the second run finds the rules compiled
		sameLines(t, lintStrings(mustLint(t, lazy, parseYAML(t, items), engine.LintOptions{Workers: workers})), want)
	}
	ds := mustLint(t, lazy, parseYAML(t, items+"other: 1\n"), engine.LintOptions{})
	var ruleErrs []string
	for _, d := range ds {
		if d.RuleError {
			ruleErrs = append(ruleErrs, d.Message)
		}
	}
	if len(ruleErrs) != 1 || !strings.Contains(ruleErrs[0], "rs/rules.yaml:13:") || len(ds) != 3 {
		t.Errorf("lazy broken rule on a document it applies to: %v (all: %v)", ruleErrs, lintStrings(ds))
	}
}

func parseYAML(t *testing.T, src string) *loader.Document {
	t.Helper()
	d, err := loader.Parse("doc.yaml", []byte(src), loader.DefaultOptions())
	if err != nil {
		t.Fatal(err)
	}
	return d
}

func lintStrings(ds []engine.Diagnostic) []string {
	var out []string
	for _, d := range ds {
		out = append(out, fmt.Sprintf("%s %s %s/%s %s", d.Pointer, d.Severity, d.RuleID, d.Code, d.Message))
	}
	return out
}

// TestPerScopeVariables: a rule variable that reads only scope (and root)
// is evaluated once per distinct scope in a rule's run, and still has each
// scope's own value; one that also reads self is evaluated at every node.
// Both give the same findings, and the first costs less.
func TestPerScopeVariables(t *testing.T) {
	rule := func(id, expr string) string {
		return `  - id: ` + id + `
    level: must
    given: items.#
    variables:
      tags: '` + expr + `'
    checks:
      - assert: 'self.name in tags'
        message: "{self.name} is not among {tags}"
`
	}
	rules := "rules:\n" + rule("t.scope", `scope.map(v, v + "-x")`) + rule("t.node", `scope.map(v, v + "-x") + (self == null ? ["never"] : [])`)
	rs, err := engine.LoadRuleset(rulesetFS("", rules), "rs", engine.Options{})
	if err != nil {
		t.Fatal(err)
	}
	var doc strings.Builder
	doc.WriteString("versions: [a, b]\nitems:\n")
	for i := range 50 {
		fmt.Fprintf(&doc, "  - {name: a-x, n: %d}\n", i)
	}
	doc.WriteString("  - {name: a-x, versions: [c]}\n  - {name: c-x, versions: [c]}\n")
	d := parseYAML(t, doc.String())
	cost := map[string]uint64{}
	ds := mustLint(t, rs, d, engine.LintOptions{Stats: func(st engine.RuleStats) { cost[st.Rule.ID] = st.Cost }})
	byRule := map[string][]string{}
	for _, x := range ds {
		byRule[x.RuleID] = append(byRule[x.RuleID], x.Pointer+" "+x.Message)
	}
	want := []string{`/items/50 "a-x" is not among ["c-x"]`}
	if !slices.Equal(byRule["t.scope"], want) || !slices.Equal(byRule["t.node"], want) {
		t.Errorf("findings: %v and %v, want %v for both", byRule["t.scope"], byRule["t.node"], want)
	}
	if cost["t.scope"] == 0 || cost["t.scope"]*2 > cost["t.node"] {
		t.Errorf("cost %d per scope, %d per node: the per-scope variable was not shared", cost["t.scope"], cost["t.node"])
	}
}

// The library's caches keep a document's schemas by their nodes, read in
// place; once the document is linted they forget it, so that a long-lived
// ruleset does not keep the documents it linted alive. The schemas are
// still found, and still give their findings, while the lint runs.
func TestLintKeepsNoDocument(t *testing.T) {
	rules := `rules:
  - id: t.schema
    level: must
    given: items.#
    checks:
      - assert: 'schemaError(self.schema) == ""'
        message: "bad schema"
      - assert: 'schemaErrors(self.value, self.schema).size() == 0'
        message: "{self.name} does not fit its schema"
      - assert: 'schemaExternalRefs(self.schema).size() == 0'
        message: "external refs"
`
	rs, err := engine.LoadRuleset(rulesetFS("", rules), "rs", engine.Options{})
	if err != nil {
		t.Fatal(err)
	}
	lint := func() (weak.Pointer[loader.Node], []string) {
		d := parseYAML(t, `items:
  - {name: ok, schema: {type: object, required: [a]}, value: {a: 1}}
  - {name: bad, schema: {type: object, required: [a]}, value: {b: 1}}
  - {name: also, schema: {type: object, properties: {a: {type: string}}}, value: {a: 1}}
`)
		return weak.Make(d.Root), lintStrings(mustLint(t, rs, d, engine.LintOptions{}))
	}
	root, got := lint()
	if len(got) != 2 || !strings.Contains(got[0], `bad" does not fit`) || !strings.Contains(got[1], `also" does not fit`) {
		t.Errorf("findings: %q", got)
	}
	runtime.GC()
	runtime.GC()
	if root.Value() != nil {
		t.Error("the document is still alive after its lint: the ruleset keeps it")
	}
	runtime.KeepAlive(rs) // the ruleset, and its caches, outlive the document
}

// TestRuleFileProblemsTogether: the problems of a rule file's shape (a bad
// level, an unknown field) do not hide those of its expressions and
// templates, nor does a bad expression hide a bad template of its check:
// all are reported in one load, each at its file:line:col.
func TestRuleFileProblemsTogether(t *testing.T) {
	for _, tc := range []struct {
		name, rules string
		want        []string
	}{{
		name: "bad level, CEL syntax error, bad placeholder",
		rules: `rules:
  - id: t.a
    level: sometimes
    title: A
    given: items.#
    checks:
      - assert: has(self.name) &&
        message: "item {nmae} is unnamed"
      - assert: has(self.name)
        message: "item {self.name is unnamed"
`,
		want: []string{
			`rs/rules.yaml:3:12: level "sometimes" is not one of must, should, may`,
			"rs/rules.yaml:7:34: Syntax error",
			"rs/rules.yaml:8:25: undeclared reference to 'nmae'",
			"rs/rules.yaml:10:24: unclosed '{' in template",
		},
	}, {
		name: "unknown field and a bad expression in another rule",
		rules: `rules:
  - id: t.a
    level: must
    title: A
    bogus: 1
    given: items.#
    checks:
      - assert: self.name ==
  - id: t.b
    level: may
    title: B
    given: items.#
    checks:
      - assert: "true"
        at: "{key(}"
`,
		want: []string{
			`rs/rules.yaml:5:5: unknown field "bogus"`,
			"rs/rules.yaml:8:29: Syntax error",
			"rs/rules.yaml:15:19: Syntax error",
		},
	}} {
		_, err := engine.LoadRuleset(rulesetFS("", tc.rules), "rs", engine.Options{})
		if err == nil {
			t.Errorf("%s: loaded", tc.name)
			continue
		}
		for _, w := range tc.want {
			if !strings.Contains(err.Error(), w) {
				t.Errorf("%s: want %q in\n%v", tc.name, w, err)
			}
		}
		if n := strings.Count(err.Error(), "\n") + 1; n != len(tc.want) {
			t.Errorf("%s: %d problems, want %d:\n%v", tc.name, n, len(tc.want), err)
		}
	}
}
