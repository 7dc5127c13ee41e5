package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// project makes a folder with three copies of the example (one in legacy/,
// one in gen/) and changes into it.
func project(t *testing.T) string {
	t.Helper()
	src, err := os.ReadFile(example)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	for _, f := range []string{"server.yaml", "legacy/old.yaml", "gen/v.yaml"} {
		write(t, dir, f, string(src))
	}
	t.Chdir(dir)
	return dir
}

const finding = "mcpdesc.elicitation.form-schema.consistency/required-undeclared"

// TestConfigFile: rule levels, overrides (later wins) and ignore patterns
// of the nearest .celint.yaml apply; --no-config and --config choose.
func TestConfigFile(t *testing.T) {
	dir := project(t)
	write(t, dir, ".celint.yaml", `rules:
  mcpdesc.elicitation.form-schema.consistency: warning
overrides:
  - files: ["legacy/**"]
    rules: {`+finding+`: off}
ignore: ["gen/**"]
`)
	code, out, errOut := runCLI(t, "check", ".")
	if code != exitOK || !strings.Contains(out, "server.yaml  mcpdesc@v0.9.0-rc.3\n  58:22  warning") || strings.Contains(out, "legacy") || strings.Contains(out, "gen/") || strings.Contains(out, ".celint.yaml") {
		t.Errorf("with the config: exit %d\n%s%s", code, out, errOut)
	}
	if !strings.Contains(out, "in 1 of 2 files") {
		t.Errorf("the ignored file was checked, or the config file was: %s", out)
	}
	code, out, _ = runCLI(t, "check", "--no-config", ".")
	if code != exitFindings || strings.Count(out, "58:22  error") != 3 {
		t.Errorf("--no-config: exit %d\n%s", code, out)
	}
	// A file named on the command line that the config ignores is not
	// checked, and a note says why.
	_, out, errOut = runCLI(t, "check", "gen/v.yaml")
	if !strings.Contains(errOut, `gen/v.yaml is not checked: `) || !strings.Contains(errOut, `.celint.yaml:6:10 ignores "gen/**"`) || strings.Contains(out, "58:22") {
		t.Errorf("ignored explicit file: %s%s", out, errOut)
	}
	other := write(t, t.TempDir(), "strict.yaml", "failOn: warning\nformat: json\n")
	code, out, _ = runCLI(t, "check", "--config", other, "server.yaml")
	if code != exitFindings || !strings.HasPrefix(out, "{") {
		t.Errorf("--config with failOn and format: exit %d\n%s", code, out)
	}
	if code, _, errOut := runCLI(t, "check", "--config", other, "--no-config", "server.yaml"); code != exitError || !strings.Contains(errOut, "exclude each other") {
		t.Errorf("--config with --no-config: exit %d %s", code, errOut)
	}
}

// TestConfigErrors: a bad config file, or one naming a rule that does not
// exist, stops the run with errors at file:line:col.
func TestConfigErrors(t *testing.T) {
	dir := project(t)
	write(t, dir, ".celint.yaml", "rules:\n  mcpdesc.nope: warning\n  "+finding+": loud\n")
	code, _, errOut := runCLI(t, "check", "server.yaml")
	if code != exitError || !strings.Contains(errOut, `.celint.yaml:3:`) || !strings.Contains(errOut, `expected error, warning, info or off, found "loud"`) {
		t.Errorf("bad level: exit %d %s", code, errOut)
	}
	write(t, dir, ".celint.yaml", "rules:\n  mcpdesc.nope: warning\n  mcpdesc.tools.schema/nope: off\n")
	code, _, errOut = runCLI(t, "check", "server.yaml")
	for _, want := range []string{`.celint.yaml:2:3: rules: no rule or finding "mcpdesc.nope"`, `.celint.yaml:3:3: rules: no rule or finding "mcpdesc.tools.schema/nope"`} {
		if code != exitError || !strings.Contains(errOut, want) {
			t.Errorf("unknown rule: exit %d, want %q in %s", code, want, errOut)
		}
	}
}

// TestSuppressions: a next-line comment hides its rule's finding on the
// next line; one that hides nothing is a warning naming it.
func TestSuppressions(t *testing.T) {
	dir := project(t)
	src, _ := os.ReadFile("server.yaml")
	text := strings.Replace(string(src), "          required: [confirmed]", "          # celint-disable-next-line mcpdesc.elicitation.form-schema.consistency -- tracked elsewhere\n          required: [confirmed]", 1)
	text = strings.Replace(text, "mcpdesc: \"0.9.0\"", "mcpdesc: \"0.9.0\"\n# celint-disable-file mcpdesc.tools.schema", 1)
	write(t, dir, "server.yaml", text)
	code, out, _ := runCLI(t, "check", "--no-config", "server.yaml")
	if strings.Contains(out, "required-undeclared") || !strings.Contains(out, "celint-disable-file names mcpdesc.tools.schema, which reports nothing in this file") || code != exitOK {
		t.Errorf("exit %d\n%s", code, out)
	}
	// The warning about a suppression is a rule a config can turn off.
	write(t, dir, ".celint.yaml", "rules: {celint.suppression/unused: off}\n")
	if _, out, _ := runCLI(t, "check", "server.yaml"); !strings.Contains(out, "no problems") {
		t.Errorf("with the unused warning off:\n%s", out)
	}
}

