package loader

import (
	"testing"
)

// TestYAMLStreamFeatures reads YAML streams that YAML 1.2 allows, with the
// exact place of a value in each, as the loader reports it (line:col of
// the value; for a member, of its name).
func TestYAMLStreamFeatures(t *testing.T) {
	for _, tc := range []struct {
		name, src, pointer string
		value              any
		line, col          int32
	}{
		{"byte order mark", "\uFEFFa: 1\nb: x\n", "/b", "x", 2, 1},
		{"%YAML 1.2 directive", "%YAML 1.2\n---\na: 1\nb: x\n", "/b", "x", 4, 1},
		{"document markers", "---\na: 1\nb: x\n...\n", "/b", "x", 3, 1},
		{"? inside a flow plain scalar", "a: {q: Who owns this?, b: 2}\n", "/a/q", "Who owns this?", 1, 5},
		{"? inside a flow plain scalar, the member after it", "a: {q: Who owns this?, b: 2}\n", "/a/b", int64(2), 1, 24},
		{"? in the middle of a flow plain scalar", "a: [x?y, z]\n", "/a/0", "x?y", 1, 5},
		{": inside a flow plain scalar", "a: [x:y, z]\n", "/a/0", "x:y", 1, 5},
		{"a URL in a flow mapping", "a: {u: http://x.test/?q=1}\n", "/a/u", "http://x.test/?q=1", 1, 5},
		{"CRLF line breaks", "a: 1\r\nb:\r\n  c: x\r\n", "/b/c", "x", 3, 3},
		{"a tab after the indentation", "a:\n  b:\tx\n", "/a/b", "x", 2, 3},
		{"a tab before a comment", "a: x\t# note\nb: y\n", "/b", "y", 2, 1},
		{"a tab inside a flow collection", "a: [1,\tx]\n", "/a/1", "x", 1, 8},
	} {
		t.Run(tc.name, func(t *testing.T) {
			opts := DefaultOptions()
			opts.Scalars = JSONScalars
			doc, err := Parse("t.yaml", []byte(tc.src), opts)
			if err != nil {
				t.Fatalf("%q: %v", tc.src, err)
			}
			n, ok := doc.Lookup(tc.pointer)
			if !ok {
				t.Fatalf("%q: no %s", tc.src, tc.pointer)
			}
			if v := n.Value(); v != tc.value {
				t.Errorf("%q: %s = %#v, want %#v", tc.src, tc.pointer, v, tc.value)
			}
			pos := n.Pos
			if !n.KeyPos.IsZero() {
				pos = n.KeyPos
			}
			if pos.Line != tc.line || pos.Col != tc.col {
				t.Errorf("%q: %s at %d:%d, want %d:%d", tc.src, tc.pointer, pos.Line, pos.Col, tc.line, tc.col)
			}
		})
	}
}
