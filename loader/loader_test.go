package loader

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"sync"
	"testing"
	"unsafe"

	"github.com/tidwall/gjson"
)

type posCase struct {
	ptr     string
	pos     string // value position
	keyPos  string // key position, "" for none
	kind    Kind
	wantVal any // nil: not checked
}

func checkPositions(t *testing.T, doc *Document, cases []posCase) {
	t.Helper()
	for _, c := range cases {
		n, ok := doc.Lookup(c.ptr)
		if !ok {
			t.Errorf("Lookup(%q) found nothing", c.ptr)
			continue
		}
		if n.Pos.String() != c.pos {
			t.Errorf("%q: Pos %v, want %s", c.ptr, n.Pos, c.pos)
		}
		key := ""
		if !n.KeyPos.IsZero() {
			key = n.KeyPos.String()
		}
		if key != c.keyPos {
			t.Errorf("%q: KeyPos %q, want %q", c.ptr, key, c.keyPos)
		}
		if n.Kind != c.kind {
			t.Errorf("%q: Kind %v, want %v", c.ptr, n.Kind, c.kind)
		}
		if c.wantVal != nil && !reflect.DeepEqual(n.Value(), c.wantVal) {
			t.Errorf("%q: Value %#v, want %#v", c.ptr, n.Value(), c.wantVal)
		}
		if got, want := spanStart(doc, c.ptr), startOf(n); got != want {
			t.Errorf("Span(%q) starts at %v, want %v", c.ptr, got, want)
		}
	}
}

func TestPositionsJSON(t *testing.T) {
	src := "{\n" +
		"  \"a\": [1, [2, 3]],\n" +
		"  \"ü€\": \"x\",\n" +
		"  \"b\": {\"c\": true, \"d/e~f\": null},\n" +
		"\t\"g\": \"😀😀\", \"h\": -0.5e1\n" +
		"}\n"
	doc := mustParse(t, "pos.json", src, DefaultOptions())
	checkPositions(t, doc, []posCase{
		{"", "1:1", "", Object, nil},
		{"/a", "2:8", "2:3", Array, nil},
		{"/a/0", "2:9", "", Number, int64(1)},
		{"/a/1", "2:12", "", Array, nil},
		{"/a/1/1", "2:16", "", Number, int64(3)},
		{"/ü€", "3:9", "3:3", String, "x"},
		{"/b", "4:8", "4:3", Object, nil},
		{"/b/c", "4:14", "4:9", Bool, true},
		{"/b/d~1e~0f", "4:29", "4:20", Null, nil},
		{"/g", "5:7", "5:2", String, "😀😀"},
		{"/h", "5:18", "5:13", Number, int64(-5)},
	})
}

func TestPositionsYAML(t *testing.T) {
	src := "name: héllo wörld\n" +
		"list:\n" +
		"  - 1\n" +
		"  - [a, \"b\", {c: d}]\n" +
		"text: |\n" +
		"  line1\n" +
		"  line2\n" +
		"folded: >-\n" +
		"  x\n" +
		"ünï: \"€uro\"\n" +
		"flow: {k: [1, 2]}\n" +
		"nested:\n" +
		"- - deep\n" +
		"  - 'q'\n"
	doc := mustParse(t, "pos.yaml", src, DefaultOptions())
	checkPositions(t, doc, []posCase{
		{"", "1:1", "", Object, nil},
		{"/name", "1:7", "1:1", String, "héllo wörld"},
		{"/list", "3:3", "2:1", Array, nil},
		{"/list/0", "3:5", "", Number, int64(1)},
		{"/list/1", "4:5", "", Array, nil},
		{"/list/1/0", "4:6", "", String, "a"},
		{"/list/1/1", "4:9", "", String, "b"},
		{"/list/1/2", "4:14", "", Object, nil},
		{"/list/1/2/c", "4:18", "4:15", String, "d"},
		{"/text", "5:7", "5:1", String, "line1\nline2\n"},
		{"/folded", "8:9", "8:1", String, "x"},
		{"/ünï", "10:6", "10:1", String, "€uro"},
		{"/flow", "11:7", "11:1", Object, nil},
		{"/flow/k", "11:11", "11:8", Array, nil},
		{"/flow/k/1", "11:15", "", Number, int64(2)},
		{"/nested", "13:1", "12:1", Array, nil},
		{"/nested/0", "13:3", "", Array, nil},
		{"/nested/0/0", "13:5", "", String, "deep"},
		{"/nested/0/1", "14:5", "", String, "q"},
	})
}

func TestLookupAndNearest(t *testing.T) {
	doc := mustParse(t, "l.json", `{"a":{"b":[10,{"c~/":1}]},"":{"":2}}`, DefaultOptions())
	for _, c := range []struct {
		ptr     string
		found   bool
		nearest string // pointer of Nearest
	}{
		{"", true, ""},
		{"/a", true, "/a"},
		{"/a/b/1/c~0~1", true, "/a/b/1/c~0~1"},
		{"/a/b/0", true, "/a/b/0"},
		{"/a/b/00", false, "/a/b"},
		{"/a/b/-", false, "/a/b"},
		{"/a/b/2", false, "/a/b"},
		{"/a/b/1/x/y", false, "/a/b/1"},
		{"/a/b/0/x", false, "/a/b/0"},
		{"/a/~2", false, "/a"},
		{"/a/b~", false, "/a"},
		{"a", false, ""},
		{"/", true, "/"},
		{"//", true, "//"},
		{"/zz", false, ""},
	} {
		n, ok := doc.Lookup(c.ptr)
		if ok != c.found || ok && n.Pointer() != c.ptr {
			t.Errorf("Lookup(%q) = %v, %v; want found=%v", c.ptr, n, ok, c.found)
		}
		if got := doc.Nearest(c.ptr).Pointer(); got != c.nearest {
			t.Errorf("Nearest(%q) = %q, want %q", c.ptr, got, c.nearest)
		}
		if got, want := spanStart(doc, c.ptr), startOf(doc.Nearest(c.ptr)); got != want {
			t.Errorf("Span(%q) starts at %v, want the nearest node's %v", c.ptr, got, want)
		}
	}
	root := doc.Root
	if root.Member("a").Member("b").Elem(1).Member("c~/").Value() != int64(1) {
		t.Error("Member/Elem chain failed")
	}
	if root.Member("zz") != nil || root.Elem(0) != nil || root.Member("a").Member("b").Elem(-1) != nil ||
		root.Member("a").Member("b").Elem(2) != nil || root.Member("a").Member("b").Member("x") != nil {
		t.Error("Member/Elem should return nil for absent members, bad indexes and wrong kinds")
	}
}

func TestMemberLargeObject(t *testing.T) {
	for _, format := range []string{"json", "yaml"} {
		var sb strings.Builder
		sb.WriteString("{")
		for i := range 100 {
			if i > 0 {
				sb.WriteString(",")
			}
			fmt.Fprintf(&sb, `"k%d": %d`, i, i)
		}
		sb.WriteString("}")
		doc := mustParse(t, "big."+format, sb.String(), DefaultOptions())
		for i := range 100 {
			m := doc.Root.Member(fmt.Sprintf("k%d", i))
			if m == nil || m.Value() != int64(i) || m != doc.Root.Children()[i] {
				t.Fatalf("%s: Member(k%d) = %v", format, i, m)
			}
		}
		if doc.Root.Member("k100") != nil {
			t.Errorf("%s: Member(k100) should be nil", format)
		}
	}
}

// TestMemberSmallObjects checks Member on small objects, whose lookups
// skip the members when the name's bit is not set: every name of a set of
// small objects, in JSON and YAML, is found, and every other name of a
// pool (many sharing a bit with a member) is not.
func TestMemberSmallObjects(t *testing.T) {
	pool := []string{"", "a", "b", "name", "nmae", "title", "type", "description", "inputSchema",
		"outputSchema", "examples", "elicitations", "annotations", "properties", "required", "items",
		"x\\u00e9", "\\u00e9x", "k1", "k2", "k10", "k17", "\\u0000", "mode", "url", "$ref"}
	for start := range pool {
		for size := 1; size <= 12; size++ { // past 8, objects have an index
			keys := map[string]bool{}
			var sb strings.Builder
			sb.WriteString("{")
			for i := range size {
				k := pool[(start+i*3)%len(pool)]
				if keys[k] {
					continue
				}
				if len(keys) > 0 {
					sb.WriteString(",")
				}
				keys[k] = true
				fmt.Fprintf(&sb, `"%s": %d`, k, i)
			}
			sb.WriteString("}")
			for _, format := range []string{"json", "yaml"} {
				doc := mustParse(t, "small."+format, sb.String(), DefaultOptions())
				for _, k := range pool {
					name := k
					if v, err := strconv.Unquote(`"` + k + `"`); err == nil {
						name = v
					}
					m := doc.Root.Member(name)
					if keys[k] != (m != nil) || m != nil && m.Key() != name {
						t.Fatalf("%s %s: Member(%q) = %v, want present: %v", format, sb.String(), name, m, keys[k])
					}
					// MemberAt finds the same member whatever the hint,
					// and says where it is.
					for hint := -1; hint <= doc.Root.Len()+1; hint++ {
						got, at := doc.Root.MemberAt(name, hint)
						if got != m || m == nil && at != -1 || m != nil && doc.Root.Children()[at] != m {
							t.Fatalf("%s %s: MemberAt(%q, %d) = %v, %d; Member gives %v", format, sb.String(), name, hint, got, at, m)
						}
					}
				}
			}
		}
	}
}

