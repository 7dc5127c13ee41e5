package main

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func runCLI(t *testing.T, args ...string) (int, string, string) {
	t.Helper()
	return runCLIWithInput(t, "", args...)
}

func runCLIWithInput(t *testing.T, stdin string, args ...string) (int, string, string) {
	t.Helper()
	var out, errb bytes.Buffer
	code := run(context.Background(), args, strings.NewReader(stdin), &out, &errb)
	return code, out.String(), errb.String()
}

func write(t *testing.T, dir, name, text string) string {
	t.Helper()
	p := filepath.Join(dir, name)
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

const example = "../../examples/notes-server.mcpdesc.yaml"

const cleanDoc = `{"mcpdesc": "0.9.0", "$schema": "https://example.com/schema.json", "info": {"name": "x", "version": "1.0.0"}, "protocolVersions": ["2025-11-25"],
 "transports": [{"type": "stdio", "command": "x"}],
 "tools": [{"name": "t", "inputSchema": {"type": "object", "additionalProperties": false},
   "elicitations": [{"name": "go", "mode": "url", "message": "Sign in.", "url": "https://example.com/sign-in"}]}]}
`

func TestCheckExitCodes(t *testing.T) {
	dir := t.TempDir()
	clean := write(t, dir, "clean.json", cleanDoc)
	broken := write(t, dir, "broken.yaml", "mcpdesc: \"0.9.0\"\ntools:\n  - name: a\n    name: b\n")
	tests := []struct {
		name string
		args []string
		code int
		want []string
	}{
		{"example has one error", []string{"check", example}, 1, []string{"58:22", "error", "mcpdesc.elicitation.form-schema.consistency", "1 problem"}},
		{"fail-on never", []string{"check", "--fail-on", "never", example}, 0, []string{"1 problem"}},
		{"clean document", []string{"check", clean}, 0, []string{"no problems"}},
		{"duplicate key is an input error", []string{"check", broken, clean}, 2, []string{"broken.yaml", "4:5", "duplicate"}},
		{"missing file", []string{"check", filepath.Join(dir, "nope.json")}, 2, []string{"nope.json"}},
		{"empty glob", []string{"check", filepath.Join(dir, "*.nothing")}, 2, []string{"no file matches"}},
		{"no arguments", []string{"check"}, 2, nil},
		{"unknown format", []string{"check", "--format", "xml", clean}, 2, nil},
		{"unknown spec", []string{"check", "--spec", "v0.0.1", clean}, 2, nil},
		{"unknown rule", []string{"check", "--rule", "no.such.rule", clean}, 2, nil},
		{"pinned spec", []string{"check", "--spec", "v0.9.0-rc.3", example}, 1, []string{"58:22"}},
		{"unknown command", []string{"frobnicate"}, 2, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, out, errOut := runCLI(t, tt.args...)
			if code != tt.code {
				t.Errorf("exit %d, want %d\nstdout:\n%s\nstderr:\n%s", code, tt.code, out, errOut)
			}
			for _, w := range tt.want {
				if !strings.Contains(out+errOut, w) {
					t.Errorf("output lacks %q:\n%s%s", w, out, errOut)
				}
			}
		})
	}
}

func TestCheckJSONIsSortedAndComplete(t *testing.T) {
	dir := t.TempDir()
	a := write(t, dir, "b.json", strings.Replace(cleanDoc, `"https://example.com/sign-in"`, `"not a uri"`, 1))
	b := write(t, dir, "a.json", strings.Replace(cleanDoc, `"mode": "url"`, `"mode": "form"`, 1))
	code, out, errOut := runCLI(t, "check", "--format", "json", a, b)
	if code != 1 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	var v struct {
		Diagnostics []struct {
			File, RuleID, Severity, Message, Pointer string
			Line, Column                             int
		} `json:"diagnostics"`
		Counts struct{ Errors int } `json:"counts"`
	}
	if err := json.Unmarshal([]byte(out), &v); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	if len(v.Diagnostics) < 2 || v.Counts.Errors != len(v.Diagnostics) {
		t.Fatalf("diagnostics %+v counts %+v", v.Diagnostics, v.Counts)
	}
	if !strings.HasSuffix(v.Diagnostics[0].File, "a.json") || !strings.HasSuffix(v.Diagnostics[len(v.Diagnostics)-1].File, "b.json") {
		t.Errorf("not sorted by file: %+v", v.Diagnostics)
	}
	for _, d := range v.Diagnostics {
		if d.RuleID == "" || d.Severity != "error" || d.Pointer == "" || d.Line < 1 || d.Column < 1 || d.Message == "" {
			t.Errorf("incomplete diagnostic %+v", d)
		}
	}
}

