package main

import (
	"fmt"
	"os/exec"
	"strings"
	"testing"
)

// TestConcurrentOutputIsDeterministic lints 1,000 files with many workers
// and with one, and expects byte-identical output in every format.
func TestConcurrentOutputIsDeterministic(t *testing.T) {
	if testing.Short() {
		t.Skip("lints 1,000 files")
	}
	dir := t.TempDir()
	for i := 0; i < 1000; i++ {
		var text string
		switch i % 5 {
		case 0:
			text = cleanDoc
		case 1:
			text = strings.Replace(cleanDoc, `"https://example.com/sign-in"`, fmt.Sprintf(`"not a uri %d"`, i), 1)
		case 2:
			text = strings.Replace(cleanDoc, `"mode": "url"`, `"mode": "form"`, 1)
		case 3:
			text = `{"mcpdesc": "0.9.0", "broken": [1, 2,]}`
		default:
			text = fmt.Sprintf("mcpdesc: \"0.9.0\"\nprompts:\n  - name: p%d\n    elicitations:\n      - name: e\n        mode: form\n        message: m\n        requestedSchema: {type: object, properties: {n: {type: integer, minimum: 5, maximum: %d}}, required: [x]}\n", i, i%3)
		}
		write(t, dir, fmt.Sprintf("d%04d.%s", i, map[bool]string{true: "yaml", false: "json"}[i%5 == 4]), text)
	}
	for _, format := range []string{"text", "json", "sarif", "github", "codequality"} {
		codeSerial, serial, _ := runCLI(t, "check", "--jobs", "1", "--format", format, dir)
		codeParallel, parallel, _ := runCLI(t, "check", "--jobs", "16", "--format", format, dir)
		if codeSerial != 2 || codeParallel != 2 {
			t.Errorf("%s: exit codes %d and %d, want 2 (some files are broken)", format, codeSerial, codeParallel)
		}
		if serial != parallel {
			t.Errorf("%s: output differs between --jobs 1 and --jobs 16", format)
		}
		if len(serial) < 1000 {
			t.Errorf("%s: suspiciously short output (%d bytes)", format, len(serial))
		}
	}
}

// TestNoHTTPClient proves the command links no HTTP client: nothing it
// validates can be fetched.
func TestNoHTTPClient(t *testing.T) {
	goTool, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go command on PATH")
	}
	out, err := exec.Command(goTool, "list", "-deps", ".").Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	deps := strings.Fields(string(out))
	if len(deps) < 20 {
		t.Fatalf("go list -deps returned too little: %q", deps)
	}
	for _, d := range deps {
		if d == "net/http" || strings.HasPrefix(d, "net/http/") || d == "net/rpc" || d == "net/smtp" {
			t.Errorf("celint links %s", d)
		}
	}
}
