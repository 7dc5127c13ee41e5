package playground

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf16"

	"github.com/celint/celint/internal/ruledoc"
	"github.com/celint/celint/rulesets"
)

// newPlayground returns a Playground of the embedded rulesets.
func newPlayground(t *testing.T) *Playground {
	t.Helper()
	p, err := New(Options{Embedded: rulesets.Load, Version: "test"})
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// described is a 0.8.0 description without $schema (a finding with a fix)
// and a tool whose name, after a character outside the BMP on its line,
// is a number.
const described = `mcpdesc: "0.8.0"
info:
  name: "🌍 notes"
  version: "1"
protocolVersions: ["2025-11-25"]
transports:
  - {type: stdio, command: notes}
tools:
  - {description: "🌍 x", name: 7, inputSchema: {type: object}}
`

// slice16 returns s[from:to] in UTF-16 code units, as JavaScript's
// String.prototype.slice does.
func slice16(s string, from, to int) string {
	u := utf16.Encode([]rune(s))
	return string(utf16.Decode(u[from:to]))
}

// find returns the first finding of the rule id (id or id/code).
func find(t *testing.T, res *LintResult, id string) Diagnostic {
	t.Helper()
	for _, d := range res.Diagnostics {
		if d.ID == id || d.RuleID == id {
			return d
		}
	}
	t.Fatalf("no finding %s in %+v", id, res.Diagnostics)
	return Diagnostic{}
}

// TestLint: the findings of a text come with the ruleset chosen for the
// version it declares, their ids, and ranges whose UTF-16 offsets and
// 0-based lines and characters mark the offending value, past characters
// that take two UTF-16 units.
func TestLint(t *testing.T) {
	p := newPlayground(t)
	res, err := p.Lint(described, LintOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if res.Name != "playground.yaml" || len(res.Rulesets) == 0 || res.Rulesets[0] != "mcpdesc@v0.8.0" || res.Error != "" {
		t.Fatalf("result: %+v", res)
	}
	for i, d := range res.Diagnostics {
		if d.Index != i {
			t.Errorf("diagnostic %d has index %d", i, d.Index)
		}
	}
	schema := find(t, res, "mcpdesc.document.schema-reference/missing")
	if !schema.Fixable || schema.FixTitle == "" || schema.Severity != "warning" || schema.URL == "" {
		t.Errorf("schema-reference: %+v", schema)
	}
	var name Diagnostic
	for _, d := range res.Diagnostics {
		if d.Pointer == "/tools/0/name" {
			name = d
		}
	}
	if name.RuleID == "" {
		t.Fatalf("no finding at /tools/0/name: %+v", res.Diagnostics)
	}
	if got := slice16(described, name.Start.Offset, name.End.Offset); got != "name: 7" {
		t.Errorf("the range of %s marks %q, want the member name: 7 (%+v)", name.ID, got, name)
	}
	// `  - {description: "🌍 x", ` is 25 code points and 26 UTF-16 units:
	// the loader's column (from 1) counts the first, the editor's
	// character (from 0) the second.
	if name.Line != 9 || name.Column != 26 || name.Start.Line != 8 || name.Start.Character != 26 || name.End.Character != 33 {
		t.Errorf("position of %s: line %d col %d, editor %+v", name.ID, name.Line, name.Column, name.Start)
	}
	if res.Counts.Errors == 0 || res.Counts.Warnings == 0 {
		t.Errorf("counts: %+v", res.Counts)
	}
}

// TestLintPinnedAndJSON: a pinned spec lints with its ruleset whatever the
// text declares; a text that starts with '{' is read as JSON; an unknown
// spec is an error; a text that is no description gets an input error.
func TestLintPinnedAndJSON(t *testing.T) {
	p := newPlayground(t)
	res, err := p.Lint(described, LintOptions{Spec: "v0.7.0"})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Rulesets) == 0 || res.Rulesets[0] != "mcpdesc@v0.7.0" {
		t.Errorf("pinned: %v", res.Rulesets)
	}
	res, err = p.Lint(` {"mcpdesc": "0.8.0", "mcpdesc": "0.8.0"}`, LintOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if res.Name != "playground.json" {
		t.Errorf("name %q, want playground.json", res.Name)
	}
	if _, err := p.Lint(described, LintOptions{Spec: "v9.9.9"}); err == nil {
		t.Error("an unknown spec lints")
	}
	res, err = p.Lint("a: [", LintOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if res.Error == "" || len(res.Diagnostics) != 1 || !res.Diagnostics[0].InputError || res.Diagnostics[0].RuleID != "celint.input" {
		t.Errorf("unreadable text: %+v", res)
	}
}

// TestLintTooLarge: a text past the rulesets' size limit is refused with
// an input error, as celint check refuses the file, and Versions reports
// that limit.
func TestLintTooLarge(t *testing.T) {
	p := newPlayground(t)
	limit := p.Versions().Rulesets[0].MaxBytes
	if limit <= 0 {
		t.Fatalf("max bytes %d", limit)
	}
	big := "mcpdesc: \"0.8.0\"\nx: \"" + strings.Repeat("a", int(limit)) + "\"\n"
	res, err := p.Lint(big, LintOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Diagnostics) != 1 || !res.Diagnostics[0].InputError || !strings.Contains(res.Error, "limit") {
		t.Errorf("a text past the limit: %+v", res)
	}
}

// TestFix: Fix applies one finding's fix, only the bytes it changes
// rewritten, and the finding is gone from the new text; a finding without
// a fix, and an index past the findings, are errors.
func TestFix(t *testing.T) {
	p := newPlayground(t)
	withBOM := "\uFEFF" + described
	res, err := p.Lint(withBOM, LintOptions{})
	if err != nil {
		t.Fatal(err)
	}
	d := find(t, res, "mcpdesc.document.schema-reference/missing")
	after, err := p.Fix(withBOM, FixOptions{Index: d.Index})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(after, "\uFEFF") || !strings.Contains(after, "$schema") || !strings.Contains(after, `name: "🌍 notes"`) {
		t.Errorf("fixed text:\n%s", after)
	}
	again, err := p.Lint(after, LintOptions{})
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range again.Diagnostics {
		if d.ID == "mcpdesc.document.schema-reference/missing" {
			t.Errorf("the fixed finding is still there: %+v", d)
		}
	}
	for _, d := range res.Diagnostics {
		if !d.Fixable {
			if _, err := p.Fix(withBOM, FixOptions{Index: d.Index}); err == nil || !strings.Contains(err.Error(), "has no fix") {
				t.Errorf("fix of %s without one: %v", d.ID, err)
			}
			break
		}
	}
	if _, err := p.Fix(withBOM, FixOptions{Index: len(res.Diagnostics)}); err == nil {
		t.Error("an index past the findings fixes")
	}
}

// TestExplain: a rule's page is ruledoc's, the one celint docs writes,
// with the text celint explain prints; id/code gives the code's text;
// a misspelt id suggests the nearest.
func TestExplain(t *testing.T) {
	p := newPlayground(t)
	const id = "mcpdesc.document.schema-reference"
	page, err := p.Explain(id, "v0.8.0")
	if err != nil {
		t.Fatal(err)
	}
	rs, err := p.rulesets.Catalog().Find("v0.8.0")
	if err != nil {
		t.Fatal(err)
	}
	want, err := ruledoc.Page(rs, rs.Rule(id))
	if err != nil {
		t.Fatal(err)
	}
	if page.Markdown != string(want) || page.Ruleset != "mcpdesc@v0.8.0" || !strings.Contains(page.Text, id) || page.URL == "" {
		t.Errorf("page: %+v", page)
	}
	code, err := p.Explain(id+"/missing", "")
	if err != nil {
		t.Fatal(err)
	}
	if code.Text == page.Text || !strings.Contains(code.Text, "missing") {
		t.Errorf("code text:\n%s", code.Text)
	}
	if _, err := p.Explain("mcpdesc.document.schema-referense", ""); err == nil || !strings.Contains(err.Error(), id) {
		t.Errorf("misspelt id: %v", err)
	}
}

// TestCall: the JavaScript API's answers are JSON of the values above;
// options it does not know, an unknown function and a bad spec are
// errors.
func TestCall(t *testing.T) {
	p := newPlayground(t)
	out, err := p.Call("lint", described, []byte(`{"spec": "v0.8.0", "name": "server.yaml"}`))
	if err != nil {
		t.Fatal(err)
	}
	var lint struct {
		Name        string
		Rulesets    []string
		Diagnostics []map[string]any
	}
	if err := json.Unmarshal(out, &lint); err != nil {
		t.Fatal(err)
	}
	if lint.Name != "server.yaml" || len(lint.Diagnostics) == 0 {
		t.Fatalf("lint: %s", out)
	}
	for _, key := range []string{"index", "ruleId", "id", "severity", "message", "line", "column", "start", "end", "fixable"} {
		if _, ok := lint.Diagnostics[0][key]; !ok {
			t.Errorf("a diagnostic has no %q: %v", key, lint.Diagnostics[0])
		}
	}
	res, _ := p.Lint(described, LintOptions{})
	d := find(t, res, "mcpdesc.document.schema-reference/missing")
	out, err = p.Call("fix", described, []byte(`{"index": `+itoa(d.Index)+`}`))
	if err != nil {
		t.Fatal(err)
	}
	var fixed string
	if err := json.Unmarshal(out, &fixed); err != nil || !strings.Contains(fixed, "$schema") {
		t.Errorf("fix: %s %v", out, err)
	}
	if _, err := p.Call("fix", described, nil); err == nil {
		t.Error("fix without an index fixes")
	}
	out, err = p.Call("rules", "v0.7.0", nil)
	if err != nil {
		t.Fatal(err)
	}
	var rules []Rule
	if err := json.Unmarshal(out, &rules); err != nil || len(rules) == 0 || rules[0].Ruleset != "mcpdesc@v0.7.0" {
		t.Errorf("rules: %.300s %v", out, err)
	}
	out, err = p.Call("explain", "mcpdesc.document.schema-reference", []byte(`{"spec": "v0.7.0"}`))
	if err != nil || !strings.Contains(string(out), `"ruleset":"mcpdesc@v0.7.0"`) {
		t.Errorf("explain: %.300s %v", out, err)
	}
	out, err = p.Call("versions", "", []byte("undefined"))
	if err != nil || !strings.Contains(string(out), `"celint":"test"`) || !strings.Contains(string(out), `"spec":"mcpdesc@v0.7.0"`) {
		t.Errorf("versions: %.300s %v", out, err)
	}
	for _, c := range []struct{ method, opts string }{
		{"lint", `{"spek": "v0.7.0"}`},
		{"lint", `{"spec": "v9.9.9"}`},
		{"lint", `[1]`},
		{"check", ``},
	} {
		if out, err := p.Call(c.method, described, []byte(c.opts)); err == nil {
			t.Errorf("%s(%s) answers %.100s", c.method, c.opts, out)
		}
	}
}

// itoa formats n.
func itoa(n int) string {
	b, _ := json.Marshal(n)
	return string(b)
}

// TestWasmBuild: the WebAssembly entry builds for GOOS=js GOARCH=wasm, and
// vets there (its glue compiles only for js/wasm).
func TestWasmBuild(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the WebAssembly module")
	}
	goTool, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go command on PATH")
	}
	if out, err := exec.Command(goTool, "tool", "dist", "list").Output(); err != nil || !strings.Contains(string(out), "js/wasm") {
		t.Skipf("the toolchain does not build js/wasm: %v", err)
	}
	out := filepath.Join(t.TempDir(), "celint.wasm")
	cmd := exec.Command(goTool, "build", "-trimpath", "-o", out, "github.com/celint/celint/cmd/celint-wasm")
	cmd.Env = append(os.Environ(), "GOOS=js", "GOARCH=wasm")
	if b, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("GOOS=js GOARCH=wasm go build: %v\n%s", err, b)
	}
	head := make([]byte, 4)
	f, err := os.Open(out)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if _, err := f.Read(head); err != nil || string(head) != "\x00asm" {
		t.Errorf("the output is no WebAssembly module: %q %v", head, err)
	}
}
