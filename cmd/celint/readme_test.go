package main

import (
	"os"
	"strings"
	"testing"
)

// TestReadmeInstall: until the module is published, the README's commands
// install celint from a clone; no command line runs 'go install …@latest',
// which cannot find the module yet, and the README says what the
// published path will be.
func TestReadmeInstall(t *testing.T) {
	data, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	text := string(data)
	for _, want := range []string{"git clone https://github.com/celint/celint && cd celint\ngo install ./cmd/celint", "its path will\nbe `github.com/celint/celint`"} {
		if !strings.Contains(text, want) {
			t.Errorf("README lacks %q", want)
		}
	}
	for _, l := range strings.Split(text, "\n") {
		cmd := strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(l), "- run:"))
		if strings.HasPrefix(cmd, "go install") && strings.Contains(cmd, "@latest") {
			t.Errorf("README offers a command that cannot work until the module is published: %s", l)
		}
	}
}
