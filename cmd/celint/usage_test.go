package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"
)

// TestUsageErrors: a command-line mistake is one line and a hint, exit 2;
// asking for help prints it on standard output, exit 0.
func TestUsageErrors(t *testing.T) {
	for _, tt := range []struct {
		args       []string
		code       int
		out, err   string // substrings
		maxErrLine int
	}{
		{[]string{"check", "--bogus", "x"}, exitError, "", "flag provided but not defined: -bogus\nRun 'celint check -h' for its flags.", 2},
		{[]string{"check", "--color", "maybe", example}, exitError, "", `--color "maybe": expected auto, always or never`, 2},
		{[]string{"check", "--max-bytes", "10KiBB", example}, exitError, "", "expected a size in bytes, such as 1048576, 10KB or 16MiB", 2},
		{[]string{"check", "--max-bytes", "2GiB", example}, exitError, "", "--max-bytes: at most 1073741824 (1GiB), the largest document celint reads", 2},
		{[]string{"check", "--max-bytes", "9223372036854775807", example}, exitError, "", "--max-bytes: at most 1073741824", 2},
		{[]string{"check", "--max-bytes", "1GiB", example}, exitFindings, "", "", 0},
		{[]string{"check", "-h"}, exitOK, "Usage: celint check", "", 0},
		{[]string{"help", "check"}, exitOK, "Usage: celint check", "", 0},
		{[]string{"help"}, exitOK, "celint check [flags]", "", 0},
		{[]string{"rules", "extra"}, exitError, "", `rules takes no arguments, got ["extra"]`, 2},
		{[]string{"explain", "mcpdesc.tools.schemaa"}, exitError, "", "did you mean mcpdesc.tools.schema?", 1},
		{[]string{"frobnicate"}, exitError, "", "unknown command \"frobnicate\"\nRun 'celint help' for the commands.", 2},
		{[]string{"conformance", "--fixtures", "/nonexistent/fixtures"}, exitError, "", "--fixtures /nonexistent/fixtures: not a folder of fixtures", 1},
	} {
		code, out, errOut := runCLI(t, tt.args...)
		if code != tt.code || !strings.Contains(out, tt.out) || !strings.Contains(errOut, tt.err) {
			t.Errorf("%q: exit %d\nstdout: %s\nstderr: %s", tt.args, code, out, errOut)
		}
		if n := strings.Count(errOut, "\n"); n > tt.maxErrLine {
			t.Errorf("%q: %d lines on stderr, want at most %d:\n%s", tt.args, n, tt.maxErrLine, errOut)
		}
	}
}

// TestByteSizes: --max-bytes takes a number of bytes or a size with a unit.
func TestByteSizes(t *testing.T) {
	for in, want := range map[string]int64{"0": 0, "1024": 1024, "10KB": 10_000, "10kib": 10 << 10, "16MiB": 16 << 20, "1GB": 1e9, "2 MB": 2e6, "3k": 3 << 10} {
		var b byteSize
		if err := b.Set(in); err != nil || int64(b) != want {
			t.Errorf("%q: %d, %v; want %d", in, b, err, want)
		}
	}
	for _, in := range []string{"", "KB", "-1", "1.5MB", "10KiBB", "99999999999999GB"} {
		var b byteSize
		if err := b.Set(in); err == nil {
			t.Errorf("%q: accepted as %d", in, b)
		}
	}
}

// TestConformanceQuiet: passes are listed only with -v; a run in which
// every example was skipped fails.
func TestConformanceQuiet(t *testing.T) {
	code, out, _ := runCLI(t, "conformance")
	if code != exitOK || strings.Contains(out, "pass ") || !strings.Contains(out, "0 failed") {
		t.Errorf("default: exit %d\n%s", code, out)
	}
	code, out, _ = runCLI(t, "conformance", "-v")
	if code != exitOK || !strings.Contains(out, "pass ") {
		t.Errorf("-v: exit %d\n%.400s", code, out)
	}
	empty := t.TempDir()
	code, out, errOut := runCLI(t, "conformance", "--fixtures", empty, "--rules", writeSkippingRules(t), "--spec", "skip@v1")
	if code == exitOK || !strings.Contains(errOut, "checked no example: every one was skipped") {
		t.Errorf("nothing checked: exit %d\n%s%s", code, out, errOut)
	}
}

