package outfile

import (
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// entries lists the names in dir.
func entries(t *testing.T, dir string) []string {
	t.Helper()
	es, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range es {
		names = append(names, e.Name())
	}
	return names
}

// TestWriteNewFile: a new file has the data and mode 0644, and no
// temporary file is left beside it.
func TestWriteNewFile(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "report.json")
	if err := WriteFile(p, []byte("{}\n")); err != nil {
		t.Fatal(err)
	}
	st, err := os.Lstat(p)
	if err != nil || !st.Mode().IsRegular() || st.Mode().Perm() != Mode {
		t.Fatalf("%v %v", st.Mode(), err)
	}
	if data, _ := os.ReadFile(p); string(data) != "{}\n" {
		t.Errorf("content %q", data)
	}
	if got := entries(t, dir); len(got) != 1 {
		t.Errorf("folder holds %q, want the report only", got)
	}
}

// TestWriteLinks: a symbolic link at the path is refused and left as it
// was, and the file it points to, outside the folder, is untouched; a hard
// link is broken, never written through.
func TestWriteLinks(t *testing.T) {
	outside := filepath.Join(t.TempDir(), "victim")
	if err := os.WriteFile(outside, []byte("keep me"), 0o600); err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	link := filepath.Join(dir, "out.sarif")
	if err := os.Symlink(outside, link); err != nil {
		t.Skip("no symbolic links here:", err)
	}
	dangling := filepath.Join(dir, "dangling.json")
	if err := os.Symlink(filepath.Join(dir, "nothing"), dangling); err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{link, dangling} {
		err := WriteFile(p, []byte("report"))
		if !errors.Is(err, ErrNotRegular) || !strings.Contains(err.Error(), p+": cannot write over a symbolic link") {
			t.Errorf("%s: %v, want a refusal naming it", p, err)
		}
		if st, err := os.Lstat(p); err != nil || st.Mode()&os.ModeSymlink == 0 {
			t.Errorf("%s is no longer a link: %v", p, err)
		}
	}
	if _, err := os.Lstat(filepath.Join(dir, "nothing")); err == nil {
		t.Errorf("the dangling link's target was created")
	}
	hard := filepath.Join(dir, "hard.json")
	if err := os.Link(outside, hard); err != nil {
		t.Fatal(err)
	}
	if err := WriteFile(hard, []byte("report")); err != nil {
		t.Fatal(err)
	}
	if data, _ := os.ReadFile(hard); string(data) != "report" {
		t.Errorf("hard.json holds %q", data)
	}
	if data, _ := os.ReadFile(outside); string(data) != "keep me" {
		t.Errorf("the link's target was written: %q", data)
	}
	if got := entries(t, dir); len(got) != 3 {
		t.Errorf("folder holds %q, want the two links and hard.json", got)
	}
}

// TestWriteFailureKeepsOldFile: when the writer fails, the old file keeps
// its content and the temporary file is removed.
func TestWriteFailureKeepsOldFile(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "base.json")
	if err := os.WriteFile(p, []byte("old"), 0o644); err != nil {
		t.Fatal(err)
	}
	boom := errors.New("printer failed")
	err := Write(p, func(w io.Writer) error {
		io.WriteString(w, "half a rep")
		return boom
	})
	if err == nil || !strings.Contains(err.Error(), p) || !strings.Contains(err.Error(), "printer failed") {
		t.Errorf("error %v, want one naming %s and the cause", err, p)
	}
	if data, _ := os.ReadFile(p); string(data) != "old" {
		t.Errorf("old file now holds %q", data)
	}
	if got := entries(t, dir); len(got) != 1 || got[0] != "base.json" {
		t.Errorf("folder holds %q, want base.json only", got)
	}
}

// TestCheckRefuses: a folder at the path, and a path whose folder does not
// exist, are refused with an error naming the path; nothing is created.
func TestCheckRefuses(t *testing.T) {
	dir := t.TempDir()
	sub := filepath.Join(dir, "sub")
	if err := os.Mkdir(sub, 0o755); err != nil {
		t.Fatal(err)
	}
	for p, want := range map[string]string{
		sub:                              "a folder",
		filepath.Join(dir, "no", "x.js"): "folder " + filepath.Join(dir, "no"),
	} {
		err := WriteFile(p, []byte("x"))
		if err == nil || !strings.Contains(err.Error(), p+": ") || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: %v, want an error naming it with %q", p, err, want)
		}
	}
	if got := entries(t, dir); len(got) != 1 {
		t.Errorf("folder holds %q", got)
	}
}
