package loader

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"unicode/utf8"
)

// endCase parses src (format from name) and checks End of the nodes at the
// pointers: want holds pairs pointer, "line:col".
type endCase struct {
	name string
	src  string
	opts *Options // nil: DefaultOptions
	want []string
}

var endCases = []endCase{
	// JSON: every kind, escapes, unicode escapes; columns on one line:
	// {"a": [1, -2.5e+3, true, false, null, "x\"y\\", "\u00e9"], "b": {}, "c": [ ], "d": {"e": [[]]}}
	{"kinds.json", `{"a": [1, -2.5e+3, true, false, null, "x\"y\\", "\u00e9"], "b": {}, "c": [ ], "d": {"e": [[]]}}`, nil, []string{
		"/a/0", "1:9",
		"/a/1", "1:18",
		"/a/2", "1:24",
		"/a/3", "1:31",
		"/a/4", "1:37",
		"/a/5", "1:47",
		"/a/6", "1:57",
		"/a", "1:58",
		"/b", "1:67",
		"/c", "1:77",
		"/d/e/0", "1:93",
		"/d/e", "1:94",
		"/d", "1:95",
		"", "1:96",
	}},
	{"crlf-unicode.json", "{\r\n  \"é😀\": \"ünï😀\",\r\n  \"n\": [\r\n    1\r\n  ],\r\n  \"z\": 0.5e-7\r\n}\r\n", nil, []string{
		"/é😀", "2:15",
		"/n/0", "4:6",
		"/n", "5:4",
		"/z", "6:14",
		"", "7:2",
	}},
	{"scalar-string.json", `  "str"  `, nil, []string{"", "1:8"}},
	{"scalar-number.json", "\n-0\n", nil, []string{"", "2:3"}},
	{"scalar-null.json", "null", nil, []string{"", "1:5"}},
	{"nested.json", "[[[1]\n ] ,[ {\"a\" : {} }\t] ]", nil, []string{
		"/0/0/0", "1:5",
		"/0/0", "1:6",
		"/0", "2:3",
		"/1/0/a", "2:16",
		"/1/0", "2:18",
		"/1", "2:20",
		"", "2:22",
	}},
	// A later duplicate takes the first one's place: the root still ends
	// at its brace.
	{"dup.json", `{"a": {"x": 1}, "b": 2, "a": [3]}`, &allowAll, []string{
		"/a", "1:33",
		"/b", "1:23",
		"", "1:34",
	}},

	// YAML plain scalars: comments, trailing spaces, empty values.
	{"plain.yaml", "a: hello world   # comment\nb: 12\nc:\nd: ~\ne:   # only a comment\nf: x#y z\n", nil, []string{
		"/a", "1:15",
		"/b", "2:6",
		"/c", "3:3", // empty: ends where it starts
		"/d", "4:5",
		"/e", "5:3",
		"/f", "6:9",
		"", "6:9",
	}},
	{"plain-multiline.yaml", "a: one\n  two\n\n   three # c\nb: x\nc:\n  - p\n    q\n  - r\n", nil, []string{
		"/a", "4:9",
		"/b", "5:5",
		"/c/0", "8:6",
		"/c/1", "9:6",
		"", "9:6",
	}},
	{"single.yaml", "a: 'it''s'  # c\nb: 'multi\n  line'\nc: ''\n", nil, []string{
		"/a", "1:11",
		"/b", "3:8",
		"/c", "4:6",
	}},
	{"double.yaml", "a: \"q\\\"x\\\\\"\nb: \"é\\u00e9\n  😀\"\nc: \"a\\\n  b\"\n", nil, []string{
		"/a", "1:12",
		"/b", "3:5",
		"/c", "5:5",
	}},
	{"literal.yaml", "a: |\n  line1\n\n   line2  \n\nb: >-\n  folded\n  text\n# trailing\nc: |+\n\nd: |2\n   x\n  y\ne: >  # c\n  z\n", nil, []string{
		"/a", "4:9",
		"/b", "8:7",
		"/c", "10:6", // no text: past the header
		"/d", "14:4",
		"/e", "16:4",
		"", "16:4",
	}},
	{"block-in-seq.yaml", "k:\n  - |\n    x\n  - y\nm:\n- a: |\n  b: 1\n", nil, []string{
		"/k/0", "3:6",
		"/k/1", "4:6",
		"/k", "4:6",
		"/m/0/a", "6:7", // b is a sibling key, not text: the scalar is empty
		"/m/0/b", "7:7",
		"", "7:7",
	}},
	{"root-block.yaml", "--- |\n  a\n  b\n", nil, []string{"", "3:4"}},
	{"root-plain.yaml", "--- hello\n...\n", nil, []string{"", "1:10"}},

	// Flow collections: quoted brackets, comments, nesting, trailing comma.
	{"flow.yaml", "a: [1, 'x]', \"y}\", {b: c}, [ ] ] # c\nb: {k: v, # comment ]\n  l: [m]}\nc: [it's, p q , ]\n", nil, []string{
		"/a/0", "1:6",
		"/a/1", "1:12",
		"/a/2", "1:18",
		"/a/3/b", "1:25",
		"/a/3", "1:26",
		"/a/4", "1:31",
		"/a", "1:33",
		"/b/k", "2:9",
		"/b/l", "3:9",
		"/b", "3:10",
		"/c/0", "4:9",
		"/c/1", "4:14",
		"/c", "4:18",
		"", "4:18",
	}},
	{"flow-pair.yaml", "[x, a: 1, {k}]", nil, []string{
		"/1/a", "1:9",
		"/1", "1:9",
		"/2/k", "1:13",
		"/2", "1:14",
		"", "1:15",
	}},
	{"flow-multiline.yaml", "a: [\n  1,\n  {b: \"c\"}\n]\n", nil, []string{
		"/a/1", "3:11",
		"/a", "4:2",
	}},

	// Block collections: End of the last descendant.
	{"nested.yaml", "top:\n  list:\n    - one\n    - two: 2\n      three: [3]\n  after: x\nlast:\n  - - deep\n", nil, []string{
		"/top/list/1", "5:17",
		"/top/list", "5:17",
		"/top", "6:11",
		"/last/0", "8:11",
		"/last", "8:11",
		"", "8:11",
	}},
	{"empty-entries.yaml", "- \n-\n- x\n-\n", nil, []string{
		"/0", "1:2",
		"/1", "2:2",
		"/2", "3:4",
		"/3", "4:2",
		"", "4:2",
	}},
	{"explicit-key.yaml", "? a\n: b\n? c\n", nil, []string{
		"/a", "2:4",
		"/c", "4:1", // empty, placed after the key
		"", "3:4", // the mapping ends at its last key
	}},

	// Properties: tags and anchors belong to the value.
	{"props.yaml", "a: !!str 12\nb: &x hi\nc: !!str\nd: !!null\ne: !!str\n  next\nf: &m\n  g: 1\n", nil, []string{
		"/a", "1:12",
		"/b", "2:9",
		"/c", "3:9",
		"/d", "4:10",
		"/e", "6:7",
		"/f", "8:7",
	}},

	// CRLF and multi-byte characters.
	{"crlf.yaml", "a: x y\r\nb: |\r\n  t1\r\n  t2\r\nc: 'q\r\n  r'\r\nd: [1,\r\n 2]\r\n", nil, []string{
		"/a", "1:7",
		"/b", "4:5",
		"/c", "6:5",
		"/d", "8:4",
		"", "8:4",
	}},
	{"unicode.yaml", "é: 😀 ünï # c\nñ: [é, 😀]\n\"ö\": \"😀😀\"\n", nil, []string{
		"/é", "1:9",
		"/ñ/1", "2:9",
		"/ñ", "2:10",
		"/ö", "3:10",
	}},
	{"breaks.yaml", "a: x\rb: y\r\nc: 'p\rq'", nil, []string{
		"/a", "1:5",
		"/b", "2:5",
		"/c", "4:3",
	}},

	// Aliases and duplicate keys: the tree is not in source order.
	{"alias.yaml", "base: &b\n  k: v\nx: *b\ny:\n  - &s s1\n  - *s\n  - *s\n", &allowAll, []string{
		"/x", "2:7", // a copy spans the anchored text
		"/y/1", "5:10",
		"/y", "7:7",
		"", "7:7",
	}},
	{"alias-nested.yaml", "- - &a x\n- *a\n", &allowAll, []string{"/1", "1:9", "", "2:5"}},
	{"alias-context.yaml", "a: [&x p, q]\nb: *x\nc:\n  - &m one\n    two\n  - k: *m\n", &allowAll, []string{
		"/b", "1:9", // read in the anchor's (flow) context
		"/c/1/k", "5:8",
		"/c/1", "6:10",
		"", "6:10",
	}},
	{"alias-last.yaml", "a: &x 1\nb: *x\n", &allowAll, []string{"", "2:6"}},
	{"alias-flow.yaml", "a: &x 1\nb: [*x, *x]\n", &allowAll, []string{"/b", "2:12", "", "2:12"}},
	{"dup.yaml", "a: 1\nb: [2]\na: 3\n", &allowAll, []string{"/b", "2:7", "", "3:5"}},
	// '?' and ':' inside flow plain scalars, as yaml/v4 reads them.
	{"flow-question.yaml", "{q: Who owns this?, u: [a:b, x?y], r: 0?}\n", nil, []string{
		"/q", "1:19", "/u/0", "1:28", "/u/1", "1:33", "/u", "1:34", "/r", "1:41", "", "1:42",
	}},
	{"flow-anchor.yaml", "a: [&x:y 1, &b: 2]\n", &allowAll, []string{"/a/0", "1:11", "/a/1/", "1:18"}},
}

