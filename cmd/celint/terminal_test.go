package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/celint/celint/internal/safetext"
)

// forged is a file name that, printed at the start of a line, makes GitHub
// Actions show an annotation celint never meant.
const forged = "::error title=Security alert::Your PAT leaked, rotate it now"

// checkTerminalSafe fails t when out carries a raw control, bidi or
// invisible character, or a line that a CI runner would read as a workflow
// command (unless commands is set: the github format's own lines).
func checkTerminalSafe(t *testing.T, what, out string, commands bool) {
	t.Helper()
	for _, r := range out {
		if r != '\n' && safetext.Hidden(r) {
			t.Errorf("%s: raw %U reached the output:\n%q", what, r, out)
			break
		}
	}
	for _, l := range strings.Split(out, "\n") {
		if commands && strings.HasPrefix(l, "::") {
			if !strings.HasPrefix(l, "::error file=") && !strings.HasPrefix(l, "::warning file=") && !strings.HasPrefix(l, "::notice file=") {
				t.Errorf("%s: a line celint did not mean as a workflow command: %q", what, l)
			}
			continue
		}
		if strings.HasPrefix(strings.TrimLeft(l, " \t\u00a0"), "::") || strings.Contains(l, "##[") {
			t.Errorf("%s: a line celint did not mean as a workflow command: %q", what, l)
		}
	}
}

