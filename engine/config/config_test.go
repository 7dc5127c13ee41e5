package config

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

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

const sample = `rules:
  mcpdesc.elicitation.form-schema.consistency: warning
  mcpdesc.tools.schema/compile: off
overrides:
  - files: ["legacy/**/*.yaml"]
    rules: {mcpdesc.elicitation.members: off, mcpdesc.tools.schema/compile: error}
  - files: ["legacy/keep.yaml"]
    rules: {mcpdesc.elicitation.members: info}
ignore: ["vendor/**", "node_modules"]
ruleFolders: [house]
spec: v0.9.0-rc.3
format: sarif
failOn: warning
`

func TestLevels(t *testing.T) {
	dir := t.TempDir()
	c, err := Load(write(t, dir, ".celint.yaml", sample))
	if err != nil {
		t.Fatal(err)
	}
	at := func(rel string) string { return filepath.Join(dir, rel) }
	for _, tt := range []struct {
		file, rule, code string
		want             string
		set              bool
	}{
		{"a.yaml", "mcpdesc.elicitation.form-schema.consistency", "", "warning", true},
		{"a.yaml", "mcpdesc.elicitation.form-schema.consistency", "required-undeclared", "warning", true},
		{"a.yaml", "mcpdesc.tools.schema", "compile", "off", true},
		{"a.yaml", "mcpdesc.tools.schema", "dialect", "", false},
		{"a.yaml", "mcpdesc.elicitation.members", "", "", false},
		{"legacy/x/old.yaml", "mcpdesc.elicitation.members", "", "off", true},
		{"legacy/old.yaml", "mcpdesc.elicitation.members", "", "off", true},
		{"legacy/old.yaml", "mcpdesc.tools.schema", "compile", "error", true},
		{"legacy/keep.yaml", "mcpdesc.elicitation.members", "", "info", true},
		{"legacy/old.json", "mcpdesc.elicitation.members", "", "", false},
	} {
		got, set := c.LevelOf(at(tt.file), tt.rule, tt.code)
		if got != tt.want || set != tt.set {
			t.Errorf("%s %s/%s: %q %v, want %q %v", tt.file, tt.rule, tt.code, got, set, tt.want, tt.set)
		}
	}
	if c.Spec != "v0.9.0-rc.3" || c.Format != "sarif" || c.FailOn != "warning" {
		t.Errorf("spec %q format %q failOn %q", c.Spec, c.Format, c.FailOn)
	}
	if len(c.RuleFolders) != 1 || c.RuleFolders[0] != filepath.Join(dir, "house") {
		t.Errorf("rule folders %v", c.RuleFolders)
	}
}

func TestIgnored(t *testing.T) {
	dir := t.TempDir()
	c, err := Load(write(t, dir, ".celint.yaml", sample))
	if err != nil {
		t.Fatal(err)
	}
	for rel, want := range map[string]bool{
		"vendor/a.yaml":             true,
		"vendor/deep/b.json":        true,
		"node_modules/x/p.json":     true,
		"src/node_modules/p.json":   true,
		"src/a.yaml":                false,
		"vendors/a.yaml":            false,
		"../outside/vendor/a.yaml":  false,
		"legacy/node_modules2.yaml": false,
	} {
		_, got := c.Ignored(filepath.Join(dir, rel))
		if got != want {
			t.Errorf("%s: ignored %v, want %v", rel, got, want)
		}
	}
}

func TestPatternMatch(t *testing.T) {
	for _, tt := range []struct {
		pat, rel string
		want     bool
	}{
		{"**/*.yaml", "a.yaml", true},
		{"**/*.yaml", "x/y/a.yaml", true},
		{"walk/**/*.yaml", "walk/a.yaml", true},
		{"walk/**/*.yaml", "walk/b/c/a.yaml", true},
		{"walk/*.yaml", "walk/b/a.yaml", false},
		{"./docs/*.md", "docs/a.md", true},
		{"*.json", "deep/x.json", true},
		{"a/b", "a/b/c.yaml", true},
		{"a/b", "a/bc.yaml", false},
	} {
		if got := (Pattern{Text: tt.pat}).Match(tt.rel); got != tt.want {
			t.Errorf("%q ~ %q: %v, want %v", tt.pat, tt.rel, got, tt.want)
		}
	}
}

func TestExtends(t *testing.T) {
	dir := t.TempDir()
	write(t, dir, "house/base.yaml", "rules: {r.one: info, r.two: off}\nignore: [gen]\nruleFolders: [rules]\nformat: json\n")
	c, err := Load(write(t, dir, "proj/.celint.yaml", "extends: ../house/base.yaml\nrules: {r.two: warning}\n"))
	if err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(dir, "proj", "a.yaml")
	if l, _ := c.LevelOf(file, "r.one", ""); l != "info" {
		t.Errorf("r.one %q, want info from the base", l)
	}
	if l, _ := c.LevelOf(file, "r.two", ""); l != "warning" {
		t.Errorf("r.two %q, want the file's own warning over the base's off", l)
	}
	if c.Format != "json" || len(c.RuleFolders) != 1 || c.RuleFolders[0] != filepath.Join(dir, "house", "rules") {
		t.Errorf("format %q, folders %v", c.Format, c.RuleFolders)
	}
	write(t, dir, "loop/a.yaml", "extends: b.yaml\n")
	write(t, dir, "loop/b.yaml", "extends: a.yaml\n")
	if _, err := Load(filepath.Join(dir, "loop", "a.yaml")); err == nil || !strings.Contains(err.Error(), "extends itself") {
		t.Errorf("a cycle: %v", err)
	}
}