// writeSkippingRules is a rules folder whose one rule's examples all have
// fixture sources, which an empty --fixtures folder skips.
func writeSkippingRules(t *testing.T) string {
	dir := t.TempDir()
	write(t, dir, "ruleset.yaml", "name: skip\ntag: v1\nfixtures: fx\n")
	write(t, dir, "rules.yaml", `rules:
  - id: skip.one
    level: must
    given: a
    checks:
      - assert: "true"
    examples:
      valid: [{source: a.json, selected: /a}]
      invalid: [{source: b.json, selected: /a}]
`)
	write(t, dir, "fx/a.json", `{"a": 1}`)
	write(t, dir, "fx/b.json", `{"a": 1}`)
	return dir
}

// TestNoInventedPositions: a missing file, an unmatched glob and an empty
// folder are reported without a line and column, in every format.
func TestNoInventedPositions(t *testing.T) {
	dir := t.TempDir()
	empty := filepath.Join(dir, "empty")
	if err := os.Mkdir(empty, 0o755); err != nil {
		t.Fatal(err)
	}
	args := []string{"check", "--no-config", filepath.Join(dir, "missing.yaml"), filepath.Join(dir, "zz*.json"), empty}
	_, text, _ := runCLI(t, append(args, "--format", "text")...)
	if strings.Contains(text, "1:1") || strings.Count(text, "  -  error  input error") != 3 {
		t.Errorf("text:\n%s", text)
	}
	_, js, _ := runCLI(t, append(args, "--format", "json")...)
	if strings.Contains(js, `"line"`) || strings.Count(js, `"inputError": true`) != 3 {
		t.Errorf("json:\n%s", js)
	}
	_, gh, _ := runCLI(t, append(args, "--format", "github")...)
	if strings.Contains(gh, "line=") || strings.Count(gh, "::error file=") != 3 {
		t.Errorf("github:\n%s", gh)
	}
	_, sarif, _ := runCLI(t, append(args, "--format", "sarif")...)
	if strings.Contains(sarif, `"startLine"`) || strings.Count(sarif, `"descriptor"`) != 3 || !strings.Contains(sarif, `"executionSuccessful": false`) {
		t.Errorf("sarif:\n%s", sarif)
	}
}

// TestWalks: folder walks and globs skip hidden entries, node_modules and
// vendor; '**' matches any number of folders, none included; a walked file
// that is no description is skipped with a note, a named one is an error.
func TestWalks(t *testing.T) {
	src, err := os.ReadFile(example)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	for _, f := range []string{"top.yaml", "a/mid.yaml", "a/b/deep.yaml", ".hidden/h.yaml", "node_modules/m/x.yaml", "vendor/v.yaml"} {
		write(t, dir, f, string(src))
	}
	write(t, dir, "package.json", `{"name": "pkg", "version": "1.0.0"}`)
	t.Chdir(dir)
	for _, tt := range []struct {
		args  []string
		files []string
	}{
		{[]string{"."}, []string{"top.yaml", "a/mid.yaml", "a/b/deep.yaml"}},
		{[]string{"a/**/*.yaml"}, []string{"a/mid.yaml", "a/b/deep.yaml"}},
		{[]string{"**/*.yaml"}, []string{"top.yaml", "a/mid.yaml", "a/b/deep.yaml"}},
		{[]string{".hidden/*.yaml"}, []string{".hidden/h.yaml"}},
		{[]string{"vendor/*.yaml"}, []string{"vendor/v.yaml"}},
	} {
		code, out, errOut := runCLI(t, append([]string{"check", "--no-config", "--format", "json"}, tt.args...)...)
		got := strings.Count(out, `"file": `) / 2 // each file is listed, and named by its diagnostic
		for _, f := range tt.files {
			if !strings.Contains(out, `"file": "`+f+`"`) {
				t.Errorf("%q: %s not checked (exit %d)\n%s%s", tt.args, f, code, out, errOut)
			}
		}
		if got != len(tt.files) {
			t.Errorf("%q: %d diagnostics, want one for each of %v\n%s", tt.args, got, tt.files, out)
		}
		if tt.args[0] == "." && !strings.Contains(errOut, "celint: skipped package.json: not a description") {
			t.Errorf("walk: no note for package.json: %s", errOut)
		}
	}
	code, out, _ := runCLI(t, "check", "--no-config", "package.json")
	if code != exitError || !strings.Contains(out, "not a description: it has no mcpdesc member") {
		t.Errorf("named package.json: exit %d\n%s", code, out)
	}
	code, out, _ = runCLI(t, "check", "--no-config", "--spec", "v0.9.0-rc.3", "package.json")
	if code != exitError || !strings.Contains(out, "not a description") {
		t.Errorf("pinned package.json: exit %d\n%s", code, out)
	}
	write(t, dir, "badver.yaml", "mcpdesc: 0.9\n")
	_, out, _ = runCLI(t, "check", "--no-config", "badver.yaml")
	if !strings.Contains(out, "1:10  error  input error: mcpdesc is the number 0.9; a description declares its version as a string") {
		t.Errorf("a number for the version:\n%s", out)
	}
}