func readFile(t *testing.T, name string) string {
	t.Helper()
	data, err := os.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

// TestForgedWorkflowCommands: a document or a rule file whose name is a
// workflow command is never printed at the start of a line, in any format,
// on stdout or stderr; the github format prints only celint's own
// commands.
func TestForgedWorkflowCommands(t *testing.T) {
	dir := t.TempDir()
	write(t, dir, "docs/"+forged+".json", cleanDoc)
	write(t, dir, "docs/bad "+forged+".yaml", "mcpdesc: \"0.9.0\"\ntools:\n  - name: a\n    name: b\n")
	write(t, dir, "docs/"+forged+" broken.json", "{\n\"mcpdesc\": \"0.9.0\",\n\"tools\": [{\"name\": \"a\", \"elicitations\": [{\"name\": \"x\", \"mode\": \"form\", \"message\": \"m\", \"requestedSchema\": {\"type\": \"object\", \"required\": [\"nope\"]}}]}]}\n")
	t.Chdir(dir)
	for _, format := range []string{"text", "json", "sarif", "github", "codequality"} {
		code, out, errOut := runCLI(t, "check", "--format", format, "docs")
		if code != 2 {
			t.Errorf("%s: exit %d, want 2\n%s%s", format, code, out, errOut)
		}
		checkTerminalSafe(t, format+" stdout", out, format == "github")
		checkTerminalSafe(t, format+" stderr", errOut, false)
		if format == "text" && !strings.Contains(out, "./docs/"+forged+" broken.json\n") && !strings.Contains(out, "docs/"+forged) {
			t.Errorf("text: file header missing:\n%s", out)
		}
	}
	// Named directly, the header line would start with the name.
	code, out, _ := runCLI(t, "check", filepath.Join("docs", forged+" broken.json"), forged+".json")
	if code != 2 || !strings.Contains(out, "./"+forged+".json\n") {
		t.Errorf("exit %d; want the header ./%s.json:\n%s", code, forged, out)
	}
	checkTerminalSafe(t, "text stdout", out, false)

	// A rule file so named, with a CEL error that echoes an escape
	// sequence, in a folder given as ".": every stderr line is safe.
	write(t, dir, "rules/"+forged+".yaml", "rules:\n  - id: acme.x\n    level: must\n    given: tools.#\n    checks:\n      - assert: \"self.name + \\e[2J\\e[H\"\n")
	t.Chdir(filepath.Join(dir, "rules"))
	for _, cmd := range [][]string{{"check", "--rules", ".", "../docs"}, {"rules", "--rules", "."}, {"conformance", "--rules", "."}} {
		code, out, errOut := runCLI(t, cmd...)
		if code != 2 || !strings.Contains(errOut, "<U+003A>:error title=Security alert") || !strings.Contains(errOut, "'<U+001B>'") {
			t.Errorf("%v: exit %d, stderr:\n%s", cmd, code, errOut)
		}
		checkTerminalSafe(t, cmd[0]+" stdout", out, false)
		checkTerminalSafe(t, cmd[0]+" stderr", errOut, false)
	}
}

// hostileRules is a rule folder whose metadata, messages and examples try
// to act on the terminal.
const hostileRules = `rules:
  - id: acme.hostile
    title: "clear \e[2J\e[H title \e]0;pwned\a"
    surface: "Tool\u202E\u2066 reversed\u2069"
    owner: "owner \u009b31m \x7f"
    description: "::error title=Forged::from a description. \u200B\u200D\u2028\u2029 ##[warning]legacy"
    requirement: "::warning::requirement"
    level: must
    given: tools.#
    checks:
      - assert: "false"
        at: name
        message: "bad \e[31m red \u202E{self.name}"
    examples:
      valid: [{title: "\e[2J valid", document: {mcpdesc: "0.9.0", tools: [{name: "a\u202Eb"}]}, selected: /tools/0}]
      invalid: [{title: "\u2066 invalid", document: {mcpdesc: "0.9.0", tools: [{name: "x\u200By"}]}, selected: /tools/0/name}]
`

// TestHostileRuleMetadata: escape sequences, C1 controls, bidi and
// invisible characters from a rule file reach neither rules, explain,
// conformance nor check output raw; they are shown as "<U+XXXX>", and the
// JSON outputs keep the original text.
func TestHostileRuleMetadata(t *testing.T) {
	dir := t.TempDir()
	rules := write(t, dir, "rules/hostile.yaml", hostileRules)
	rules = filepath.Dir(rules)
	doc := write(t, dir, "doc.json", `{"mcpdesc": "0.9.0", "tools": [{"name": "t\u202Eu"}]}`)

	code, out, errOut := runCLI(t, "rules", "--rules", rules)
	if code != 0 || !strings.Contains(out, "Tool<U+202E><U+2066> reversed<U+2069>") || !strings.Contains(out, "clear <U+001B>[2J<U+001B>[H title <U+001B>]0;pwned<U+0007>") {
		t.Errorf("rules: exit %d\n%s%s", code, out, errOut)
	}
	checkTerminalSafe(t, "rules", out+errOut, false)

	code, out, errOut = runCLI(t, "explain", "--rules", rules, "acme.hostile")
	if code != 0 || !strings.Contains(out, "<U+003A>:error title=Forged::from a description.") || !strings.Contains(out, "owner <U+009B>31m <U+007F>") {
		t.Errorf("explain: exit %d\n%s%s", code, out, errOut)
	}
	checkTerminalSafe(t, "explain", out+errOut, false)

	code, out, errOut = runCLI(t, "conformance", "--rules", rules, "--spec", "v0.9.0-rc.3", "-v")
	if code != 1 || !strings.Contains(out, "acme.hostile") {
		t.Errorf("conformance: exit %d\n%s%s", code, out, errOut)
	}
	checkTerminalSafe(t, "conformance", out+errOut, false)
	_, out, _ = runCLI(t, "conformance", "--rules", rules, "--spec", "v0.9.0-rc.3", "--format", "json")
	checkTerminalSafe(t, "conformance json", out, false)
	if !json.Valid([]byte(out)) {
		t.Errorf("conformance json is not JSON:\n%s", out)
	}

	for _, format := range []string{"text", "github", "json", "sarif"} {
		code, out, errOut = runCLI(t, "check", "--rules", rules, "--rule", "acme.hostile", "--format", format, doc)
		if code != 1 || !strings.Contains(out, "red") {
			t.Errorf("check %s: exit %d\n%s%s", format, code, out, errOut)
		}
		checkTerminalSafe(t, "check "+format, out+errOut, format == "github")
	}
	_, out, _ = runCLI(t, "check", "--rules", rules, "--rule", "acme.hostile", doc)
	if !strings.Contains(out, `bad <U+001B>[31m red <U+202E>"t\u202eu"`) {
		t.Errorf("check text: message not escaped as expected:\n%s", out)
	}
	_, out, _ = runCLI(t, "check", "--rules", rules, "--rule", "acme.hostile", "--format", "json", doc)
	var rep struct{ Diagnostics []struct{ Message string } }
	if err := json.Unmarshal([]byte(out), &rep); err != nil || len(rep.Diagnostics) != 1 || rep.Diagnostics[0].Message != "bad \x1b[31m red \u202e\"t\\u202eu\"" {
		t.Errorf("check json: the original message is not kept (%v):\n%s", err, out)
	}

	docs := filepath.Join(dir, "pages")
	if code, _, errOut := runCLI(t, "docs", "--rules", rules, "--spec", "v0.9.0-rc.3", "--out", docs); code != 0 {
		t.Fatalf("docs: exit %d\n%s", code, errOut)
	}
	// Pages are files, not terminal output: only raw characters matter.
	for _, name := range []string{"acme-hostile/index.md", "index.md"} {
		page := readFile(t, filepath.Join(docs, "0.9.0-rc.3", "mcpdesc", filepath.FromSlash(name)))
		for _, r := range page {
			if r != '\n' && safetext.Hidden(r) {
				t.Errorf("docs %s: raw %U:\n%s", name, r, page)
				break
			}
		}
		if !strings.Contains(page, `Tool\<U+202E\>\<U+2066\> reversed\<U+2069\>`) {
			t.Errorf("docs %s: surface not escaped as expected:\n%s", name, page)
		}
	}
}

// TestHostileRulesetHeader: a ruleset name or tag that is not lower-case
// words or a version is refused when the folder loads, at its line:col,
// with exit code 2 and nothing raw on stderr.
func TestHostileRulesetHeader(t *testing.T) {
	for _, tc := range []struct{ name, header, want string }{
		{"escape in name", "name: \"x\\e[2J\\e]0;t\\a\"\ntag: v1\n", `ruleset.yaml:1:7: ruleset name "x\x1b[2J\x1b]0;t\a": expected lower-case words`},
		{"bidi in tag", "name: acme\ntag: \"v1\\u202E\"\n", `ruleset.yaml:2:6: ruleset tag "v1\u202e": expected a version`},
		{"workflow command", "name: \"::error::x\"\ntag: v1\n", `ruleset.yaml:1:7: ruleset name "::error::x"`},
		{"type error echoing bytes", "name: acme\ntag: v1\nlibrary: \"\\e[2J\\e[H\"\n", `ruleset.yaml:3:10:`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			write(t, dir, "ruleset.yaml", tc.header)
			write(t, dir, "r.yaml", "rules: []\n")
			for _, cmd := range []string{"rules", "explain", "conformance"} {
				args := []string{cmd, "--rules", dir}
				if cmd == "explain" {
					args = append(args, "acme.x")
				}
				code, out, errOut := runCLI(t, args...)
				if code != 2 || !strings.Contains(errOut, tc.want) {
					t.Errorf("%s: exit %d, stderr lacks %q:\n%s%s", cmd, code, tc.want, out, errOut)
				}
				checkTerminalSafe(t, cmd, out+errOut, false)
			}
		})
	}
}