func TestRulesFolder(t *testing.T) {
	dir := t.TempDir()
	// Replace the embedded consistency rule with one that never reports,
	// and add a rule of our own.
	write(t, dir, "rules/override.yaml", `rules:
  - id: mcpdesc.elicitation.form-schema.consistency
    title: replaced
    level: must
    given: tools.#
    checks:
      - assert: "true"
    examples:
      valid: [{document: {tools: [{name: a}]}, selected: /tools/0}]
      invalid: [{document: {tools: [{name: a}]}, selected: /tools/0}]
  - id: acme.tools.snake-case
    title: snake case
    level: should
    given: tools.#
    checks:
      - assert: self.name.matches('^[a-z_]+$')
        at: name
        message: "tool name {self.name} is not snake_case"
    examples:
      valid: [{document: {tools: [{name: ok_name}]}, selected: /tools/0}]
      invalid: [{document: {tools: [{name: BadName}]}, selected: /tools/0/name}]
`)
	rules := filepath.Join(dir, "rules")
	code, out, _ := runCLI(t, "check", "--rules", rules, example)
	if code != 0 || strings.Contains(out, "form-schema") {
		t.Errorf("override did not replace the embedded rule: exit %d\n%s", code, out)
	}
	code, out, _ = runCLI(t, "rules", "--rules", rules)
	if code != 0 || !strings.Contains(out, "acme.tools.snake-case") || !strings.Contains(out, "replaced") {
		t.Errorf("rules: exit %d\n%s", code, out)
	}
	// The replaced rule's deliberately wrong invalid example fails conformance.
	code, out, _ = runCLI(t, "conformance", "--rules", rules)
	if code != 1 || !strings.Contains(out, "FAIL") {
		t.Errorf("conformance: exit %d\n%s", code, out)
	}

	bad := filepath.Join(dir, "bad")
	write(t, dir, "bad/r.yaml", "rules:\n  - id: acme.x\n    level: must\n    given: tools.#\n    checks:\n      - assert: \"self.name +\"\n")
	code, _, errOut := runCLI(t, "check", "--rules", bad, example)
	// Named as the user would open it: the folder as given, then the file.
	if want := filepath.Join(bad, "r.yaml") + ":6:"; code != 2 || !strings.Contains(errOut, want) {
		t.Errorf("bad rule file: exit %d, stderr lacks %q:\n%s", code, want, errOut)
	}
}