// TestOutputs: --output FORMAT=FILE adds reports; --output FILE moves the
// stdout report; --quiet keeps errors only; --max-warnings fails a run with
// more warnings.
func TestOutputs(t *testing.T) {
	dir := t.TempDir()
	sarif, js, txt := filepath.Join(dir, "c.sarif"), filepath.Join(dir, "c.json"), filepath.Join(dir, "c.txt")
	code, out, _ := runCLI(t, "check", "--no-config", "--output", "sarif="+sarif, "--output", "json="+js, example)
	if code != exitFindings || !strings.Contains(out, "58:22  error") {
		t.Errorf("stdout: exit %d\n%s", code, out)
	}
	for f, want := range map[string]string{sarif: `"version": "2.1.0"`, js: `"ruleId": "mcpdesc.elicitation.form-schema.consistency"`} {
		if data, err := os.ReadFile(f); err != nil || !strings.Contains(string(data), want) {
			t.Errorf("%s: %v\n%.300s", f, err, data)
		}
	}
	code, out, _ = runCLI(t, "check", "--no-config", "--color", "always", "--output", txt, example)
	data, _ := os.ReadFile(txt)
	if code != exitFindings || out != "" || !strings.Contains(string(data), "58:22  error") || strings.Contains(string(data), "\x1b[") {
		t.Errorf("--output FILE: exit %d, stdout %q, file:\n%s", code, out, data)
	}
	for _, bad := range []string{"xml=x", "json=", ""} {
		if code, _, errOut := runCLI(t, "check", "--no-config", "--output", bad, example); code != exitError || !strings.Contains(errOut, "--output") {
			t.Errorf("--output %q: exit %d %s", bad, code, errOut)
		}
	}
	cfg := write(t, dir, "warn.yaml", "rules: {mcpdesc.elicitation.form-schema.consistency: warning}\n")
	code, out, _ = runCLI(t, "check", "--config", cfg, "--quiet", "--fail-on", "warning", example)
	if code != exitFindings || strings.Contains(out, "58:22") {
		t.Errorf("--quiet: exit %d\n%s", code, out)
	}
	if code, _, errOut := runCLI(t, "check", "--config", cfg, "--max-warnings", "0", example); code != exitFindings || !strings.Contains(errOut, "1 warning, more than --max-warnings 0") {
		t.Errorf("--max-warnings 0: exit %d %s", code, errOut)
	}
	if code, _, _ := runCLI(t, "check", "--config", cfg, "--max-warnings", "1", example); code != exitOK {
		t.Errorf("--max-warnings 1: exit %d", code)
	}
}