func TestEnd(t *testing.T) {
	for _, tc := range endCases {
		opts := DefaultOptions()
		if tc.opts != nil {
			opts = *tc.opts
		}
		doc, err := Parse(tc.name, []byte(tc.src), opts)
		if err != nil {
			t.Errorf("%s: %v", tc.name, err)
			continue
		}
		for i := 0; i+1 < len(tc.want); i += 2 {
			ptr, want := tc.want[i], tc.want[i+1]
			n, ok := doc.Lookup(ptr)
			if !ok {
				t.Errorf("%s: no node at %q", tc.name, ptr)
				continue
			}
			if got := doc.End(n).String(); got != want {
				t.Errorf("%s: End(%q) = %s, want %s (value starts at %v)", tc.name, ptr, got, want, n.Pos)
			}
		}
		if p := checkEnds(doc); p != "" {
			t.Errorf("%s: %s", tc.name, p)
		}
	}
}

func TestEndLongLine(t *testing.T) {
	// One long line with multi-byte characters exercises the character
	// checkpoints: each element's End column is the character count of the
	// text up to it, plus one.
	var sb strings.Builder
	sb.WriteString("[")
	var ends []int
	for i := 0; i < 3000; i++ {
		if i > 0 {
			sb.WriteString(", ")
		}
		fmt.Fprintf(&sb, `"é%d😀"`, i)
		ends = append(ends, utf8.RuneCountInString(sb.String())+1)
	}
	sb.WriteString("]")
	for _, name := range []string{"long.json", "long.yaml"} {
		doc := mustParse(t, name, sb.String(), DefaultOptions())
		for i, want := range ends {
			n := doc.Root.Children()[i]
			if got := doc.End(n); got != (Pos{1, int32(want)}) {
				t.Fatalf("%s: End(/%d) = %v, want 1:%d", name, i, got, want)
			}
			if off := doc.Offset(n.Pos); off < 0 || doc.Source[off] != '"' {
				t.Fatalf("%s: Offset(%v) = %d", name, n.Pos, off)
			}
		}
		if got, want := doc.End(doc.Root), (Pos{1, int32(utf8.RuneCountInString(sb.String()) + 1)}); got != want {
			t.Errorf("%s: End(root) = %v, want %v", name, got, want)
		}
	}
}