// TestRulesFolderWithSameFileName: a --rules folder may hold a file named
// like an embedded rule file; explain, docs and check use each rule's own.
func TestRulesFolderWithSameFileName(t *testing.T) {
	dir := t.TempDir()
	rules := filepath.Join(dir, "house")
	write(t, rules, "elicitation.yaml", `# House rules.
rules:
  - id: acme.tools.described
    title: describe every tool
    level: should
    given: tools.#
    checks:
      - assert: has(self.description)
        message: "tool {self.name} has no description"
    examples:
      valid: [{document: {tools: [{name: a, description: d}]}, selected: /tools/0}]
      invalid: [{document: {tools: [{name: a}]}, selected: /tools/0}]
`)
	code, out, errOut := runCLI(t, "explain", "--rules", rules, "mcpdesc.elicitation.members")
	if code != 0 || !strings.Contains(out, "req-elicitation-url-syntax") {
		t.Errorf("explain of an embedded rule: exit %d\n%s%s", code, out, errOut)
	}
	code, out, errOut = runCLI(t, "explain", "--rules", rules, "acme.tools.described")
	if code != 0 || !strings.Contains(out, "describe every tool") || !strings.Contains(out, "has(self.description)") {
		t.Errorf("explain of the folder's rule: exit %d\n%s%s", code, out, errOut)
	}
	docs := filepath.Join(dir, "docs")
	code, out, errOut = runCLI(t, "docs", "--rules", rules, "--out", docs)
	if code != 0 {
		t.Fatalf("docs: exit %d\n%s%s", code, out, errOut)
	}
	for _, page := range []string{"mcpdesc/elicitation-members", "mcpdesc/acme-tools-described"} {
		if _, err := os.Stat(filepath.Join(docs, "0.9.0-rc.3", page, "index.md")); err != nil {
			t.Errorf("docs: %v", err)
		}
	}
	// The folder's rule is not published upstream: its page links nowhere
	// there.
	if data, err := os.ReadFile(filepath.Join(docs, "0.9.0-rc.3", "mcpdesc", "acme-tools-described", "index.md")); err != nil || bytes.Contains(data, []byte("mcpdesc.org")) || bytes.Contains(data, []byte("github.com/mcpdesc")) {
		t.Errorf("the folder rule's page: %v\n%s", err, data)
	}
	doc := write(t, dir, "server.json", cleanDoc)
	code, out, errOut = runCLI(t, "check", "--fail-on", "warning", "--rules", rules, doc)
	if code != 1 || !strings.Contains(out, `tool "t" has no description`) || !strings.Contains(out, "acme.tools.described") {
		t.Errorf("check: exit %d\n%s%s", code, out, errOut)
	}
}

func TestConformanceExplainDocs(t *testing.T) {
	code, out, _ := runCLI(t, "conformance")
	if code != 0 || !strings.Contains(out, " passed, 0 failed") {
		t.Errorf("conformance: exit %d\n%s", code, out)
	}
	code, out, _ = runCLI(t, "explain", "mcpdesc.elicitation.members")
	if code != 0 || !strings.Contains(out, "req-elicitation-url-syntax") {
		t.Errorf("explain: exit %d\n%s", code, out)
	}
	if code, _, _ := runCLI(t, "explain", "no.such"); code != 2 {
		t.Errorf("explain of an unknown id: exit %d", code)
	}
	dir := t.TempDir()
	code, out, errOut := runCLI(t, "docs", "--out", dir)
	if code != 0 {
		t.Fatalf("docs: exit %d\n%s%s", code, out, errOut)
	}
	page := filepath.Join(dir, "0.9.0-rc.3", "mcpdesc", "elicitation-members", "index.md")
	data, err := os.ReadFile(page)
	if err != nil {
		t.Fatal(err)
	}
	for _, part := range []string{"## Requirement", "## Details", "## Required by", "## Examples", "## Rule Source Code"} {
		if !bytes.Contains(data, []byte(part)) {
			t.Errorf("page lacks %q", part)
		}
	}
}

// TestRulesFolderWithHeader: a --rules folder with its own ruleset.yaml is
// a ruleset of its own, chosen for the documents it accepts.
func TestRulesFolderWithHeader(t *testing.T) {
	dir := t.TempDir()
	rules := "../../engine/testdata/rulesets/tiny/v1.0.0"
	doc := write(t, dir, "doc.yaml", "format: \"1\"\nitems:\n  - name: abcdefgh\n")
	code, out, errOut := runCLI(t, "check", "--rules", rules, doc, example)
	if code != 1 || !strings.Contains(out, `name "abcdefgh" is longer than 5`) || !strings.Contains(out, "confirmed") {
		t.Errorf("exit %d\n%s%s", code, out, errOut)
	}
	code, out, _ = runCLI(t, "rules", "--rules", rules)
	if code != 0 || !strings.Contains(out, "tiny@v1.0.0") || !strings.Contains(out, "mcpdesc@v0.9.0-rc.3") {
		t.Errorf("rules: exit %d\n%s", code, out)
	}
	code, out, _ = runCLI(t, "conformance", "--rules", rules, "--spec", "v1.0.0")
	if code != 0 || !strings.Contains(out, "2 passed, 0 failed") {
		t.Errorf("conformance: exit %d\n%s", code, out)
	}
}

