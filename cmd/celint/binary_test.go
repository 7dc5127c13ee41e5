package main

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestBuiltBinary runs the built celint as a user does, for the exit codes a
// process really returns (which `go run` would turn into 1) and what it
// prints: the first check, usage mistakes and help, a config file, a
// suppression, a baseline, SARIF to a file, walks and completion.
func TestBuiltBinary(t *testing.T) {
	bin := buildCelint(t)
	src, err := os.ReadFile(example)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	write(t, dir, "server.yaml", string(src))
	write(t, dir, "node_modules/x/bad.yaml", "{")
	write(t, dir, "package.json", `{"name": "x"}`)
	suppressed := strings.Replace(string(src), "          required: [confirmed]", "          # celint-disable-next-line mcpdesc.elicitation.form-schema.consistency\n          required: [confirmed]", 1)
	write(t, dir, "quiet/server.yaml", suppressed)
	write(t, dir, "warn.yaml", "rules: {mcpdesc.elicitation.form-schema.consistency: warning}\n")

	for _, tt := range []struct {
		name   string
		args   []string
		code   int
		stdout string // substrings; "" for none
		stderr string
	}{
		{"first check", []string{"check", "--no-config", "server.yaml"}, 1, "58:22  error  required name \"confirmed\"", ""},
		// The built command finds the shipped checked expressions (the
		// keys do not depend on how the binary was built).
		{"checked expressions", []string{"check", "--no-config", "--stats=1", "server.yaml"}, 1, "58:22", " from the rulesets' checked expressions, 0 parsed and type-checked\n"},
		{"unknown flag", []string{"check", "--bogus"}, 2, "", "flag provided but not defined: -bogus\nRun 'celint check -h' for its flags.\n"},
		{"check -h", []string{"check", "-h"}, 0, "Usage: celint check", ""},
		{"help check", []string{"help", "check"}, 0, "-write-baseline file", ""},
		{"config file", []string{"check", "--config", "warn.yaml", "server.yaml"}, 0, "58:22  warning", ""},
		{"suppression", []string{"check", "--no-config", "quiet/server.yaml"}, 0, "no problems", ""},
		{"write baseline", []string{"check", "--no-config", "--write-baseline", "base.json", "server.yaml"}, 0, "58:22", "recorded 1 finding in base.json"},
		{"read baseline", []string{"check", "--no-config", "--baseline", "base.json", "server.yaml"}, 0, "no problems", "1 finding hidden, 0 recorded findings are gone"},
		{"sarif file", []string{"check", "--no-config", "--output", "sarif=out.sarif", "server.yaml"}, 1, "58:22", ""},
		{"walk", []string{"check", "--no-config", "."}, 1, "in 1 of 2 files", "skipped package.json: not a description"},
		{"named non-description", []string{"check", "--no-config", "package.json"}, 2, "not a description", ""},
		{"missing file", []string{"check", "--no-config", "nothere.yaml"}, 2, "-  error  input error: cannot read", ""},
		{"conformance", []string{"conformance"}, 0, " passed, 0 failed", ""},
		{"completion", []string{"completion", "bash"}, 0, "complete -o default -F _celint celint", ""},
	} {
		t.Run(tt.name, func(t *testing.T) {
			cmd := exec.Command(bin, tt.args...)
			cmd.Dir = dir
			var out, errb strings.Builder
			cmd.Stdout, cmd.Stderr = &out, &errb
			err := cmd.Run()
			code := 0
			var ee *exec.ExitError
			if errors.As(err, &ee) {
				code = ee.ExitCode()
			} else if err != nil {
				t.Fatal(err)
			}
			if code != tt.code || !strings.Contains(out.String(), tt.stdout) || !strings.Contains(errb.String(), tt.stderr) {
				t.Errorf("celint %s: exit %d, want %d\nstdout:\n%s\nstderr:\n%s", strings.Join(tt.args, " "), code, tt.code, out.String(), errb.String())
			}
		})
	}
	if data, err := os.ReadFile(filepath.Join(dir, "out.sarif")); err != nil || !strings.Contains(string(data), `"helpUri": "https://mcpdesc.org/docs/rules/0.9.0-rc.3/mcpdesc/`) {
		t.Errorf("out.sarif: %v\n%.300s", err, data)
	}
}

// buildCelint builds the command into a temporary folder and returns the
// binary's path. It skips the test under -short or without a go command.
func buildCelint(t *testing.T) string {
	t.Helper()
	if testing.Short() {
		t.Skip("builds the command")
	}
	goTool, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go command on PATH")
	}
	bin := filepath.Join(t.TempDir(), "celint")
	if out, err := exec.Command(goTool, "build", "-o", bin, ".").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	return bin
}
