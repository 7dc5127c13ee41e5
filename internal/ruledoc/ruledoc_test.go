package ruledoc

import (
	"bytes"
	"errors"
	"flag"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/celint/celint/engine"
	"github.com/celint/celint/loader"
	"github.com/celint/celint/rulesets"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata")

func seedRuleset(t *testing.T) *engine.Ruleset {
	t.Helper()
	all, err := rulesets.Load(engine.Options{})
	if err != nil {
		t.Fatalf("loading the embedded rulesets: %v", err)
	}
	for _, rs := range all {
		if rs.Name == "mcpdesc" && rs.Tag == "v0.9.0-rc.3" {
			return rs
		}
	}
	t.Fatal("the embedded rulesets have no mcpdesc@v0.9.0-rc.3")
	return nil
}

// TestGoldenPages compares the pages of the two seed rules with
// testdata/<id>.md; run with -update to rewrite them.
func TestGoldenPages(t *testing.T) {
	rs := seedRuleset(t)
	for _, tc := range []struct {
		id   string
		want []string // facts the page must state
	}{
		{"mcpdesc.elicitation.members", []string{
			"ruleId: \"mcpdesc.elicitation.members\"",
			"tag: \"v0.9.0-rc.3\"",
			"## Requirement", "## Details", "## Required by", "## Examples", "## Rule Source Code",
			"**Rule ID:** `mcpdesc.elicitation.members`",
			"**Surface:** Elicitation Declaration\n",
			"**Requirement level:** must",
			"**Protocol versions:** independent of the protocol version",
			"**Document schema locations:** `#/$defs/elicitationDeclaration`",
			"**Status:** internal · **Enforcement:** internal",
			"- **MCP Description 0.9.0, Section 12.2**",
			"  - Elicitation Declarations: [req-elicitation-declaration-fields](https://mcpdesc.org/docs/specification/0.9.0-rc.3/elicitation#req-elicitation-declaration-fields)\n",
			"  - Elicitation Declarations: [req-elicitation-url-syntax](https://mcpdesc.org/docs/specification/0.9.0-rc.3/elicitation#req-elicitation-url-syntax)\n",
			"### Valid example",
			"Source: [expected-valid/elicitation-declarations.json](https://github.com/mcpdesc/mcpdesc-specification/blob/v0.9.0-rc.3/spec/draft/fixtures/expected-valid/elicitation-declarations.json) · Selected: `/tools/0/elicitations`",
			"Source: [expected-invalid/elicitation-branch-mixing.json](https://github.com/mcpdesc/mcpdesc-specification/blob/v0.9.0-rc.3/spec/draft/fixtures/expected-invalid/elicitation-branch-mixing.json) · Selected: `/resources/0/elicitations/0`",
			"Source: [expected-invalid/discriminated-union-members.json](https://github.com/mcpdesc/mcpdesc-specification/blob/v0.9.0-rc.3/spec/draft/fixtures/expected-invalid/discriminated-union-members.json) · Selected: `/tools/0/elicitations/0`",
			"\"name\": \"approve\",\n  \"mode\": \"form\",\n  \"message\": \"Approve?\"\n}",
			"[elicitation.yaml](https://github.com/mcpdesc/mcpdesc-specification/blob/v0.9.0-rc.3/spec/draft/validation/rules/elicitation.yaml) at immutable tag [v0.9.0-rc.3](https://github.com/mcpdesc/mcpdesc-specification/blob/v0.9.0-rc.3/spec/draft).",
			"```yaml\n- id: mcpdesc.elicitation.members\n",
		}},
		{"mcpdesc.elicitation.form-schema.consistency", []string{
			"ruleId: \"mcpdesc.elicitation.form-schema.consistency\"",
			"**Surface:** Elicitation Declaration · **Path:** `requestedSchema`",
			"**Kind:** mcpdesc-semantic",
			"- **MCP Description 0.9.0, Section 12.3**",
			"  - Elicitation Declarations: [req-elicitation-form-required](https://mcpdesc.org/docs/specification/0.9.0-rc.3/elicitation#req-elicitation-form-required)\n",
			"  - Elicitation Declarations: [req-elicitation-form-ranges](https://mcpdesc.org/docs/specification/0.9.0-rc.3/elicitation#req-elicitation-form-ranges)\n",
			"## Based on",
			"- Tier 1 — MCP schema.ts and normative specification text: MCP 2025-06-18",
			"  - validation/mcp-schemas/2026-07-28/schema.ts#L3117-L3118\n",
			"Source: [expected-invalid/elicitation-form-semantics.json](https://github.com/mcpdesc/mcpdesc-specification/blob/v0.9.0-rc.3/spec/draft/fixtures/expected-invalid/elicitation-form-semantics.json) · Selected: `/prompts/0/elicitations/0/requestedSchema/required`",
			"```json\n[\n  \"missing\"\n]\n```",
			"Source: [expected-invalid/elicitation-form-invalid-range.json](https://github.com/mcpdesc/mcpdesc-specification/blob/v0.9.0-rc.3/spec/draft/fixtures/expected-invalid/elicitation-form-invalid-range.json) · Selected: `/prompts/0/elicitations/0/requestedSchema/properties/count`",
			"```json\n{\n  \"type\": \"integer\",\n  \"minimum\": 10,\n  \"maximum\": 1\n}\n```",
			"```yaml\n- id: mcpdesc.elicitation.form-schema.consistency\n",
			"  # A requestedSchema may be a Reference Object: check what it points at.\n",
		}},
	} {
		t.Run(tc.id, func(t *testing.T) {
			r := rs.Rule(tc.id)
			if r == nil {
				t.Fatalf("no rule %s", tc.id)
			}
			got, err := Page(rs, r)
			if err != nil {
				t.Fatal(err)
			}
			again, err := Page(rs, r)
			if err != nil || !bytes.Equal(got, again) {
				t.Fatalf("Page is not deterministic (err %v)", err)
			}
			for _, w := range tc.want {
				if !bytes.Contains(got, []byte(w)) {
					t.Errorf("page lacks %q", w)
				}
			}
			if bytes.Contains(got, []byte("## Based on")) != (len(r.Doc.BasedOn) > 0) {
				t.Errorf("Based on section present = %v, rule has %d basedOn entries", bytes.Contains(got, []byte("## Based on")), len(r.Doc.BasedOn))
			}
			golden := filepath.Join("testdata", tc.id+".md")
			if *update {
				if err := os.MkdirAll("testdata", 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(golden, got, 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatalf("%v (run go test -update to create it)", err)
			}
			if !bytes.Equal(got, want) {
				t.Errorf("page differs from %s (run go test -update and review the diff):\n%s", golden, firstDiff(string(want), string(got)))
			}
		})
	}
}

func firstDiff(want, got string) string {
	wl, gl := strings.Split(want, "\n"), strings.Split(got, "\n")
	for i := 0; i < max(len(wl), len(gl)); i++ {
		var w, g string
		if i < len(wl) {
			w = wl[i]
		}
		if i < len(gl) {
			g = gl[i]
		}
		if w != g {
			return "line " + strconv.Itoa(i+1) + ":\n  want: " + w + "\n  got:  " + g
		}
	}
	return "(no line differs)"
}

const multiRule = `# A header comment.
rules:
  - id: a.first
    title: first
    description: >-
      Two lines of
      folded text.
    level: must
    given: x
    checks:
      - assert: |
          true &&

          true
        message: m
    # a comment inside the rule, at its members' indentation

  # The second rule.
  - id: a.second
    level: may
    given: y
    checks:
      - assert: "true"

  -
    id: a.third
    level: should
    given: z
    checks: [{assert: "true"}]
other: 1
`

func TestRuleBlock(t *testing.T) {
	for _, tc := range []struct {
		line int
		want string
	}{
		{3, `- id: a.first
  title: first
  description: >-
    Two lines of
    folded text.
  level: must
  given: x
  checks:
    - assert: |
        true &&

        true
      message: m
  # a comment inside the rule, at its members' indentation
`},
		{19, `- id: a.second
  level: may
  given: y
  checks:
    - assert: "true"
`},
		{26, `-
  id: a.third
  level: should
  given: z
  checks: [{assert: "true"}]
`},
	} {
		got, err := ruleBlock([]byte(multiRule), tc.line)
		if err != nil {
			t.Fatalf("line %d: %v", tc.line, err)
		}
		if got != tc.want {
			t.Errorf("line %d: got\n%s\nwant\n%s", tc.line, got, tc.want)
		}
	}
	// The positions the rule-file reader gives agree with the extraction.
	rf, err := loader.ReadRuleFile("multi.yaml", []byte(strings.TrimSuffix(multiRule, "other: 1\n")), loader.RuleFileOptions{})
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range rf.Rules {
		got, err := ruleBlock([]byte(multiRule), int(r.Pos.Line))
		if err != nil {
			t.Fatalf("%s: %v", r.ID.Value, err)
		}
		if !strings.Contains(got, "id: "+r.ID.Value+"\n") || strings.Count(got, "id: ") != 1 {
			t.Errorf("%s (line %d): block\n%s", r.ID.Value, r.Pos.Line, got)
		}
	}
	if _, err := ruleBlock([]byte(multiRule), 2); err == nil {
		t.Error("line 2 (rules:) was taken for a list item")
	}
	if _, err := ruleBlock([]byte(multiRule), 99); err == nil {
		t.Error("a line past the end was accepted")
	}
}

// testRuleset builds a small ruleset by hand, with one fixture.
func testRuleset(t *testing.T, ex loader.ExamplesSpec) (*engine.Ruleset, *engine.Rule) {
	t.Helper()
	src := "rules:\n  - id: t.rule\n    given: x\n    checks: [{assert: \"true\"}]\n"
	rs := &engine.Ruleset{
		Name: "t", Tag: "v1", Title: "Test rules",
		FS: fstest.MapFS{
			"t/v1/fixtures/ok.json": {Data: []byte(`{"b": 1, "a": {"z": [1, 2], "y": "<&>"}}`)},
		},
		Dir: "t/v1", Fixtures: "t/v1/fixtures",
		LoadOptions: loader.DefaultOptions(),
	}
	r := &engine.Rule{
		ID: "t.rule",
		Doc: loader.RuleDoc{
			Title:       "A test rule",
			Description: "Says something. Then more.",
			Requirement: "A thing must hold.",
			Level:       "should",
			Surface:     "Thing",
			Scope:       loader.Scope{Key: "protocolVersions", Values: []string{"1", "2"}},
		},
		Examples: ex,
		Pos:      loader.Pos{Line: 2, Col: 5},
		File:     "t/v1/r.yaml",
		Text:     []byte(src),
		Tag:      "v1",
	}
	rs.Rules = []*engine.Rule{r}
	return rs, r
}

func TestMissingFixture(t *testing.T) {
	rs, r := testRuleset(t, loader.ExamplesSpec{Invalid: []loader.ExampleSpec{
		{Source: loader.Scalar{Value: "absent.json", Pos: loader.Pos{Line: 9, Col: 17}}},
	}})
	if _, err := Page(rs, r); err == nil || !strings.Contains(err.Error(), "absent.json") {
		t.Fatalf("Page with a missing fixture: err = %v", err)
	} else {
		var le *loader.Error
		if !errors.As(err, &le) || le.File != "t/v1/r.yaml" || le.Pos.Line != 9 {
			t.Errorf("error %v is not located at the example source", err)
		}
	}
	if _, err := Text(rs, r); err == nil {
		t.Error("Text with a missing fixture: no error")
	}
	if _, err := WriteAll(rs, t.TempDir()); err == nil {
		t.Error("WriteAll with a missing fixture: no error")
	}
}

func TestMissingPointer(t *testing.T) {
	rs, r := testRuleset(t, loader.ExamplesSpec{Valid: []loader.ExampleSpec{
		{Source: loader.Scalar{Value: "ok.json"}, Selected: loader.Scalar{Value: "/a/nope", Pos: loader.Pos{Line: 7, Col: 3}}},
	}})
	_, err := Page(rs, r)
	if err == nil || !strings.Contains(err.Error(), `"/a/nope"`) {
		t.Fatalf("Page with a pointer naming nothing: err = %v", err)
	}
}

func TestExamples(t *testing.T) {
	inline, err := loader.Parse("inline.yaml", []byte("{k: [1, {j: x}]}"), loader.DefaultOptions())
	if err != nil {
		t.Fatal(err)
	}
	rs, r := testRuleset(t, loader.ExamplesSpec{
		Valid: []loader.ExampleSpec{{Source: loader.Scalar{Value: "ok.json"}, Selected: loader.Scalar{Value: "/a"}}},
		Invalid: []loader.ExampleSpec{
			{Title: "inline", Document: inline.Root, Selected: loader.Scalar{Value: "/k/1"}},
			{Source: loader.Scalar{Value: "ok.json"}},
		},
	})
	page, err := Page(rs, r)
	if err != nil {
		t.Fatal(err)
	}
	for _, w := range []string{
		"### Valid example\n\nSource: ok.json · Selected: `/a`\n\n```json\n{\n  \"z\": [\n    1,\n    2\n  ],\n  \"y\": \"<&>\"\n}\n```",
		"### Invalid example: inline\n\nSource: inline document · Selected: `/k/1`\n\n```json\n{\n  \"j\": \"x\"\n}\n```",
		"Source: ok.json · Selected: the whole document\n\n```json\n{\n  \"b\": 1,",
		"**Protocol versions:** `1, 2`",
		"description: \"Says something.\"",
		"r.yaml at immutable tag `v1`.",
		"```yaml\n- id: t.rule\n  given: x\n",
	} {
		if !strings.Contains(string(page), w) {
			t.Errorf("page lacks %q:\n%s", w, page)
		}
	}
	if strings.Contains(string(page), "## Based on") || strings.Contains(string(page), "## Required by") {
		t.Errorf("page has a section for an empty part:\n%s", page)
	}
}

func TestText(t *testing.T) {
	rs := seedRuleset(t)
	r := rs.Rule("mcpdesc.elicitation.form-schema.consistency")
	if r == nil {
		t.Fatal("no rule mcpdesc.elicitation.form-schema.consistency")
	}
	out, err := Text(rs, r)
	if err != nil {
		t.Fatal(err)
	}
	s := string(out)
	for _, w := range []string{
		"mcpdesc.elicitation.form-schema.consistency (must, mcpdesc@v0.9.0-rc.3)\n",
		"Requirement level: must\n",
		"Rule ID:",
		"In a form requestedSchema, required names declared properties",
		"MCP Description 0.9.0, Section 12.3\n",
		"req-elicitation-form-ranges",
		"Source: expected-invalid/elicitation-form-invalid-range.json · Selected: /prompts/0/elicitations/0/requestedSchema/properties/count",
		"    - id: mcpdesc.elicitation.form-schema.consistency\n",
	} {
		if !strings.Contains(s, w) {
			t.Errorf("text lacks %q", w)
		}
	}
	for _, bad := range []string{"**", "](", "```", "\\_"} {
		if strings.Contains(s, bad) {
			t.Errorf("text has Markdown %q", bad)
		}
	}
	for i, l := range strings.Split(s, "\n") {
		if strings.HasSuffix(l, " ") {
			t.Errorf("line %d has trailing space: %q", i+1, l)
		}
	}
}

// TestWriteAll: the pages and the index are written at the published
// layout with a manifest listing them; a page an earlier run listed in its
// manifest and no longer writes is removed, and nothing else is: not a
// page written by hand at a rule page's place, nor a file beside the pages.
func TestWriteAll(t *testing.T) {
	rs := seedRuleset(t)
	dir := t.TempDir()
	stale := filepath.Join(dir, "0.9.0-rc.3", "mcpdesc", "old-rule", "index.md")
	manual := filepath.Join(dir, "0.9.0-rc.3", "mcpdesc", "guide", "index.md")
	mine := filepath.Join(dir, "0.9.0-rc.3", "mcpdesc", "notes.md")
	manifest := filepath.Join(dir, "0.9.0-rc.3", "mcpdesc", ManifestFile)
	for _, f := range []string{stale, manual, mine} {
		if err := os.MkdirAll(filepath.Dir(f), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(f, []byte("x"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	// The manifest of an earlier run, with lines that name no page.
	if err := os.WriteFile(manifest, []byte("mcpdesc/old-rule/index.md\n../../x/index.md\nmcpdesc/notes.md\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	paths, err := WriteAll(rs, dir)
	if err != nil {
		t.Fatal(err)
	}
	base := filepath.Join(dir, "0.9.0-rc.3", "mcpdesc")
	// One page per rule in rule id order, at the published layout, then
	// the index.
	var want []string
	for _, r := range rs.Rules {
		slug := strings.ReplaceAll(strings.TrimPrefix(r.ID, "mcpdesc."), ".", "-")
		want = append(want, filepath.Join(base, slug, "index.md"))
	}
	want = append(want, filepath.Join(base, "index.md"))
	if strings.Join(paths, "\n") != strings.Join(want, "\n") {
		t.Fatalf("paths = %q, want %q", paths, want)
	}
	members := filepath.Join(base, "elicitation-members", "index.md")
	page, _ := os.ReadFile(members)
	direct, _ := Page(rs, rs.Rule("mcpdesc.elicitation.members"))
	if !bytes.Equal(page, direct) {
		t.Error("written page differs from Page")
	}
	index, err := os.ReadFile(filepath.Join(base, "index.md"))
	if err != nil {
		t.Fatal(err)
	}
	for _, w := range []string{
		"| Rule | Level | Surface | Title |",
		"| [`mcpdesc.elicitation.members`](elicitation-members/) | must | Elicitation Declaration | Declare elicitations with their mode fields |",
		"| [`mcpdesc.elicitation.form-schema.consistency`](elicitation-form-schema-consistency/) | must | Elicitation Declaration |",
	} {
		if !strings.Contains(string(index), w) {
			t.Errorf("index lacks %q:\n%s", w, index)
		}
	}
	if _, err := os.Stat(stale); !os.IsNotExist(err) {
		t.Errorf("the stale page is still there: %v", err)
	}
	if _, err := os.Stat(filepath.Dir(stale)); !os.IsNotExist(err) {
		t.Errorf("the stale page's folder is still there: %v", err)
	}
	for _, f := range []string{mine, manual} {
		if _, err := os.Stat(f); err != nil {
			t.Errorf("a page or file this command did not write was removed: %v", err)
		}
	}
	list, err := os.ReadFile(manifest)
	if err != nil || !strings.HasPrefix(string(list), "mcpdesc/") || !strings.HasSuffix(string(list), "\nmcpdesc/index.md\n") ||
		strings.Count(string(list), "\n") != len(paths) || strings.Contains(string(list), "old-rule") {
		t.Errorf("manifest: %v\n%s", err, list)
	}
	bad := *rs
	bad.Tag = "../x"
	if _, err := WriteAll(&bad, dir); err == nil {
		t.Error("a tag with a separator was accepted as a folder name")
	}
}

// TestPublishedLinks: a page of a ruleset with a docs block links its
// published place, its requirement ids, its example fixtures and its rule
// file at the tag, as the seed pages do; a rule a rules folder added links
// nothing upstream.
func TestPublishedLinks(t *testing.T) {
	rs := seedRuleset(t)
	r := rs.Rule("mcpdesc.elicitation.members")
	if got, want := PagePath(rs, r), "0.9.0-rc.3/mcpdesc/elicitation-members/index.md"; got != want {
		t.Errorf("PagePath = %q, want %q", got, want)
	}
	if got := PageURL(rs, r); got != "" && got != "https://mcpdesc.org/docs/rules/0.9.0-rc.3/mcpdesc/elicitation-members/" {
		t.Errorf("PageURL = %q", got)
	}
	if rs.Docs.Pages == "" {
		t.Skip("the seed ruleset publishes no pages")
	}
	page, err := Page(rs, r)
	if err != nil {
		t.Fatal(err)
	}
	for _, w := range []string{
		`source: "https://mcpdesc.org/docs/rules/0.9.0-rc.3/mcpdesc/elicitation-members/"`,
		"Elicitation Declarations: [req-elicitation-declaration-fields](https://mcpdesc.org/docs/specification/0.9.0-rc.3/elicitation#req-elicitation-declaration-fields)",
		"Source: [expected-invalid/elicitation-branch-mixing.json](https://github.com/mcpdesc/mcpdesc-specification/blob/v0.9.0-rc.3/spec/draft/fixtures/expected-invalid/elicitation-branch-mixing.json) · Selected: `/resources/0/elicitations/0`",
		"[elicitation.yaml](https://github.com/mcpdesc/mcpdesc-specification/blob/v0.9.0-rc.3/spec/draft/validation/rules/elicitation.yaml) at immutable tag [v0.9.0-rc.3](https://github.com/mcpdesc/mcpdesc-specification/blob/v0.9.0-rc.3/spec/draft).",
	} {
		if !bytes.Contains(page, []byte(w)) {
			t.Errorf("page lacks %q", w)
		}
	}
	// The H2 sections in the seed pages' order, and the rule's fixes after
	// its details.
	var h2 []string
	for _, l := range strings.Split(string(page), "\n") {
		if strings.HasPrefix(l, "## ") {
			h2 = append(h2, l[3:])
		}
	}
	if got := strings.Join(h2, ", "); got != "Requirement, Details, Fixes, Required by, Examples, Rule Source Code" {
		t.Errorf("sections %s", got)
	}
	added := *r
	added.Published, added.SourceURL = false, "" // as a rule a --rules folder adds
	page, _ = Page(rs, &added)
	if bytes.Contains(page, []byte("mcpdesc.org")) || bytes.Contains(page, []byte("github.com/mcpdesc")) {
		t.Errorf("a rule that is not published links upstream:\n%s", page)
	}
}

func TestSummary(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"One. Two.", "One."},
		{"Uses e.g. lower case. Next", "Uses e.g. lower case."},
		{"No   full\nstop", "No full stop"},
		{strings.Repeat("word ", 60), strings.TrimSpace(strings.Repeat("word ", 39)) + "…"},
		{strings.Repeat("x", 300), strings.Repeat("x", 199) + "…"},
	} {
		if got := summary(tc.in); got != tc.want {
			t.Errorf("summary(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

func TestEscape(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"plain text", "plain text"},
		{"a *b* [c](d) <e> `f` g_h", "a \\*b\\* \\[c\\](d) \\<e\\> \\`f\\` g\\_h"},
		{"12. Heading", "12\\. Heading"},
		{"# not a heading", "\\# not a heading"},
	} {
		if got := escapeInline(tc.in); got != tc.want {
			t.Errorf("escapeInline(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
	if got := codeSpan("a`b"); got != "``a`b``" {
		t.Errorf("codeSpan = %q", got)
	}
	if got := fenced("json", "```\n"); got != "````json\n```\n````" {
		t.Errorf("fenced = %q", got)
	}
}

// TestCodesShown: a rule whose checks have codes lists them, with their
// levels and aliases, on its page and in explain.
func TestCodesShown(t *testing.T) {
	dir := "../../engine/testdata/rulesets/guide/v1"
	rs, err := engine.LoadRuleset(os.DirFS(dir), ".", engine.Options{DisplayDir: dir})
	if err != nil {
		t.Fatal(err)
	}
	r := rs.Rule("guide.tools.description")
	page, err := Page(rs, r)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"## Codes", "| `guide.tools.description/missing` | should | tool-description-missing |", "| `guide.tools.description/empty` | must | tool-description-empty |"} {
		if !strings.Contains(string(page), want) {
			t.Errorf("page lacks %q:\n%s", want, page)
		}
	}
	text, err := Text(rs, r)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(text), "guide.tools.description/empty (must)  aliases: tool-description-empty") {
		t.Errorf("explain lacks the codes:\n%s", text)
	}
	if p, _ := Page(rs, rs.Rule("guide.tools.example-names")); strings.Contains(string(p), "## Codes") {
		t.Error("a rule without codes has a Codes section")
	}
}

// TestPageShowsParams: a rule that names header params shows the values
// its ruleset gives them, on its page and in explain, and each version
// its own: those it names itself, then those a document variable of the
// header it reads names (memberVersions, through memberVersionMessages).
func TestPageShowsParams(t *testing.T) {
	cat, err := rulesets.Catalog(engine.Options{})
	if err != nil {
		t.Fatal(err)
	}
	for tag, want := range map[string]string{
		"v0.8.0":      "mcpdescVersions: [\"0.8.0\"]\nprovenanceMember: false\nmemberVersions: {\"Info\":{\"protocolVersion\":{\"until\":\"0.7.0\"}},\"Resource\":{\"provenanceIds\":{\"from\":\"0.9.0\"}},\"Resource Template\":{\"provenanceIds\":{\"from\":\"0.9.0\"}},\"Tool\":{\"provenanceIds\":{\"from\":\"0.9.0\"}},\"root\":{\"provenance\":{\"from\":\"0.9.0\"}}}\n",
		"v0.9.0-rc.3": "mcpdescVersions: [\"0.8.0\",\"0.9.0\"]\nprovenanceMember: true\nmemberVersions: {\"Info\":{\"protocolVersion\":{\"until\":\"0.7.0\"}}}\n",
	} {
		rs, err := cat.Find(tag)
		if err != nil {
			t.Fatal(err)
		}
		r := rs.Rule("mcpdesc.document.structure")
		page, err := Page(rs, r)
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(string(page), "```yaml\n"+want+"```\n") {
			t.Errorf("%s: the page does not show the params %q:\n%s", tag, want, page)
		}
		indented := "    " + strings.ReplaceAll(strings.TrimSuffix(want, "\n"), "\n", "\n    ") + "\n"
		if text, _ := Text(rs, r); !strings.Contains(string(text), indented) {
			t.Errorf("%s: explain does not show the params:\n%s", tag, text)
		}
	}
	if got := UsedParams("a: {$param: one}\nassert: size(self) <= params.two && params.one > 0\nmessage: at most {params.three}"); strings.Join(got, ",") != "one,two,three" {
		t.Errorf("UsedParams: %v", got)
	}
}

// TestFixesShown: a rule with fixes lists what each does, by code or
// schema keyword, on its page and in explain, and an invalid example shows
// the document its fixes make.
func TestFixesShown(t *testing.T) {
	rules := `rules:
  - id: t.items
    title: Write items with a kind
    level: must
    given: items.#
    schema:
      type: object
      properties: {kind: {type: string}}
      additionalProperties: false
    schemaFixes:
      additionalProperties:
        description: Renames an unknown member with an x- prefix.
        when: '!(("x-" + key) in item)'
        edits: [{op: move, from: '{key}', at: 'x-{key}'}]
    checks:
      - code: empty
        assert: self.?kind.orValue("k") != ""
        at: kind
        fix:
          when: 'true'
          edits: [{op: remove, at: kind}]
    examples:
      valid:
        - document: {items: [{kind: a}]}
      invalid:
        - document: {items: [{kind: "", colour: red}]}
          selected: /items/0
          fixed: {items: [{x-colour: red}]}
`
	fsys := fstest.MapFS{
		"rs/ruleset.yaml": {Data: []byte("name: t\ntag: v1\n")},
		"rs/rules.yaml":   {Data: []byte(rules)},
	}
	rs, err := engine.LoadRuleset(fsys, "rs", engine.Options{})
	if err != nil {
		t.Fatal(err)
	}
	r := rs.Rule("t.items")
	page, err := Page(rs, r)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"## Fixes\n",
		"- `t.items/empty`: a fix the rule does not describe, made where its condition holds.\n",
		"- schema keyword `additionalProperties`: Renames an unknown member with an x- prefix.\n",
		"With its fixes made:\n\n```json\n{\n  \"x-colour\": \"red\"\n}\n```",
	} {
		if !strings.Contains(string(page), want) {
			t.Errorf("page lacks %q:\n%s", want, page)
		}
	}
	text, err := Text(rs, r)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(text), "\n- schema keyword additionalProperties: Renames an unknown member with an x-\n  prefix.\n") {
		t.Errorf("explain lacks the fixes:\n%s", text)
	}
}

// TestHelp: a rule's help is the text of Text and the page of Page, with
// the page's front matter replaced by the title as a heading.
func TestHelp(t *testing.T) {
	rs := seedRuleset(t)
	r := rs.Rule("mcpdesc.elicitation.form-schema.consistency")
	if r == nil {
		t.Fatal("no rule mcpdesc.elicitation.form-schema.consistency")
	}
	text, markdown, err := Help(rs, r)
	if err != nil {
		t.Fatal(err)
	}
	wantText, err := Text(rs, r)
	if err != nil {
		t.Fatal(err)
	}
	if text != string(wantText) {
		t.Errorf("help text differs from Text:\n%s", firstDiff(string(wantText), text))
	}
	page, err := Page(rs, r)
	if err != nil {
		t.Fatal(err)
	}
	_, body, ok := strings.Cut(strings.TrimPrefix(string(page), "---\n"), "\n---\n\n")
	if !ok {
		t.Fatalf("page has no front matter:\n%s", page)
	}
	if want := "# Keep form schemas internally consistent\n\n" + body; markdown != want {
		t.Errorf("help markdown differs from the page's body:\n%s", firstDiff(want, markdown))
	}
}
