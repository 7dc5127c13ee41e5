package action

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"go.yaml.in/yaml/v4"
)

// root is the repository's root, the action's path.
const root = "../.."

// actionFile is the part of action.yml the tests read.
type actionFile struct {
	Inputs  map[string]struct{ Default string }
	Outputs map[string]struct{ Value string }
	Runs    struct {
		Using string
		Steps []struct {
			ID   string
			Name string
			If   string
			Uses string
			Run  string
			With map[string]string
			Env  map[string]string
		}
	}
}

func readAction(t *testing.T) (actionFile, string) {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(root, "action.yml"))
	if err != nil {
		t.Fatal(err)
	}
	var a actionFile
	if err := yaml.Unmarshal(data, &a); err != nil {
		t.Fatalf("action.yml: %v", err)
	}
	return a, string(data)
}

// scriptRef is how a step runs one of the scripts of this folder.
var scriptRef = regexp.MustCompile(`"\$GITHUB_ACTION_PATH/([^"]+)"`)

// scriptVar is a variable a script reads that the action's step sets:
// INPUT_* and CELINT_VERSION.
var scriptVar = regexp.MustCompile(`\$\{?((?:INPUT_[A-Z_]+)|CELINT_VERSION)`)

// TestActionFile: action.yml is a composite action that builds celint
// with actions/setup-go from the Go version of the action's go.mod,
// downloads no binary, runs scripts that exist, pins upload-sarif to a
// major version, uses every input it declares, and passes inputs to the
// shell only through the environment.
func TestActionFile(t *testing.T) {
	a, text := readAction(t)
	if a.Runs.Using != "composite" {
		t.Errorf("runs.using = %q, want composite", a.Runs.Using)
	}
	var setupGo, upload, scripts int
	for _, s := range a.Runs.Steps {
		switch {
		case strings.HasPrefix(s.Uses, "actions/setup-go@"):
			setupGo++
			if got := s.With["go-version-file"]; got != "${{ github.action_path }}/go.mod" {
				t.Errorf("setup-go go-version-file = %q, want the action's go.mod", got)
			}
		case strings.HasPrefix(s.Uses, "github/codeql-action/upload-sarif@"):
			upload++
			if !regexp.MustCompile(`@v\d+$`).MatchString(s.Uses) {
				t.Errorf("%s is not pinned to a major version", s.Uses)
			}
			if !strings.Contains(s.If, "inputs.upload-sarif") {
				t.Errorf("the upload does not depend on the upload-sarif input: if %q", s.If)
			}
		case s.Uses != "":
			t.Errorf("unexpected action %s", s.Uses)
		}
		if s.Run == "" {
			continue
		}
		if strings.Contains(s.Run, "${{") {
			t.Errorf("step %q splices an expression into its command; pass it through env: %q", s.Name, s.Run)
		}
		for _, word := range []string{"curl", "wget", "releases/download", "go install"} {
			if strings.Contains(s.Run, word) {
				t.Errorf("step %q downloads: %q", s.Name, s.Run)
			}
		}
		for _, m := range scriptRef.FindAllStringSubmatch(s.Run, -1) {
			scripts++
			script, err := os.ReadFile(filepath.Join(root, m[1]))
			if err != nil {
				t.Errorf("step %q runs %s: %v", s.Name, m[1], err)
				continue
			}
			// The step gives the script every variable of its own it
			// reads, and none it does not read.
			read := map[string]bool{}
			for _, v := range scriptVar.FindAllStringSubmatch(string(script), -1) {
				read[v[1]] = true
			}
			for v := range read {
				if _, ok := s.Env[v]; !ok {
					t.Errorf("step %q does not set %s, which %s reads", s.Name, v, m[1])
				}
			}
			for v := range s.Env {
				if !read[v] {
					t.Errorf("step %q sets %s, which %s never reads", s.Name, v, m[1])
				}
			}
		}
	}
	if setupGo != 1 || upload != 1 || scripts != 2 {
		t.Errorf("%d setup-go steps, %d upload-sarif steps, %d scripts; want 1, 1 and 2", setupGo, upload, scripts)
	}
	for name := range a.Inputs {
		if !strings.Contains(text, "inputs."+name+" ") && !strings.Contains(text, "inputs."+name+"}") {
			t.Errorf("input %s is never used", name)
		}
	}
	for _, want := range []string{"paths", "spec", "config", "fail-on", "sarif-file", "upload-sarif"} {
		if _, ok := a.Inputs[want]; !ok {
			t.Errorf("no input %s", want)
		}
	}
	for name, o := range a.Outputs {
		if !strings.Contains(o.Value, "steps.check.outputs."+name) {
			t.Errorf("output %s = %q, not the check step's", name, o.Value)
		}
	}
}