// TestCommittedRuleDocsAreCurrent regenerates the rule pages and compares
// them with docs/rules, so the committed pages never go stale. Regenerate
// with: go run ./cmd/celint docs --out docs/rules
func TestCommittedRuleDocsAreCurrent(t *testing.T) {
	dir := t.TempDir()
	if code, out, errOut := runCLI(t, "docs", "--out", dir); code != 0 {
		t.Fatalf("docs: exit %d\n%s%s", code, out, errOut)
	}
	err := filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		want, _ := os.ReadFile(p)
		got, err := os.ReadFile(filepath.Join("../../docs/rules", rel))
		if err != nil || !bytes.Equal(got, want) {
			t.Errorf("docs/rules/%s is stale or missing; run: go run ./cmd/celint docs --out docs/rules", rel)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

func TestCheckStdin(t *testing.T) {
	data, err := os.ReadFile(example)
	if err != nil {
		t.Fatal(err)
	}
	code, out, _ := runCLIWithInput(t, string(data), "check", "--stdin-name", "piped.yaml", "-")
	if code != 1 || !strings.Contains(out, "piped.yaml") || !strings.Contains(out, "58:22") {
		t.Errorf("exit %d\n%s", code, out)
	}
	code, out, _ = runCLIWithInput(t, `{"mcpdesc": "0.9.0", "x": [1,]}`, "check", "-")
	if code != 2 || !strings.Contains(out, "<stdin>") || !strings.Contains(out, "1:30") {
		t.Errorf("exit %d\n%s", code, out)
	}
}

// TestRulesFoldersCompose: several --rules folders add up, a folder
// carries its own fixtures, and a house ruleset that extends mcpdesc runs
// with it; --rule picks one code of a rule.
func TestRulesFoldersCompose(t *testing.T) {
	dir := t.TempDir()
	one := filepath.Join(dir, "one")
	write(t, one, "a.yaml", `rules:
  - id: acme.tools.described
    level: should
    given: tools.#
    checks:
      - assert: has(self.description)
        message: "tool {self.name} has no description"
    examples:
      valid: [{source: ok.json, selected: /tools/0}]
      invalid: [{source: bad.json, selected: /tools/0}]
`)
	write(t, one, "fixtures/ok.json", `{"mcpdesc": "0.9.0", "tools": [{"name": "a", "description": "d"}]}`)
	write(t, one, "fixtures/bad.json", `{"mcpdesc": "0.9.0", "tools": [{"name": "a"}]}`)
	two := filepath.Join(dir, "two")
	write(t, two, "b.yaml", `rules:
  - id: acme.tools.named
    level: must
    given: tools.#
    checks:
      - assert: self.name.size() > 1
        message: "tool name {self.name} is too short"
      - code: upper
        level: may
        aliases: [OLD-UPPER]
        assert: self.name.lowerAscii() == self.name
        at: name
        message: "tool name {self.name} has capitals"
    examples:
      valid: [{document: {tools: [{name: ab}]}, selected: /tools/0}]
      invalid: [{document: {tools: [{name: A}]}, selected: /tools/0}]
`)
	doc := write(t, dir, "server.json", `{"mcpdesc": "0.9.0", "tools": [{"name": "T"}]}`)
	code, out, errOut := runCLI(t, "check", "--format", "json", "--rules", one, "--rules", two, doc)
	for _, want := range []string{`"acme.tools.described"`, `"acme.tools.named"`, `"code": "upper"`, `"aliases": [`, `"OLD-UPPER"`} {
		if !strings.Contains(out, want) {
			t.Errorf("check with two folders: exit %d, output lacks %s:\n%s%s", code, want, out, errOut)
		}
	}
	code, out, _ = runCLI(t, "check", "--rules", one, "--rules", two, "--rule", "acme.tools.named/upper", "--fail-on", "info", doc)
	if code != 1 || !strings.Contains(out, "acme.tools.named/upper") || strings.Contains(out, "too short") || strings.Contains(out, "described") {
		t.Errorf("--rule id/code: exit %d\n%s", code, out)
	}
	code, out, _ = runCLI(t, "conformance", "-v", "--rules", one, "--rules", two)
	if code != 0 || !strings.Contains(out, "acme.tools.described") || !strings.Contains(out, "0 failed") {
		t.Errorf("conformance with folder fixtures: exit %d\n%s", code, out)
	}

	house := filepath.Join(dir, "house")
	write(t, house, "ruleset.yaml", "name: house\ntag: v0.0.1\nextends: mcpdesc@v0.9.0-rc.3\nlevels: {mcpdesc.elicitation.form-schema.consistency: should}\n")
	write(t, house, "house.yaml", `rules:
  - id: house.tools.described
    level: should
    given: tools.#
    checks: [{assert: has(self.description), message: undescribed}]
`)
	code, out, errOut = runCLI(t, "check", "--rules", house, "--fail-on", "warning", example)
	if code != 1 || !strings.Contains(out, "warning  required name \"confirmed\"") {
		t.Errorf("house ruleset: exit %d\n%s%s", code, out, errOut)
	}
	code, out, _ = runCLI(t, "rules", "--rules", house)
	if code != 0 || !strings.Contains(out, "house@v0.0.1") || !strings.Contains(out, "house.tools.described") || !strings.Contains(out, "mcpdesc.elicitation.members") || strings.Contains(out, "mcpdesc@v0.9.0-rc.3:") {
		t.Errorf("rules with a house ruleset: exit %d\n%s", code, out)
	}
}

// TestCheckStats: --stats prints, after the report and on stderr, the
// rules that ran, slowest first, with what each selected and spent; the
// report on stdout is the same as without it.
func TestCheckStats(t *testing.T) {
	_, plain, _ := runCLI(t, "check", "--format", "json", example)
	code, out, errs := runCLI(t, "check", "--format", "json", "--stats=3", example)
	if code != exitFindings || out != plain {
		t.Fatalf("--stats changed the exit code (%d) or the report", code)
	}
	lines := strings.Split(strings.TrimRight(errs, "\n"), "\n")
	if len(lines) != 7 || !strings.Contains(lines[0], "rule statistics") || !strings.Contains(lines[1], "nodes") || !strings.Contains(lines[5], "more)") ||
		!strings.Contains(lines[6], "from the rulesets' checked expressions") {
		t.Fatalf("--stats=3 printed:\n%s\nwant a title, a header, 3 rules, how many more, and the checked expressions used", errs)
	}
	for _, l := range lines[2:5] {
		f := strings.Fields(l)
		// A one-tool document is linted one rule after the other: no rule
		// takes another's findings over (shared is 0).
		if len(f) != 8 || !strings.HasPrefix(f[0], "mcpdesc.") || f[3] != "0" || !strings.HasSuffix(f[5], "ms") || f[1] != "1" || !strings.HasSuffix(f[7], "ms") {
			t.Errorf("stats row %q: want id, files (1), nodes, shared (0), cost, time, share and compile time", l)
		}
	}
	_, _, all := runCLI(t, "check", "--stats=all", example)
	_, _, bare := runCLI(t, "check", "--stats", example)
	if n := strings.Count(all, "\nmcpdesc."); n < 40 || strings.Contains(all, "more)") {
		t.Errorf("--stats=all printed %d rules:\n%s", n, all)
	}
	if got := strings.Count(bare, "\n") - 4; got != 20 || !strings.Contains(bare, "more)") {
		t.Errorf("a bare --stats printed %d rows, want 20:\n%s", got, bare)
	}
	if code, _, errs := runCLI(t, "check", "--stats=0", example); code != exitError || !strings.Contains(errs, `invalid value "0" for -stats: expected a positive number of rows or all`) {
		t.Errorf("--stats=0: exit %d, %q", code, errs)
	}
}
