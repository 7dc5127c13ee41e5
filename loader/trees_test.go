package loader

import (
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// sameDocument describes the first difference between two documents, ""
// when they are the same in every field, node by node.
func sameDocument(a, b *Document) string {
	if a.Name != b.Name || a.Format != b.Format || string(a.JSON()) != string(b.JSON()) || string(a.Source) != string(b.Source) ||
		a.Values != b.Values || a.counted != b.counted || a.depth != b.depth || a.rendered != b.rendered {
		return fmt.Sprintf("documents differ: %q %s %d values (%d counted, depth %d) against %q %s %d values (%d counted, depth %d)",
			a.Name, a.Format, a.Values, a.counted, a.depth, b.Name, b.Format, b.Values, b.counted, b.depth)
	}
	twin := map[*Node]*Node{nil: nil}
	var walk func(x, y *Node) string
	walk = func(x, y *Node) string {
		twin[x] = y
		if x.Kind != y.Kind || x.Style != y.Style || x.Pos != y.Pos || x.KeyPos != y.KeyPos || x.Key() != y.Key() || x.Index() != y.Index() ||
			x.Offset != y.Offset || a.JSONEnd(x) != b.JSONEnd(y) || twin[x.Parent] != y.Parent || !reflect.DeepEqual(x.Value(), y.Value()) ||
			!reflect.DeepEqual(x.memberIndex(), y.memberIndex()) || x.Len() != y.Len() {
			return fmt.Sprintf("at %s: %v %v %v %v %q %d %d-%d %v against %v %v %v %v %q %d %d-%d %v", x.Pointer(),
				x.Kind, x.Style, x.Pos, x.KeyPos, x.Key(), x.Index(), x.Offset, a.JSONEnd(x), x.Value(),
				y.Kind, y.Style, y.Pos, y.KeyPos, y.Key(), y.Index(), y.Offset, b.JSONEnd(y), y.Value())
		}
		for i := range x.Children() {
			if d := walk(x.Children()[i], y.Children()[i]); d != "" {
				return d
			}
		}
		return ""
	}
	if d := walk(a.Root, b.Root); d != "" {
		return d
	}
	an, bn := renderOrder(a), renderOrder(b)
	if len(an) != len(bn) {
		return fmt.Sprintf("%d nodes in rendering order against %d", len(an), len(bn))
	}
	for i := range an {
		if twin[an[i]] != bn[i] {
			return fmt.Sprintf("node %d in rendering order differs", i)
		}
	}
	return ""
}

// roundTrip checks that a parsed document's encoded tree decodes to the
// same document.
func roundTrip(t *testing.T, doc *Document, opts Options) {
	t.Helper()
	enc, err := encodeTree(doc)
	if err != nil {
		t.Fatalf("%s: %v", doc.Name, err)
	}
	opts.Limits = opts.Limits.withDefaults()
	got, err := decodeTree(doc.Name, doc.Source, opts, enc)
	if err != nil {
		t.Fatalf("%s: decoding its tree: %v", doc.Name, err)
	}
	if d := sameDocument(doc, got); d != "" {
		t.Fatalf("%s: decoded tree: %s", doc.Name, d)
	}
}

// TestTrees: the embedded rule files, and documents with every kind of
// node, decode from their trees to what parsing gives; a set reads back
// from its serialised form and serves them; any other file, or other
// options, are parsed; a damaged tree is parsed instead, never trusted.
func TestTrees(t *testing.T) {
	files, _ := filepath.Glob("../rulesets/*/*/*.yaml")
	if len(files) < 10 {
		t.Fatalf("found %d rule files", len(files))
	}
	opts := DefaultOptions()
	opts.Format = "yaml"
	rec := RecordTrees()
	docs := map[string][]byte{
		"kinds.yaml": []byte("a: [1, -2, 2.5, 1e300, true, false, null, 'q', \"d\"]\nl: |\n  lit\nf: >\n  fold\nb: {c: {}, d: []}\ns:\n- x\n- - y\n" +
			"k0: 0\nk1: 1\nk2: 2\nk3: 3\nk4: 4\nk5: 5\nk6: 6\nk7: 7\nk8: 8\n\"é😀\": x\n"),
		"kinds.json": []byte(`{"a": [1, -2, 2.5, 1e300, true, null, "s"], "a": {"dup": 1}, "b": {}}`),
	}
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		docs[f] = data
	}
	for name, data := range docs {
		o := opts
		if filepath.Ext(name) == ".json" {
			o = Options{Limits: DefaultLimits()} // duplicates allowed
		}
		doc, err := rec.Parse(name, data, o)
		if err != nil {
			t.Fatal(err)
		}
		roundTrip(t, doc, o)
	}
	stored, err := ReadTrees(rec.Marshal())
	if err != nil {
		t.Fatal(err)
	}
	if stored.Len() != len(docs) || string(stored.Marshal()) != string(rec.Marshal()) {
		t.Fatalf("read back %d trees of %d, or not the same bytes", stored.Len(), len(docs))
	}
	for _, f := range files {
		want, _ := Parse(f, docs[f], opts)
		got, err := stored.Parse(f, docs[f], opts)
		if err != nil {
			t.Fatal(err)
		}
		if d := sameDocument(want, got); d != "" {
			t.Fatalf("%s from the set: %s", f, d)
		}
	}
	if stored.Hits() != len(files) {
		t.Errorf("%d hits, want %d", stored.Hits(), len(files))
	}
	// Another file, or other options: parsed.
	f := files[0]
	if _, err := stored.Parse(f, append(docs[f], "\n# edited\n"...), opts); err != nil {
		t.Fatal(err)
	}
	other := opts
	other.Limits.Depth = 50
	if _, err := stored.Parse(f, docs[f], other); err != nil {
		t.Fatal(err)
	}
	if stored.Hits() != len(files) {
		t.Errorf("%d hits after an edited file and other options, want %d", stored.Hits(), len(files))
	}
	// A damaged tree: the file is parsed.
	o := opts
	o.Limits = o.Limits.withDefaults()
	for k, enc := range stored.entries {
		stored.entries[k] = enc[:len(enc)/2]
	}
	want, _ := Parse(f, docs[f], opts)
	got, err := stored.Parse(f, docs[f], opts)
	if err != nil || sameDocument(want, got) != "" || stored.Hits() != len(files) {
		t.Errorf("a damaged tree was used (%v)", err)
	}
	for _, bad := range [][]byte{nil, []byte("nope"), append([]byte(treesMagic), 1, 2, 3), append(append([]byte(treesMagic), make([]byte, 32)...), 0xff)} {
		if _, err := ReadTrees(bad); err == nil {
			t.Errorf("ReadTrees(%q) accepted", bad)
		}
	}
	// Another version's trees: an empty set, every file parsed.
	old, err := ReadTrees([]byte(treesFamily + "1\n\x00garbage of the old format"))
	if err != nil || old.Len() != 0 {
		t.Fatalf("another version's trees: %v, %d trees; want an empty set", err, old.Len())
	}
	if doc, err := old.Parse(f, docs[f], opts); err != nil || sameDocument(want, doc) != "" || old.Hits() != 0 {
		t.Errorf("another version's trees: %v, %d hits", err, old.Hits())
	}
}

