package loader

import (
	"testing"

	"github.com/celint/celint/internal/librarypaths"
)

// skipOnLibraryPaths skips a test of a fast path when CELINT_LIBRARY_PATHS
// turns the fast paths off.
func skipOnLibraryPaths(t *testing.T) {
	t.Helper()
	if librarypaths.On {
		t.Skip("CELINT_LIBRARY_PATHS is set: the fast path under test is off")
	}
}
