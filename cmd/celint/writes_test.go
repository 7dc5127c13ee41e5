//go:build unix

package main

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"
	"time"
)

// tripwire is a standard input that records whether the run read it: a
// run given '-' reads it while linting, so an untouched tripwire means the
// run stopped before linting.
type tripwire struct{ read atomic.Bool }

func (r *tripwire) Read([]byte) (int, error) {
	r.read.Store(true)
	return 0, io.EOF
}

// runGuarded runs the CLI with a tripwire as standard input, failing the
// test instead of hanging when the run takes longer than 20 seconds. It
// returns whether standard input was read.
func runGuarded(t *testing.T, args ...string) (code int, out, errOut string, linted bool) {
	t.Helper()
	in := &tripwire{}
	type result struct {
		code     int
		out, err string
	}
	done := make(chan result, 1)
	go func() {
		var o, e bytes.Buffer
		code := run(context.Background(), args, in, &o, &e)
		done <- result{code, o.String(), e.String()}
	}()
	select {
	case r := <-done:
		return r.code, r.out, r.err, in.read.Load()
	case <-time.After(20 * time.Second):
		t.Fatalf("celint %s: still running after 20s", strings.Join(args, " "))
	}
	return
}

// TestHostileBaselines: a --baseline that is a link to /dev/zero, a named
// pipe, a socket, a folder or a file over 64 MiB is refused before
// anything is linted, at once, with exit code 2 and an error naming the
// flag and the file.
func TestHostileBaselines(t *testing.T) {
	dir := project(t)
	if err := os.Symlink("/dev/zero", "zero.json"); err != nil {
		t.Fatal(err)
	}
	if err := syscall.Mkfifo("fifo.json", 0o644); err != nil {
		t.Fatal(err)
	}
	l, err := net.Listen("unix", filepath.Join(dir, "sock.json"))
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	if err := os.Mkdir("folder.json", 0o755); err != nil {
		t.Fatal(err)
	}
	f, err := os.Create("huge.json")
	if err != nil {
		t.Fatal(err)
	}
	if err := f.Truncate(219 << 20); err != nil { // sparse: costs no disk
		t.Fatal(err)
	}
	f.Close()
	for file, want := range map[string]string{
		"zero.json":   "a character device, not a regular file",
		"fifo.json":   "a named pipe (FIFO), not a regular file",
		"sock.json":   "a socket, not a regular file",
		"folder.json": "a folder, not a regular file",
		"huge.json":   "the baseline is 229638144 bytes, more than the limit of 67108864 bytes (64 MiB)",
	} {
		start := time.Now()
		code, out, errOut, linted := runGuarded(t, "check", "--no-config", "--baseline", file, "server.yaml", "-")
		t.Logf("%-11s exit %d in %v", file, code, time.Since(start))
		if code != exitError || !strings.Contains(errOut, "celint: --baseline: "+file+": ") || !strings.Contains(errOut, want) {
			t.Errorf("%s: exit %d, stderr %q; want exit 2 and %q", file, code, errOut, want)
		}
		if linted || out != "" {
			t.Errorf("%s: the documents were linted before the baseline was refused:\n%s", file, out)
		}
	}
	// A bad baseline's syntax is reported before linting too.
	write(t, dir, "bad.json", `{"version": 1, "findings": [}`)
	if code, _, errOut, linted := runGuarded(t, "check", "--no-config", "--baseline", "bad.json", "-"); code != exitError || linted || !strings.Contains(errOut, "bad.json:1:29: invalid JSON") {
		t.Errorf("bad syntax: exit %d, linted %v, %s", code, linted, errOut)
	}
}

