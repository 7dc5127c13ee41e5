package engine_test

import (
	"strings"
	"testing"
	"testing/fstest"

	"github.com/celint/celint/engine"
	"github.com/celint/celint/loader"
)

// versionsFS is two versions of a format sharing one rule folder: each
// header includes it with params of its own, v2 switches one shared rule
// off and replaces another with a rule of its own.
func versionsFS() fstest.MapFS {
	return fstest.MapFS{
		"fmt/shared/kinds.yaml": {Data: []byte(`rules:
  - id: fmt.kind
    level: must
    given: items.#
    schema:
      type: object
      properties:
        kind: {$param: kindSchema}
  - id: fmt.limit
    level: must
    given: items
    checks:
      - assert: size(self) <= params.maxItems
        message: "at most {params.maxItems} items"
  - id: fmt.named
    level: should
    given: items.#
    checks:
      - assert: has(self.name)
        message: an item has no name
`)},
		"fmt/v1/ruleset.yaml": {Data: []byte(`name: fmt
tag: v1.0.0
accepts: {path: version, versions: ["1"]}
include: [../shared]
params:
  maxItems: 2
  kindSchema: {enum: [a, b]}
`)},
		"fmt/v2/ruleset.yaml": {Data: []byte(`name: fmt
tag: v2.0.0
accepts: {path: version, versions: ["2"]}
include: [../shared]
disable: [fmt.named]
params:
  maxItems: 3
  kindSchema: {enum: [a, b, c]}
`)},
		"fmt/v2/limit.yaml": {Data: []byte(`rules:
  - id: fmt.limit
    level: should
    given: items
    checks:
      - assert: size(self) <= params.maxItems
        message: "no more than {params.maxItems} items"
`)},
	}
}

func TestIncludeWithParams(t *testing.T) {
	fsys := versionsFS()
	doc := `{"version": "%s", "items": [{"kind": "c"}, {"kind": "a", "name": "x"}, {"kind": "b", "name": "y"}, {"kind": "d", "name": "z"}]}`
	for _, tc := range []struct {
		dir  string
		want []string
	}{
		{"fmt/v1", []string{
			`1:18 error /items at most 2 items [fmt.limit]`,
			`1:28 warning /items/0 an item has no name [fmt.named]`,
			`1:29 error /items/0/kind value must be one of 'a', 'b' [fmt.kind]`,
			`1:100 error /items/3/kind value must be one of 'a', 'b' [fmt.kind]`,
		}},
		{"fmt/v2", []string{
			`1:18 warning /items no more than 3 items [fmt.limit]`,
			`1:100 error /items/3/kind value must be one of 'a', 'b', 'c' [fmt.kind]`,
		}},
	} {
		rs, err := engine.LoadRuleset(fsys, tc.dir, engine.Options{})
		if err != nil {
			t.Fatalf("%s: %v", tc.dir, err)
		}
		d, err := loader.Parse("d.json", []byte(strings.Replace(doc, "%s", tc.dir[len(tc.dir)-1:], 1)), rs.LoadOptions)
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, diag := range mustLint(t, rs, d, engine.LintOptions{}) {
			got = append(got, strings.Join(messages([]engine.Diagnostic{diag}), "")+" ["+diag.RuleID+"]")
		}
		if strings.Join(got, "\n") != strings.Join(tc.want, "\n") {
			t.Errorf("%s:\n got %q\nwant %q", tc.dir, got, tc.want)
		}
		if r := rs.Rule("fmt.limit"); r == nil || !strings.HasPrefix(r.File, tc.dir[:4]) {
			t.Errorf("%s: fmt.limit comes from %v", tc.dir, r)
		}
	}
}

func TestIncludeErrors(t *testing.T) {
	for _, tc := range []struct {
		name, header, want string
		extra              map[string]string
	}{
		{name: "outside the file system", header: "include: [../../..]\n", want: `fmt/v1/ruleset.yaml:4:11: include "../../..": expected a folder inside`},
		{name: "absent folder", header: "include: [../nowhere]\n", want: `fmt/v1/ruleset.yaml:4:11: include "../nowhere": `},
		{name: "unknown param", header: "include: [../shared]\nparams: {maxItems: 2}\n", want: `fmt/shared/kinds.yaml:8:15: $param "kindSchema": no such param in the ruleset header (known: maxItems)`},
		{name: "param in CEL without params", header: "include: [../shared]\n", want: `undeclared reference to 'params'`},
		{name: "disable an unknown rule", header: "include: [../shared]\nparams: {maxItems: 2, kindSchema: true}\ndisable: [fmt.nope]\n", want: `fmt/v1/ruleset.yaml:6:11: disable: ../shared has no rule "fmt.nope"`},
		{name: "a rule included twice", header: "include: [../shared, ../again]\nparams: {maxItems: 2, kindSchema: true}\n",
			extra: map[string]string{"fmt/again/r.yaml": "rules:\n  - id: fmt.named\n    level: may\n    given: items\n    checks: [{assert: 'true', message: x}]\n"},
			want:  `include "../again": rule fmt.named is also included from ../shared`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			fsys := versionsFS()
			fsys["fmt/v1/ruleset.yaml"] = &fstest.MapFile{Data: []byte("name: fmt\ntag: v1.0.0\naccepts: {path: version, versions: [\"1\"]}\n" + tc.header)}
			for k, v := range tc.extra {
				fsys[k] = &fstest.MapFile{Data: []byte(v)}
			}
			_, err := engine.LoadRuleset(fsys, "fmt/v1", engine.Options{})
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("got %v, want %q", err, tc.want)
			}
		})
	}
}

