package spelling

import (
	"slices"
	"testing"
)

// TestNearest: a misspelt id suggests the ids a few edits away, else those
// that contain it, at most three; a name far from every id suggests none.
func TestNearest(t *testing.T) {
	ids := []string{"acme.names", "acme.nodes", "acme.tool-names", "other.rule", "x.a", "x.b", "x.c", "x.d"}
	for _, tc := range []struct {
		id   string
		want []string
	}{
		{"acme.name", []string{"acme.names"}},
		{"acme.nodez", []string{"acme.nodes"}},
		{"ol-nam", []string{"acme.tool-names"}},
		{"x.e", []string{"x.a", "x.b", "x.c"}},
		{"zzzzzzzzzzzz", nil},
	} {
		if got := Nearest(tc.id, ids); !slices.Equal(got, tc.want) {
			t.Errorf("Nearest(%q) = %q, want %q", tc.id, got, tc.want)
		}
	}
}
