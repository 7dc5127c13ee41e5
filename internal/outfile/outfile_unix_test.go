//go:build unix

package outfile

import (
	"errors"
	"net"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestWriteRefusesSpecialFiles: a named pipe or a socket at the path is
// refused at once, without opening it (opening a pipe would wait for a
// reader), and is left in place.
func TestWriteRefusesSpecialFiles(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "out.json")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Fatal(err)
	}
	sock := filepath.Join(dir, "out.sarif")
	l, err := net.Listen("unix", sock)
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	for p, want := range map[string]string{fifo: "a named pipe (FIFO)", sock: "a socket"} {
		done := make(chan error, 1)
		go func() { done <- WriteFile(p, []byte("x")) }()
		select {
		case err := <-done:
			if !errors.Is(err, ErrNotRegular) || !strings.Contains(err.Error(), p+": ") || !strings.Contains(err.Error(), want) {
				t.Errorf("%s: %v, want ErrNotRegular naming it and %q", p, err, want)
			}
		case <-time.After(10 * time.Second):
			t.Fatalf("%s: still writing after 10s", p)
		}
		if st, err := os.Lstat(p); err != nil || st.Mode().IsRegular() {
			t.Errorf("%s was replaced: %v %v", p, st.Mode(), err)
		}
	}
}