func TestEndNotInDocument(t *testing.T) {
	a := mustParse(t, "a.json", `{"x": [1]}`, DefaultOptions())
	b := mustParse(t, "b.json", `{"x": [1]}`, DefaultOptions())
	if got := a.End(nil); !got.IsZero() {
		t.Errorf("End(nil) = %v", got)
	}
	n, _ := b.Lookup("/x/0")
	if got := a.End(n); !got.IsZero() {
		t.Errorf("End(node of another document) = %v", got)
	}
	if got := a.End(&Node{Kind: Null, Pos: Pos{1, 1}}); !got.IsZero() {
		t.Errorf("End(stray node) = %v", got)
	}
	var nilDoc *Document
	if got := nilDoc.End(n); !got.IsZero() {
		t.Errorf("nil document: End = %v", got)
	}
}

func TestEndSourceMismatch(t *testing.T) {
	// A document whose source was changed after parsing: End falls back to
	// the start instead of guessing (or panicking).
	for _, tc := range []struct{ name, src, changed string }{
		{"m.json", `{"a": "xyz"}`, `{"a": 12345}`},
		{"m.json", `{"a": [1, 2]}`, `{"a": [1, 2`},
		{"m.yaml", `a: 'xyz'`, `a: "xyz`},
		{"m.yaml", "a: |\n  x\n", "a: +\n  x\n"},
		{"m.yaml", "a: [1, 2]", "a: [1, 2"},
		{"m.yaml", "a:\n  b: 'c'\n", "a:\n  b: 'c"},
		{"m.yaml", "a: b", "a"},
	} {
		doc := mustParse(t, tc.name, tc.src, DefaultOptions())
		doc.Source = []byte(tc.changed)
		preorder(doc.Root, func(n *Node) bool {
			if got := doc.End(n); posLess(got, n.Pos) {
				t.Errorf("%s %q: End(%q) = %v before %v", tc.name, tc.changed, n.Pointer(), got, n.Pos)
			}
			return true
		})
	}
	doc := mustParse(t, "m.yaml", "a: 'xyz'", DefaultOptions())
	doc.Source = []byte(`a: "xyz"`)
	n, _ := doc.Lookup("/a")
	if got := doc.End(n); got != n.Pos {
		t.Errorf("End of a single-quoted value written with double quotes = %v, want its start %v", got, n.Pos)
	}
}

func TestOffset(t *testing.T) {
	doc := mustParse(t, "o.yaml", "é: 😀\r\nb: x\n", DefaultOptions())
	for _, tc := range []struct {
		p    Pos
		want int
	}{
		{Pos{1, 1}, 0},
		{Pos{1, 2}, 2},
		{Pos{1, 4}, 4},
		{Pos{1, 5}, 8}, // past the last character: the line break
		{Pos{1, 6}, -1},
		{Pos{2, 1}, 10},
		{Pos{2, 5}, 14},
		{Pos{3, 1}, 15}, // end of input
		{Pos{3, 2}, -1},
		{Pos{4, 1}, -1},
		{Pos{0, 1}, -1},
		{Pos{1, 0}, -1},
	} {
		if got := doc.Offset(tc.p); got != tc.want {
			t.Errorf("Offset(%v) = %d, want %d", tc.p, got, tc.want)
		}
	}
	// JSON breaks lines at "\r\n", a lone '\r' and '\n', as YAML does.
	js := mustParse(t, "o.json", "[1,\r2,\r\n3]", DefaultOptions())
	for i, want := range []string{"1:2", "2:1", "3:1"} {
		n := js.Root.Children()[i]
		if n.Pos.String() != want {
			t.Fatalf("JSON element %d at %v, want %s", i, n.Pos, want)
		}
		if off := js.Offset(n.Pos); off < 0 || js.Source[off] != byte('1'+i) {
			t.Errorf("JSON Offset(%v) = %d", n.Pos, off)
		}
	}
	var nilDoc *Document
	if nilDoc.Offset(Pos{1, 1}) != -1 {
		t.Error("nil document: Offset is not -1")
	}
}