// FuzzDecodeTree: whatever the bytes of a tree, decoding fails cleanly or
// gives a document; it never panics or runs away.
func FuzzDecodeTree(f *testing.F) {
	opts := DefaultOptions()
	opts.Limits = opts.Limits.withDefaults()
	for _, s := range []string{"a: [1, 2.5, true, null, 'x']\n", "{}", "[[[]]]"} {
		doc, err := Parse("seed.yaml", []byte(s), opts)
		if err != nil {
			f.Fatal(err)
		}
		enc, err := encodeTree(doc)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(enc)
	}
	f.Fuzz(func(t *testing.T, enc []byte) {
		doc, err := decodeTree("fuzz.yaml", nil, opts, enc)
		if err == nil && doc.Root == nil {
			t.Fatal("no error and no root")
		}
	})
}

// TestValue: a node's Value is its JSON value, a scalar's made without
// allocating, a collection's a fresh copy at each call, so that changing
// one copy changes neither the document nor the next copy.
func TestValue(t *testing.T) {
	src := `{"a": [1, {"b": "c"}, 2.5, true, false, null, ""], "d": null, "e": "x\u00e9", "f": -9007199254740993}`
	for _, format := range []string{"json", "yaml"} {
		t.Run(format, func(t *testing.T) {
			name := "v." + format
			doc, err := Parse(name, []byte(src), DefaultOptions())
			if err != nil {
				t.Fatal(err)
			}
			want := map[string]any{
				"a": []any{int64(1), map[string]any{"b": "c"}, 2.5, true, false, nil, ""},
				"d": nil, "e": "xé", "f": int64(-9007199254740993),
			}
			got := doc.Root.Value().(map[string]any)
			if !reflect.DeepEqual(got, want) {
				t.Fatalf("Value() = %#v, want %#v", got, want)
			}
			got["a"].([]any)[0] = "changed"
			if again := doc.Root.Value(); !reflect.DeepEqual(again, want) {
				t.Errorf("after changing a copy, Value() = %#v", again)
			}
			for _, c := range doc.Root.Member("a").Children() {
				if c.Kind >= Array {
					continue
				}
				if n := testing.AllocsPerRun(10, func() { _ = c.Value() }); n != 0 {
					t.Errorf("%s: Value() allocates %v times", c.Pointer(), n)
				}
			}
		})
	}
}

