package engine

import (
	"bytes"
	"math/rand/v2"
	"testing"
)

// TestContainsNeedle compares containsNeedle with bytes.Contains on texts
// built from pieces of the needle, so that partial matches, matches at
// either end and near misses (the rest of the needle without its first
// byte) are all common.
func TestContainsNeedle(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	for _, needle := range []string{`"$ref"`, `"$componentRef"`, `ab`, `""`, `x`} {
		pieces := []string{needle, needle[1:], needle[:len(needle)-1], `"`, "$", "a", " ", `\"`}
		for range 2000 {
			var b []byte
			for range rng.IntN(12) {
				b = append(b, pieces[rng.IntN(len(pieces))]...)
			}
			if got, want := containsNeedle(b, []byte(needle)), bytes.Contains(b, []byte(needle)); got != want {
				t.Fatalf("containsNeedle(%q, %q) = %v, want %v", b, needle, got, want)
			}
		}
	}
}