func TestEndConcurrent(t *testing.T) {
	doc := mustParse(t, "c.yaml", "a: [1, 2]\nb:\n  c: |\n    text\n  d: 'x'\n", DefaultOptions())
	want := map[*Node]Pos{}
	ref := mustParse(t, "c.yaml", string(doc.Source), DefaultOptions())
	for i, n := range renderOrder(ref) {
		want[renderOrder(doc)[i]] = ref.End(n)
	}
	var wg sync.WaitGroup
	for g := 0; g < 8; g++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for _, n := range renderOrder(doc) {
				if got := doc.End(n); got != want[n] {
					t.Errorf("concurrent End(%q) = %v, want %v", n.Pointer(), got, want[n])
				}
			}
		}()
	}
	wg.Wait()
}

// checkEnds checks every node's End: inside the source, not before its
// start; siblings in source order do not overlap and end within their
// parent; for JSON, and for YAML scalars and flow collections, the text
// from start to End reads back as the node's value.
func checkEnds(doc *Document) string {
	if doc.spanData().irregular || doc.Format == "yaml" && bytes.Contains(doc.Source, []byte("\t")) {
		// Copies carry positions from elsewhere; tabs make re-reading a
		// slice unreliable.
		return checkEndsBasic(doc)
	}
	if p := checkEndsBasic(doc); p != "" {
		return p
	}
	for _, n := range renderOrder(doc) {
		end := doc.End(n)
		for i, c := range n.Children() {
			ce := doc.End(c)
			if posLess(end, ce) && ce != c.Pos { // an empty value may sit past its key

				return fmt.Sprintf("child %q ends at %v, after its parent (%v)", c.Pointer(), ce, end)
			}
			if i+1 < n.Len() {
				next := n.Children()[i+1]
				at := next.Pos
				if n.Kind == Object {
					at = next.KeyPos
				}
				if posLess(at, c.Pos) {
					continue // replaced duplicate key
				}
				if posLess(at, ce) {
					return fmt.Sprintf("%q ends at %v, after the next sibling starts (%v)", c.Pointer(), ce, at)
				}
			}
		}
		if p := rereadValue(doc, n); p != "" {
			return p
		}
	}
	return ""
}

func checkEndsBasic(doc *Document) string {
	for _, n := range renderOrder(doc) {
		end := doc.End(n)
		if end.IsZero() || posLess(end, n.Pos) {
			return fmt.Sprintf("End(%q) = %v, value starts at %v", n.Pointer(), end, n.Pos)
		}
		if doc.Offset(n.Pos) < 0 {
			// yaml/v4 places some empty values past the end of input.
			if end != n.Pos {
				return fmt.Sprintf("End(%q) = %v, want the start %v, which is outside the source", n.Pointer(), end, n.Pos)
			}
			continue
		}
		if doc.Offset(end) < 0 {
			return fmt.Sprintf("End(%q) = %v is outside the source", n.Pointer(), end)
		}
	}
	return ""
}

