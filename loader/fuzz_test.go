package loader

import (
	"errors"
	"strings"
	"testing"
)

// fuzzCheck parses data with each option set and checks the document
// invariants on success and the error type on failure.
func fuzzCheck(t *testing.T, name string, data []byte) {
	for _, opts := range []Options{
		DefaultOptions(),
		{Limits: Limits{Values: 20_000, Depth: 64}}, // everything allowed
	} {
		doc, err := Parse(name, data, opts)
		if err != nil {
			var e *Error
			if !errors.As(err, &e) || e.Msg == "" || e.File != name {
				t.Fatalf("error %T %v is not a proper *Error", err, err)
			}
			continue
		}
		if doc.Root == nil {
			t.Fatal("no root")
		}
		if p := checkDocument(doc); p != "" {
			t.Fatalf("reject=%v: %s", opts.Reject, p)
		}
		if doc.Format == "yaml" {
			checkPrescan(t, doc)
		}
		roundTrip(t, doc, opts)
	}
}

// checkPrescan checks that the YAML pre-scan's counts are lower bounds of
// the document's, so that it never refuses what the conversion accepts.
func checkPrescan(t *testing.T, doc *Document) {
	t.Helper()
	values, depth := prescanCounts(doc.Source)
	if values > doc.counted {
		t.Fatalf("the pre-scan counts %d values, the document has %d", values, doc.counted)
	}
	if d := doc.depth; depth > d {
		t.Fatalf("the pre-scan finds depth %d, the document has %d", depth, d)
	}
}

// treeDepth is the nesting depth of n: 1 for a container of scalars.
func treeDepth(n *Node) int {
	if n.Kind != Array && n.Kind != Object {
		return 0
	}
	d := 0
	for _, c := range n.Children() {
		d = max(d, treeDepth(c))
	}
	return d + 1
}

func FuzzParseJSON(f *testing.F) {
	for _, s := range []string{
		`{"a": [1, 2.5, -0, 1e3, "x\u00e9\ud83d\ude00"], "b": {"c": null, "d": true}}`,
		`[]`,
		`"\"\\\/\b\f\n\r\t"`,
		`{"a":1,"a":2}`,
		`[1e400, 99999999999999999999]`,
		`{"k0":0,"k1":1,"k2":2,"k3":3,"k4":4,"k5":5,"k6":6,"k7":7,"k8":8,"k9":9,"k3":"x"}`,
		"[\n\t{\"é😀\": [[[]]]}\n]",
		`-12.5E-3`,
		`[1` + strings.Repeat("0", 800) + `e-800]`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		fuzzCheck(t, "fuzz.json", data)
	})
}

// prescanFuzzLimits are small limits that the pre-scan meets in most
// fuzzed documents.
var prescanFuzzLimits = []Limits{{Values: 3, Depth: 1}, {Values: 6, Depth: 2}, {Values: 20, Depth: 3}}

func FuzzParseYAML(f *testing.F) {
	for _, s := range []string{
		"a:\n  b:\n    &k c: 1\n",
		"- &a [x, !t {b: &c }]\n- !t\n  &d\n  e: [f]\n",
		"a: 1\nb: [x, {c: 'y'}]\nt: |\n  block\n",
		"a: &x {b: 1}\nc: *x\n<<: {d: 2}\n",
		"- !!str 12\n- !foo bar\n- .inf\n- 0x1F\n- 2026-08-25\n",
		"1: a\n~: b\n? [x]\n: c\n",
		"a: 1\n---\nb: 2\n",
		"",
		"a: 1\na: 2\n'a': 3\n",
		"a: &a [1, *a]\n",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		fuzzCheck(t, "fuzz.yaml", data)
		// The pre-scan's limit errors are the conversion's own.
		for _, l := range prescanFuzzLimits {
			if d := comparePrescanLimit(data, Options{Limits: l}); d != "" {
				t.Fatalf("limits %+v: %s", l, d)
			}
		}
	})
}
