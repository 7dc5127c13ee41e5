package main

import (
	"strings"
	"testing"
)

// TestServeRefuses: celint serve refuses an address other machines
// reach unless --allow-remote is given, and takes no arguments; its help
// names its flags.
func TestServeRefuses(t *testing.T) {
	for _, addr := range []string{"0.0.0.0:0", ":0", "[::]:0", "192.0.2.1:0", "example.com:0"} {
		code, out, errOut := runCLI(t, "serve", "--addr", addr)
		if code != exitError || !strings.Contains(errOut, "not a loopback address") || !strings.Contains(errOut, "--allow-remote") || out != "" {
			t.Errorf("serve --addr %s: exit %d\n%s%s", addr, code, out, errOut)
		}
	}
	if code, _, errOut := runCLI(t, "serve", "extra"); code != exitError || !strings.Contains(errOut, "serve takes no arguments") {
		t.Errorf("serve extra: exit %d %s", code, errOut)
	}
	code, out, _ := runCLI(t, "serve", "-h")
	if code != exitOK || !strings.Contains(out, "-addr") || !strings.Contains(out, "-allow-remote") || !strings.Contains(out, defaultServeAddr) {
		t.Errorf("serve -h: exit %d\n%s", code, out)
	}
}
