// Package sharedtest locates the read-only reference material that lives beside
// the repository (../shared) for tests and benchmarks that compare celint with
// the upstream corpus. Nothing from there is ever copied into the repository.
package sharedtest

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
)

// skips are the tests of this test binary that Dir skipped, and the
// folder they looked for.
var skips struct {
	sync.Mutex
	tests []string
	dir   string
}

// Dir returns the absolute path of the shared folder beside the repository
// root. When it is absent the test is skipped with a clear message, and
// Main says so in one line at the end of the run, except under CI
// (CI=true), where its absence is a failure: CI always has it.
func Dir(tb testing.TB) string {
	tb.Helper()
	dir, ok := lookup(tb)
	if !ok {
		skips.Lock()
		skips.tests, skips.dir = append(skips.tests, tb.Name()), dir
		skips.Unlock()
		tb.Skipf("sharedtest: %s is absent; skipping the comparison with the upstream corpus", dir)
	}
	return dir
}

// Optional returns the shared folder, or "" when it is absent, for a test
// that has other material to work on without it. Under CI its absence is
// a failure, as for Dir.
func Optional(tb testing.TB) string {
	tb.Helper()
	if dir, ok := lookup(tb); ok {
		return dir
	}
	return ""
}

// lookup returns the shared folder and whether it is there; under CI, its
// absence fails tb.
func lookup(tb testing.TB) (string, bool) {
	tb.Helper()
	root, err := RepoRoot()
	if err != nil {
		tb.Fatalf("sharedtest: %v", err)
	}
	dir := filepath.Join(filepath.Dir(root), "shared")
	if _, err := os.Stat(dir); err != nil {
		if os.Getenv("CI") == "true" {
			tb.Fatalf("sharedtest: %s is missing; CI must have the shared reference material beside the clone", dir)
		}
		return dir, false
	}
	return dir, true
}

// Main runs the tests of m and, when Dir skipped some, prints one line
// saying how many were skipped and why: on the terminal (/dev/tty), which
// 'go test' does not capture, so that it shows without -v; else on
// standard error. A package whose tests use Dir calls it from TestMain:
// os.Exit(sharedtest.Main(m)).
func Main(m *testing.M) int {
	code := m.Run()
	skips.Lock()
	defer skips.Unlock()
	if len(skips.tests) == 0 {
		return code
	}
	var w io.Writer = os.Stderr
	if tty, err := os.OpenFile("/dev/tty", os.O_WRONLY, 0); err == nil {
		defer tty.Close()
		w = tty
	}
	pkg := ""
	if wd, err := os.Getwd(); err == nil {
		if root, err := RepoRoot(); err == nil {
			pkg, _ = filepath.Rel(root, wd)
		}
	}
	Notice(w, pkg, skips.dir, skips.tests)
	return code
}

// Notice writes the line Main prints: the package, how many tests were
// skipped, which, and why.
func Notice(w io.Writer, pkg, dir string, tests []string) {
	fmt.Fprintf(w, "celint %s: skipped %d %s comparing with the upstream corpus, since %s is absent (%s); CI=true makes that a failure\n",
		filepath.ToSlash(pkg), len(tests), plural(len(tests)), dir, strings.Join(tests, ", "))
}

func plural(n int) string {
	if n == 1 {
		return "test"
	}
	return "tests"
}

// Path returns filepath.Join(Dir(tb), elem...).
func Path(tb testing.TB, elem ...string) string {
	tb.Helper()
	return filepath.Join(append([]string{Dir(tb)}, elem...)...)
}

// RepoRoot walks up from the working directory to the folder holding go.mod.
func RepoRoot() (string, error) {
	dir, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir, nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", os.ErrNotExist
		}
		dir = parent
	}
}