// TestConcurrentPrescan: with the pre-scan beside yaml/v4, a document
// parses, or fails, exactly as with the pre-scan first: at a limit the
// pre-scan finds far into a large input, at a syntax error yaml/v4 finds
// before it, at both.
func TestConcurrentPrescan(t *testing.T) {
	var big strings.Builder
	for i := range 5000 {
		fmt.Fprintf(&big, "k%d: [%d, 'v', {a: b}]\n", i, i)
	}
	body := big.String()
	cases := map[string]string{
		"valid":              body,
		"syntax error early": "a: [1\n" + body,
		"syntax error late":  body + "z: [1\n",
		"two documents":      body + "---\nb: 1\n",
		"deep late":          body + "z: " + strings.Repeat("[", 300) + strings.Repeat("]", 300) + "\n",
		"small":              "a: 1\n",
		"alias":              "a: &x [1, 2]\nb: *x\n" + body,
	}
	failed := 0
	for _, limits := range []Limits{{}, {Values: 100000}, {Values: 500}} {
		opts := DefaultOptions()
		opts.Limits = limits
		opts.Limits = opts.Limits.withDefaults()
		opts.Reject &^= Aliases
		for name, text := range cases {
			parse := func(concurrent bool) (*Document, *Error) {
				b := &builder{file: "c.yaml", opts: opts}
				root, err := parseYAMLWith(b, []byte(text), concurrent, false)
				if err != nil {
					return nil, err
				}
				return newDocument("c.yaml", "yaml", root, []byte(text), b.values, b.depth)
			}
			want, wantErr := parse(false)
			got, gotErr := parse(true)
			if wantErr != nil {
				failed++
			}
			switch {
			case (wantErr == nil) != (gotErr == nil):
				t.Errorf("%s, %+v: pre-scan first: %v; beside: %v", name, limits, wantErr, gotErr)
			case wantErr != nil:
				if wantErr.Error() != gotErr.Error() {
					t.Errorf("%s, %+v: pre-scan first: %v; beside: %v", name, limits, wantErr, gotErr)
				}
			default:
				if d := sameDocument(want, got); d != "" {
					t.Errorf("%s, %+v: %s", name, limits, d)
				}
			}
		}
	}
	if failed < 10 {
		t.Errorf("only %d of the cases failed to parse", failed)
	}
}