// rereadValue parses the source text of n on its own and compares values.
func rereadValue(doc *Document, n *Node) string {
	start, end := doc.Offset(n.Pos), doc.Offset(doc.End(n))
	if start < 0 {
		return ""
	}
	text := doc.Source[start:end]
	if doc.Format == "json" {
		sub, err := Parse("reread.json", text, allowAll)
		if err != nil || !json.Valid(text) || !sameLoaderValue(sub.Root.Value(), n.Value()) ||
			bytes.ContainsAny(text[len(text)-1:], " \t\r\n") {
			return fmt.Sprintf("text of %q is %q, not the value %#v", n.Pointer(), text, n.Value())
		}
		return ""
	}
	if start == end {
		return ""
	}
	// The text ends at its last character: no trailing blanks, line
	// breaks or comments, and quoted and flow values at their closer.
	last := text[len(text)-1]
	var closer string
	switch {
	case n.Style == SingleQuoted:
		closer = "'"
	case n.Style == DoubleQuoted:
		closer = `"`
	case n.Style == Flow && bytes.ContainsAny(text[:1], "[{"):
		closer = "]}"
	case n.Kind != Array && n.Kind != Object && n.Style == Plain && text[0] != '!' && text[0] != '&':
		// (A comment may separate properties from the value.)
		if bytes.Contains(text, []byte(" #")) || bytes.Contains(text, []byte("\t#")) {
			return fmt.Sprintf("text of %q (%v..%v) takes in a comment: %q", n.Pointer(), n.Pos, doc.End(n), text)
		}
	}
	if last == ' ' || last == '\t' || last == '\n' || last == '\r' || closer != "" && !strings.ContainsRune(closer, rune(last)) {
		return fmt.Sprintf("text of %q (%v..%v) ends badly: %q", n.Pointer(), n.Pos, doc.End(n), text)
	}
	block := n.Style == Literal || n.Style == Folded
	switch {
	case n.Kind == Array || n.Kind == Object:
		if n.Style != Flow || !bytes.ContainsAny(text[:1], "[{") {
			return "" // block collections start mid-line; re-reading needs their indentation
		}
	case block:
		// An explicit indentation indicator is relative to the parent.
		if hdr, _, _ := bytes.Cut(text, []byte("\n")); bytes.ContainsAny(hdr, "123456789") {
			return ""
		}
	}
	opts := allowAll
	opts.Reject = MultipleDocuments // "---" inside re-read text must not pass silently
	// A leading space keeps "---" or "..." at the start from reading as a
	// document marker.
	// A scalar in a flow collection is read in one.
	wrap := inFlow(n) && n.Kind != Array && n.Kind != Object
	in := append([]byte(" "), text...)
	if wrap {
		in = append(append([]byte(" ["), text...), ']')
	}
	sub, err := Parse("reread.yaml", in, opts)
	if err != nil && wrap {
		// A tag takes in a "]" right after it: [!t]
		in = append(in[:len(in)-1], " ]"...)
		sub, err = Parse("reread.yaml", in, opts)
	}
	if err != nil {
		return fmt.Sprintf("text of %q (%v..%v) does not parse: %q: %v", n.Pointer(), n.Pos, doc.End(n), in, err)
	}
	got, want := sub.Root.Value(), n.Value()
	if wrap {
		if l, ok := got.([]any); ok && len(l) == 1 {
			got = l[0]
		}
	}
	if block {
		// The text ends at its last non-blank character: trailing line
		// breaks and blanks (chomping) are not part of it.
		g, _ := got.(string)
		w, _ := want.(string)
		got, want = strings.TrimRight(g, " \t\n"), strings.TrimRight(w, " \t\n")
	}
	if !sameLoaderValue(got, want) {
		return fmt.Sprintf("text of %q (%v..%v) is %q, reads as %#v, not %#v", n.Pointer(), n.Pos, doc.End(n), text, got, want)
	}
	return ""
}

func sameLoaderValue(a, b any) bool {
	if fa, ok := a.(float64); ok {
		if fb, ok := b.(float64); ok && math.IsNaN(fa) && math.IsNaN(fb) {
			return true
		}
	}
	return reflect.DeepEqual(a, b)
}

// FuzzEnd parses arbitrary input as JSON or YAML (parse errors are
// skipped), with the default options and with everything allowed, and
// checks End on every node (see checkEnds).
func FuzzEnd(f *testing.F) {
	for _, tc := range endCases {
		f.Add(strings.HasSuffix(tc.name, ".json"), []byte(tc.src))
	}
	for _, s := range []string{
		"a: |-\n  x\n b\n",
		"- - &a x\n- *a\n",
		"{a: [b, {c: 'd'}], e: \"f\\\"\"}\n",
		"? |\n  k\n: v\n",
		"a: >\n\n  x\n\n\nb: 1",
		"[\"\\u00e9\\\"\", 1e5, {}]",
		// Found by fuzzing.
		" ?",
		"00:  !000\n!0 :",
		"0: !000\n>1\n 00000",
		" ...",
		"C: !0 #00\n 000",
		"\n? \n",
		" [00:]",
		" ? !\n",
		" [0 : ]",
		"0: 0\n?",
		"? |",
		"0: [!0 ] ",
		"? 0\n#0",
	} {
		f.Add(false, []byte(s))
		f.Add(true, []byte(s))
	}
	// The loader's parser fuzz corpora.
	for dir, asJSON := range map[string]bool{"FuzzParseJSON": true, "FuzzParseYAML": false} {
		files, _ := os.ReadDir(filepath.Join("testdata", "fuzz", dir))
		for _, file := range files {
			data, err := os.ReadFile(filepath.Join("testdata", "fuzz", dir, file.Name()))
			if err != nil {
				continue
			}
			for _, line := range strings.Split(string(data), "\n") {
				if q, ok := strings.CutPrefix(line, "[]byte("); ok {
					if v, err := strconv.Unquote(strings.TrimSuffix(q, ")")); err == nil {
						f.Add(asJSON, []byte(v))
					}
				}
			}
		}
	}
	f.Fuzz(func(t *testing.T, asJSON bool, data []byte) {
		name := "fuzz.yaml"
		if asJSON {
			name = "fuzz.json"
		}
		for _, opts := range []Options{DefaultOptions(), allowAll} {
			doc, err := Parse(name, data, opts)
			if err != nil {
				continue
			}
			if p := checkEnds(doc); p != "" {
				t.Fatalf("%s %q: %s", name, data, p)
			}
		}
	})
}

