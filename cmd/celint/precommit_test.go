package main

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"go.yaml.in/yaml/v4"
)

// preCommitHook is a hook of .pre-commit-hooks.yaml.
type preCommitHook struct {
	ID            string   `yaml:"id"`
	Entry         string   `yaml:"entry"`
	Language      string   `yaml:"language"`
	TypesOr       []string `yaml:"types_or"`
	Files         string   `yaml:"files"`
	PassFilenames *bool    `yaml:"pass_filenames"`
}

// TestPreCommitHooks: each hook of .pre-commit-hooks.yaml builds celint
// from the repository (language golang), runs celint check, and is given
// JSON and YAML files; the celint hook's pattern takes the descriptions
// and leaves out other YAML and JSON files. The built command, run with
// each hook's entry as pre-commit runs it, fails on the example
// description and passes a clean one, and the walking hook skips a
// staged file that is no description.
func TestPreCommitHooks(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the command")
	}
	data, err := os.ReadFile("../../.pre-commit-hooks.yaml")
	if err != nil {
		t.Fatal(err)
	}
	var hooks []preCommitHook
	if err := yaml.Unmarshal(data, &hooks); err != nil {
		t.Fatalf(".pre-commit-hooks.yaml: %v", err)
	}
	ids := map[string]preCommitHook{}
	for _, h := range hooks {
		ids[h.ID] = h
		if h.Language != "golang" || !strings.HasPrefix(h.Entry, "celint check") || !slices.Equal(h.TypesOr, []string{"json", "yaml"}) {
			t.Errorf("hook %s: language %q, entry %q, types_or %q; want golang, celint check, [json yaml]", h.ID, h.Language, h.Entry, h.TypesOr)
		}
	}
	staged, all := ids["celint"], ids["celint-all"]
	if staged.ID == "" || all.ID == "" || all.PassFilenames == nil || *all.PassFilenames {
		t.Fatalf("want hooks celint and celint-all, the latter with pass_filenames: false; got %+v", hooks)
	}
	files, err := regexp.Compile(staged.Files)
	if err != nil {
		t.Fatalf("hook celint: files %q: %v", staged.Files, err)
	}
	for name, want := range map[string]bool{
		"examples/notes-server.mcpdesc.yaml": true,
		"servers/weather.mcpdesc.json":       true,
		"a.mcpdesc.yml":                      true,
		".github/workflows/ci.yml":           false,
		"package.json":                       false,
		".pre-commit-config.yaml":            false,
		"mcpdesc.yaml.bak":                   false,
	} {
		if got := files.MatchString(name); got != want {
			t.Errorf("hook celint: files matches %s: %v, want %v", name, got, want)
		}
	}

	goTool, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go command on PATH")
	}
	bin := filepath.Join(t.TempDir(), "celint")
	if out, err := exec.Command(goTool, "build", "-o", bin, ".").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	src, err := os.ReadFile(example)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	write(t, dir, "api/notes.mcpdesc.yaml", string(src))
	write(t, dir, "api/clean.mcpdesc.yaml", strings.Replace(string(src), "required: [confirmed]", "required: []", 1))
	write(t, dir, "package.json", `{"name": "x"}`)
	// run runs a hook's entry in dir as pre-commit does: its words, then
	// the files.
	run := func(h preCommitHook, files ...string) (int, string) {
		words := strings.Fields(h.Entry)
		cmd := exec.Command(bin, append(words[1:], files...)...)
		cmd.Dir = dir
		out, err := cmd.CombinedOutput()
		var ee *exec.ExitError
		if errors.As(err, &ee) {
			return ee.ExitCode(), string(out)
		} else if err != nil {
			t.Fatal(err)
		}
		return 0, string(out)
	}
	if code, out := run(staged, "api/notes.mcpdesc.yaml"); code != exitFindings || !strings.Contains(out, "58:22  error  required name \"confirmed\"") {
		t.Errorf("hook celint on the example: exit %d, want %d\n%s", code, exitFindings, out)
	}
	if code, out := run(staged, "api/clean.mcpdesc.yaml"); code != exitOK {
		t.Errorf("hook celint on a clean description: exit %d, want 0\n%s", code, out)
	}
	if code, out := run(all); code != exitFindings || !strings.Contains(out, "in 1 of 2 files") || !strings.Contains(out, "skipped package.json") {
		t.Errorf("hook celint-all: exit %d, want %d, the example's finding and package.json skipped\n%s", code, exitFindings, out)
	}
}
