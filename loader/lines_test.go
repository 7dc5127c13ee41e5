package loader

import (
	"fmt"
	"math"
	"math/rand/v2"
	"strconv"
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

// TestLineTracker compares lineTracker, which skips eight bytes at a time,
// with a byte-at-a-time count, at every offset of sources with every kind
// of line break and multi-byte characters, asked in steps of every size.
func TestLineTracker(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	pieces := []string{"a", " ", "\n", "\r", "\r\n", "é", "日本", "\U0001F600", "xxxxxxxxxxxx", "        "}
	for n := range 200 {
		var b []byte
		for range rng.IntN(80) {
			b = append(b, pieces[rng.IntN(len(pieces))]...)
		}
		want := make([]Pos, len(b)+1)
		line, col := 1, 1
		for i := 0; i <= len(b); i++ {
			want[i] = Pos{Line: int32(line), Col: int32(col)}
			if i == len(b) {
				break
			}
			if c := b[i]; c == '\n' || c == '\r' && (i+1 >= len(b) || b[i+1] != '\n') {
				line, col = line+1, 1
			} else if c&0xC0 != 0x80 {
				col++
			}
		}
		step := 1 + n%17
		lt := lineTracker{data: b, line: 1, col: 1}
		for off := 0; off <= len(b); off += step {
			if got := lt.pos(off); got != want[off] {
				t.Fatalf("%q: pos(%d) = %v, want %v", b, off, got, want[off])
			}
		}
	}
}

// TestJSONPositions checks every value's position, counted by the JSON
// reader from the line breaks its whitespace skipping passes, against a
// count from the start of the input, on documents with every kind of line
// break, tabs and multi-byte characters.
func TestJSONPositions(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	ws := []string{"", " ", "\n", "\r\n", "\r", "\t", "\n\n  ", "\r\r\n "}
	strs := []string{`""`, `"a"`, `"é"`, `"日本語"`, `"\u00e9\n"`, "\"\U0001F600\"", "\"\U0001F600x\""}
	var value func(depth int) string
	value = func(depth int) string {
		w := func() string { return ws[rng.IntN(len(ws))] }
		switch k := rng.IntN(6); {
		case depth > 3 || k == 0:
			return strs[rng.IntN(len(strs))]
		case k == 1:
			return []string{"1", "-2.5e3", "true", "null"}[rng.IntN(4)]
		case k == 2:
			s := "[" + w()
			for i := range rng.IntN(4) {
				if i > 0 {
					s += "," + w()
				}
				s += value(depth+1) + w()
			}
			return s + "]"
		default:
			s := "{" + w()
			for i := range rng.IntN(4) {
				if i > 0 {
					s += "," + w()
				}
				s += fmt.Sprintf(`"k%dé"`, i) + w() + ":" + w() + value(depth+1) + w()
			}
			return s + "}"
		}
	}
	for range 300 {
		src := []byte(ws[rng.IntN(len(ws))] + value(0) + ws[rng.IntN(len(ws))])
		root, _, err := parseJSON(&builder{file: "p.json", opts: DefaultOptions()}, src)
		if err != nil {
			t.Fatalf("%q: %v", src, err)
		}
		var walk func(n *Node)
		walk = func(n *Node) {
			if want := posAt(src, int(n.Offset)); n.Pos != want {
				t.Fatalf("%q: value at offset %d has position %v, want %v", src, n.Offset, n.Pos, want)
			}
			for _, c := range n.Children() {
				walk(c)
			}
		}
		walk(root)
	}
}

// TestShortDecimal compares shortDecimal with strconv.ParseFloat and
// exactFloat on decimals of up to 15 digits, and checks that it leaves
// longer ones and exponents to them.
func TestShortDecimal(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 10))
	for range 200000 {
		digits := 1 + rng.IntN(15)
		b := make([]byte, 0, 20)
		if rng.IntN(2) == 0 {
			b = append(b, '-')
		}
		point := 1 + rng.IntN(digits)
		for i := range digits {
			if i == point {
				b = append(b, '.')
			}
			b = append(b, byte('0'+rng.IntN(10)))
		}
		if point == digits {
			b = append(b, ".0"...)
			if digits == 15 {
				continue // 16 digits
			}
		}
		got, ok := shortDecimal(b)
		if !ok {
			t.Fatalf("shortDecimal(%s) declined", b)
		}
		want, err := strconv.ParseFloat(string(b), 64)
		if err != nil || math.Float64bits(got) != math.Float64bits(want) {
			t.Fatalf("shortDecimal(%s) = %v, ParseFloat %v (%v)", b, got, want, err)
		}
		if !exactFloat(string(b), want) {
			t.Fatalf("%s: exactFloat is false", b)
		}
	}
	for _, s := range []string{"1234567890.1234567", "1e5", "1.5e-3", "12", "0.1234567890123456", "1.2.3"} {
		if _, ok := shortDecimal([]byte(s)); ok {
			t.Errorf("shortDecimal(%s) accepted it", s)
		}
	}
}
