package conformance_test

import (
	"os"
	"testing"

	"github.com/celint/celint/internal/sharedtest"
)

// TestMain runs the tests, then says in one line which were skipped for
// want of the shared corpus (see sharedtest.Main).
func TestMain(m *testing.M) { os.Exit(sharedtest.Main(m)) }
