package loader

import (
	"math"
	"math/big"
	"math/rand/v2"
	"reflect"
	"strconv"
	"strings"
	"testing"
)

// TestLongNumberLiterals: a literal with hundreds of thousands of digits is
// read as the float64 nearest to its value, or refused at its line:col
// saying what is wrong, in JSON and YAML alike.
func TestLongNumberLiterals(t *testing.T) {
	zeros := func(n int) string { return strings.Repeat("0", n) }
	long := "1." + strings.Repeat("2345678901", 20_000) // 200,001 digits
	for _, c := range []struct {
		name, lit string
		want      any    // the value read; nil when refused
		msg       string // the refusal
	}{
		{"1 and 800 zeros, e-800", "1" + zeros(800) + "e-800", int64(1), ""},
		{"-1 and 800 zeros, e-800", "-1" + zeros(800) + "e-800", int64(-1), ""},
		{"1 and 900 zeros, e-900", "1" + zeros(900) + "e-900", int64(1), ""},
		{"1.5 with 900 zeros", "15" + zeros(900) + "e-901", 1.5, ""},
		{"123456789 and 800 zeros", "123456789" + zeros(800) + ".000e-800", int64(123456789), ""},
		{"0.1 in 900 digits", "0.1" + zeros(898), 0.1, ""},
		{"1 in 200,001 digits", "1." + zeros(200_000), int64(1), ""},
		{"0e and a long exponent", "0e999999999999", int64(0), ""},
		{"a 1 after 800 zeros", "1" + zeros(800) + "1e-801", nil, "cannot be held exactly by a 64-bit float (it would become 1)"},
		{"0.0999… in 900 digits", "0.0" + strings.Repeat("9", 898), nil, "cannot be held exactly by a 64-bit float (it would become 0.1)"},
		{"200,001 digits", long, nil, "number 1.23456789012345678901234567890123456789… cannot be held exactly by a 64-bit float (it would become 1.2345678901234567)"},
		{"1e400", "1e400", nil, "number 1e400 is outside the range of a 64-bit float"},
		{"-1e400", "-1e400", nil, "number -1e400 is outside the range of a 64-bit float"},
		{"1 and 400 zeros", "1" + zeros(400) + ".0", nil, "number 1000000000000000000000000000000000000000… is outside the range of a 64-bit float"},
		{"a long exponent", "1e999999999999", nil, "number 1e999999999999 is outside the range of a 64-bit float"},
		{"1e-400 written long", "0." + zeros(399) + "1", nil, "cannot be held exactly by a 64-bit float (it would become 0)"},
		{"a long negative exponent", "1e-999999999999", nil, "(it would become 0)"},
	} {
		for _, f := range []struct{ name, src, pos string }{
			{"n.json", "[\n  " + c.lit + "]", "2:3"},
			{"n.yaml", "a:\n  - " + c.lit + "\n", "2:5"},
		} {
			if c.want == nil {
				wantErr(t, parseErr(t, f.name, f.src, DefaultOptions()), f.pos, c.msg)
				continue
			}
			doc := mustParse(t, f.name, f.src, DefaultOptions())
			n := doc.Root.Children()[0]
			if f.name == "n.yaml" {
				n = n.Children()[0]
			}
			if got := n.Value(); !reflect.DeepEqual(got, c.want) {
				t.Errorf("%s, %s: read %#v, want %#v", c.name, f.name, got, c.want)
			}
		}
	}
	// A YAML !!float integer is a decimal literal too, however long.
	doc := mustParse(t, "n.yaml", "a: !!float 100000000000000000000\n", DefaultOptions())
	if got := doc.Root.Children()[0].Value(); got != 1e20 {
		t.Errorf("!!float 100000000000000000000: read %#v", got)
	}
	wantErr(t, parseErr(t, "n.yaml", "a: !!float 1"+zeros(400)+"\n", DefaultOptions()), "1:4", "is outside the range of a 64-bit float")
	wantErr(t, parseErr(t, "n.yaml", "a: !!float 0x20000000000001\n", DefaultOptions()), "1:4", "(it would become 9007199254740992)")
}