func TestFeatures(t *testing.T) {
	for _, c := range []struct {
		name     string
		feature  Feature
		file     string
		src      string
		pos      string // error position when rejected
		msg      string // error substring when rejected
		allowed  string // JSON value when allowed
		allowErr string // when allowed still an error containing this
	}{
		{"alias", Aliases, "a.yaml", "a: &x {b: 1}\nc: *x\n", "2:4", "alias *x", `{"a":{"b":1},"c":{"b":1}}`, ""},
		{"alias key", Aliases, "a.yaml", "a: &k key\n*k : 2\n", "2:1", "alias *k", `{"a":"key","key":2}`, ""},
		{"recursive alias", Aliases, "a.yaml", "a: &x [1, *x]\n", "1:11", "alias *x", "", "recursive"},
		{"merge key", MergeKeys, "a.yaml", "base: &b {x: 1}\nv:\n  <<: {y: 2}\n  z: 3\n", "3:3", "merge key", `{"base":{"x":1},"v":{"<<":{"y":2},"z":3}}`, ""},
		{"quoted << is ordinary", MergeKeys, "a.yaml", "v:\n  '<<': 1\n", "", "", `{"v":{"<<":1}}`, ""},
		{"custom tag", CustomTags, "a.yaml", "a: !foo bar\n", "1:4", "tag !foo", `{"a":"bar"}`, ""},
		{"binary tag", CustomTags, "a.yaml", "a: !!binary aGVsbG8=\n", "1:4", "tag !!binary", `{"a":"aGVsbG8="}`, ""},
		{"set tag", CustomTags, "a.yaml", "a: !!set {x: null}\n", "1:4", "tag !!set", `{"a":{"x":null}}`, ""},
		{"python tag", CustomTags, "a.yaml", "a: !!python/object:os.system ls\n", "1:4", "!!python/object:os.system", `{"a":"ls"}`, ""},
		{"custom tag ignored, plain resolves", CustomTags, "a.yaml", "a: !foo 12\n", "1:4", "tag !foo", `{"a":12}`, ""},
		{"duplicate key json", DuplicateKeys, "a.json", "{\"a\": 1,\n \"b\": 2,\n \"a\": 3}", "3:2", `duplicate key "a" (first defined at 1:2)`, `{"a":3,"b":2}`, ""},
		{"duplicate key yaml", DuplicateKeys, "a.yaml", "a: 1\nb: 2\na: [3]\n", "3:1", `duplicate key "a" (first defined at 1:1)`, `{"a":[3],"b":2}`, ""},
		{"duplicate key yaml after resolution", DuplicateKeys, "a.yaml", "a: 1\n'a': 2\n", "2:1", `duplicate key "a"`, `{"a":2}`, ""},
		{"int key", NonStringKeys, "a.yaml", "1: a\n", "1:1", "resolves to a number", `{"1":"a"}`, ""},
		{"bool key", NonStringKeys, "a.yaml", "x: 1\nTrue: a\n", "2:1", "resolves to a boolean", `{"x":1,"True":"a"}`, ""},
		{"null key", NonStringKeys, "a.yaml", "~: a\n", "1:1", "resolves to null", `{"~":"a"}`, ""},
		{"float key", NonStringKeys, "a.yaml", "1.5: a\n", "1:1", "resolves to a number", `{"1.5":"a"}`, ""},
		{"inf key", NonStringKeys, "a.yaml", ".inf: a\n", "1:1", "not a string", `{".inf":"a"}`, ""},
		{"mapping key", NonStringKeys, "a.yaml", "? {a: 1}\n: x\n", "1:3", "a mapping cannot be a mapping key", "", "mapping key"},
		{"sequence key", NonStringKeys, "a.yaml", "? [a]\n: x\n", "1:3", "a sequence cannot be a mapping key", "", "mapping key"},
		{"nan", NonFiniteNumbers, "a.yaml", "a: .NaN\n", "1:4", "non-finite number .NaN", `{"a":".NaN"}`, ""},
		{"inf", NonFiniteNumbers, "a.yaml", "a: [+.inf]\n", "1:5", "non-finite number +.inf", `{"a":["+.inf"]}`, ""},
		{"-inf", NonFiniteNumbers, "a.yaml", "a: -.INF\n", "1:4", "non-finite", `{"a":"-.INF"}`, ""},
		{"tagged inf", NonFiniteNumbers, "a.yaml", "a: !!float .inf\n", "1:4", "non-finite", `{"a":".inf"}`, ""},
		{"empty stream", EmptyStream, "a.yaml", "# only a comment\n", "1:1", "no document", `null`, ""},
		{"empty file", EmptyStream, "a.yaml", "", "1:1", "no document", `null`, ""},
		{"two documents", MultipleDocuments, "a.yaml", "a: 1\n---\nb: 2\n", "2:1", "second YAML document", `{"a":1}`, ""},
		{"two documents, second bad", MultipleDocuments, "a.yaml", "a: 1\n---\nb: [\n", "", "", "", "invalid YAML"},
	} {
		t.Run(c.name, func(t *testing.T) {
			rej := Options{Reject: c.feature}
			if c.msg != "" {
				e := parseErr(t, c.file, c.src, rej)
				wantErr(t, e, c.pos, c.msg)
				if e.Limit != "" {
					t.Errorf("Limit = %q, want none", e.Limit)
				}
				// DefaultOptions rejects it too, except merge keys.
				if _, err := Parse(c.file, []byte(c.src), DefaultOptions()); (err == nil) != (c.feature == MergeKeys) {
					t.Errorf("DefaultOptions: err = %v", err)
				}
			}
			allow := Options{Reject: AllFeatures &^ c.feature}
			if c.allowErr != "" {
				e := parseErr(t, c.file, c.src, allow)
				wantErr(t, e, "", c.allowErr)
				return
			}
			doc := mustParse(t, c.file, c.src, allow)
			if string(doc.JSON()) != c.allowed {
				t.Errorf("allowed: JSON %s, want %s", doc.JSON(), c.allowed)
			}
		})
	}
}

func TestQuotedMergeKeyIsOrdinary(t *testing.T) {
	for _, src := range []string{"v:\n  '<<': 1\n", "v: {\"<<\": 1}\n", "v:\n  !!str <<: 1\n"} {
		doc := mustParse(t, "q.yaml", src, Options{Reject: AllFeatures})
		if string(doc.JSON()) != `{"v":{"<<":1}}` {
			t.Errorf("%q: %s", src, doc.JSON())
		}
	}
}

func TestAliasExpansionPositions(t *testing.T) {
	doc := mustParse(t, "a.yaml", "a: &x\n  b: [1]\nc: *x\n", allowAll)
	n, _ := doc.Lookup("/c/b/0")
	if n == nil || n.Pos.String() != "2:7" {
		t.Fatalf("/c/b/0 = %v, want the anchored node's position 2:7", n)
	}
	if c, _ := doc.Lookup("/c"); c.KeyPos.String() != "3:1" || c == doc.Root.Member("a") {
		t.Errorf("/c: KeyPos %v; the expansion must be a copy", c.KeyPos)
	}
	if doc.Values != 7 {
		t.Errorf("Values = %d, want 7 (root, a, a/b, a/b/0 and the copies c, c/b, c/b/0)", doc.Values)
	}
}

func TestDuplicateKeysKeepFirstPlace(t *testing.T) {
	for _, src := range []string{`{"a":1,"b":2,"c":3,"b":{"x":4}}`, "a: 1\nb: 2\nc: 3\nb: {x: 4}\n"} {
		name := "d.json"
		if !strings.HasPrefix(src, "{") {
			name = "d.yaml"
		}
		doc := mustParse(t, name, src, allowAll)
		if string(doc.JSON()) != `{"a":1,"b":{"x":4},"c":3}` {
			t.Errorf("%s: JSON %s", name, doc.JSON())
		}
		if b := doc.Root.Member("b"); b == nil || b.Kind != Object || b.KeyPos.Line != b.Pos.Line {
			t.Errorf("%s: member b should be the last occurrence", name)
		}
	}
	// Large objects use the index.
	var sb strings.Builder
	sb.WriteString("{")
	for i := range 20 {
		fmt.Fprintf(&sb, `"k%d":%d,`, i, i)
	}
	sb.WriteString(`"k3":"last"}`)
	doc := mustParse(t, "big.json", sb.String(), allowAll)
	if doc.Root.Member("k3").Value() != "last" || doc.Root.Children()[3].Value() != "last" || doc.Root.Len() != 20 {
		t.Errorf("large object duplicate: %s", doc.JSON())
	}
	e := parseErr(t, "big.json", sb.String(), DefaultOptions())
	wantErr(t, e, "1:162", `duplicate key "k3" (first defined at 1:23)`)
}

