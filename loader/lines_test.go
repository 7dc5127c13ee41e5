package loader

import (
	"math/rand/v2"
	"testing"
)

// naiveLineStarts is the start of every line of src, one byte at a time.
func naiveLineStarts(src []byte) []int {
	starts := []int{0}
	for i, c := range src {
		if c == '\n' || c == '\r' && (i+1 >= len(src) || src[i+1] != '\n') {
			starts = append(starts, i+1)
		}
	}
	return starts
}

// TestLineIndex compares lineIndex with the start of every line, on
// sources with every kind of line break, lines longer than a block and
// breaks on either side of block boundaries.
func TestLineIndex(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	var cases [][]byte
	for _, s := range []string{"", "a", "\n", "\r", "\r\n", "\n\r", "a\r\nb\rc\nd", "\r\r\n\n"} {
		cases = append(cases, []byte(s))
	}
	for _, size := range []int{lineBlock - 1, lineBlock, lineBlock + 1, 3*lineBlock + 17, 20000} {
		for _, breaks := range []string{"\n", "\r\n", "\n\r\r\n", ""} {
			for _, density := range []int{3, 40, 5000} {
				b := make([]byte, size)
				for i := range b {
					b[i] = 'x'
					if breaks != "" && rng.IntN(density) == 0 {
						b[i] = breaks[rng.IntN(len(breaks))]
					}
				}
				// a break right before and right at a boundary
				if breaks != "" && size > lineBlock {
					b[lineBlock-1], b[lineBlock] = '\r', '\n'
				}
				cases = append(cases, b)
			}
		}
	}
	for _, src := range cases {
		want := naiveLineStarts(src)
		x := newLineIndex(src)
		if x.count() != len(want) {
			t.Fatalf("len %d: count() = %d, want %d", len(src), x.count(), len(want))
		}
		for li, s := range want {
			if got := x.start(li); got != s {
				t.Fatalf("len %d: start(%d) = %d, want %d", len(src), li, got, s)
			}
		}
		li := 0
		for off := 0; off <= len(src); off++ {
			for li+1 < len(want) && want[li+1] <= off {
				li++
			}
			if got := x.lineOf(off); got != li {
				t.Fatalf("len %d: lineOf(%d) = %d, want %d", len(src), off, got, li)
			}
		}
	}
}