// refFloat is the float64 nearest to a decimal literal by math/big on the
// whole literal, and whether float64 holds it exactly in exactFloat's sense:
// the shortest decimal of that float64 has the literal's value.
func refFloat(t *testing.T, lit string) (f float64, inRange, exact bool) {
	t.Helper()
	r, ok := new(big.Rat).SetString(lit)
	if !ok {
		t.Fatalf("big.Rat does not read %q", lit)
	}
	f, _ = r.Float64()
	if math.IsInf(f, 0) {
		return f, false, false
	}
	short, _ := new(big.Rat).SetString(strconv.FormatFloat(f, 'e', -1, 64))
	return f, true, short.Cmp(r) == 0
}

// checkFloat compares readFloat and exactFloat with refFloat on lit.
func checkFloat(t *testing.T, lit string) {
	t.Helper()
	want, wantIn, wantExact := refFloat(t, lit)
	got, in := readFloat(lit)
	if in != wantIn || got != want {
		t.Fatalf("readFloat(%s) = %v, %v; want %v, %v", shorten(lit), got, in, want, wantIn)
	}
	if math.Signbit(got) != strings.HasPrefix(lit, "-") {
		t.Fatalf("readFloat(%s) = %v: wrong sign", shorten(lit), got)
	}
	if in && exactFloat(lit, got) != wantExact {
		t.Fatalf("exactFloat(%s, %v) = %v, want %v", shorten(lit), got, !wantExact, wantExact)
	}
}

// TestReadFloat compares readFloat with math/big on literals of 1 to 2,000
// digits, and on the midpoints between adjacent float64s written in full
// (which round to even), just above and just below them, where a digit
// past the 1,000th decides the rounding.
func TestReadFloat(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 12))
	randomDigits := func(n int) string {
		b := make([]byte, n)
		for i := range b {
			b[i] = byte('0' + rng.IntN(10))
		}
		return string(b)
	}
	for range 3_000 {
		n := []int{1 + rng.IntN(25), 700 + rng.IntN(200), 2000}[rng.IntN(3)]
		d := randomDigits(n)
		point := rng.IntN(n + 1)
		lit := d[:point] + "." + d[point:]
		if point == 0 || point == n {
			lit = d // no empty side of the point in JSON
		}
		if rng.IntN(2) == 0 {
			lit += "e" + strconv.Itoa(rng.IntN(800)-400-n/2)
		}
		if rng.IntN(2) == 0 {
			lit = "-" + lit
		}
		checkFloat(t, lit)
	}
	tiny := new(big.Rat).SetFrac(big.NewInt(1), new(big.Int).Exp(big.NewInt(10), big.NewInt(1200), nil))
	for i := range 600 {
		bits := rng.Uint64() >> 1 // positive, finite unless the exponent is all ones
		if i%3 == 0 {
			bits >>= 11 // a subnormal
		}
		f := math.Float64frombits(bits)
		if math.IsInf(f, 0) || math.IsNaN(f) || f == math.MaxFloat64 {
			continue
		}
		next := math.Nextafter(f, math.Inf(1))
		mid := new(big.Rat).Add(new(big.Rat).SetFloat64(f), new(big.Rat).SetFloat64(next))
		mid.Quo(mid, big.NewRat(2, 1))
		even := f
		if math.Float64bits(f)&1 == 1 {
			even = next
		}
		for _, c := range []struct {
			v    *big.Rat
			want float64
		}{
			{mid, even},
			{new(big.Rat).Add(mid, tiny), next},
			{new(big.Rat).Sub(mid, tiny), f},
		} {
			lit := c.v.FloatString(1200)
			if got, _ := readFloat(lit); got != c.want {
				t.Fatalf("readFloat(%s…) = %v, want %v", lit[:40], got, c.want)
			}
			checkFloat(t, lit)
		}
	}
}

// FuzzNumberExact compares readFloat and exactFloat with math/big on short
// literals of the YAML core float syntax, which JSON numbers are part of.
func FuzzNumberExact(f *testing.F) {
	for _, s := range []string{"0.1", "-0.0", "1e400", "2.5e-324", "9007199254740993.0", "1.00000000000000001", ".5", "+1.", "4.9406564584124654e-324", "1.7976931348623157e308", "1" + strings.Repeat("0", 30) + "e-30"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, lit string) {
		if len(lit) > 120 || !isCoreFloat(lit) {
			return
		}
		if i := strings.IndexAny(lit, "eE"); i >= 0 && len(strings.TrimLeft(lit[i+1:], "+-0")) > 4 {
			return // keeps math/big's power of ten small
		}
		checkFloat(t, lit)
	})
}