// BenchmarkEnd measures End over every node of a generated ~1 MB JSON
// document: "warm" with the line index built, "cold" building it first
// (a fresh Document each time).
func BenchmarkEnd(b *testing.B) {
	var sb strings.Builder
	sb.WriteString("{\n  \"items\": [\n")
	for i := 0; sb.Len() < 1<<20; i++ {
		if i > 0 {
			sb.WriteString(",\n")
		}
		fmt.Fprintf(&sb, `    {"id": %d, "name": "item-%d", "description": "A \"quoted\" description\nwith é€ %d",`+
			` "price": %d.%02d, "tags": ["alpha", "beta"], "active": %t, "parent": null, "dims": {"w": %d, "h": 1.5e-3}}`,
			i, i, i, i%1000, i%100, i%2 == 0, i%300)
	}
	sb.WriteString("\n  ]\n}\n")
	data := []byte(sb.String())
	doc, err := Parse("bench.json", data, DefaultOptions())
	if err != nil {
		b.Fatal(err)
	}
	nodes := renderOrder(doc)
	run := func(b *testing.B, fresh bool) {
		b.SetBytes(int64(len(data)))
		b.ReportAllocs()
		d := doc
		for b.Loop() {
			if fresh {
				d = &Document{Format: doc.Format, Root: doc.Root, Source: doc.Source, rendered: doc.rendered}
			}
			for _, n := range nodes {
				d.End(n)
			}
		}
		b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(len(nodes)), "ns/node")
	}
	b.Run("warm", func(b *testing.B) { run(b, false) })
	b.Run("cold", func(b *testing.B) { run(b, true) })
}

// yamlGen writes random YAML and records, for every value, the byte offset
// where its text ends, as an independent oracle for End.
type yamlGen struct {
	r       *rand.Rand
	buf     []byte
	nl      string
	ends    map[string]int
	anchors int
	last    int                 // end of the value written last
	scalars map[string]int      // anchors of finished values → where their text ends
	defined map[string]string   // anchor → pointer of its value
	aliased map[string][]string // anchor → pointers of its aliases
	aliases bool                // whether an alias was written
	dups    bool                // whether a key was repeated
	// explicit is set while the value of an explicit key ("? k") is written.
	explicit bool
}

func (g *yamlGen) w(s ...string) {
	for _, x := range s {
		g.buf = append(g.buf, x...)
	}
}

func (g *yamlGen) pick(s ...string) string { return s[g.r.IntN(len(s))] }

func (g *yamlGen) comment() {
	if g.r.IntN(3) == 0 {
		g.w(g.pick(" # c", "  #: [x] 'y", " # é😀"))
	}
}

// props writes an anchor now and then, and returns its name; a tag when
// tag is set.
func (g *yamlGen) props(tag bool) string {
	if tag && g.r.IntN(4) == 0 {
		g.w(g.pick("!!str ", "!custom ", "!<tag:x,1:y> "))
	}
	if g.r.IntN(6) == 0 {
		g.anchors++
		name := "a" + strconv.Itoa(g.anchors)
		g.w("&" + name + " ")
		return name
	}
	return ""
}

func (g *yamlGen) end(ptr string) {
	g.ends[ptr] = len(g.buf)
	g.last = len(g.buf)
}

// blockValue writes the value after "key:" or "-" of a block collection
// at indentation ind and records where it ends.
func (g *yamlGen) blockValue(ptr string, ind, depth int, inSeq bool) {
	pad := strings.Repeat(" ", ind)
	more := strings.Repeat(" ", ind+2)
	switch c := g.r.IntN(12); {
	case c == 0: // empty
		g.end(ptr)
		if g.r.IntN(2) == 0 {
			g.w(" ")
			tag := g.pick("!!str", "!!null", "&e"+strconv.Itoa(g.anchors+1))
			g.anchors++
			g.w(tag)
			g.end(ptr)
		}
		g.comment()
		g.w(g.nl)
	case c == 1 && len(g.scalars) > 0 && g.r.IntN(2) == 0: // alias
		g.w(" ")
		g.alias(ptr)
		g.comment()
		g.w(g.nl)
	case c <= 2 && depth > 0: // block mapping
		if inSeq && g.r.IntN(2) == 0 {
			g.w(" ")
			g.mapping(ptr, ind+2, depth-1, true)
			g.ends[ptr] = g.last
			return
		}
		anchor := ""
		if g.r.IntN(3) == 0 {
			g.w(" ")
			anchor = g.props(false)
		}
		g.comment()
		g.w(g.nl)
		g.mapping(ptr, ind+2, depth-1, false)
		g.ends[ptr] = g.last
		g.anchored(anchor, ptr)
	case c <= 4 && depth > 0: // block sequence
		if inSeq && g.r.IntN(2) == 0 {
			g.w(" ")
			g.sequence(ptr, ind+2, depth-1, true)
			g.ends[ptr] = g.last
			return
		}
		g.comment()
		g.w(g.nl)
		if !inSeq && g.r.IntN(2) == 0 {
			g.sequence(ptr, ind, depth-1, false) // indentless
		} else {
			g.sequence(ptr, ind+2, depth-1, false)
		}
		g.ends[ptr] = g.last
	case c <= 6: // flow collection
		g.w(" ")
		anchor := g.props(false)
		g.flow(ptr, ind, depth)
		g.anchored(anchor, ptr)
		g.comment()
		g.w(g.nl)
	case c == 7: // block scalar
		g.w(" ")
		g.props(true)
		g.w(g.pick("|", ">", "|-", ">+", "|2", ">-1"[:2]))
		g.comment()
		g.w(g.nl)
		if g.r.IntN(3) == 0 {
			g.w(g.nl) // leading empty line
		}
		end := -1
		for i, n := 0, 1+g.r.IntN(3); i < n; i++ {
			if i == 0 {
				g.w(more, g.pick("line", "é 😀 # not a comment", "x: y"))
			} else {
				g.w(more, g.pick("line", "é 😀 # not a comment", "  deeper", "x: y", "'q'"))
			}
			end = len(g.buf)
			if g.r.IntN(3) == 0 {
				g.w("  ")
			}
			g.w(g.nl)
			if g.r.IntN(4) == 0 {
				g.w(g.pick("", pad, more+"  "), g.nl)
			}
		}
		g.ends[ptr] = end
		g.last = end
	default: // a scalar on the line
		if !inSeq && !g.explicit {
			g.w(g.pick(" ", " ", "\t", " \t ")) // yaml/v4 takes tabs after implicit keys only
		} else {
			g.w(" ")
		}
		anchor := g.props(true)
		g.scalar(more, false)
		g.end(ptr)
		g.anchored(anchor, ptr)
		g.comment()
		g.w(g.nl)
	}
}

