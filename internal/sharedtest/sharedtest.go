// Package sharedtest locates the read-only reference material that lives beside
// the repository (../shared) for tests and benchmarks that compare celint with
// the upstream corpus. Nothing from there is ever copied into the repository.
package sharedtest

import (
	"os"
	"path/filepath"
	"testing"
)

// Dir returns the absolute path of the shared folder beside the repository
// root. When it is absent the test is skipped with a clear message, except
// under CI (CI=true), where its absence is a failure: CI always has it.
func Dir(tb testing.TB) string {
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
		tb.Skipf("sharedtest: %s is absent; skipping the comparison with the upstream corpus", dir)
	}
	return dir
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