// TestOutputSpecialFiles: an --output or --write-baseline path that is a
// named pipe, a socket or a folder is refused before anything is linted,
// without waiting on the pipe, and left as it was.
func TestOutputSpecialFiles(t *testing.T) {
	dir := project(t)
	if err := syscall.Mkfifo("out.fifo", 0o644); err != nil {
		t.Fatal(err)
	}
	l, err := net.Listen("unix", filepath.Join(dir, "out.sock"))
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	if err := os.Mkdir("out.dir", 0o755); err != nil {
		t.Fatal(err)
	}
	kinds := map[string]string{"out.fifo": "a named pipe (FIFO)", "out.sock": "a socket", "out.dir": "a folder"}
	for path, kind := range kinds {
		for _, flag := range [][]string{{"--output", "sarif=" + path}, {"--output", path}, {"--write-baseline", path}} {
			args := append(append([]string{"check", "--no-config"}, flag...), "server.yaml", "-")
			code, _, errOut, linted := runGuarded(t, args...)
			want := "celint: " + flag[0] + ": " + path + ": cannot write over " + kind
			if code != exitError || linted || !strings.Contains(errOut, want) {
				t.Errorf("%s %s: exit %d, linted %v, stderr %q; want exit 2 before linting and %q", flag[0], flag[1], code, linted, errOut, want)
			}
		}
		if st, err := os.Lstat(path); err != nil || st.Mode().IsRegular() {
			t.Errorf("%s was replaced: %v", path, err)
		}
	}
	// A folder that does not exist is found before linting too.
	if code, _, errOut, linted := runGuarded(t, "check", "--no-config", "--output", "json=no/such/r.json", "-"); code != exitError || linted || !strings.Contains(errOut, "no/such/r.json: cannot write: folder no/such") {
		t.Errorf("missing folder: exit %d, linted %v, %s", code, linted, errOut)
	}
}