// TestRulesJSON: rules --format json lists every rule with its codes.
func TestRulesJSON(t *testing.T) {
	code, out, _ := runCLI(t, "rules", "--format", "json")
	type rule struct {
		ID, Level, Severity, Title, File string
		BuiltIn                          bool
		Codes                            []struct{ Code, Level string }
	}
	var v []struct {
		Ruleset string
		Rules   []rule
	}
	if err := json.Unmarshal([]byte(out), &v); err != nil || code != exitOK || len(v) == 0 {
		t.Fatalf("exit %d, %v: %.300s", code, err, out)
	}
	// One entry per embedded ruleset, each with its rules.
	var all []string
	for _, rs := range v {
		all = append(all, rs.Ruleset)
		if len(rs.Rules) == 0 {
			t.Errorf("%s lists no rule", rs.Ruleset)
		}
	}
	var rules []rule
	seed := 0
	for _, rs := range v {
		rules = append(rules, rs.Rules...)
		if rs.Ruleset == "mcpdesc@v0.9.0-rc.3" {
			seed = len(rs.Rules)
		}
	}
	if seed < 50 || !slices.Contains(all, "mcpdesc@v0.7.0") {
		t.Fatalf("rulesets %v; want mcpdesc@v0.9.0-rc.3 with at least 50 rules (has %d), and mcpdesc@v0.7.0", all, seed)
	}
	found := false
	for _, r := range rules {
		if r.ID == "mcpdesc.elicitation.form-schema.consistency" {
			for _, c := range r.Codes {
				found = found || c.Code == "required-undeclared" && c.Level == "must"
			}
		}
		if r.Title == "" || r.File == "" && !r.BuiltIn || r.Severity == "" && r.ID != "celint.limit" {
			t.Errorf("rule %+v lacks a field", r)
		}
		if strings.Contains(strings.ToLower(r.Title), "about:") {
			t.Errorf("rule %s: a stray \"about:\" in its title %q", r.ID, r.Title)
		}
	}
	if !found {
		t.Error("the code required-undeclared is not listed")
	}
	if code, _, _ := runCLI(t, "rules", "--format", "yaml"); code != exitError {
		t.Errorf("--format yaml: exit %d", code)
	}
}

// TestCompletion: the scripts name every command and the flags of check,
// read from its own help.
func TestCompletion(t *testing.T) {
	for _, sh := range []string{"bash", "zsh", "fish"} {
		code, out, _ := runCLI(t, "completion", sh)
		for _, want := range []string{"conformance", "baseline", "write-baseline", "no-config", "max-warnings"} {
			if code != exitOK || !strings.Contains(out, want) {
				t.Errorf("%s: exit %d, lacks %q", sh, code, want)
			}
		}
	}
	if code, _, errOut := runCLI(t, "completion", "tcsh"); code != exitError || !strings.Contains(errOut, "unknown shell") {
		t.Errorf("tcsh: exit %d %s", code, errOut)
	}
}

// TestProgress: progress is drawn only once the delay has passed, counts
// the files done, and is erased at the end; off, nothing is written.
func TestProgress(t *testing.T) {
	var buf syncBuffer
	p := startProgress(&buf, 3, true, 0)
	p.update(2)
	for i := 0; i < 200 && !strings.Contains(buf.String(), "checked 2/3 files"); i++ {
		time.Sleep(10 * time.Millisecond)
	}
	p.finish()
	out := buf.String()
	if !strings.Contains(out, "\rchecked 2/3 files (") || !strings.HasSuffix(out, "\r\x1b[K") {
		t.Errorf("progress wrote %q", out)
	}
	var quiet syncBuffer
	q := startProgress(&quiet, 3, true, time.Hour)
	q.update(3)
	q.finish()
	off := startProgress(&quiet, 3, false, 0)
	off.update(1)
	off.finish()
	if quiet.String() != "" {
		t.Errorf("a short run or no terminal wrote %q", quiet.String())
	}
}

