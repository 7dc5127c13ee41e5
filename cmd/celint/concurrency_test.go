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

// TestNoHTTPClient proves that celint makes no HTTP request: nothing it
// validates can be fetched.
//
// celint serve links net/http for its server, so the package is in the
// build and a check of the imports alone cannot tell a server from a
// client. What can is the linker: it drops every function no code path
// reaches, so a binary in which nothing constructs a request has no code
// of net/http's client (Client.Do, Transport.RoundTrip, the connection
// pool) and no top-level Get or Post. The test builds celint and looks for
// those symbols; a single http.Get anywhere in celint brings them back and
// fails it. The packages that exist only to make requests or send mail
// must not be imported at all.
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
		switch d {
		case "net/rpc", "net/smtp", "net/http/cookiejar", "net/http/httputil", "net/http/httptest":
			t.Errorf("celint links %s", d)
		}
	}

	bin := buildCelint(t)
	out, err = exec.Command(goTool, "tool", "nm", bin).Output()
	if err != nil {
		t.Fatalf("go tool nm: %v", err)
	}
	syms := string(out)
	if !strings.Contains(syms, " main.main\n") {
		t.Fatalf("go tool nm lists no main.main: no symbol table to check")
	}
	for _, client := range []string{
		" net/http.(*Client).",
		" net/http.(*Transport).RoundTrip",
		" net/http.(*Transport).roundTrip",
		" net/http.(*Transport).dialConn",
		" net/http.(*persistConn).",
		" net/http.(*http2Transport).RoundTrip",
		" net/http.Get\n",
		" net/http.Post\n",
		" net/http.Head\n",
	} {
		if strings.Contains(syms, client) {
			t.Errorf("celint has net/http client code: %s", strings.TrimSpace(client))
		}
	}
}
