package main

import (
	"strings"
	"testing"
)

// TestEveryCommandHelps: every command answers -h with its usage, and
// lists only the flags it uses.
func TestEveryCommandHelps(t *testing.T) {
	for _, cmd := range commands {
		if cmd == "help" {
			continue
		}
		code, out, errOut := runCLI(t, cmd, "-h")
		if code != exitOK || !strings.HasPrefix(out, "Usage: celint "+cmd) {
			t.Errorf("%s -h: exit %d\n%s%s", cmd, code, out, errOut)
		}
	}
	for cmd, want := range map[string]bool{"check": true, "fix": true, "conformance": true, "rules": false, "explain": false, "docs": false, "diff-rules": false} {
		_, out, _ := runCLI(t, cmd, "-h")
		if got := strings.Contains(out, "-cost-limit"); got != want {
			t.Errorf("%s -h lists --cost-limit: %v, want %v", cmd, got, want)
		}
	}
	if code, _, errOut := runCLI(t, "version", "extra"); code != exitError || !strings.Contains(errOut, "no arguments") {
		t.Errorf("version extra: exit %d %s", code, errOut)
	}
}
