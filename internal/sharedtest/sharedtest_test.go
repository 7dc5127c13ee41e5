package sharedtest

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// recorder is a testing.TB that records skips and failures instead of
// ending the test.
type recorder struct {
	testing.TB
	skipped, failed string
}

func (r *recorder) Skipf(format string, args ...any)  { r.skipped = fmt.Sprintf(format, args...) }
func (r *recorder) Fatalf(format string, args ...any) { r.failed = fmt.Sprintf(format, args...) }

// TestAbsentShared: without ../shared, Dir skips and remembers the test for
// Main's one-line notice, Optional gives "" so that a test can go on with
// the repository's own material, and under CI=true both fail.
func TestAbsentShared(t *testing.T) {
	mod := filepath.Join(t.TempDir(), "clone")
	if err := os.MkdirAll(mod, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(mod, "go.mod"), []byte("module x\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Chdir(mod)
	t.Setenv("CI", "")
	skips.tests = nil
	r := &recorder{TB: t}
	Dir(r)
	if !strings.Contains(r.skipped, "is absent") || len(skips.tests) != 1 || skips.tests[0] != t.Name() {
		t.Errorf("Dir: skipped %q, remembered %v", r.skipped, skips.tests)
	}
	if got := Optional(&recorder{TB: t}); got != "" {
		t.Errorf("Optional = %q", got)
	}
	var buf bytes.Buffer
	Notice(&buf, "loader", skips.dir, []string{"TestA", "TestB"})
	if got := buf.String(); strings.Count(got, "\n") != 1 || !strings.Contains(got, "celint loader: skipped 2 tests comparing with the upstream corpus, since "+filepath.Join(filepath.Dir(mod), "shared")+" is absent (TestA, TestB); CI=true makes that a failure") {
		t.Errorf("notice %q", got)
	}
	skips.tests = nil

	t.Setenv("CI", "true")
	for name, f := range map[string]func(testing.TB){"Dir": func(tb testing.TB) { Dir(tb) }, "Optional": func(tb testing.TB) { Optional(tb) }} {
		r := &recorder{TB: t}
		f(r)
		if !strings.Contains(r.failed, "CI must have the shared reference material") {
			t.Errorf("%s under CI: failed %q", name, r.failed)
		}
	}
	skips.tests = nil
}