func TestLimits(t *testing.T) {
	deepJSON := func(n int) string { return strings.Repeat("[", n) + strings.Repeat("]", n) }
	for _, c := range []struct {
		name   string
		file   string
		src    string
		limits Limits
		limit  string
		flag   string
		pos    string
	}{
		{"bytes", "a.json", `{"a": 1}`, Limits{Bytes: 5}, "bytes", "--max-bytes", "0:0"},
		{"depth json", "a.json", `{"a": [[1]]}`, Limits{Depth: 2}, "depth", "--max-depth", "1:8"},
		{"depth yaml", "a.yaml", "a:\n  b:\n    c: 1\n", Limits{Depth: 2}, "depth", "--max-depth", "3:5"},
		{"depth yaml flow", "a.yaml", "a: [[1]]\n", Limits{Depth: 2}, "depth", "--max-depth", "1:5"},
		{"values json", "a.json", `[1,2,3,4]`, Limits{Values: 4}, "values", "--max-values", "1:8"},
		{"values yaml", "a.yaml", "[1,2,3,4]", Limits{Values: 4}, "values", "--max-values", "1:8"},
		{"values yaml aliases", "a.yaml", "a: &a [1,2]\nb: *a\n", Limits{Values: 5}, "values", "--max-values", "2:4"},
		{"scalar json string", "a.json", `["abcdef"]`, Limits{ScalarBytes: 5}, "scalarBytes", "--max-scalar-bytes", "1:2"},
		{"scalar json escaped", "a.json", `["ab\ncdef"]`, Limits{ScalarBytes: 5}, "scalarBytes", "--max-scalar-bytes", "1:2"},
		{"scalar json key", "a.json", `{"abcdef": 1}`, Limits{ScalarBytes: 5}, "scalarBytes", "--max-scalar-bytes", "1:2"},
		{"scalar json number", "a.json", `[1234567]`, Limits{ScalarBytes: 5}, "scalarBytes", "--max-scalar-bytes", "1:2"},
		{"scalar yaml", "a.yaml", "a: abcdef\n", Limits{ScalarBytes: 5}, "scalarBytes", "--max-scalar-bytes", "1:4"},
		{"scalar yaml key", "a.yaml", "abcdef: 1\n", Limits{ScalarBytes: 5}, "scalarBytes", "--max-scalar-bytes", "1:1"},
		{"deep json default", "a.json", deepJSON(300), Limits{}, "depth", "limit of 256", "1:257"},
	} {
		t.Run(c.name, func(t *testing.T) {
			e := parseErr(t, c.file, c.src, Options{Limits: c.limits})
			if e.Limit != c.limit {
				t.Errorf("Limit = %q, want %q (%v)", e.Limit, c.limit, e)
			}
			wantErr(t, e, c.pos)
			if !errors.Is(e, ErrLimit) {
				t.Errorf("%v does not wrap ErrLimit", e)
			}
			if strings.Contains(e.Msg, "--") {
				t.Errorf("the loader names a command-line flag: %v", e)
			}
			// One more unit of the limit lets it through.
			l := c.limits
			switch c.limit {
			case "bytes":
				l.Bytes = int64(len(c.src))
			case "depth":
				l.Depth = max(l.Depth, DefaultLimits().Depth) + 100
			case "values":
				l.Values = 100
			case "scalarBytes":
				l.ScalarBytes = 10
			}
			mustParse(t, c.file, c.src, Options{Limits: l})
		})
	}
	if e := parseErr(t, "x.json", `[1]`, Options{Limits: Limits{Bytes: 2}}); e.Error() != "x.json: input is 3 bytes, more than the limit of 2 bytes" {
		t.Errorf("bytes message: %q", e.Error())
	}
}