// stepEnv returns the environment of running a step outside a runner:
// the GITHUB_* files in dir, and env added.
func stepEnv(dir string, env map[string]string) []string {
	out := []string{
		"GITHUB_OUTPUT=" + filepath.Join(dir, "output"),
		"GITHUB_PATH=" + filepath.Join(dir, "path"),
		"GITHUB_ENV=" + filepath.Join(dir, "env"),
		"GITHUB_STEP_SUMMARY=" + filepath.Join(dir, "summary"),
		"RUNNER_TEMP=" + filepath.Join(dir, "tmp"),
		"GITHUB_WORKSPACE=" + filepath.Join(dir, "workspace"),
		"GITHUB_ACTIONS=true",
	}
	for _, kv := range os.Environ() {
		if k, _, _ := strings.Cut(kv, "="); !strings.HasPrefix(k, "GITHUB_") && !strings.HasPrefix(k, "INPUT_") && k != "RUNNER_TEMP" {
			out = append(out, kv)
		}
	}
	for k, v := range env {
		out = append(out, k+"="+v)
	}
	return out
}

// outputs reads the name=value lines of a GITHUB_OUTPUT file.
func outputs(t *testing.T, file string) map[string]string {
	t.Helper()
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	m := map[string]string{}
	for _, l := range strings.Split(strings.TrimSuffix(string(data), "\n"), "\n") {
		k, v, ok := strings.Cut(l, "=")
		if !ok {
			t.Errorf("GITHUB_OUTPUT line %q is not name=value", l)
		}
		m[k] = v
	}
	return m
}

// exampleRule is the rule the example description breaks.
const exampleRule = "mcpdesc.elicitation.form-schema.consistency"

