package main

import (
	"encoding/json"
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

// TestCheckSARIFFixes: the SARIF report of celint check carries the fix of
// a finding as replacements that, made on the file as it was checked, give
// what celint fix --write makes of it. A document read from standard input
// has its fixes too, in the file it is reported as.
func TestCheckSARIFFixes(t *testing.T) {
	dir := t.TempDir()
	rules := filepath.Join(dir, "house")
	write(t, rules, "rules.yaml", fixFolder)
	src, err := os.ReadFile(example)
	if err != nil {
		t.Fatal(err)
	}
	before := strings.Replace(string(src), "    description: Delete a note for good.\n", "", 1)
	doc := write(t, dir, "server.yaml", before)

	_, out, errOut := runCLI(t, "check", "--no-config", "--rules", rules, "--format", "sarif", doc)
	got := applySARIFFix(t, out, "house.tools.described", before)
	if code, _, _ := runCLI(t, "fix", "--write", "--rules", rules, doc); code != exitOK {
		t.Fatalf("fix --write: exit %d", code)
	}
	want, err := os.ReadFile(doc)
	if err != nil {
		t.Fatal(err)
	}
	if got != string(want) || got == before {
		t.Errorf("the SARIF fix gives\n%s\ncelint fix --write gives\n%s%s", got, want, errOut)
	}

	for name, uri := range map[string]string{"piped.yaml": "piped.yaml", "": "%3Cstdin%3E"} {
		args := []string{"check", "--no-config", "--rules", rules, "--format", "sarif", "-"}
		if name != "" {
			args = append(args, "--stdin-name", name)
		}
		_, out, _ := runCLIWithInput(t, before, args...)
		if !strings.Contains(out, `"uri": "`+uri+`"`) {
			t.Errorf("stdin as %q: no artifact %s:\n%.2000s", name, uri, out)
		}
		if got := applySARIFFix(t, out, "house.tools.described", before); got != string(want) {
			t.Errorf("stdin as %q: the SARIF fix gives\n%s", name, got)
		}
	}
}

// applySARIFFix makes on src the replacements of the one fix of the one
// result of rule in the SARIF log out, by their character offsets.
func applySARIFFix(t *testing.T, out, rule, src string) string {
	t.Helper()
	var log struct {
		Runs []struct {
			Results []struct {
				RuleID string
				Fixes  []struct {
					ArtifactChanges []struct {
						Replacements []struct {
							DeletedRegion   struct{ CharOffset, CharLength int }
							InsertedContent struct{ Text string }
						}
					}
				}
			}
		}
	}
	if err := json.Unmarshal([]byte(out), &log); err != nil || len(log.Runs) != 1 {
		t.Fatalf("%v\n%s", err, out)
	}
	for _, res := range log.Runs[0].Results {
		if res.RuleID != rule {
			continue
		}
		if len(res.Fixes) != 1 || len(res.Fixes[0].ArtifactChanges) != 1 {
			t.Fatalf("the result of %s has no fix of one file:\n%s", rule, out)
		}
		text := []rune(src)
		var b []rune
		last := 0
		for _, r := range res.Fixes[0].ArtifactChanges[0].Replacements {
			start := r.DeletedRegion.CharOffset
			b = append(append(b, text[last:start]...), []rune(r.InsertedContent.Text)...)
			last = start + r.DeletedRegion.CharLength
		}
		return string(append(b, text[last:]...))
	}
	t.Fatalf("no result of %s:\n%s", rule, out)
	return ""
}

// TestWriteKeepsBOM: fix --write and migrate --write keep the byte order
// mark a file starts with, and write what they would without it after it.
func TestWriteKeepsBOM(t *testing.T) {
	const bom = "\ufeff"
	for _, tt := range []struct {
		name string
		args []string
		src  string
	}{
		{"fix", []string{"fix", "--write"}, ""},
		{"migrate", []string{"migrate", "--to", "v0.8.0", "--write"}, "testdata/migrate/ticket-desk.yaml"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			// Without a source, a description whose missing $schema
			// is fixed.
			src := []byte("mcpdesc: \"0.8.0\"\ninfo: {name: demo, version: \"1.0.0\"}\nprotocolVersions: [\"2025-06-18\"]\ntransports:\n  - {type: stdio, command: demo}\n")
			if tt.src != "" {
				var err error
				if src, err = os.ReadFile(tt.src); err != nil {
					t.Fatal(err)
				}
			}
			dir := t.TempDir()
			plain := write(t, dir, "plain.yaml", string(src))
			marked := write(t, dir, "marked.yaml", bom+string(src))
			for _, f := range []string{plain, marked} {
				if code, _, errOut := runCLI(t, append(tt.args, f)...); code > exitFindings {
					t.Fatalf("%v %s: exit %d: %s", tt.args, f, code, errOut)
				}
			}
			want, _ := os.ReadFile(plain)
			got, _ := os.ReadFile(marked)
			if string(want) == string(src) {
				t.Fatalf("%v changed nothing: the test needs a file it changes", tt.args)
			}
			if string(got) != bom+string(want) {
				t.Errorf("%v on a file with a byte order mark wrote:\n%q\nwant the mark, then:\n%q", tt.args, got[:min(len(got), 80)], want[:min(len(want), 80)])
			}
		})
	}
}
