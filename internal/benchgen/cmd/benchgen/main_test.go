package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/celint/celint/internal/benchgen"
)

// TestRun: the files are the generators' output; bad usage is refused
// with a message and exit code 2.
func TestRun(t *testing.T) {
	dir := t.TempDir()
	var stderr bytes.Buffer
	j, y, r := filepath.Join(dir, "d.json"), filepath.Join(dir, "d.yaml"), filepath.Join(dir, "rules")
	if code := run([]string{"-tools", "3", "-json", j, "-yaml", y, "-rules", "12", "-rules-dir", r}, &stderr); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr.String())
	}
	for name, want := range map[string][]byte{j: benchgen.Description(3), y: benchgen.DescriptionYAML(3)} {
		got, err := os.ReadFile(name)
		if err != nil || !bytes.Equal(got, want) {
			t.Errorf("%s: %v, or not the generator's output", name, err)
		}
	}
	for name, want := range benchgen.Rules(12) {
		got, err := os.ReadFile(filepath.Join(r, name))
		if err != nil || !bytes.Equal(got, want) {
			t.Errorf("rules/%s: %v, or not the generator's output", name, err)
		}
	}
	for _, args := range [][]string{{}, {"-tools", "-1", "-json", j}, {"extra"}, {"-nope"}} {
		stderr.Reset()
		if code := run(args, &stderr); code != 2 || !strings.Contains(stderr.String(), "benchgen") && !strings.Contains(stderr.String(), "usage") {
			t.Errorf("%q: exit %d, %q", args, code, stderr.String())
		}
	}
}
