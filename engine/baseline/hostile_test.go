//go:build unix

package baseline

import (
	"errors"
	"net"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/celint/celint/loader"
)

// TestReadFileHostile: ReadFile reads only a regular file of at most
// MaxBytes. A named pipe, a link to /dev/zero, a socket and a folder are
// refused at once without being read; a file over the limit is refused
// before it is read, saying the limit. Every error names the file.
func TestReadFileHostile(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "fifo.json")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Fatal(err)
	}
	zero := filepath.Join(dir, "zero.json")
	if err := os.Symlink("/dev/zero", zero); err != nil {
		t.Fatal(err)
	}
	sock := filepath.Join(dir, "sock.json")
	l, err := net.Listen("unix", sock)
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	folder := filepath.Join(dir, "folder.json")
	if err := os.Mkdir(folder, 0o755); err != nil {
		t.Fatal(err)
	}
	huge := filepath.Join(dir, "huge.json")
	f, err := os.Create(huge)
	if err != nil {
		t.Fatal(err)
	}
	if err := f.Truncate(MaxBytes + 1); err != nil { // sparse: costs no disk
		t.Fatal(err)
	}
	f.Close()
	for file, want := range map[string]string{
		fifo:   "a named pipe (FIFO), not a regular file",
		zero:   "a character device, not a regular file",
		sock:   "a socket, not a regular file",
		folder: "a folder, not a regular file",
		huge:   "the baseline is 67108865 bytes, more than the limit of 67108864 bytes (64 MiB)",
	} {
		done := make(chan error, 1)
		go func() {
			_, err := ReadFile(file)
			done <- err
		}()
		select {
		case err := <-done:
			if err == nil || !strings.HasPrefix(err.Error(), file+": ") || !strings.Contains(err.Error(), want) {
				t.Errorf("%s: %v, want an error naming it with %q", filepath.Base(file), err, want)
			}
			if file == huge && !errors.Is(err, loader.ErrLimit) {
				t.Errorf("%s: %v does not wrap loader.ErrLimit", filepath.Base(file), err)
			}
		case <-time.After(10 * time.Second):
			t.Fatalf("%s: still reading after 10s", filepath.Base(file))
		}
	}
	// A regular file, also through a link, is read.
	ok := filepath.Join(dir, "ok.json")
	if err := os.WriteFile(ok, []byte(`{"version": 1, "findings": [{"file": "a", "rule": "r", "pointer": "", "count": 2}]}`), 0o644); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(dir, "link.json")
	if err := os.Symlink("ok.json", link); err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{ok, link} {
		if b, err := ReadFile(p); err != nil || len(b.records) != 1 {
			t.Errorf("%s: %v", p, err)
		}
	}
}

// TestReadFindingsLimit: a baseline with more findings than the limit is
// refused at the first finding too many.
func TestReadFindingsLimit(t *testing.T) {
	in := "{\"version\": 1, \"findings\": [\n" +
		"{\"file\": \"a\", \"rule\": \"r\", \"pointer\": \"/0\", \"count\": 1},\n" +
		"{\"file\": \"a\", \"rule\": \"r\", \"pointer\": \"/1\", \"count\": 1},\n" +
		"{\"file\": \"a\", \"rule\": \"r\", \"pointer\": \"/2\", \"count\": 1}]}\n"
	p := &reader{name: "b.json", data: []byte(in), maxFindings: 2}
	_, err := p.read()
	if err == nil || err.Error() != `b.json:4:1: more than 2 findings in "findings"; a baseline records at most that many` {
		t.Errorf("got %v", err)
	}
	p = &reader{name: "b.json", data: []byte(in), maxFindings: 3}
	if b, err := p.read(); err != nil || len(b.records) != 3 {
		t.Errorf("at the limit: %v", err)
	}
}