// TestActionSteps runs the action's shell steps as a runner would: the
// build step puts celint on GITHUB_PATH, and the check step, in a
// workspace holding the example description under an awkward name and a
// copy whose name and text forge workflow commands, writes a valid SARIF
// log with the example's finding, prints one annotation a finding,
// celint's own with the document's text escaped, and sets exit-code and
// sarif-file; with fail-on never and no sarif-file, it sets exit-code 0
// and an empty sarif-file, which skips the upload.
func TestActionSteps(t *testing.T) {
	bash, err := exec.LookPath("bash")
	if err != nil {
		t.Skip("no bash")
	}
	abs, err := filepath.Abs(root)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	for _, d := range []string{"tmp", "workspace/docs"} {
		if err := os.MkdirAll(filepath.Join(dir, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	build := exec.Command(bash, filepath.Join(abs, "internal/action/build.sh"))
	build.Env = stepEnv(dir, map[string]string{"GITHUB_ACTION_PATH": abs, "CELINT_VERSION": "v0.9.0"})
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("build.sh: %v\n%s", err, out)
	}
	pathFile, err := os.ReadFile(filepath.Join(dir, "path"))
	if err != nil {
		t.Fatal(err)
	}
	binDir := strings.TrimSpace(string(pathFile))
	if _, err := os.Stat(filepath.Join(binDir, "celint")); err != nil {
		t.Fatalf("GITHUB_PATH names %q, which holds no celint: %v", binDir, err)
	}
	if out, err := exec.Command(filepath.Join(binDir, "celint"), "version").Output(); err != nil || !strings.Contains(string(out), "v0.9.0") {
		t.Errorf("celint version: %v\n%s", err, out)
	}

	example, err := os.ReadFile(filepath.Join(root, "examples/notes-server.mcpdesc.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	ws := filepath.Join(dir, "workspace")
	const awkward = "docs/notes,server:1.yaml"
	if err := os.WriteFile(filepath.Join(ws, awkward), example, 0o644); err != nil {
		t.Fatal(err)
	}
	// A document whose name and text forge commands of their own: a line
	// break, "::", "%" and "," in the name, and in the required name the
	// finding quotes.
	forged := strings.Replace(string(example), "required: [confirmed]", `required: ["x\n::error file=README.md::pwned %0A"]`, 1)
	if forged == string(example) {
		t.Fatal("the example has no 'required: [confirmed]' any more")
	}
	const forgedName = "-forged\n::error file=README.md,line=1::pwned %0A.yaml"
	if err := os.WriteFile(filepath.Join(ws, forgedName), []byte(forged), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Join(ws, "out"), 0o755); err != nil {
		t.Fatal(err)
	}

	check := exec.Command(bash, filepath.Join(abs, "internal/action/check.sh"))
	check.Dir = ws
	check.Env = stepEnv(dir, map[string]string{
		"PATH": binDir + string(os.PathListSeparator) + os.Getenv("PATH"),
		// Blanks around a path and blank lines are dropped, CRLF too; a
		// path that starts with '-' is no flag.
		"INPUT_PATHS":      "  " + awkward + "\n\n-forged*.yaml\r\n",
		"INPUT_SPEC":       "",
		"INPUT_CONFIG":     "",
		"INPUT_FAIL_ON":    "error",
		"INPUT_SARIF_FILE": "out/celint.sarif",
	})
	stdout, err := check.Output()
	if err != nil {
		t.Fatalf("check.sh failed (it must always succeed): %v\n%s", err, stdout)
	}
	out := outputs(t, filepath.Join(dir, "output"))
	if out["exit-code"] != "1" || out["sarif-file"] != "out/celint.sarif" {
		t.Errorf("outputs %v, want exit-code 1 and sarif-file out/celint.sarif", out)
	}

	// The annotations: one line a finding, each celint's command, with
	// the file's name escaped as a property and the message as data.
	lines := strings.Split(strings.TrimSuffix(string(stdout), "\n"), "\n")
	if len(lines) != 2 {
		t.Fatalf("%d lines on stdout, want 2 annotations:\n%s", len(lines), stdout)
	}
	want := []string{
		"::error file=-forged%0A%3A%3Aerror file=README.md%2Cline=1%3A%3Apwned %250A.yaml,line=58,col=22,title=" + exampleRule + "/required-undeclared::" +
			`required name "x\n::error file=README.md::pwned %250A" is not a declared property (/tools/1/elicitations/0/requestedSchema/required/0)`,
		"::error file=docs/notes%2Cserver%3A1.yaml,line=58,col=22,title=" + exampleRule + "/required-undeclared::" +
			`required name "confirmed" is not a declared property (/tools/1/elicitations/0/requestedSchema/required/0)`,
	}
	if !slices.Equal(lines, want) {
		t.Errorf("annotations:\n%s\nwant:\n%s", strings.Join(lines, "\n"), strings.Join(want, "\n"))
	}

	// The SARIF log.
	data, err := os.ReadFile(filepath.Join(ws, "out/celint.sarif"))
	if err != nil {
		t.Fatal(err)
	}
	var log struct {
		Version string
		Runs    []struct {
			Results []struct {
				RuleID    string
				Locations []struct {
					PhysicalLocation struct {
						ArtifactLocation struct{ URI string }
						Region           struct{ StartLine int }
					}
				}
			}
		}
	}
	if err := json.Unmarshal(data, &log); err != nil {
		t.Fatalf("the SARIF log is not JSON: %v", err)
	}
	if log.Version != "2.1.0" || len(log.Runs) != 1 || len(log.Runs[0].Results) != 2 {
		t.Fatalf("SARIF %s with %d runs; want 2.1.0, one run with 2 results:\n%.2000s", log.Version, len(log.Runs), data)
	}
	for _, r := range log.Runs[0].Results {
		loc := r.Locations[0].PhysicalLocation
		if r.RuleID != exampleRule || loc.Region.StartLine != 58 {
			t.Errorf("result %s at %s:%d, want %s at line 58", r.RuleID, loc.ArtifactLocation.URI, loc.Region.StartLine, exampleRule)
		}
	}

	// fail-on never, no SARIF log.
	if err := os.Remove(filepath.Join(dir, "output")); err != nil {
		t.Fatal(err)
	}
	check = exec.Command(bash, filepath.Join(abs, "internal/action/check.sh"))
	check.Dir = ws
	check.Env = stepEnv(dir, map[string]string{
		"PATH":             binDir + string(os.PathListSeparator) + os.Getenv("PATH"),
		"INPUT_PATHS":      "docs",
		"INPUT_FAIL_ON":    "never",
		"INPUT_SARIF_FILE": "",
	})
	if stdout, err := check.Output(); err != nil || len(stdout) == 0 {
		t.Fatalf("check.sh: %v\n%s", err, stdout)
	}
	if out := outputs(t, filepath.Join(dir, "output")); out["exit-code"] != "0" || out["sarif-file"] != "" {
		t.Errorf("outputs %v, want exit-code 0 and no sarif-file", out)
	}
}