// scalar writes a plain or quoted scalar; more is the indentation for
// continuation lines (flow scalars stay on one line).
func (g *yamlGen) scalar(more string, flow bool) {
	switch g.r.IntN(5) {
	case 0, 1:
		if flow {
			g.w(g.pick("x", "hello world", "é😀 ü", "12", "-3.5", "true", "~", "a#b", "it's", "-x", "a:b",
				"one"+g.nl+more+"  two"))
		} else {
			g.w(g.pick("x", "hello world", "é😀 ü", "12", "-3.5", "true", "~", "a#b", "it's", "a:b", "x, y}",
				"one"+g.nl+more+"two", "one"+g.nl+g.nl+more+"two  three"))
		}
	case 2:
		if flow {
			g.w(g.pick(`'it''s'`, `'a # b'`, `''`, `'[]'`))
		} else {
			g.w(g.pick(`'it''s'`, `'a # b'`, `''`, "'multi"+g.nl+more+"line'"))
		}
	default:
		if flow {
			g.w(g.pick(`"q\"x"`, `"a\\"`, `"é\u00e9"`, `""`, `"}"`))
		} else {
			g.w(g.pick(`"q\"x"`, `"a\\"`, `"é\u00e9"`, `""`, `"x\`+g.nl+more+`y"`, `"p`+g.nl+g.nl+more+`q"`))
		}
	}
}

// anchored records that the value just written at ptr has anchor name.
func (g *yamlGen) anchored(name, ptr string) {
	if name != "" {
		g.scalars[name] = g.last
		g.defined[name] = ptr
	}
}

// alias writes an alias of a finished anchored value.
func (g *yamlGen) alias(ptr string) {
	names := make([]string, 0, len(g.scalars))
	for name := range g.scalars {
		names = append(names, name)
	}
	slices.Sort(names)
	name := names[g.r.IntN(len(names))]
	g.w("*", name)
	g.last = len(g.buf)
	g.ends[ptr] = g.scalars[name] // a copy spans the anchored text
	g.aliased[name] = append(g.aliased[name], ptr)
	g.aliases = true
}

func (g *yamlGen) key(i int) string {
	return g.pick("k", "ключ", "k é") + strconv.Itoa(i)
}

// mapping writes a block mapping at indentation ind; inline: the first key
// goes on the current line.
func (g *yamlGen) mapping(ptr string, ind, depth int, inline bool) {
	var keys []string
	for i, n := 0, 1+g.r.IntN(3); i < n; i++ {
		if i > 0 || !inline {
			g.w(strings.Repeat(" ", ind))
		}
		k := g.key(i)
		if i > 0 && g.r.IntN(5) == 0 {
			// A duplicate key: the later value replaces the earlier one.
			k = keys[g.r.IntN(len(keys))]
			g.dups = true
			p := ptr + "/" + EscapeToken(k)
			for q := range g.ends {
				if q == p || strings.HasPrefix(q, p+"/") {
					delete(g.ends, q)
				}
			}
			// The context of an anchor in a dropped value is lost: End
			// reads its copies in the alias's context.
			for name, q := range g.defined {
				if q == p || strings.HasPrefix(q, p+"/") {
					delete(g.scalars, name)
					for _, a := range g.aliased[name] {
						delete(g.ends, a)
					}
				}
			}
		}
		keys = append(keys, k)
		explicit := g.r.IntN(8) == 0
		g.explicit = explicit
		if explicit {
			g.w("? ")
		}
		if g.r.IntN(4) == 0 {
			g.w(`"`, k, `"`)
		} else {
			g.w(k)
		}
		if explicit {
			g.w(g.nl, strings.Repeat(" ", ind))
		}
		g.w(":")
		g.blockValue(ptr+"/"+EscapeToken(k), ind, depth, false)
		if g.r.IntN(5) == 0 {
			g.w(strings.Repeat(" ", g.r.IntN(ind+1)), "# between", g.nl)
		}
	}
}

func (g *yamlGen) sequence(ptr string, ind, depth int, inline bool) {
	for i, n := 0, 1+g.r.IntN(3); i < n; i++ {
		if i > 0 || !inline {
			g.w(strings.Repeat(" ", ind))
		}
		g.w("-")
		g.blockValue(ptr+"/"+strconv.Itoa(i), ind, depth, true)
	}
}

// flow writes a flow collection; continuation lines are indented past ind.
func (g *yamlGen) flow(ptr string, ind, depth int) {
	more := g.nl + strings.Repeat(" ", ind+2)
	obj := g.r.IntN(2) == 0
	open, close := "[", "]"
	if obj {
		open, close = "{", "}"
	}
	g.w(open)
	n := g.r.IntN(4)
	for i := 0; i < n; i++ {
		if i > 0 {
			g.w(",")
			switch g.r.IntN(4) {
			case 0:
				g.w(more)
			case 1:
				g.w(" # c", more)
			default:
				g.w(" ")
			}
		}
		p := ptr + "/" + strconv.Itoa(i)
		if obj {
			k := g.key(i)
			g.w(k, ": ")
			p = ptr + "/" + EscapeToken(k)
		}
		if len(g.scalars) > 0 && g.r.IntN(6) == 0 {
			g.alias(p)
			continue
		}
		anchor := g.props(false)
		if depth > 0 && g.r.IntN(3) == 0 {
			g.flow(p, ind, depth-1)
		} else {
			g.scalar(strings.Repeat(" ", ind+2), true)
			g.end(p)
		}
		g.anchored(anchor, p)
	}
	if n > 0 && g.r.IntN(4) == 0 {
		g.w(",")
	}
	g.w(g.pick("", " ", more))
	g.w(close)
	g.end(ptr)
}

// posIn computes the position of offset off in src, breaking lines at "\n"
// (the generator writes "\n" or "\r\n").
func posIn(src []byte, off int) Pos {
	start := bytes.LastIndexByte(src[:off], '\n') + 1
	return Pos{Line: int32(1 + bytes.Count(src[:off], []byte("\n"))), Col: int32(1 + utf8.RuneCount(src[start:off]))}
}

func TestEndGeneratedYAML(t *testing.T) { checkGeneratedYAML(t, 1, 3000) }

// checkGeneratedYAML checks End on docs random documents.
func checkGeneratedYAML(t *testing.T, seed uint64, docs int) {
	r := rand.New(rand.NewPCG(seed, 2))
	parsed, withAliases, withDups := 0, 0, 0
	for d := 0; d < docs; d++ {
		g := &yamlGen{r: r, nl: "\n", ends: map[string]int{}, scalars: map[string]int{}, defined: map[string]string{}, aliased: map[string][]string{}}
		if d%3 == 0 {
			g.nl = "\r\n"
		}
		if r.IntN(5) == 0 {
			g.w("--- # start", g.nl)
		}
		switch r.IntN(3) {
		case 0:
			g.mapping("", 0, 3, true)
			g.ends[""] = g.last
		case 1:
			g.sequence("", 0, 3, true)
			g.ends[""] = g.last
		default:
			g.flow("", 0, 3)
		}
		doc, err := Parse("gen.yaml", g.buf, allowAll)
		if err != nil {
			t.Logf("generated YAML does not parse: %v\n%s", err, g.buf)
			continue
		}
		parsed++
		if g.aliases {
			withAliases++
		}
		if g.dups {
			withDups++
		}
		for ptr, off := range g.ends {
			n, ok := doc.Lookup(ptr)
			if !ok {
				t.Fatalf("no node %q in\n%s", ptr, g.buf)
			}
			if got, want := doc.End(n), posIn(g.buf, off); got != want {
				t.Fatalf("End(%q) = %v, want %v in\n%s", ptr, got, want, g.buf)
			}
		}
		if p := checkEnds(doc); p != "" {
			t.Fatalf("%s in\n%s", p, g.buf)
		}
	}
	if parsed < docs*9/10 || withAliases < docs/10 || withDups < docs/10 {
		t.Errorf("only %d of %d generated documents parse, %d with aliases, %d with duplicate keys", parsed, docs, withAliases, withDups)
	}
	t.Logf("%d of %d generated documents parse, %d with aliases, %d with duplicate keys", parsed, docs, withAliases, withDups)
}

// renderOrder is every node of a rendered document in rendering order (nil
// for a JSON input that is its own JSON), as the document once listed them.
func renderOrder(d *Document) []*Node {
	if !d.rendered {
		return nil
	}
	var out []*Node
	preorder(d.Root, func(n *Node) bool {
		out = append(out, n)
		return true
	})
	return out
}

// TestPreorderIsRenderOrder: preorder visits a rendered document's nodes in
// the order render wrote them, every one once, so that what the span cache
// checks in that order is document order.
func TestPreorderIsRenderOrder(t *testing.T) {
	for _, src := range []string{"a: [1, {b: [], c: {}}, 'x']\nd: {e: [[2], [3, 4]]}\n", "[{}, [], {\"k\": [null]}]", "x"} {
		doc := mustParse(t, "p.yaml", src, DefaultOptions())
		nodes := renderOrder(doc)
		if len(nodes) != doc.Values {
			t.Errorf("%q: %d nodes, want %d", src, len(nodes), doc.Values)
		}
		for i := 1; i < len(nodes); i++ {
			if nodes[i].Offset <= nodes[i-1].Offset {
				t.Errorf("%q: node %d (%s) at offset %d after %d", src, i, nodes[i].Pointer(), nodes[i].Offset, nodes[i-1].Offset)
			}
		}
	}
}