// TestStableBeforePrerelease: without a pin, a document is checked by the
// newest ruleset pinned at a release that accepts its version; a
// pre-release checks it only when no release does.
func TestStableBeforePrerelease(t *testing.T) {
	fsys := fstest.MapFS{}
	for _, h := range []struct{ dir, tag, versions string }{
		{"f/a", "v0.8.0", `["0.8.0"]`},
		{"f/b", "v0.9.0-rc.3", `["0.8.0", "0.9.0"]`},
		{"f/c", "v0.7.0", `["0.7.0", "0.8.0"]`},
	} {
		fsys[h.dir+"/ruleset.yaml"] = &fstest.MapFile{Data: []byte("name: f\ntag: " + h.tag + "\naccepts: {path: v, versions: " + h.versions + "}\n")}
	}
	var all []*engine.Ruleset
	for _, dir := range []string{"f/a", "f/b", "f/c"} {
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
	for v, want := range map[string]string{"0.7.0": "f@v0.7.0", "0.8.0": "f@v0.8.0", "0.9.0": "f@v0.9.0-rc.3"} {
		_, rs, err := cat.Load("d.json", []byte(`{"v": "`+v+`"}`), nil)
		if err != nil || rs.String() != want {
			t.Errorf("%s: chose %v (%v), want %s", v, rs, err, want)
		}
	}
	if !engine.IsPrerelease("v0.9.0-rc.3") || engine.IsPrerelease("v0.8.0") || engine.IsPrerelease("house") {
		t.Error("IsPrerelease")
	}
}

// TestParamsInSchemaMessages: {params.name} in a schemaMessages template
// is the value of the param in each ruleset that includes the rule.
func TestParamsInSchemaMessages(t *testing.T) {
	fsys := fstest.MapFS{
		"fmt/shared/item.yaml": {Data: []byte(`rules:
  - id: fmt.item
    level: must
    given: items.#
    schema:
      type: object
      properties:
        name: {type: string}
      patternProperties:
        "^x-": {$param: extensions}
      additionalProperties: false
    schemaMessages:
      additionalProperties: "{member} is not an item member; {params.hint}"
      "false": "{member} is not an item member; {params.hint}"
`)},
		"fmt/v1/ruleset.yaml": {Data: []byte(`name: fmt
tag: v1.0.0
accepts: {path: version, versions: ["1"]}
include: [../shared]
params:
  extensions: false
  hint: extensions belong at the root in version 1
`)},
		"fmt/v2/ruleset.yaml": {Data: []byte(`name: fmt
tag: v2.0.0
accepts: {path: version, versions: ["2"]}
include: [../shared]
params:
  extensions: true
  hint: prefix extensions with x-
`)},
	}
	doc := `{"version": "%s", "items": [{"name": "a", "colour": 1, "x-note": 2}]}`
	for _, tc := range []struct {
		dir  string
		want []string
	}{
		{"fmt/v1", []string{
			`1:42 error /items/0/colour colour is not an item member; extensions belong at the root in version 1`,
			`1:55 error /items/0/x-note x-note is not an item member; extensions belong at the root in version 1`,
		}},
		{"fmt/v2", []string{
			`1:42 error /items/0/colour colour is not an item member; prefix extensions with x-`,
		}},
	} {
		rs, err := engine.LoadRuleset(fsys, tc.dir, engine.Options{})
		if err != nil {
			t.Fatalf("%s: %v", tc.dir, err)
		}
		d, err := loader.Parse("d.json", []byte(strings.Replace(doc, "%s", tc.dir[len(tc.dir)-1:], 1)), rs.LoadOptions)
		if err != nil {
			t.Fatal(err)
		}
		got := messages(mustLint(t, rs, d, engine.LintOptions{}))
		if strings.Join(got, "\n") != strings.Join(tc.want, "\n") {
			t.Errorf("%s:\n got %q\nwant %q", tc.dir, got, tc.want)
		}
	}
	for _, tc := range []struct{ params, want string }{
		{"params: {extensions: true}\n", `fmt/shared/item.yaml:13:30: {params.hint}: no such param in the ruleset header (known: extensions)`},
		{"params: {extensions: true, hint: [a]}\n", `{params.hint}: the param is a list; a message template takes a string, a number or a boolean`},
	} {
		fsys["fmt/v1/ruleset.yaml"] = &fstest.MapFile{Data: []byte("name: fmt\ntag: v1.0.0\naccepts: {path: version, versions: [\"1\"]}\ninclude: [../shared]\n" + tc.params)}
		if _, err := engine.LoadRuleset(fsys, "fmt/v1", engine.Options{}); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("got %v, want %q", err, tc.want)
		}
	}
}