// TestErrors: every problem of a config file is reported at once, each at
// its line:col, saying what was expected.
func TestErrors(t *testing.T) {
	dir := t.TempDir()
	p := write(t, dir, ".celint.yaml", `rules:
  a.rule: loud
  b.rule: 3
overrides:
  - rules: {a.rule: off}
  - files: ["[bad"]
    colour: red
ignore: vendor
failOn: sometimes
extras: 1
extends: missing.yaml
`)
	_, err := Load(p)
	if err == nil {
		t.Fatal("loaded")
	}
	for _, want := range []string{
		`.celint.yaml:2:11: rules: a.rule: expected error, warning, info or off, found "loud"`,
		`.celint.yaml:3:11: rules: b.rule: expected error, warning, info or off, found a number`,
		`.celint.yaml:5:5: overrides: an override needs files`,
		`.celint.yaml:6:13: files: pattern "[bad"`,
		`.celint.yaml:7:5: overrides: unknown key "colour"`,
		`.celint.yaml:8:9: ignore: expected a list of file patterns, found a string`,
		`.celint.yaml:9:9: failOn: "sometimes" is not a level`,
		`.celint.yaml:10:1: unknown key "extras"`,
		`.celint.yaml:11:10: extends missing.yaml:`,
	} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error lacks %q:\n%v", want, err)
		}
	}
	bad := write(t, dir, "bad/.celint.yaml", "rules: [a\n")
	if _, err := Load(bad); err == nil || !strings.Contains(err.Error(), ".celint.yaml:1:8: invalid YAML: did not find expected ',' or ']': the flow sequence opened here is not closed") {
		t.Errorf("YAML syntax error: %v", err)
	}
}

// TestFind: the nearest config file from a subfolder of a repository up
// to its root is found.
func TestFind(t *testing.T) {
	t.Setenv("HOME", t.TempDir())
	dir := t.TempDir()
	want := write(t, dir, ".celint.yaml", "rules: {}\n")
	if err := os.Mkdir(filepath.Join(dir, ".git"), 0o755); err != nil {
		t.Fatal(err)
	}
	sub := filepath.Join(dir, "a", "b")
	if err := os.MkdirAll(sub, 0o755); err != nil {
		t.Fatal(err)
	}
	got, err := Find(sub)
	if err != nil || got != want {
		t.Errorf("Find = %q, %v; want %q", got, err, want)
	}
}

// TestFindStops: the search stops at the repository root (.git a folder or
// a file) or at the home folder, whichever comes first; outside both, only
// the folder itself is looked at. A config file above is never found.
func TestFindStops(t *testing.T) {
	shared := t.TempDir() // a shared folder such as /tmp
	write(t, shared, ".celint.yaml", "ignore: [\"**\"]\nfailOn: never\n")
	mkdir := func(parts ...string) string {
		p := filepath.Join(append([]string{shared}, parts...)...)
		if err := os.MkdirAll(p, 0o755); err != nil {
			t.Fatal(err)
		}
		return p
	}
	mkdir("repo", ".git")
	write(t, shared, "sub/.git", "gitdir: ../x/.git/modules/sub\n")
	home := mkdir("home")
	t.Setenv("HOME", home)
	cases := []struct {
		name, from, want string
	}{
		{"repository root with a .git folder", mkdir("repo", "a", "b"), ""},
		{"repository root with a .git file", mkdir("sub", "a"), ""},
		{"home folder", mkdir("home", "project", "a"), ""},
		{"neither: only the folder itself", mkdir("loose", "a"), ""},
		{"in the shared folder itself", shared, filepath.Join(shared, ".celint.yaml")},
	}
	for _, c := range cases {
		got, err := Find(c.from)
		if err != nil || got != c.want {
			t.Errorf("%s: Find(%s) = %q, %v; want %q", c.name, c.from, got, err, c.want)
		}
	}
	// Within the boundary, the nearest config file is found.
	inRepo := write(t, shared, "repo/.celint.yaml", "rules: {}\n")
	inHome := write(t, shared, "home/.celint.yaml", "rules: {}\n")
	for from, want := range map[string]string{
		filepath.Join(shared, "repo", "a", "b"):       inRepo,
		filepath.Join(shared, "home", "project", "a"): inHome,
	} {
		if got, err := Find(from); err != nil || got != want {
			t.Errorf("Find(%s) = %q, %v; want %q", from, got, err, want)
		}
	}
}
