package loader

import (
	"bytes"
	"fmt"
	"testing"

	"go.yaml.in/yaml/v4"
)

// parseYAMLByConversion parses data with yaml/v4 and the conversion alone:
// no fast path and no pre-scan, so that a limit is found by the
// conversion's own checks.
func parseYAMLByConversion(data []byte, opts Options) (*Node, *Error) {
	b := &builder{file: "p.yaml", opts: opts}
	if err := checkYAMLChars(b.file, data); err != nil {
		return nil, err
	}
	c := &yamlConv{builder: b, data: data, active: map[*yaml.Node]bool{}}
	doc, err := c.decodeStream(bytes.NewReader(data))
	if err != nil {
		return nil, err
	}
	return c.root(doc)
}

// comparePrescanLimit runs the pre-scan on data; when it refuses data at a
// limit, the conversion must refuse it too, with the same limit, message
// and position, if the pre-scan follows the whole document (its counts are
// the conversion's when nothing is limited; on a construct it does not
// follow its counts are only lower bounds, and it may meet a limit later
// than the conversion). It returns the difference, or "".
func comparePrescanLimit(data []byte, opts Options) string {
	opts.Limits = opts.Limits.withDefaults()
	if checkEncoding("p.yaml", data) != nil || checkYAMLChars("p.yaml", data) != nil {
		return ""
	}
	doc, err := Parse("p.yaml", data, Options{Limits: Limits{Values: 1 << 20, Depth: 1000}})
	if err != nil {
		return ""
	}
	if values, depth := prescanCounts(data); values != doc.counted || depth != doc.depth {
		return ""
	}
	fe := prescanYAML(&builder{file: "p.yaml", opts: opts}, data, nil)
	if fe == nil || fe.Limit == "" {
		return ""
	}
	_, se := parseYAMLByConversion(data, opts)
	if se == nil {
		return fmt.Sprintf("the pre-scan refuses (%v), the conversion accepts", fe)
	}
	if se.Limit == "" {
		return "" // invalid YAML, which the pre-scan may refuse first
	}
	if fe.Limit != se.Limit || fe.Pos != se.Pos || fe.Msg != se.Msg {
		return fmt.Sprintf("the pre-scan says %v (%s), the conversion %v (%s)", fe, fe.Limit, se, se.Limit)
	}
	return ""
}

// TestPrescanLimitPositions: where the pre-scan refuses a document at a
// limit, it gives the conversion's own error and position, including for
// nodes with properties (anchors, tags) before them.
func TestPrescanLimitPositions(t *testing.T) {
	depth2, values3 := Options{Limits: Limits{Depth: 2}}, Options{Limits: Limits{Values: 3}}
	for _, c := range []struct {
		src  string
		opts Options
		pos  string
	}{
		{"a:\n  b:\n    c: 1\n", depth2, "3:5"},
		{"a:\n  b:\n    &k c: 1\n", depth2, "3:5"},
		{"a:\n  b:\n    !t c: 1\n", depth2, "3:5"},
		{"a:\n  b:\n    &k !t c: 1\n", depth2, "3:5"},
		{"a:\n  b:\n    !t &k c: 1\n", depth2, "3:5"},
		{"a:\n  b: &k\n    c: 1\n", depth2, "2:6"},
		{"a:\n  b:\n    &k\n    c: 1\n", depth2, ""},
		{"a:\n  b:\n    - &k x\n", depth2, "3:5"},
		{"a:\n  b:\n    &k - x\n", depth2, ""},
		{"a:\n  b:\n    &k [x]\n", depth2, "3:5"},
		{"a:\n  b: &k [x]\n", depth2, "2:6"},
		{"a:\n  b: !t [x]\n", depth2, "2:6"},
		{"- &a x\n- &b y\n- &c z\n", values3, "3:3"},
		{"- !t x\n- !t y\n- !t z\n", values3, "3:3"},
		{"a: &a x\nb: !t y\n", Options{Limits: Limits{Values: 2}}, "2:4"},
		{"a: &x\nb: 1\n", Options{Limits: Limits{Values: 1}}, "1:4"},
		{"a: &x\n", Options{Limits: Limits{Values: 1}}, "1:4"},
		{"a: !t\n  &x\nb: 1\n", Options{Limits: Limits{Values: 1}}, "1:4"},
		{"[&a , x]\n", Options{Limits: Limits{Values: 1}}, "1:2"},
		{"{a: &x }\n", Options{Limits: Limits{Values: 1}}, "1:5"},
		{"{a: &x , b: !t}\n", Options{Limits: Limits{Values: 2}}, "1:13"},
		{"[&a [x]]\n", Options{Limits: Limits{Depth: 1}}, "1:2"},
		{"- &a [x]: 1\n", Options{Limits: Limits{Depth: 1}}, "1:3"},
		{"- &a\n  [x]: 1\n", Options{Limits: Limits{Depth: 1}}, ""},
		{"&r\na: 1\nb: 2\n", Options{Limits: Limits{Values: 2}}, "3:4"},
		{"&r a: 1\nb: 2\n", Options{Limits: Limits{Values: 2}}, "2:4"},
		{"[&a x, !t y, &b z]\n", values3, "1:14"},
		{"a:\n  &k b:\n    c: 1\n", Options{Limits: Limits{Depth: 1}}, "2:3"},
		{"{0,0,0}", values3, "1:7"},
		{"{a  , b\n }", Options{Limits: Limits{Values: 2}}, "2:2"},
		{"{&x a, b: 1}", Options{Limits: Limits{Values: 1}}, "1:6"},
		{": &x: *x\n:", Options{Limits: Limits{Depth: 1, Values: 3}}, "1:3"},
		{"00\n---\na:\n  b: 1", Options{Limits: Limits{Depth: 1}}, ""},
	} {
		e := comparePrescanLimit([]byte(c.src), c.opts)
		if e != "" {
			t.Errorf("%q: %s", c.src, e)
			continue
		}
		if c.pos != "" {
			pe := prescanYAML(&builder{file: "p.yaml", opts: Options{Limits: c.opts.Limits.withDefaults()}}, []byte(c.src), nil)
			if pe == nil || pe.Pos.String() != c.pos {
				t.Errorf("%q: the pre-scan says %v, want an error at %s", c.src, pe, c.pos)
			}
		}
	}
}
