package loader

import (
	"runtime"
	"strings"
	"testing"
)

// TestYAMLLimitsBeforeTree checks that the values and depth limits refuse
// a YAML document before yaml/v4 builds its tree: each document here, 4 MiB
// or so, is refused at the value or container that crosses the limit (the
// position the conversion reports), allocating no more than a few times its
// size (yaml/v4's tree would take about 200 bytes a value).
func TestYAMLLimitsBeforeTree(t *testing.T) {
	const n = 1 << 20
	deepFlow := strings.Repeat("["+strings.Repeat("[", 300)+strings.Repeat("]", 300)+"],", 2000)
	for _, c := range []struct {
		name, src string
		limits    Limits
		limit     string
		pos       string
	}{
		{"flow sequence", "[" + strings.Repeat("0,", 2*n) + "0]", Limits{Values: 1000}, "values", "1:2000"},
		{"flow mapping", "{" + strings.Repeat("a: 0, ", n) + "}", Limits{Values: 1000}, "values", "1:5999"},
		{"flow empty values", "{" + strings.Repeat("a: ,", n) + "}", Limits{Values: 1000}, "values", "1:4001"},
		{"block sequence", strings.Repeat("- 0\n", n), Limits{Values: 1000}, "values", "1000:3"},
		{"block empty entries", strings.Repeat("-\n", 2*n), Limits{Values: 1000}, "values", "1000:2"},
		{"block null values", strings.Repeat("k:\n", n), Limits{Values: 1000}, "values", "1000:3"},
		{"nested block sequences", strings.Repeat("- ", 2*n) + "x\n", Limits{Depth: 256}, "depth", "1:513"},
		{"deep flow, repeated", "[" + deepFlow + "0]", Limits{Depth: 256}, "depth", "1:257"},
		{"deep flow in block", "a:\n  b: " + strings.Repeat("[", 2*n), Limits{Depth: 256}, "depth", "2:260"},
	} {
		t.Run(c.name, func(t *testing.T) {
			var before, after runtime.MemStats
			runtime.ReadMemStats(&before)
			e := parseErr(t, "big.yaml", c.src, Options{Limits: c.limits})
			runtime.ReadMemStats(&after)
			if e.Limit != c.limit {
				t.Fatalf("Limit = %q: %v", e.Limit, e)
			}
			wantErr(t, e, c.pos)
			if alloc := after.TotalAlloc - before.TotalAlloc; alloc > uint64(4*len(c.src)+1<<20) {
				t.Errorf("refusing %d bytes allocated %d bytes", len(c.src), alloc)
			}
		})
	}
}

// TestYAMLPrescanCounts checks the pre-scan's counts against the
// conversion's on small documents: equal where the pre-scan follows the
// text, never more (a higher count would refuse a document the conversion
// accepts).
func TestYAMLPrescanCounts(t *testing.T) {
	for _, c := range []struct {
		src   string
		exact bool
	}{
		{"a: 1\nb: [x, {c: 'y'}]\nt: |\n  block\n  [not, a, list]\nu: >-\n  - no\n", true},
		{"- a: 1\n  b:\n  - x\n  - y\n- - z\n  - {q: ,r}\n-\n- &x !t\n", true},
		{"a:\n  - 1\nb:\n- 2\n- 3\nc: # comment [1, 2]\n  d: \"x: [y]\"\n", true},
		{"? a\n: b\n? c\n", false},
		{"[a: b, c]\n", false},
		{"%YAML 1.2\n---\n- 1 # x\n...\n", true},
		{"a: 1\na: 2\n", true},
		{"a: &a [1, 2]\nb: *a\n", false},
		{"k: 'it''s: [a]'\nl: \"q\\\"[\"\nm: plain\n  continued # [x\n", true},
	} {
		doc := mustParse(t, "c.yaml", c.src, allowAll)
		values, depth := prescanCounts([]byte(c.src))
		d := doc.depth
		if values > doc.counted || depth > d || c.exact && (values != doc.counted || depth != d) {
			t.Errorf("%q: the pre-scan counts %d values and depth %d, the conversion %d and %d", c.src, values, depth, doc.counted, d)
		}
	}
}