func TestParseFileSizeCheckedBeforeReading(t *testing.T) {
	dir := t.TempDir()
	big := filepath.Join(dir, "big.json")
	f, err := os.Create(big)
	if err != nil {
		t.Fatal(err)
	}
	// A sparse 200 MB file: refusing it must not need reading it.
	if err := f.Truncate(200 << 20); err != nil {
		t.Fatal(err)
	}
	f.Close()
	_, err = ParseFile(big, DefaultOptions())
	e, ok := err.(*Error)
	if !ok || e.Limit != "bytes" || e.File != big || !strings.Contains(e.Msg, "209715200 bytes") {
		t.Fatalf("ParseFile(200 MB) = %v", err)
	}
	small := filepath.Join(dir, "doc")
	if err := os.WriteFile(small, []byte("a: [1, 2]\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	doc, err := ParseFile(small, DefaultOptions())
	if err != nil || doc.Format != "yaml" || doc.Name != small || string(doc.JSON()) != `{"a":[1,2]}` {
		t.Fatalf("ParseFile(small) = %v, %v", doc, err)
	}
	if _, err := ParseFile(filepath.Join(dir, "missing.json"), DefaultOptions()); err == nil || !strings.Contains(err.Error(), "missing.json: cannot read") {
		t.Errorf("missing file: %v", err)
	}
}

func TestDeepNesting(t *testing.T) {
	const n = 100_000
	for _, c := range []struct {
		name, file, src string
		// With a depth limit of 1<<20: lowered to MaxDepth (10000), the
		// ceiling, for JSON and YAML alike.
		bigLimit string // "ok", "depth" or "syntax"
	}{
		{"json arrays", "d.json", strings.Repeat("[", n) + strings.Repeat("]", n), "depth"},
		{"json objects", "d.json", strings.Repeat(`{"a":`, n) + "1" + strings.Repeat("}", n), "depth"},
		{"json unclosed", "d.json", strings.Repeat("[", n), "depth"},
		{"yaml flow", "d.yaml", strings.Repeat("[", n) + strings.Repeat("]", n), "depth"},
		{"yaml flow mappings", "d.yaml", strings.Repeat("{a: ", n) + "1" + strings.Repeat("}", n), "depth"},
		{"yaml block sequences", "d.yaml", strings.Repeat("- ", n) + "x\n", "depth"},
		{"yaml indented", "d.yaml", deepIndentedYAML(2000), "ok"},
	} {
		t.Run(c.name, func(t *testing.T) {
			e := parseErr(t, c.file, c.src, DefaultOptions())
			if e.Limit != "depth" {
				t.Errorf("Limit = %q: %v", e.Limit, e)
			}
			wantErr(t, e, "", "nesting depth exceeds the limit of 256")

			big := Options{Limits: Limits{Depth: 1 << 20}}
			doc, err := Parse(c.file, []byte(c.src), big)
			switch c.bigLimit {
			case "ok":
				if err != nil {
					t.Fatalf("depth limit 1<<20: %v", err)
				}
				if doc.Values < 2000 || doc.NodeAt(doc.Values-1) == nil && doc.Format == "json" && c.name == "json arrays" {
					t.Errorf("depth limit 1<<20: Values = %d", doc.Values)
				}
			case "depth":
				if e, ok := err.(*Error); !ok || e.Limit != "depth" || !strings.Contains(e.Msg, "10000") {
					t.Errorf("depth limit 1<<20: %v", err)
				}
			case "syntax":
				if e, ok := err.(*Error); !ok || e.Limit != "" {
					t.Errorf("depth limit 1<<20: %v", err)
				}
			}
		})
	}
}

func deepIndentedYAML(levels int) string {
	var sb strings.Builder
	for i := range levels {
		sb.WriteString(strings.Repeat(" ", i))
		sb.WriteString("a:\n")
	}
	sb.WriteString(strings.Repeat(" ", levels) + "1\n")
	return sb.String()
}

func TestAliasBomb(t *testing.T) {
	var sb strings.Builder
	sb.WriteString(`a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]` + "\n")
	for c := 'b'; c <= 'i'; c++ {
		fmt.Fprintf(&sb, "%c: &%c [%s]\n", c, c, strings.TrimSuffix(strings.Repeat(fmt.Sprintf("*%c,", c-1), 9), ","))
	}
	e := parseErr(t, "bomb.yaml", sb.String(), allowAll)
	if e.Limit != "values" {
		t.Fatalf("Limit = %q: %v", e.Limit, e)
	}
	wantErr(t, e, "", "2000000 values")
	if e.Pos.Line < 2 {
		t.Errorf("the error should point at an alias, got %v", e.Pos)
	}
	// Rejected aliases stop it at the first alias.
	wantErr(t, parseErr(t, "bomb.yaml", sb.String(), DefaultOptions()), "2:8", "alias *a")
}

func TestEncoding(t *testing.T) {
	for _, c := range []struct {
		name string
		data string
		pos  string
		msg  string
	}{
		{"two utf-8 boms", "\xEF\xBB\xBF\xEF\xBB\xBF{}", "1:1", "a second UTF-8 byte order mark is not allowed"},
		{"utf-16be bom", "\xFE\xFF\x00{\x00}", "1:1", "input looks like UTF-16; celint reads UTF-8 only"},
		{"utf-16le bom", "\xFF\xFE{\x00}\x00", "1:1", "input looks like UTF-16; celint reads UTF-8 only"},
		{"utf-16le no bom", "{\x00}\x00", "1:1", "input looks like UTF-16"},
		{"utf-16be no bom", "\x00a\x00:", "1:1", "input looks like UTF-16"},
		{"utf-32le", "{\x00\x00\x00", "1:1", "input looks like UTF-32"},
		{"utf-32 bom", "\xFF\xFE\x00\x00{\x00\x00\x00", "1:1", "input looks like UTF-32"},
		{"invalid utf-8", "{\"a\": \"ok\",\n \"b\": \"\xC3\x28\"}", "2:8", "invalid UTF-8 byte 0xC3"},
		{"invalid utf-8 after unicode", "a: é\xFF", "1:5", "invalid UTF-8 byte 0xFF"},
		{"yaml control char", "a: 1\nb: x\x01y\n", "2:5", "control character U+0001"},
		{"yaml C1 char", "a: \u0080\n", "1:4", "character U+0080"},
	} {
		t.Run(c.name, func(t *testing.T) {
			for _, name := range []string{"e.json", "e.yaml"} {
				if strings.HasPrefix(c.name, "yaml") && name == "e.json" {
					continue
				}
				wantErr(t, parseErr(t, name, c.data, DefaultOptions()), c.pos, c.msg)
			}
		})
	}
}

func TestJSONSyntaxErrors(t *testing.T) {
	for _, c := range []struct{ src, pos, msg string }{
		{"{\n  \"a\": 1,\n  \"b\": [1, 2]]\n}", "3:14", "expected ',' or '}' after object member, found ']'"},
		{`[1, 2}`, "1:6", "expected ',' or ']' after array element, found '}'"},
		{`[1, 2,]`, "1:7", "trailing comma before ']'"},
		{`{"a": 1,}`, "1:9", "trailing comma before '}'"},
		{`{"a" 1}`, "1:6", "expected ':' after object member name, found '1'"},
		{`{a: 1}`, "1:2", "expected a string (object member name), found 'a'"},
		{`{'a': 1}`, "1:2", "double quotes"},
		{`['a']`, "1:2", "double quotes"},
		{`[1 2]`, "1:4", "expected ',' or ']' after array element, found '2'"},
		{`// c` + "\n{}", "1:1", "comments are not allowed"},
		{`[1, /* c */ 2]`, "1:5", "comments are not allowed"},
		{`[NaN]`, "1:2", "NaN is not valid JSON"},
		{`[Infinity]`, "1:2", "Infinity is not valid JSON"},
		{`[-Infinity]`, "1:2", "-Infinity is not valid JSON"},
		{`[01]`, "1:2", "leading zeros"},
		{`[-012]`, "1:2", "leading zeros"},
		{`[+1]`, "1:2", "cannot start with '+'"},
		{`[.5]`, "1:2", "digit before the decimal point"},
		{`[1.]`, "1:4", "expected a digit after the decimal point, found ']'"},
		{`[1e]`, "1:4", "expected a digit in the exponent"},
		{`[-]`, "1:3", "expected a digit after '-'"},
		{`[tru]`, "1:2", `invalid literal "tru"`},
		{`[nulls]`, "1:2", `invalid literal "nulls"`},
		{`[True]`, "1:2", `found "True" (strings must be quoted)`},
		{`["a` + "\t" + `b"]`, "1:4", "control character U+0009 must be escaped"},
		{"[\"a\nb\"]", "1:4", "control character U+000A"},
		{`["\x"]`, "1:3", `invalid escape sequence "\\x"`},
		{`["\u12"]`, "1:3", "four hexadecimal digits"},
		{`["\ud800"]`, "1:3", "lone UTF-16 surrogate \\ud800"},
		{`["\udc00\ud800"]`, "1:3", "lone UTF-16 surrogate"},
		{`["\ud800\u0041"]`, "1:3", "lone UTF-16 surrogate"},
		{`["abc`, "1:2", "unterminated string"},
		{`{"a": 1`, "1:8", "expected ',' or '}' after object member, found end of input (the object that starts at 1:1 is not closed)"},
		{`[1, [2`, "1:7", "(the array that starts at 1:5 is not closed)"},
		{`[1,`, "1:4", "expected a JSON value, found end of input"},
		{`{"a":`, "1:6", "expected a JSON value, found end of input"},
		{``, "1:1", "expected a JSON value, found end of input (the input is empty)"},
		{"  \n ", "2:2", "the input is empty"},
		{`{} {}`, "1:4", "unexpected '{' after the top-level value"},
		{`1 2`, "1:3", "unexpected '2' after the top-level value"},
		{`[1]x`, "1:4", "unexpected 'x'"},
		{`12a`, "1:3", "unexpected 'a'"},
		{`[1] ]`, "1:5", "unexpected ']'"},
		{`[99999999999999999999]`, "1:2", "integer 99999999999999999999 is outside the 64-bit range"},
		{`[-9223372036854775809]`, "1:2", "outside the 64-bit range"},
		{`[1e400]`, "1:2", "number 1e400 is outside the range of a 64-bit float"},
		{`[-1e400]`, "1:2", "outside the range of a 64-bit float"},
		{`{"é": ]`, "1:7", "expected a JSON value, found ']'"},
		{"[\u00a0]", "1:2", `expected a JSON value, found '\u00a0'`},
		{"[é]", "1:2", "expected a JSON value, found 'é'"},
		{"[\x7f]", "1:2", "control character"},
	} {
		e := parseErr(t, "doc.json", c.src, DefaultOptions())
		wantErr(t, e, c.pos, c.msg)
		if !strings.HasPrefix(e.Error(), "doc.json:"+c.pos+": ") {
			t.Errorf("%q: Error() = %q", c.src, e.Error())
		}
	}
}

func TestYAMLSyntaxErrors(t *testing.T) {
	for _, c := range []struct{ src, pos, msg string }{
		{"a: b: c\n", "1", "mapping values are not allowed"},
		{"x: 1\ny: 2\na: b: c\n", "3", "mapping values are not allowed"},
		{"x: 1\ny: 2\n- 1\n", "3", "did not find expected key"},
		{"x: 1\ny: 2\na: [1, 2\n", "3", "did not find expected ',' or ']'"},
		{"x: 1\ny: 2\n\ta: 1\n", "3", "tab character"},
		{"x: \"abc\n", "1:4", "unexpected end of stream"},
		{"a: *nope\n", "1:4", "unknown anchor"},
	} {
		e := parseErr(t, "doc.yaml", c.src, DefaultOptions())
		got := fmt.Sprint(e.Pos.Line)
		if strings.Contains(c.pos, ":") {
			got = e.Pos.String()
		}
		if got != c.pos {
			t.Errorf("%q: error at %v, want %s (%v)", c.src, e.Pos, c.pos, e)
		}
		wantErr(t, e, "", c.msg)
	}
}

func TestNumbers(t *testing.T) {
	for _, c := range []struct {
		file, src string
		want      any
	}{
		{"n.json", `0`, int64(0)},
		{"n.json", `-0`, int64(0)},
		{"n.json", `10.0`, int64(10)},
		{"n.json", `1e3`, int64(1000)},
		{"n.json", `-2.5E-1`, -0.25},
		{"n.json", `1.5`, 1.5},
		{"n.json", `9223372036854775807`, int64(9223372036854775807)},
		{"n.json", `-9223372036854775808`, int64(-9223372036854775808)},
		{"n.json", `123456789012345678`, int64(123456789012345678)},
		{"n.json", `9007199254740992.0`, int64(9007199254740992)},
		{"n.json", `9007199254740994.0`, 9007199254740994.0},
		{"n.json", `1e20`, 1e20},
		{"n.json", `0.1`, 0.1},
		{"n.json", `0.30000000000000004`, 0.30000000000000004},
		{"n.json", `-0.0`, int64(0)},
		{"n.json", `0e-400`, int64(0)},
		{"n.json", `1.7976931348623157e308`, 1.7976931348623157e308},
		{"n.json", `5e-324`, 5e-324},
		{"n.json", `9007199254740993`, int64(9007199254740993)},
		{"n.json", `123.4500e-2`, 1.2345},
		{"n.yaml", `9007199254740994.0`, 9007199254740994.0},
		{"n.yaml", `!!float 9007199254740992`, int64(9007199254740992)},
		{"n.json", `6.02e23`, 6.02e23},
		{"n.yaml", `12`, int64(12)},
		{"n.yaml", `+12`, int64(12)},
		{"n.yaml", `017`, int64(17)},
		{"n.yaml", `0x1F`, int64(31)},
		{"n.yaml", `0o17`, int64(15)},
		{"n.yaml", `10.0`, int64(10)},
		{"n.yaml", `.5`, 0.5},
		{"n.yaml", `-1.`, int64(-1)},
		{"n.yaml", `6.02e23`, 6.02e23},
		{"n.yaml", `!!float 3`, int64(3)},
		{"n.yaml", `!!float 3.25`, 3.25},
		{"n.yaml", `!!int "7"`, int64(7)},
		{"n.yaml", `!!str 12`, "12"},
		{"n.yaml", `"12"`, "12"},
		{"n.yaml", `0b101`, "0b101"},
		{"n.yaml", `1_000`, "1_000"},
		{"n.yaml", `-0x1F`, "-0x1F"},
		{"n.yaml", `1e`, "1e"},
		{"n.yaml", `.`, "."},
	} {
		doc := mustParse(t, c.file, c.src, DefaultOptions())
		if !reflect.DeepEqual(doc.Root.Value(), c.want) {
			t.Errorf("%s %q: Value %#v (%T), want %#v (%T)", c.file, c.src, doc.Root.Value(), doc.Root.Value(), c.want, c.want)
		}
		wantKind := Number
		if _, ok := c.want.(string); ok {
			wantKind = String
		}
		if doc.Root.Kind != wantKind {
			t.Errorf("%s %q: Kind %v", c.file, c.src, doc.Root.Kind)
		}
	}
	for _, c := range []struct{ file, src, pos, msg string }{
		{"n.yaml", "a: 99999999999999999999\n", "1:4", "integer 99999999999999999999 is outside the 64-bit range"},
		{"n.yaml", "a: 0xFFFFFFFFFFFFFFFFF\n", "1:4", "outside the 64-bit range"},
		{"n.yaml", "a: 1e400\n", "1:4", "outside the range of a 64-bit float"},
		// Numbers are never silently rounded: a literal that float64 cannot
		// hold exactly is refused at its line:col, saying what it would become.
		{"n.json", "{\"a\":\n  1e-400}", "2:3", "number 1e-400 cannot be held exactly by a 64-bit float (it would become 0)"},
		{"n.json", "[9007199254740993.0]", "1:2", "(it would become 9007199254740992)"},
		{"n.json", "[1.00000000000000001]", "1:2", "(it would become 1)"},
		{"n.json", "[2.5e-324]", "1:2", "(it would become 5e-324)"},
		{"n.yaml", "a: 1e-400\n", "1:4", "number 1e-400 cannot be held exactly by a 64-bit float"},
		{"n.yaml", "a:\n  - 9007199254740993.0\n", "2:5", "(it would become 9007199254740992)"},
		{"n.yaml", "a: !!float 9007199254740993\n", "1:4", "(it would become 9007199254740992)"},
		{"n.yaml", "a: !!float 9223372036854775807\n", "1:4", "cannot be held exactly"},
		{"n.yaml", "a: !!int 1.5\n", "1:4", `"1.5" cannot be read as !!int`},
		{"n.yaml", "a: !!bool yes\n", "1:4", "cannot be read as !!bool"},
		{"n.yaml", "a: !!null x\n", "1:4", "cannot be read as !!null"},
		{"n.yaml", "a: !!float x\n", "1:4", "cannot be read as !!float"},
		{"n.yaml", "a: !!map x\n", "1:4", "tag !!map cannot be applied to a scalar"},
		{"n.yaml", "a: !!seq {b: 1}\n", "1:4", "tag !!seq cannot be applied to a mapping"},
	} {
		wantErr(t, parseErr(t, c.file, c.src, DefaultOptions()), c.pos, c.msg)
	}
}

func TestYAMLScalarResolution(t *testing.T) {
	src := `
nulls: [null, Null, NULL, ~, "null"]
empty:
bools: [true, True, TRUE, false, False, FALSE, yes, no, on, off, "true"]
dates: [2026-08-25, 2026-08-25T10:00:00Z, '2026-08-25']
strings: [.nan, ".nan", abc, 1.2.3, 0x, 0o8, +, "", '']
block: |-
  12
dash: -x
tagged: [!!str true, !!bool True, !!null ~, !!str null, ! 12]
`
	doc := mustParse(t, "r.yaml", src, DefaultOptions().withAllowed(NonFiniteNumbers))
	want := jsonValue(t, `{
		"nulls": [null, null, null, null, "null"],
		"empty": null,
		"bools": [true, true, true, false, false, false, "yes", "no", "on", "off", "true"],
		"dates": ["2026-08-25", "2026-08-25T10:00:00Z", "2026-08-25"],
		"strings": [".nan", ".nan", "abc", "1.2.3", "0x", "0o8", "+", "", ""],
		"block": "12",
		"dash": "-x",
		"tagged": ["true", true, null, "null", 12]
	}`)
	if !sameValue(want, doc.Root.Value()) {
		t.Errorf("got %s", doc.JSON())
	}
}

func (o Options) withAllowed(f Feature) Options { o.Reject &^= f; return o }

func TestNormalisedJSON(t *testing.T) {
	src := "{\n" +
		`  "a": {"b": [1, 2.5, 10.0, -0.0, 1e21, 1.5e-7, "x\"\\\/\b\f\n\r\t\u0001\u2028é😀"]},` + "\n" +
		`  "<html>&": null, "t": true, "f": false, "e": {}, "ea": [], "n": {"\u0000": ""}` + "\n" +
		"}"
	doc := mustParse(t, "n.json", src, DefaultOptions())
	want := `{"a":{"b":[1,2.5,10,0,1e+21,1.5e-07,"x\"\\/\b\f\n\r\t\u0001` + "\u2028é😀" + `"]},"<html>&":null,"t":true,"f":false,"e":{},"ea":[],"n":{"\u0000":""}}`
	if string(doc.JSON()) != want {
		t.Errorf("JSON\n got %s\nwant %s", doc.JSON(), want)
	}
	var std any
	if err := json.Unmarshal(doc.JSON(), &std); err != nil {
		t.Fatal(err)
	}
	if doc.Values != 17 {
		t.Errorf("Values = %d, want 17", doc.Values)
	}
	// gjson offsets map back to nodes.
	for _, c := range []struct{ path, ptr string }{
		{"a.b", "/a/b"},
		{"a.b.1", "/a/b/1"},
		{"a.b.6", "/a/b/6"},
		{"t", "/t"},
		{"e", "/e"},
		{"n", "/n"},
		{"a", "/a"},
		{`<html>&`, "/<html>&"},
	} {
		r := gjson.GetBytes(doc.JSON(), c.path)
		if !r.Exists() {
			t.Fatalf("gjson %q does not exist", c.path)
		}
		n := doc.NodeAt(r.Index)
		if n == nil || n.Pointer() != c.ptr {
			t.Errorf("gjson %q Index %d → %v, want %s", c.path, r.Index, n, c.ptr)
			continue
		}
		if r.Raw != string(doc.JSON()[n.Offset:doc.JSONEnd(n)]) {
			t.Errorf("gjson %q raw %q, node span %q", c.path, r.Raw, doc.JSON()[n.Offset:doc.JSONEnd(n)])
		}
		if !sameValue(jsonValue(t, r.Raw), n.Value()) {
			t.Errorf("gjson %q value %s != node value %#v", c.path, r.Raw, n.Value())
		}
	}
	// gjson query results with several matches.
	r := gjson.GetBytes(doc.JSON(), "a.b.#")
	if r.Int() != 7 {
		t.Errorf("a.b.# = %v", r)
	}
	for i, e := range gjson.GetBytes(doc.JSON(), "a.b").Array() {
		if n := doc.NodeAt(e.Index); n == nil || n.Pointer() != fmt.Sprintf("/a/b/%d", i) {
			t.Errorf("element %d Index %d → %v", i, e.Index, n)
		}
	}
	if doc.NodeAt(1) != nil || doc.NodeAt(-1) != nil || doc.NodeAt(len(doc.JSON())) != nil {
		t.Error("NodeAt of a non-start offset should be nil")
	}
	// YAML too.
	ydoc := mustParse(t, "n.yaml", "a:\n  b: [x, {c: 'y'}]\n", DefaultOptions())
	r = gjson.GetBytes(ydoc.JSON(), "a.b.1.c")
	if n := ydoc.NodeAt(r.Index); n == nil || n.Pointer() != "/a/b/1/c" || n.Pos.String() != "2:14" {
		t.Errorf("yaml gjson a.b.1.c → %v", n)
	}
}

func TestFormatChoice(t *testing.T) {
	for _, c := range []struct{ name, src, format string }{
		{"a.json", `{"a":1}`, "json"},
		{"a.JSON", `[1]`, "json"},
		{"a.yaml", `{"a":1}`, "yaml"},
		{"a.yml", `[1]`, "yaml"},
		{"a.txt", " \n {\"a\":1}", "json"},
		{"a", "[1]", "json"},
		{"a", "a: 1", "yaml"},
		{"-", "1", "yaml"},
	} {
		doc := mustParse(t, c.name, c.src, DefaultOptions())
		if doc.Format != c.format || doc.Name != c.name {
			t.Errorf("%s %q: Format %q Name %q, want %q", c.name, c.src, doc.Format, doc.Name, c.format)
		}
	}
	// JSON extension forces the strict JSON parser even for YAML-ish text.
	wantErr(t, parseErr(t, "a.json", "a: 1", DefaultOptions()), "1:1", "expected a JSON value")
	// A scalar at the top level is fine.
	if doc := mustParse(t, "s.json", `"x"`, DefaultOptions()); doc.Root.Value() != "x" || doc.Root.Pointer() != "" || doc.Root.Index() != -1 {
		t.Errorf("scalar root: %#v", doc.Root)
	}
}

func TestFeatureNames(t *testing.T) {
	for _, c := range []struct {
		f    Feature
		name string
	}{
		{Aliases, "aliases"},
		{MergeKeys, "mergeKeys"},
		{CustomTags, "customTags"},
		{DuplicateKeys, "duplicateKeys"},
		{NonStringKeys, "nonStringKeys"},
		{NonFiniteNumbers, "nonFiniteNumbers"},
		{EmptyStream, "emptyStream"},
		{MultipleDocuments, "multipleDocuments"},
		{Aliases | DuplicateKeys, "aliases|duplicateKeys"},
		{0, "none"},
	} {
		if got := c.f.String(); got != c.name {
			t.Errorf("%d.String() = %q, want %q", c.f, got, c.name)
		}
		if c.f == 0 {
			continue
		}
		if got, err := ParseFeature(c.name); err != nil || got != c.f {
			t.Errorf("ParseFeature(%q) = %v, %v", c.name, got, err)
		}
	}
	if got, err := ParseFeature(AllFeatures.String()); err != nil || got != AllFeatures {
		t.Errorf("ParseFeature(AllFeatures.String()) = %v, %v", got, err)
	}
	if _, err := ParseFeature("anchors"); err == nil || !strings.Contains(err.Error(), "aliases, mergeKeys") {
		t.Errorf("ParseFeature(anchors) = %v", err)
	}
	if DefaultOptions().Reject != AllFeatures&^MergeKeys || DefaultOptions().Limits != DefaultLimits() {
		t.Errorf("DefaultOptions = %+v", DefaultOptions())
	}
	if l := DefaultLimits(); l.Bytes != 64<<20 || l.Depth != 256 || l.Values != 2_000_000 || l.ScalarBytes != 8<<20 {
		t.Errorf("DefaultLimits = %+v", l)
	}
	if Null.String() != "null" || Bool.String() != "boolean" || Number.String() != "number" ||
		String.String() != "string" || Array.String() != "array" || Object.String() != "object" {
		t.Error("Kind names")
	}
}

func TestErrorFormat(t *testing.T) {
	for _, c := range []struct {
		e    Error
		want string
	}{
		{Error{File: "f.yaml", Pos: Pos{3, 14}, Msg: "m"}, "f.yaml:3:14: m"},
		{Error{File: "f.yaml", Pos: Pos{3, 0}, Msg: "m"}, "f.yaml:3: m"},
		{Error{File: "f.yaml", Msg: "m"}, "f.yaml: m"},
		{Error{Pos: Pos{1, 2}, Msg: "m"}, "<input>:1:2: m"},
		{Error{Msg: "m"}, "m"},
	} {
		if got := c.e.Error(); got != c.want {
			t.Errorf("Error() = %q, want %q", got, c.want)
		}
	}
}

func TestMultipleDocumentsAllowed(t *testing.T) {
	doc := mustParse(t, "m.yaml", "a: 1\n---\nb: 2\n---\n- 3\n", allowAll)
	if string(doc.JSON()) != `{"a":1}` {
		t.Errorf("first document only, got %s", doc.JSON())
	}
	doc = mustParse(t, "m.yaml", "---\n", DefaultOptions())
	if doc.Root.Kind != Null {
		t.Errorf("explicit empty document should be null, got %s", doc.JSON())
	}
}

func TestUpstreamSerializationFixtures(t *testing.T) {
	dir := sharedFixtures(t)
	invalid, _ := filepath.Glob(filepath.Join(dir, "expected-invalid", "*"))
	valid, _ := filepath.Glob(filepath.Join(dir, "expected-valid", "*"))
	if len(invalid) == 0 || len(valid) == 0 {
		t.Fatalf("no fixtures under %s", dir)
	}
	for _, f := range invalid {
		_, err := ParseFile(f, DefaultOptions())
		e, ok := err.(*Error)
		if !ok || e.Pos.Line < 1 || e.Pos.Col < 1 || e.File != f {
			t.Errorf("%s: want an *Error with line:col, got %v", filepath.Base(f), err)
		}
	}
	for _, f := range valid {
		doc, err := ParseFile(f, DefaultOptions())
		if err != nil {
			t.Errorf("%s: %v", filepath.Base(f), err)
			continue
		}
		if p := checkDocument(doc); p != "" {
			t.Errorf("%s: %s", filepath.Base(f), p)
		}
		if filepath.Base(f) == "scalars-and-ordinary-merge-key.yaml" {
			want := jsonValue(t, `{"value":{"<<":{"a":1}},"scalars":[true,false,null,0,-12,1.5,6.02e23,"2026-08-25",".nan"]}`)
			if !sameValue(want, doc.Root.Value()) {
				t.Errorf("%s: got %s", filepath.Base(f), doc.JSON())
			}
		}
	}
	doc, err := ParseFile(filepath.Join(dir, "equivalent", "document.yaml"), DefaultOptions())
	if err != nil {
		t.Fatal(err)
	}
	want := jsonValue(t, `{
		"mcpdesc": "0.8.0",
		"info": {"name": "example", "version": "1.0.0"},
		"protocolVersions": ["2026-07-28"],
		"x-values": [true, false, null, 12, -1.5, 6.02e23, "2026-08-25"]
	}`)
	if !sameValue(want, doc.Root.Value()) {
		t.Errorf("equivalent/document.yaml decodes to %s", doc.JSON())
	}
}

func spanStart(doc *Document, ptr string) Pos {
	start, _ := doc.Span(ptr)
	return start
}

// startOf is where a diagnostic about n starts: a member's name, else the
// value.
func startOf(n *Node) Pos {
	if n.KeyPos.Line > 0 {
		return n.KeyPos
	}
	return n.Pos
}

// TestVerbatimJSON: a JSON input is its document's JSON, offsets and all,
// unless a member name is written with an escape or a duplicate member
// replaced another; then the JSON is the compact rendering.
func TestVerbatimJSON(t *testing.T) {
	all := Options{Limits: DefaultLimits()} // duplicates allowed
	for _, tc := range []struct {
		src      string
		verbatim bool
	}{
		{"{\n  \"a\" : [1, 2.50, \"x\\ny\"],\n  \"b\": {\"c\": null}\n}\n", true},
		{`{"a\u0062": 1}`, false},
		{`{"a": 1, "b": 2, "a": 3}`, false},
		{` "just a string" `, true},
	} {
		doc, err := Parse("v.json", []byte(tc.src), all)
		if err != nil {
			t.Fatal(err)
		}
		if got := string(doc.JSON()) == tc.src; got != tc.verbatim || doc.verbatim() != tc.verbatim {
			t.Errorf("%q: JSON %q; want the input: %v", tc.src, doc.JSON(), tc.verbatim)
		}
		if p := checkDocument(doc); p != "" {
			t.Errorf("%q: %s", tc.src, p)
		}
	}
	doc, _ := Parse("v.json", []byte(`{"a": [10, 20]}`), all)
	for off, want := range map[int]string{0: "", 6: "/a", 7: "/a/0", 8: "-", 11: "/a/1", 99: "-", -1: "-"} {
		got := "-"
		if n := doc.NodeAt(off); n != nil {
			got = n.Pointer()
		}
		if got != want {
			t.Errorf("NodeAt(%d) = %s, want %s", off, got, want)
		}
	}
}

// TestNamesShared: a member name that repeats is one string, in JSON and
// in YAML alike; names that collide in the table are still read right.
func TestNamesShared(t *testing.T) {
	for name, src := range map[string]string{
		"n.json": `[{"name": 1, "type": 2, "x\u0041": 0}, {"name": 3, "type": 4, "xA": 5}, {"emantype": 6}]`,
		"n.yaml": "- name: 1\n  type: 2\n- name: 3\n  type: 4\n- emantype: 6\n",
	} {
		doc, err := Parse(name, []byte(src), DefaultOptions())
		if err != nil {
			t.Fatal(err)
		}
		a, b := doc.Root.Children()[0].Member("name"), doc.Root.Children()[1].Member("name")
		if a == nil || b == nil || unsafe.StringData(a.Key()) != unsafe.StringData(b.Key()) {
			t.Errorf("%s: the two \"name\" keys are not one string", name)
		}
		if doc.Root.Children()[2].Children()[0].Key() != "emantype" || doc.Root.Children()[1].Children()[1].Key() != "type" {
			t.Errorf("%s: names read wrong: %q", name, doc.Root.Value())
		}
	}
}

// TestRenderLimit: a document whose JSON would be longer than the limit
// (a YAML document's aliases can make it far longer than its source) is
// refused, not given offsets that wrap.
func TestRenderLimit(t *testing.T) {
	doc, err := Parse("r.yaml", []byte("a: [xxxx, {b: yyyy}]\nc: zzzz\n"), DefaultOptions())
	if err != nil {
		t.Fatal(err)
	}
	full := len(doc.JSON())
	for limit := 0; limit <= full+1; limit++ {
		size, count, ok := layout(doc.Root, limit)
		if ok != (limit >= full) || ok && (size != full || count != doc.Values) {
			t.Errorf("limit %d of %d: got %d bytes, %d nodes, %v", limit, full, size, count, ok)
		}
	}
	if e := jsonSizeError("r.yaml"); e.Limit != "bytes" || e.File != "r.yaml" || !strings.Contains(e.Msg, "longer than") {
		t.Errorf("jsonSizeError: %+v", e)
	}
	if l := (Limits{Bytes: 1 << 40}).withDefaults(); l.Bytes != MaxBytes {
		t.Errorf("a 1 TiB byte limit stays %d; want the ceiling %d", l.Bytes, MaxBytes)
	}
}

// TestNodeSize: a node takes 56 bytes (a 9 MB document has some 360,000);
// its integers are 32 bits wide, which MaxBytes and MaxJSONBytes make safe,
// and its index and end are found, not kept.
func TestNodeSize(t *testing.T) {
	if unsafe.Sizeof(uintptr(0)) != 8 {
		t.Skip("the size is pinned for 64-bit platforms")
	}
	var n Node
	if got := unsafe.Sizeof(n); got != 56 {
		t.Errorf("a Node is %d bytes, want 56", got)
	}
	if got := unsafe.Offsetof(n.Pos); got != 8 {
		t.Errorf("Node.Pos is at offset %d, want 8 (Kind, Style, names and Offset in one word)", got)
	}
	if MaxBytes > math.MaxInt32 || MaxJSONBytes > math.MaxInt32 {
		t.Errorf("MaxBytes %d or MaxJSONBytes %d does not fit a node's int32 offsets", MaxBytes, MaxJSONBytes)
	}
}

// TestPointerEscapes: Pointer escapes "~" and "/" in member names, writes
// indexes in decimal, and gives every node of a document the pointer that
// finds it.
func TestPointerEscapes(t *testing.T) {
	src := `{"a/b": {"~": [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, {"": {"x~/y": true}}]}, "": 1, "é": [[]]}`
	doc, err := Parse("p.json", []byte(src), DefaultOptions())
	if err != nil {
		t.Fatal(err)
	}
	cases := map[string][]string{
		"/a~1b/~0/10//x~0~1y": {"a/b", "~", "10", "", "x~/y"},
		"/a~1b/~0/9":          {"a/b", "~", "9"},
		"/":                   {""},
		"/é/0":                {"é", "0"},
	}
	for want, toks := range cases {
		n := doc.Root
		for _, tok := range toks {
			n = n.Child(EscapeToken(tok))
		}
		if n == nil {
			t.Fatalf("%q: no node", want)
		}
		if got := n.Pointer(); got != want {
			t.Errorf("Pointer() = %q, want %q", got, want)
		}
		// The pointer's string is its one allocation (indexes below 100
		// have static strings).
		if a := testing.AllocsPerRun(20, func() { _ = n.Pointer() }); a > 1 {
			t.Errorf("Pointer() of %q allocates %v times", want, a)
		}
	}
	if got := doc.Root.Pointer(); got != "" {
		t.Errorf("the root's pointer is %q", got)
	}
}

// TestKeysShared: members of one name share their name's address (a
// document holds one per node), whatever the front end, and a name read
// through an escape, or longer than the table keeps, still reads back.
func TestKeysShared(t *testing.T) {
	long := strings.Repeat("k", maxNameLen+1)
	for name, src := range map[string]string{
		"s.json": `[{"a": 1, "b\u0062": 2, "` + long + `": 3}, {"a": 4, "bb": 5, "` + long + `": 6}]`,
		"s.yaml": "- {a: 1, \"b\\x62\": 2, " + long + ": 3}\n- a: 4\n  bb: 5\n  " + long + ": 6\n",
	} {
		doc, err := Parse(name, []byte(src), DefaultOptions())
		if err != nil {
			t.Fatal(err)
		}
		x, y := doc.Root.Elem(0), doc.Root.Elem(1)
		for i, want := range []string{"a", "bb", long} {
			if got := x.Children()[i].Key(); got != want {
				t.Errorf("%s: member %d is %q, want %q", name, i, got, want)
			}
			if got := y.Children()[i].Key(); got != want {
				t.Errorf("%s: member %d of the second object is %q, want %q", name, i, got, want)
			}
		}
		if x.Member("a").KeyRef() != y.Member("a").KeyRef() {
			t.Errorf("%s: the two members named a do not share their name", name)
		}
		if x.KeyRef() == nil || *x.KeyRef() != "" || x.Key() != "" {
			t.Errorf("%s: an element's key is %q", name, x.Key())
		}
	}
}

// TestJSONStringLen: jsonStringLen counts what AppendJSONString writes,
// escapes and replaced bytes included.
func TestJSONStringLen(t *testing.T) {
	for _, s := range []string{"", "a", `"\`, "\n\r\t\b\f", "\x00\x01\x1f\x7f", "é😀", "a\xffb", "\xed\xa0\x80", strings.Repeat("x\"", 40)} {
		if got, want := jsonStringLen(s), len(AppendJSONString(nil, s)); got != want {
			t.Errorf("jsonStringLen(%q) = %d, want %d", s, got, want)
		}
	}
}

func FuzzJSONStringLen(f *testing.F) {
	f.Add("a\"b\\c\x00é\xff")
	f.Fuzz(func(t *testing.T, s string) {
		if got, want := jsonStringLen(s), len(AppendJSONString(nil, s)); got != want {
			t.Errorf("jsonStringLen(%q) = %d, want %d", s, got, want)
		}
	})
}

// TestJSONOnFirstUse: a rendered document's JSON is written when it is
// first asked for, once, whoever asks at the same time, and its nodes'
// offsets, laid out when the document was read, index it.
func TestJSONOnFirstUse(t *testing.T) {
	doc, err := Parse("l.yaml", []byte("a: [1, -2.5e-7, 'x\"y', {b: null, 'é': true}]\nc: {}\n"), DefaultOptions())
	if err != nil {
		t.Fatal(err)
	}
	if doc.json != nil {
		t.Fatal("the JSON was written while the document was read")
	}
	var wg sync.WaitGroup
	got := make([][]byte, 4)
	for i := range got {
		wg.Add(1)
		go func() { defer wg.Done(); got[i] = doc.JSON() }()
	}
	wg.Wait()
	for _, js := range got[1:] {
		if &js[0] != &got[0][0] {
			t.Error("the JSON was written more than once")
		}
	}
	if want := `{"a":[1,-2.5e-07,"x\"y",{"b":null,"é":true}],"c":{}}`; string(got[0]) != want || len(got[0]) != doc.jsonSize || cap(got[0]) != doc.jsonSize {
		t.Errorf("JSON %s (cap %d), want %s (%d bytes)", got[0], cap(got[0]), want, doc.jsonSize)
	}
	if p := checkDocument(doc); p != "" {
		t.Error(p)
	}
}

// TestMayHaveMember: false only when no object has the member; a JSON
// input that is its own JSON answers from its text, where the name may be
// a string instead.
func TestMayHaveMember(t *testing.T) {
	for _, tc := range []struct {
		name, src string
		want      bool
	}{
		{"m.yaml", "a: [{b: {$ref: x}}]\n", true},
		{"m.yaml", "a: [{b: {ref: x}}]\n", false},
		{"m.yaml", "a: [$ref]\n", false},
		{"m.json", `{"a": [{"b": {"$ref": "x"}}]}`, true},
		{"m.json", `{"a": ["$ref"]}`, true}, // may: the text has it
		{"m.json", `{"a": ["ref"]}`, false},
		{"m.json", `{"a\u0062": {"$ref": 1}}`, true}, // rendered: an escaped name
		{"m.json", `{"ab": ["$ref"], "x": 1}`, true},
	} {
		doc := mustParse(t, tc.name, tc.src, DefaultOptions())
		if got := doc.MayHaveMember("$ref"); got != tc.want {
			t.Errorf("%s %s: MayHaveMember = %v, want %v", tc.name, tc.src, got, tc.want)
		}
	}
}

// TestStringsShareInput: a JSON string without escapes, and a YAML scalar
// written on one line without escapes, are the input's bytes; any other is
// a string of its own.
func TestStringsShareInput(t *testing.T) {
	skipOnLibraryPaths(t)
	for _, tc := range []struct {
		name, src, ptr string
		shared         bool
	}{
		{"s.json", `{"a": "text"}`, "/a", true},
		{"s.json", `{"a": "te\nxt"}`, "/a", false},
		{"s.yaml", "a: plain text\n", "/a", true},
		{"s.yaml", "a: 'quoted'\n", "/a", true},
		{"s.yaml", "a: \"double\"\n", "/a", true},
		{"s.yaml", "a: 'it''s'\n", "/a", false},
		{"s.yaml", "a: \"t\\tab\"\n", "/a", false},
		{"s.yaml", "a: two\n  lines\n", "/a", false},
	} {
		data := []byte(tc.src)
		doc, err := Parse(tc.name, data, DefaultOptions())
		if err != nil {
			t.Fatal(err)
		}
		n, _ := doc.Lookup(tc.ptr)
		s := n.Value().(string)
		p := uintptr(unsafe.Pointer(unsafe.StringData(s)))
		in := p >= uintptr(unsafe.Pointer(&data[0])) && p < uintptr(unsafe.Pointer(&data[0]))+uintptr(len(data))
		if in != tc.shared {
			t.Errorf("%s %q: %q shares the input: %v, want %v", tc.name, tc.src, s, in, tc.shared)
		}
	}
}

// TestMemberHinted: a hint whose position and name address fit is taken
// at once, and any other hint (the address of the name in another object,
// or of an equal name elsewhere, no address, a position out of range, a
// large object) still finds the member by its name, or nothing.
func TestMemberHinted(t *testing.T) {
	for _, format := range []string{"json", "yaml"} {
		var sb strings.Builder
		sb.WriteString(`{"small": [{"a": 1, "b": 2, "c": 3}, {"c": 4, "a": 5}], "large": {`)
		for i := range 20 {
			fmt.Fprintf(&sb, `"k%d": %d,`, i, i)
		}
		sb.WriteString(`"c": 99}}`)
		doc := mustParse(t, "h."+format, sb.String(), DefaultOptions())
		first, second := doc.Root.Member("small").Elem(0), doc.Root.Member("small").Elem(1)
		large := doc.Root.Member("large")
		otherC := "c" // equal to the name, at another address
		for _, c := range []struct {
			obj  *Node
			name string
			hint int
			key  *string
			want any // the member's value; nil: none
			at   int
		}{
			{first, "c", 2, first.Children()[2].KeyRef(), int64(3), 2},
			{second, "c", 2, first.Children()[2].KeyRef(), int64(4), 0},
			{second, "c", 0, first.Children()[2].KeyRef(), int64(4), 0},
			{first, "c", 2, &otherC, int64(3), 2},
			{first, "c", 7, nil, int64(3), 2},
			{first, "c", -1, first.Children()[2].KeyRef(), int64(3), 2},
			{first, "d", 1, nil, nil, -1},
			{second, "b", 1, first.Children()[1].KeyRef(), nil, -1},
			{large, "c", 20, large.Children()[20].KeyRef(), int64(99), 20},
			{large, "c", 3, first.Children()[2].KeyRef(), int64(99), 20},
			{large, "k4", 0, nil, int64(4), 4},
		} {
			m, at := c.obj.MemberHinted(c.name, c.hint, c.key)
			var got any
			if m != nil {
				got = m.Value()
			}
			if got != c.want || at != c.at || m != nil && m.Key() != c.name {
				t.Errorf("%s: MemberHinted(%q, %d) in %s = %v at %d, want %v at %d", format, c.name, c.hint, c.obj.Pointer(), got, at, c.want, c.at)
			}
		}
	}
}

// TestBOM: a UTF-8 byte order mark before a JSON or YAML document is left
// out: the document reads as without it, every node at the same line:col,
// the first line's columns counted without the mark.
func TestBOM(t *testing.T) {
	for _, tc := range []struct {
		name, src string
		pointers  map[string]string
	}{
		{"d.json", "{\"a\": 1,\n \"b\": [true, \"x\"]}\n", map[string]string{"": "1:1", "/a": "1:2", "/b": "2:2", "/b/1": "2:14"}},
		{"d.yaml", "a: 1\nb:\n  - true\n  - x\n", map[string]string{"/a": "1:1", "/b": "2:1", "/b/1": "4:5"}},
		{"d.yaml", "# c\n---\na: {b: 2}\n", map[string]string{"/a": "3:1", "/a/b": "3:5"}},
		{"d.yml", "[1, 2]\n", map[string]string{"/1": "1:5"}},
	} {
		plain, err := Parse(tc.name, []byte(tc.src), DefaultOptions())
		if err != nil {
			t.Fatalf("%s %q: %v", tc.name, tc.src, err)
		}
		doc, err := Parse(tc.name, append([]byte("\xEF\xBB\xBF"), tc.src...), DefaultOptions())
		if err != nil {
			t.Errorf("%s %q with a BOM: %v", tc.name, tc.src, err)
			continue
		}
		if !bytes.Equal(doc.JSON(), plain.JSON()) {
			t.Errorf("%s with a BOM reads as %s, want %s", tc.name, doc.JSON(), plain.JSON())
		}
		for p, want := range tc.pointers {
			start, _ := doc.Span(p)
			was, _ := plain.Span(p)
			if got := fmt.Sprintf("%d:%d", start.Line, start.Col); got != want || start != was {
				t.Errorf("%s %q with a BOM: %q at %s, want %s", tc.name, tc.src, p, got, want)
			}
		}
	}
}

// TestYAMLSyntaxErrorColumns: a YAML syntax error in a document or a rule
// file is reported at the line:col of its fault, with what was expected
// there: the second ':' of a line, the bracket or quote left open, the
// first character of a line at the wrong indentation, a tab.
func TestYAMLSyntaxErrorColumns(t *testing.T) {
	for _, c := range []struct{ src, pos, msg string }{
		{"rules: []\na: b: c\n", "2:5", "mapping values are not allowed in this context: a plain value cannot hold ': '"},
		{"rules: []\na: 'x: y' b: c\n", "2:12", "mapping values are not allowed"},
		{"rules: []\na: [1, 2\nb: 3\n", "2:4", "did not find expected ',' or ']': the flow sequence opened here is not closed with ']'"},
		{"rules: []\na: {b: [1], c: 2\n", "2:4", "did not find expected ',' or '}': the flow mapping opened here is not closed with '}'"},
		{"rules: []\na:\n  b: 1\n c: 2\n", "4:2", "did not find expected key: expected a key at the indentation of the mapping it is in"},
		{"- a\n- b\nc: 1\n", "3:1", "did not find expected '-' indicator: expected a '-' item"},
		{"rules: []\na: \"it's\nb: 1\n", "2:4", "found unexpected end of stream: the quoted string that starts here is not closed"},
		{"rules: []\na: @x\n", "2:4", "found character that cannot start any token: '@' and '`' cannot start a plain value"},
		{"rules: []\r\na: [1, 2\r\nb: 3\r\n", "2:4", "did not find expected ',' or ']': the flow sequence opened here"},
	} {
		e := parseErr(t, "doc.yaml", c.src, DefaultOptions())
		wantErr(t, e, c.pos, c.msg)
		_, err := ReadRuleFile("rules.yaml", []byte(c.src), RuleFileOptions{})
		if err == nil || !strings.Contains(err.Error(), "rules.yaml:"+c.pos+": invalid YAML: "+c.msg) {
			t.Errorf("rule file %q: %v, want %s: %s", c.src, err, c.pos, c.msg)
		}
	}
}
