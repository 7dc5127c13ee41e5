package ruledoc

import (
	"bytes"
	"testing"
	"testing/fstest"

	"github.com/celint/celint/engine"
)

// TestAddedRuleSource: the page and the text of a rule that a folder adds
// to an embedded ruleset name the folder's file, and never say the rule is
// one of the ruleset's files at its pinned tag.
func TestAddedRuleSource(t *testing.T) {
	rs := seedRuleset(t)
	fsys := fstest.MapFS{"names.yaml": {Data: []byte(`rules:
  - id: acme.tools.snake-case
    title: tool names are snake_case
    level: should
    given: tools.#
    checks:
      - assert: self.name.matches('^[a-z][a-z0-9_]*$')
        message: not snake_case
    examples:
      valid:   [{document: {mcpdesc: "0.9.0", tools: [{name: get_weather}]}, selected: /tools/0}]
      invalid: [{document: {mcpdesc: "0.9.0", tools: [{name: GetWeather}]}, selected: /tools/0}]
`)}}
	ext, err := rs.WithFolder(engine.Folder{FS: fsys, Dir: ".", Name: "house-rules"})
	if err != nil {
		t.Fatal(err)
	}
	r := ext.Rule("acme.tools.snake-case")
	if r == nil || !r.Added {
		t.Fatalf("the added rule: %+v", r)
	}
	if own := ext.Rule("mcpdesc.elicitation.members"); own == nil || own.Added {
		t.Errorf("a rule of the ruleset's own files is marked added")
	}
	page, err := Page(ext, r)
	if err != nil {
		t.Fatal(err)
	}
	text, err := Text(ext, r)
	if err != nil {
		t.Fatal(err)
	}
	for name, out := range map[string][]byte{"page": page, "text": text} {
		if !bytes.Contains(out, []byte("house-rules/names.yaml, a rule file added to")) {
			t.Errorf("%s does not name the folder's file:\n%s", name, out)
		}
		if bytes.Contains(out, []byte("at pinned tag")) || bytes.Contains(out, []byte("at immutable tag")) {
			t.Errorf("%s attributes the rule to the pinned tag:\n%s", name, out)
		}
	}
}