// TestBaseline: --write-baseline records the findings; --baseline hides
// them even when lines move, reports new ones, and says what it hid and
// what is gone of the files it checked.
func TestBaseline(t *testing.T) {
	dir := project(t)
	code, _, errOut := runCLI(t, "check", "--no-config", "--write-baseline", "base.json", ".")
	if code != exitOK || !strings.Contains(errOut, "recorded 3 findings in base.json") {
		t.Fatalf("write: exit %d %s", code, errOut)
	}
	data, err := os.ReadFile(filepath.Join(dir, "base.json"))
	if err != nil || !strings.Contains(string(data), `"file": "legacy/old.yaml"`) || strings.Contains(string(data), `"line"`) {
		t.Fatalf("baseline file: %v\n%s", err, data)
	}
	// Lines move in one file; another gains a finding; a third is fixed.
	src, _ := os.ReadFile("server.yaml")
	write(t, dir, "server.yaml", "# a comment that moves every line\n"+string(src))
	write(t, dir, "new.yaml", string(src))
	write(t, dir, "gen/v.yaml", strings.Replace(string(src), "required: [confirmed]", "required: []", 1))
	code, out, errOut := runCLI(t, "check", "--no-config", "--baseline", "base.json", ".")
	if code != exitFindings || !strings.Contains(out, "new.yaml") || strings.Contains(out, "server.yaml") || strings.Contains(out, "legacy") {
		t.Errorf("read: exit %d\n%s", code, out)
	}
	if !strings.Contains(errOut, "baseline base.json: 2 findings hidden, 1 recorded finding is gone") {
		t.Errorf("summary: %s", errOut)
	}
	// Only the files checked count: a run over some of the files has none
	// of the others' findings gone.
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"server.yaml"}, "1 finding hidden, 0 recorded findings are gone"},
		{[]string{"gen/v.yaml"}, "0 findings hidden, 1 recorded finding is gone"},
		{[]string{"legacy", "server.yaml"}, "2 findings hidden, 0 recorded findings are gone"},
		{[]string{"new.yaml"}, "0 findings hidden, 0 recorded findings are gone"},
		{[]string{"missing.yaml"}, "0 findings hidden, 0 recorded findings are gone"},
	} {
		args := append([]string{"check", "--no-config", "--baseline", "base.json"}, tc.args...)
		if _, _, errOut := runCLI(t, args...); !strings.Contains(errOut, "baseline base.json: "+tc.want) {
			t.Errorf("%q: %s; want %q", tc.args, errOut, tc.want)
		}
	}
	write(t, dir, "bad.json", `{"version": 2, "findings": []}`)
	if code, _, errOut := runCLI(t, "check", "--no-config", "--baseline", "bad.json", "server.yaml"); code != exitError || !strings.Contains(errOut, "bad.json:1:13: unknown baseline version 2") {
		t.Errorf("bad baseline: exit %d %s", code, errOut)
	}
}

// TestSuppressionUnknownRule: a suppression comment naming an id that no
// loaded rule has says so and suggests the nearest loaded ones; an id of a
// loaded rule that reports nothing is said to report nothing.
func TestSuppressionUnknownRule(t *testing.T) {
	dir := project(t)
	src, _ := os.ReadFile("server.yaml")
	for _, tc := range []struct{ comment, want string }{
		{"# celint-disable-next-line mcpdesc.tools.schma", "celint-disable-next-line names mcpdesc.tools.schma, which no loaded rule has (did you mean mcpdesc.tools.schema?)"},
		{"# celint-disable-file mcpdesc.tools.schema/nope", "celint-disable-file names mcpdesc.tools.schema/nope, which no loaded rule has"},
		{"# celint-disable-next-line acme.zzz, mcpdesc.tools.schema", "celint-disable-next-line names acme.zzz, which no loaded rule has; and mcpdesc.tools.schema, which reports nothing on line 3"},
		{"# celint-disable-next-line mcpdesc.tools.schema", "celint-disable-next-line names mcpdesc.tools.schema, which reports nothing on line 3"},
		{"# celint-disable-file celint.suppression", "celint-disable-file names celint.suppression, which reports nothing in this file"},
	} {
		write(t, dir, "server.yaml", "# a comment\n"+tc.comment+"\n"+string(src))
		_, out, _ := runCLI(t, "check", "--no-config", "server.yaml")
		if !strings.Contains(out, tc.want) {
			t.Errorf("%s: want %q in\n%s", tc.comment, tc.want, out)
		}
	}
}
