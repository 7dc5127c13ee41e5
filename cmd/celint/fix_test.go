package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// fixFolder is a rule folder whose rule fixes tools without a description.
const fixFolder = `rules:
  - id: house.tools.described
    title: Describe every tool
    level: should
    given: $tools
    checks:
      - assert: has(self.description)
        message: the tool has no description
        fix:
          edits: [{op: add, at: description, value: '"TODO: describe " + self.name'}]
    examples:
      valid: [{document: {tools: [{name: t, description: d}]}}]
      invalid:
        - document: {tools: [{name: t}]}
          fixed: {tools: [{name: t, description: "TODO: describe t"}]}
`

// TestFix: celint fix prints the fixes as a unified diff and changes
// nothing; with --write it rewrites the file, its comments and layout
// kept, and a second run has nothing left to fix. A file that is no
// description is reported and left untouched.
func TestFix(t *testing.T) {
	dir := t.TempDir()
	rules := filepath.Join(dir, "house")
	write(t, rules, "rules.yaml", fixFolder)
	src, err := os.ReadFile(example)
	if err != nil {
		t.Fatal(err)
	}
	doc := write(t, dir, "server.yaml", strings.Replace(string(src), "    description: Delete a note for good.\n", "", 1))
	other := write(t, dir, "package.json", `{"name": "x"}`)

	code, out, errOut := runCLI(t, "fix", "--rules", rules, doc)
	if code != exitOK || !strings.Contains(out, "+    description: \"TODO: describe delete_note\"\n") || !strings.HasPrefix(out, "--- a/"+doc) {
		t.Errorf("diff: exit %d\n%s%s", code, out, errOut)
	}
	if now, _ := os.ReadFile(doc); strings.Contains(string(now), "TODO") {
		t.Error("without --write the file changed")
	}

	code, _, errOut = runCLI(t, "fix", "--write", "--rules", rules, doc, other)
	if code != exitError || !strings.Contains(errOut, "fixed 1 file") || !strings.Contains(errOut, "package.json: not a description, left as it is") {
		t.Errorf("--write: exit %d %s", code, errOut)
	}
	now, _ := os.ReadFile(doc)
	want := strings.Replace(string(src), "    description: Delete a note for good.\n", "    description: \"TODO: describe delete_note\"\n", 1)
	// The new member goes after the tool's last one, not where the old
	// description stood: compare without it.
	if strings.Count(string(now), "TODO") != 1 || strings.Replace(string(now), "    description: \"TODO: describe delete_note\"\n", "", 1) != strings.Replace(want, "    description: \"TODO: describe delete_note\"\n", "", 1) {
		t.Errorf("the fixed file:\n%s", now)
	}
	if data, _ := os.ReadFile(other); string(data) != `{"name": "x"}` {
		t.Error("package.json changed")
	}
	if code, out, _ := runCLI(t, "fix", "--rules", rules, doc); code != exitOK || out != "" {
		t.Errorf("a second run: exit %d\n%s", code, out)
	}
	if code, _, errOut := runCLI(t, "fix", "-"); code != exitError || !strings.Contains(errOut, "not standard input") {
		t.Errorf("stdin: exit %d %s", code, errOut)
	}
}