// TestOutputSymlinks: an --output or --write-baseline path that is a
// symbolic link, to a file outside the workspace, to a document of the run
// or to /dev/stdout, is refused before anything is linted; the link and
// what it points to are left as they were.
func TestOutputSymlinks(t *testing.T) {
	outside := filepath.Join(t.TempDir(), "victim")
	if err := os.WriteFile(outside, []byte("keep me\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	project(t)
	src, err := os.ReadFile("server.yaml")
	if err != nil {
		t.Fatal(err)
	}
	links := map[string]string{"report.json": outside, "report.sarif": outside, "base.json": outside, "doc.json": "server.yaml", "out.txt": "/dev/stdout"}
	for link, target := range links {
		if err := os.Symlink(target, link); err != nil {
			t.Fatal(err)
		}
	}
	for _, flag := range [][]string{
		{"--output", "json=report.json"}, {"--output", "sarif=report.sarif"}, {"--output", "report.json"},
		{"--write-baseline", "base.json"}, {"--output", "json=doc.json"}, {"--output", "out.txt"},
	} {
		path := flag[1][strings.Index(flag[1], "=")+1:]
		args := append(append([]string{"check", "--no-config"}, flag...), "server.yaml", "-")
		code, out, errOut, linted := runGuarded(t, args...)
		want := "celint: " + flag[0] + ": " + path + ": cannot write over a symbolic link"
		if code != exitError || linted || out != "" || !strings.Contains(errOut, want) {
			t.Errorf("%s %s: exit %d, linted %v, stderr %q; want exit 2 before linting and %q", flag[0], flag[1], code, linted, errOut, want)
		}
	}
	if data, _ := os.ReadFile(outside); string(data) != "keep me\n" {
		t.Errorf("the link's target was overwritten: %q", data)
	}
	if data, _ := os.ReadFile("server.yaml"); !bytes.Equal(data, src) {
		t.Errorf("the document a link points to was overwritten:\n%s", data)
	}
	for link, target := range links {
		if got, err := os.Readlink(link); err != nil || got != target {
			t.Errorf("%s: %q %v, want the link to %s left in place", link, got, err, target)
		}
	}
	// A regular file is replaced, with mode 0644.
	if err := os.WriteFile("old.json", []byte("old"), 0o600); err != nil {
		t.Fatal(err)
	}
	if code, _, errOut := runCLI(t, "check", "--no-config", "--output", "json=old.json", "server.yaml"); code != exitFindings {
		t.Errorf("over a regular file: exit %d, %s", code, errOut)
	}
	var v struct{ Diagnostics []struct{ File string } }
	data, _ := os.ReadFile("old.json")
	if st, err := os.Lstat("old.json"); err != nil || st.Mode().Perm() != 0o644 || json.Unmarshal(data, &v) != nil || len(v.Diagnostics) != 1 {
		t.Errorf("old.json: %v, want mode 0644 and the report:\n%s", err, data)
	}
}

// TestOutputIsInput: a file the run writes that is also one of its inputs
// (a document named on the command line, the --baseline, the config file,
// or another output) is refused before anything is linted, and the input
// is left as it was; a document found by a walk that the run writes is
// not checked.
func TestOutputIsInput(t *testing.T) {
	dir := project(t)
	src, err := os.ReadFile("server.yaml")
	if err != nil {
		t.Fatal(err)
	}
	write(t, dir, "base.json", `{"version": 1, "findings": []}`)
	write(t, dir, "my.yaml", "rules: {}\n")
	if err := os.Link("server.yaml", "hard.yaml"); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("server.yaml", "link.yaml"); err != nil {
		t.Fatal(err)
	}
	legacy, _ := os.ReadFile("legacy/old.yaml")
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"--output", "json=server.yaml", "server.yaml"}, "--output server.yaml: that is server.yaml, a document this run checks"},
		{[]string{"--output", "./server.yaml", "server.yaml"}, "--output ./server.yaml: that is server.yaml, a document this run checks"},
		{[]string{"--output", "json=" + filepath.Join(dir, "server.yaml"), "server.yaml"}, ": that is server.yaml, a document this run checks"},
		{[]string{"--output", "json=hard.yaml", "server.yaml"}, "--output hard.yaml: that is server.yaml, a document this run checks"},
		{[]string{"--write-baseline", "server.yaml", "server.yaml"}, "--write-baseline server.yaml: that is server.yaml, a document this run checks"},
		{[]string{"--baseline", "base.json", "--output", "json=base.json", "server.yaml"}, "--output base.json: that is the --baseline file, an input of this run"},
		{[]string{"--config", "my.yaml", "--output", "sarif=my.yaml", "server.yaml"}, "--output my.yaml: that is the config file, an input of this run"},
		{[]string{"--write-baseline", "b.json", "--output", "json=b.json", "server.yaml"}, "--output b.json and --write-baseline b.json write the same file"},
		// A description found by walking a folder or expanding a glob.
		{[]string{"--write-baseline", "legacy/old.yaml", "legacy"}, "--write-baseline legacy/old.yaml: that is legacy/old.yaml, a document this run checks"},
		{[]string{"--output", "json=legacy/old.yaml", "."}, "--output legacy/old.yaml: that is legacy/old.yaml, a document this run checks"},
		{[]string{"--output", "json=gen/v.yaml", "gen/*.yaml"}, "--output gen/v.yaml: that is gen/v.yaml, a document this run checks"},
		{[]string{"--write-baseline", "gen/v.yaml", "**/*.yaml"}, "--write-baseline gen/v.yaml: that is gen/v.yaml, a document this run checks"},
		// A symbolic link to an input is refused, never written through.
		{[]string{"--output", "json=link.yaml", "server.yaml"}, "link.yaml: cannot write over a symbolic link"},
		{[]string{"--write-baseline", "link.yaml", "server.yaml"}, "link.yaml: cannot write over a symbolic link"},
	} {
		args := append([]string{"check"}, tc.args...)
		if !strings.Contains(strings.Join(args, " "), "--config") {
			args = append(args[:1], append([]string{"--no-config"}, args[1:]...)...)
		}
		code, out, errOut, linted := runGuarded(t, append(args, "-")...)
		if code != exitError || linted || out != "" || !strings.Contains(errOut, tc.want) {
			t.Errorf("%q: exit %d, linted %v, stderr %q; want exit 2 before linting and %q", tc.args, code, linted, errOut, tc.want)
		}
	}
	for name, want := range map[string][]byte{"server.yaml": src, "legacy/old.yaml": legacy, "gen/v.yaml": legacy, "base.json": []byte(`{"version": 1, "findings": []}`), "my.yaml": []byte("rules: {}\n")} {
		if data, _ := os.ReadFile(name); !bytes.Equal(data, want) {
			t.Errorf("%s was changed:\n%s", name, data)
		}
	}
	if _, err := os.Stat("b.json"); err == nil {
		t.Errorf("b.json was written")
	}
	// Walked: the report from the run before is not a document to check.
	for i := 0; i < 2; i++ {
		code, _, errOut := runCLI(t, "check", "--no-config", "--ignore", "hard.yaml", "--ignore", "link.yaml", "--output", "json=report.json", ".")
		if code != exitFindings || strings.Contains(errOut, "report.json") {
			t.Errorf("run %d over a folder holding its report: exit %d, %s", i+1, code, errOut)
		}
	}
}
