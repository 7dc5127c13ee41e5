package loader

import (
	"encoding/json"
	"fmt"
	"strings"
	"sync"
	"testing"

	"go.yaml.in/yaml/v4"

	"github.com/celint/celint/internal/benchgen"
)

var benchDoc = sync.OnceValue(func() []byte {
	// About 5 MB: an object of records with nested arrays and objects, a
	// mix of strings (some escaped), integers, floats, booleans and nulls.
	var sb strings.Builder
	sb.WriteString("{\n  \"items\": [\n")
	for i := 0; sb.Len() < 5<<20; i++ {
		if i > 0 {
			sb.WriteString(",\n")
		}
		fmt.Fprintf(&sb, `    {"id": %d, "name": "item-%d", "description": "A \"quoted\" description\nwith a newline and unicode é€ %d",`+
			` "price": %d.%02d, "ratio": %g, "tags": ["alpha", "beta", "gamma-%d"], "active": %t, "parent": null,`+
			` "dims": {"w": %d, "h": %d, "d": 1.5e-3}}`,
			i, i, i, i%1000, i%100, float64(i)/7, i%10, i%2 == 0, i%300, i%200)
	}
	sb.WriteString("\n  ]\n}\n")
	return []byte(sb.String())
})

func BenchmarkParseJSON(b *testing.B) {
	data := benchDoc()
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Parse("bench.json", data, DefaultOptions()); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkEncodingJSON(b *testing.B) {
	data := benchDoc()
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		var v any
		if err := json.Unmarshal(data, &v); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkParseYAML reads a block-YAML description of 2,000 tools (the
// benchmark workload's shape) by the fast path and, for comparison, by
// yaml/v4's front end alone and by yaml/v4 into its own Node tree.
func BenchmarkParseYAML(b *testing.B) {
	data := benchgen.DescriptionYAML(2000)
	opts := DefaultOptions()
	opts.Limits = opts.Limits.withDefaults()
	b.Run("celint", func(b *testing.B) {
		b.SetBytes(int64(len(data)))
		b.ReportAllocs()
		for b.Loop() {
			if _, err := Parse("bench.yaml", data, opts); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("yaml-v4-front-end", func(b *testing.B) {
		b.SetBytes(int64(len(data)))
		b.ReportAllocs()
		for b.Loop() {
			bl := &builder{file: "bench.yaml", opts: opts}
			if _, err := parseYAMLWith(bl, data, true, false); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("yaml-v4-Node", func(b *testing.B) {
		b.SetBytes(int64(len(data)))
		b.ReportAllocs()
		for b.Loop() {
			var n yaml.Node
			if err := yaml.Unmarshal(data, &n); err != nil {
				b.Fatal(err)
			}
		}
	})
}