// syncBuffer is a bytes.Buffer safe for the progress goroutine.
type syncBuffer struct {
	mu sync.Mutex
	b  strings.Builder
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// TestHouseRulesetBeside: a --rules folder that is a ruleset of its own
// (no extends, no accepts) runs beside the description's ruleset, whatever
// its tag, pinned or not.
func TestHouseRulesetBeside(t *testing.T) {
	src, err := os.ReadFile(example)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	doc := write(t, dir, "server.yaml", strings.Replace(string(src), "    description: Create a note in a folder.\n", "", 1))
	rules := `rules:
  - id: house.tools.described
    level: should
    given: tools.#
    checks:
      - assert: has(self.description)
        message: tool {self.name} has no description
    examples:
      valid: [{document: {tools: [{name: a, description: d}]}, selected: /tools/0}]
      invalid: [{document: {tools: [{name: a}]}, selected: /tools/0}]
`
	house0 := filepath.Join(dir, "house-pinned")
	write(t, house0, "ruleset.yaml", "name: house\ntag: v0.2.0\n")
	write(t, house0, "rules.yaml", rules)
	pkg := write(t, dir, "package.json", `{"name": "x"}`)
	if _, _, errOut := runCLI(t, "check", "--no-config", "--rules", house0, "--spec", "house@v0.2.0", pkg); !strings.Contains(errOut, "ruleset house@v0.2.0 declares no accepts: it checks every document as one of its own") {
		t.Errorf("pinned ruleset without accepts: no note: %s", errOut)
	}
	for _, tag := range []string{"v1.0.0", "v0.1.0"} {
		house := filepath.Join(dir, "house-"+tag)
		write(t, house, "ruleset.yaml", "name: house\ntag: "+tag+"\n")
		write(t, house, "rules.yaml", rules)
		for _, extra := range [][]string{nil, {"--spec", "v0.9.0-rc.3"}} {
			args := append([]string{"check", "--no-config", "--rules", house}, extra...)
			_, out, errOut := runCLI(t, append(args, doc)...)
			if !strings.Contains(out, "house.tools.described") || !strings.Contains(out, finding) {
				t.Errorf("%s %v: want both rulesets' findings\n%s%s", tag, extra, out, errOut)
			}
		}
		// The description's ruleset is chosen, the house one beside it,
		// and each output says both ran; a package.json is no description.
		for _, tc := range []struct{ format, want string }{
			{"text", "server.yaml  mcpdesc@v0.9.0-rc.3, house@" + tag + "\n"},
			{"json", "\"rulesets\": [\n        \"mcpdesc@v0.9.0-rc.3\",\n        \"house@" + tag + "\"\n      ]"},
			{"sarif", "house@" + tag},
		} {
			_, out, errOut := runCLI(t, "check", "--no-config", "--rules", house, "--format", tc.format, doc)
			if !strings.Contains(out, tc.want) || tc.format == "sarif" && !strings.Contains(out, "mcpdesc@v0.9.0-rc.3") {
				t.Errorf("%s %s: want %q in\n%s%s", tag, tc.format, tc.want, out, errOut)
			}
		}
		code, out, errOut := runCLI(t, "check", "--no-config", "--rules", house, pkg, doc)
		if code != exitError || !strings.Contains(out, "package.json") || !strings.Contains(out, "celint.input") || strings.Contains(errOut, "declares no accepts") {
			t.Errorf("%s: package.json named: exit %d, want an input error, not a lint\n%s%s", tag, code, out, errOut)
		}
		code, out, errOut = runCLI(t, "check", "--no-config", "--rules", house, dir+"/*.json")
		if !strings.Contains(errOut, "skipped") || strings.Contains(out, "house.tools") {
			t.Errorf("%s: package.json found by a glob: exit %d, want it skipped\n%s%s", tag, code, out, errOut)
		}
	}
}

// TestIgnoreFlag: --ignore drops the files a pattern matches, with a note
// for one named on the command line.
func TestIgnoreFlag(t *testing.T) {
	src, err := os.ReadFile(example)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	write(t, dir, "a/one.yaml", string(src))
	write(t, dir, "b/two.yaml", string(src))
	t.Chdir(dir)
	_, out, _ := runCLI(t, "check", "--no-config", "--ignore", "a/**", "--format", "json", ".")
	if strings.Contains(out, "a/one.yaml") || !strings.Contains(out, "b/two.yaml") {
		t.Errorf("--ignore a/**:\n%s", out)
	}
	_, _, errOut := runCLI(t, "check", "--no-config", "--ignore", "two.yaml", "b/two.yaml")
	if !strings.Contains(errOut, `b/two.yaml is not checked: --ignore ignores "two.yaml"`) {
		t.Errorf("named and ignored: %s", errOut)
	}
}

func TestClip(t *testing.T) {
	for _, tt := range []struct {
		in   string
		n    int
		want string
	}{{"abcdef", 0, "abcdef"}, {"abcdef", 6, "abcdef"}, {"abcdef", 4, "abc…"}, {"ééééé", 3, "éé…"}} {
		if got := clip(tt.in, tt.n); got != tt.want {
			t.Errorf("clip(%q, %d) = %q, want %q", tt.in, tt.n, got, tt.want)
		}
	}
}
