//go:build unix

package loader

import (
	"errors"
	"io/fs"
	"net"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// within runs f and fails the test if it takes longer than d: a read that
// blocks must not hang the test run.
func within(t *testing.T, d time.Duration, f func()) {
	t.Helper()
	done := make(chan struct{})
	go func() { defer close(done); f() }()
	select {
	case <-done:
	case <-time.After(d):
		t.Fatalf("still running after %v", d)
	}
}

// specialFiles makes a folder holding a named pipe, a socket, a folder and
// symbolic links to devices and to them, each named like a document.
func specialFiles(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	if err := syscall.Mkfifo(filepath.Join(dir, "fifo.yaml"), 0o644); err != nil {
		t.Fatal(err)
	}
	l, err := net.Listen("unix", filepath.Join(dir, "sock.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { l.Close() })
	if err := os.Mkdir(filepath.Join(dir, "dir.yaml"), 0o755); err != nil {
		t.Fatal(err)
	}
	for name, target := range map[string]string{"zero.yaml": "/dev/zero", "null.json": "/dev/null", "tofifo.yaml": "fifo.yaml"} {
		if err := os.Symlink(target, filepath.Join(dir, name)); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(dir, "ok.yaml"), []byte("a: 1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	return dir
}

var specialCases = []struct{ name, want string }{
	{"fifo.yaml", "a named pipe (FIFO), not a regular file"},
	{"tofifo.yaml", "a named pipe (FIFO), not a regular file"},
	{"zero.yaml", "a character device, not a regular file"},
	{"null.json", "a character device, not a regular file"},
	{"sock.yaml", "a socket, not a regular file"},
	{"dir.yaml", "a folder, not a regular file"},
}

// TestReadFileRefusesSpecialFiles: ReadFile refuses a named pipe, a device
// (through a symbolic link too), a socket and a folder at once, with an
// error naming the file and wrapping ErrNotRegular, and reads a regular
// file.
func TestReadFileRefusesSpecialFiles(t *testing.T) {
	dir := specialFiles(t)
	for _, tc := range specialCases {
		t.Run(tc.name, func(t *testing.T) {
			p := filepath.Join(dir, tc.name)
			within(t, 5*time.Second, func() {
				_, err := ReadFile(p, 1<<20)
				var le *Error
				if !errors.As(err, &le) || le.File != p || !strings.Contains(le.Msg, tc.want) || !errors.Is(err, ErrNotRegular) {
					t.Errorf("ReadFile(%s) = %v, want an *Error naming the file with %q", tc.name, err, tc.want)
				}
			})
		})
	}
	if data, err := ReadFile(filepath.Join(dir, "ok.yaml"), 1<<20); err != nil || string(data) != "a: 1\n" {
		t.Errorf("regular file: %q, %v", data, err)
	}
}

// TestReadFSRefusesSpecialFiles: the same through ReadFS, on os.DirFS and
// on DirFS; DirFS refuses the symbolic links to devices outside the folder
// because they leave it.
func TestReadFSRefusesSpecialFiles(t *testing.T) {
	dir := specialFiles(t)
	root, err := DirFS(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range specialCases {
		for _, sys := range []struct {
			name string
			fsys fs.FS
		}{{"os.DirFS", os.DirFS(dir)}, {"DirFS", root}} {
			t.Run(sys.name+"/"+tc.name, func(t *testing.T) {
				want := tc.want
				if sys.name == "DirFS" && (strings.HasPrefix(tc.name, "zero") || strings.HasPrefix(tc.name, "null")) {
					want = "leads outside the folder"
				}
				within(t, 5*time.Second, func() {
					_, err := ReadFS(sys.fsys, tc.name, "shown/"+tc.name, 1<<20)
					var le *Error
					if !errors.As(err, &le) || le.File != "shown/"+tc.name || !strings.Contains(le.Msg, want) {
						t.Errorf("ReadFS(%s) = %v, want an *Error naming shown/%s with %q", tc.name, err, tc.name, want)
					}
				})
			})
		}
	}
	if data, err := ReadFS(root, "ok.yaml", "ok.yaml", 1<<20); err != nil || string(data) != "a: 1\n" {
		t.Errorf("regular file: %q, %v", data, err)
	}
	if _, err := ReadFS(root, "ok.yaml", "ok.yaml", 2); err == nil || !errors.Is(err, ErrLimit) {
		t.Errorf("over the limit: %v, want a limit error", err)
	}
}

// TestDirFSStaysInside: DirFS opens, stats and lists nothing outside its
// folder, whether a name leaves it with ".." or through a symbolic link to
// a file or a folder outside, and it opens a named pipe without waiting.
func TestDirFSStaysInside(t *testing.T) {
	outside := t.TempDir()
	if err := os.WriteFile(filepath.Join(outside, "secret"), []byte("secret"), 0o644); err != nil {
		t.Fatal(err)
	}
	dir := specialFiles(t)
	for name, target := range map[string]string{"fx": "/", "out": outside, "secret.yaml": filepath.Join(outside, "secret"), "rel.yaml": "../" + filepath.Base(outside) + "/secret"} {
		if err := os.Symlink(target, filepath.Join(dir, name)); err != nil {
			t.Fatal(err)
		}
	}
	fsys, err := DirFS(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"fx/etc/hostname", "out/secret", "secret.yaml", "rel.yaml", "../" + filepath.Base(outside) + "/secret"} {
		if data, err := fs.ReadFile(fsys, name); err == nil {
			t.Errorf("read %s from outside the folder: %q", name, data)
		}
		if _, err := fs.Stat(fsys, name); !errors.Is(err, ErrOutside) && !errors.Is(err, fs.ErrInvalid) {
			t.Errorf("stat %s outside the folder: %v, want ErrOutside", name, err)
		}
	}
	if _, err := fs.ReadDir(fsys, "fx"); err == nil {
		t.Errorf("listed a folder outside the folder")
	}
	within(t, 5*time.Second, func() {
		if f, err := fsys.Open("fifo.yaml"); err == nil || !errors.Is(err, ErrNotRegular) {
			t.Errorf("Open(fifo.yaml) = %v, %v; want ErrNotRegular", f, err)
		}
	})
	if err := os.Symlink("ok.yaml", filepath.Join(dir, "inside.yaml")); err != nil {
		t.Fatal(err)
	}
	if data, err := ReadFS(fsys, "inside.yaml", "inside.yaml", 100); err != nil || string(data) != "a: 1\n" {
		t.Errorf("a link that stays inside: %q, %v", data, err)
	}
	if entries, err := fs.ReadDir(fsys, "."); err != nil || len(entries) == 0 {
		t.Errorf("ReadDir: %v, %v", entries, err)
	}
}
