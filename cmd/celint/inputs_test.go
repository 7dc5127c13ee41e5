//go:build unix

package main

import (
	"encoding/json"
	"net"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// runWithin runs the CLI and fails the test instead of hanging when the run
// takes longer than d.
func runWithin(t *testing.T, d time.Duration, stdin string, args ...string) (int, string, string) {
	t.Helper()
	type result struct {
		code     int
		out, err string
	}
	done := make(chan result, 1)
	go func() {
		code, out, errOut := runCLIWithInput(t, stdin, args...)
		done <- result{code, out, errOut}
	}()
	select {
	case r := <-done:
		return r.code, r.out, r.err
	case <-time.After(d):
		t.Fatalf("celint %s: still running after %v", strings.Join(args, " "), d)
	}
	return 0, "", ""
}

// TestSpecialFileDocuments: a named pipe or a device given as a document,
// directly, through a symbolic link or met while walking a folder, is
// refused at once with one located input error naming it, and the other
// files of the run are still checked.
func TestSpecialFileDocuments(t *testing.T) {
	dir := t.TempDir()
	walked := filepath.Join(dir, "walked")
	if err := os.Mkdir(walked, 0o755); err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{filepath.Join(dir, "given.yaml"), filepath.Join(walked, "fifo.json")} {
		if err := syscall.Mkfifo(p, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for link, target := range map[string]string{
		filepath.Join(dir, "zero.yaml"):      "/dev/zero",
		filepath.Join(walked, "zero.yaml"):   "/dev/zero",
		filepath.Join(walked, "random.json"): "/dev/urandom",
		filepath.Join(walked, "tofifo.yaml"): "fifo.json",
	} {
		if err := os.Symlink(target, link); err != nil {
			t.Fatal(err)
		}
	}
	l, err := net.Listen("unix", filepath.Join(walked, "sock.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	want := map[string]string{
		"given.yaml":  "a named pipe (FIFO), not a regular file",
		"zero.yaml":   "a character device, not a regular file",
		"fifo.json":   "a named pipe (FIFO), not a regular file",
		"random.json": "a character device, not a regular file",
		"tofifo.yaml": "a named pipe (FIFO), not a regular file",
		"sock.yaml":   "a socket, not a regular file",
	}
	code, out, errOut := runWithin(t, 20*time.Second, "", "check", "--format", "json",
		filepath.Join(dir, "given.yaml"), filepath.Join(dir, "zero.yaml"), walked, example)
	if code != 2 {
		t.Errorf("exit %d, want 2; stderr: %s", code, errOut)
	}
	var v struct {
		Diagnostics []struct {
			File, Message string
			Line, Column  int
			InputError    bool
		}
	}
	if err := json.Unmarshal([]byte(out), &v); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	got := map[string][]string{}
	for _, d := range v.Diagnostics {
		got[d.File] = append(got[d.File], d.Message)
		if strings.Contains(d.Message, "regular file") && (!d.InputError || d.Line != 0 || d.Column != 0) {
			t.Errorf("%s: %+v, want an input error of the file as a whole, with no position", d.File, d)
		}
	}
	files := map[string]string{
		filepath.Join(dir, "given.yaml"):     "given.yaml",
		filepath.Join(dir, "zero.yaml"):      "zero.yaml",
		filepath.Join(walked, "fifo.json"):   "fifo.json",
		filepath.Join(walked, "zero.yaml"):   "zero.yaml",
		filepath.Join(walked, "random.json"): "random.json",
		filepath.Join(walked, "tofifo.yaml"): "tofifo.yaml",
		filepath.Join(walked, "sock.yaml"):   "sock.yaml",
	}
	for file, base := range files {
		if msgs := got[file]; len(msgs) != 1 || !strings.Contains(msgs[0], want[base]) || !strings.Contains(msgs[0], "standard input as '-'") {
			t.Errorf("%s: %q, want one input error with %q", file, msgs, want[base])
		}
	}
	if msgs := got[filepath.Clean(example)]; len(msgs) != 1 || !strings.Contains(msgs[0], "confirmed") {
		t.Errorf("the ordinary file was not linted alongside: %q", msgs)
	}
	// Standard input is still read.
	data, err := os.ReadFile(example)
	if err != nil {
		t.Fatal(err)
	}
	if code, out, _ := runWithin(t, 20*time.Second, string(data), "check", "--stdin-name", "piped.yaml", "-"); code != 1 || !strings.Contains(out, "piped.yaml") {
		t.Errorf("standard input: exit %d\n%s", code, out)
	}
}

// TestStdinNameReadsNoFile: the code frame of standard input comes from
// the bytes read, whatever --stdin-name says, and a file literally named
// <stdin> is read from the disk like any file.
func TestStdinNameReadsNoFile(t *testing.T) {
	dir := t.TempDir()
	secret := write(t, dir, "secret.json", "{\"mcpdesc\": \"0.9.0\",\n \"password\": \"hunter2\"}\n")
	stdin := "{\"mcpdesc\": \"0.9.0\",\n \"x\": [1,]}\n"
	for _, format := range []string{"text", "json", "sarif", "github"} {
		code, out, errOut := runWithin(t, 20*time.Second, stdin, "check", "--format", format, "--color", "never", "--stdin-name", secret, "-")
		if code != 2 || strings.Contains(out+errOut, "hunter2") {
			t.Errorf("%s: exit %d, and the output shows the file named by --stdin-name:\n%s%s", format, code, out, errOut)
		}
		if format == "text" && !strings.Contains(out, `2 |  "x": [1,]}`) {
			t.Errorf("text: no code frame from standard input:\n%s", out)
		}
	}
	// A file named like --stdin-name next to '-' is refused: their
	// diagnostics and code frames could not be told apart.
	if code, _, errOut := runCLIWithInput(t, stdin, "check", "--stdin-name", secret, "-", secret); code != 2 || !strings.Contains(errOut, "also the name of a file") {
		t.Errorf("--stdin-name naming a checked file: exit %d, %s", code, errOut)
	}
	// A file named <stdin> is a file.
	t.Chdir(dir)
	write(t, dir, "<stdin>", cleanDoc)
	code, out, errOut := runWithin(t, 20*time.Second, stdin, "check", "<stdin>")
	if code != 0 || strings.Contains(out, "1,]") {
		t.Errorf("file named <stdin>: exit %d, want 0 (it is clean; standard input is not)\n%s%s", code, out, errOut)
	}
}
