package main

import (
	"encoding/json"
	"fmt"
	"os"
	"strings"
	"testing"
)

// exampleRule is the rule the example description breaks.
const exampleRule = "mcpdesc.elicitation.form-schema.consistency"

// readExample returns examples/notes-server.mcpdesc.yaml.
func readExample(t *testing.T) string {
	t.Helper()
	data, err := os.ReadFile("../../examples/notes-server.mcpdesc.yaml")
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

// TestIncludeSuppressed: in a folder with the example twice, its finding
// suppressed by a comment in one and by a baseline in the other,
// --include-suppressed adds both to the sarif log as suppressed results
// (inSource and external) and changes nothing else: not the exit code,
// not the output of any other format, nor that of sarif without it.
func TestIncludeSuppressed(t *testing.T) {
	example := readExample(t)
	commented := strings.Replace(example, "          required: [confirmed]\n",
		"          # celint-disable-next-line "+exampleRule+" -- the form is fixed upstream\n          required: [confirmed]\n", 1)
	if commented == example {
		t.Fatal("the example has no line 'required: [confirmed]' any more")
	}
	dir := t.TempDir()
	write(t, dir, "a/commented.yaml", commented)
	write(t, dir, "b/baselined.yaml", example)
	t.Chdir(dir)
	if code, out, errOut := runCLI(t, "check", "--write-baseline", "base.json", "b"); code != exitOK {
		t.Fatalf("--write-baseline: exit %d\n%s%s", code, out, errOut)
	}
	for _, format := range []string{"text", "json", "jsonl", "sarif", "github", "codequality"} {
		plainCode, plain, _ := runCLI(t, "check", "--baseline", "base.json", "--format", format, "a", "b")
		withCode, with, errOut := runCLI(t, "check", "--baseline", "base.json", "--include-suppressed", "--format", format, "a", "b")
		if plainCode != exitOK || withCode != exitOK {
			t.Errorf("%s: exit %d without --include-suppressed, %d with, want 0\n%s", format, plainCode, withCode, errOut)
		}
		if format != "sarif" {
			if with != plain {
				t.Errorf("%s: --include-suppressed changes the output:\n%s\n---\n%s", format, plain, with)
			}
			continue
		}
		if strings.Contains(plain, "suppressions") {
			t.Errorf("sarif without --include-suppressed has suppressions:\n%s", plain)
		}
		var log struct {
			Runs []struct {
				Results []struct {
					RuleID    string
					Locations []struct {
						PhysicalLocation struct{ ArtifactLocation struct{ URI string } }
					}
					Suppressions []struct{ Kind string }
				}
			}
		}
		if err := json.Unmarshal([]byte(with), &log); err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, r := range log.Runs[0].Results {
			var kinds []string
			for _, s := range r.Suppressions {
				kinds = append(kinds, s.Kind)
			}
			got = append(got, r.Locations[0].PhysicalLocation.ArtifactLocation.URI+" "+r.RuleID+" "+strings.Join(kinds, ","))
		}
		want := []string{"a/commented.yaml " + exampleRule + " inSource", "b/baselined.yaml " + exampleRule + " external"}
		if strings.Join(got, "\n") != strings.Join(want, "\n") {
			t.Errorf("sarif results:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
		}
	}
	// The flag is documented.
	_, help, _ := runCLI(t, "check", "-h")
	if !strings.Contains(help, "-include-suppressed") {
		t.Errorf("check -h does not document --include-suppressed:\n%s", help)
	}
}

// TestSARIFRuleHelp: the sarif log of a run gives each rule the help that
// celint explain prints of it, and a Markdown page headed by its title.
func TestSARIFRuleHelp(t *testing.T) {
	dir := t.TempDir()
	file := write(t, dir, "notes.yaml", readExample(t))
	code, out, errOut := runCLI(t, "check", "--format", "sarif", file)
	if code != exitFindings {
		t.Fatalf("exit %d, want %d\n%s", code, exitFindings, errOut)
	}
	var log struct {
		Runs []struct {
			Tool struct {
				Driver struct {
					Rules []struct {
						ID               string
						ShortDescription struct{ Text string }
						Help             struct{ Text, Markdown string }
					}
				}
			}
		}
	}
	if err := json.Unmarshal([]byte(out), &log); err != nil {
		t.Fatal(err)
	}
	found := false
	for _, r := range log.Runs[0].Tool.Driver.Rules {
		if r.ID != exampleRule {
			continue
		}
		found = true
		_, explain, _ := runCLI(t, "explain", exampleRule)
		if r.Help.Text == "" || r.Help.Text != explain {
			t.Errorf("help.text is not what celint explain prints:\n%.500s\n---\n%.500s", r.Help.Text, explain)
		}
		if !strings.HasPrefix(r.Help.Markdown, "# "+r.ShortDescription.Text+"\n\n") || !strings.Contains(r.Help.Markdown, "## Details") {
			t.Errorf("help.markdown is not the rule's page:\n%.500s", r.Help.Markdown)
		}
	}
	if !found {
		t.Errorf("no rule %s in the log", exampleRule)
	}
}

// TestSARIFSameEveryRun: files of two format versions share rule ids, each
// rule with a page per version; the log is the same on every run.
func TestSARIFSameEveryRun(t *testing.T) {
	dir := t.TempDir()
	doc := "mcpdesc: \"%s\"\ninfo: {name: demo, version: 1.0.0}\nprotocolVersions: [\"2025-06-18\"]\ntransports: [{type: stdio, command: demo}]\ntools: [{name: t, description: x, inputSchema: {type: object, additionalProperties: false}, size: 1}]\n"
	a := write(t, dir, "a.yaml", fmt.Sprintf(doc, "0.8.0"))
	b := write(t, dir, "b.yaml", fmt.Sprintf(doc, "0.9.0"))
	var first string
	for i := range 10 {
		_, out, errOut := runCLI(t, "check", "--format", "sarif", a, b)
		if !strings.Contains(out, "mcpdesc.tools.tool") {
			t.Fatalf("no finding of mcpdesc.tools.tool:\n%.2000s\n%s", out, errOut)
		}
		if i == 0 {
			first = out
		} else if out != first {
			x, y := strings.Split(first, "\n"), strings.Split(out, "\n")
			for k := range min(len(x), len(y)) {
				if x[k] != y[k] {
					t.Fatalf("run %d differs from the first at line %d:\n%s\n%s", i+1, k+1, x[k], y[k])
				}
			}
			t.Fatalf("run %d differs from the first in length", i+1)
		}
	}
}
