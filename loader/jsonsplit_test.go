package loader

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
)

// parseSplit reads data as JSON as parse does, with the second reader
// (jsonsplit.go) from splitMin bytes on; it returns the tree, whether it
// is verbatim, how many values were counted, how many times the second
// reader's elements were taken, and the error.
func parseSplit(data []byte, limits Limits, splitMin int) (root *Node, verbatim bool, values, splices int, err *Error) {
	opts := DefaultOptions()
	opts.Limits = limits.withDefaults()
	b := &builder{file: "s.json", opts: opts, splitMin: splitMin}
	root, verbatim, err = parseJSON(b, data)
	return root, verbatim, b.values, b.splices, err
}

// sameTree reports the first difference between two trees read from the
// same input, "" when there is none: kinds, styles, offsets, positions,
// names, values, children and parents.
func sameTree(a, b *Node, at string) string {
	switch {
	case a == nil || b == nil:
		if a != b {
			return at + ": one tree is nil"
		}
		return ""
	case a.Kind != b.Kind || a.Style != b.Style || a.Offset != b.Offset || a.Pos != b.Pos || a.KeyPos != b.KeyPos || a.Key() != b.Key() || a.names != b.names:
		return fmt.Sprintf("%s: %v %v %d %v %v %q %x, want %v %v %d %v %v %q %x", at,
			a.Kind, a.Style, a.Offset, a.Pos, a.KeyPos, a.Key(), a.names, b.Kind, b.Style, b.Offset, b.Pos, b.KeyPos, b.Key(), b.names)
	case a.Kind < Array && a.Value() != b.Value():
		return fmt.Sprintf("%s: value %v, want %v", at, a.Value(), b.Value())
	}
	ka, kb := a.Children(), b.Children()
	if len(ka) != len(kb) {
		return fmt.Sprintf("%s: %d children, want %d", at, len(ka), len(kb))
	}
	for i := range ka {
		if ka[i].Parent != a {
			return fmt.Sprintf("%s/%d: the parent is not the container", at, i)
		}
		if d := sameTree(ka[i], kb[i], fmt.Sprintf("%s/%d", at, i)); d != "" {
			return d
		}
	}
	if a.Kind == Object {
		for _, k := range kb {
			if m := a.Member(k.Key()); m == nil || m.Offset != k.Offset {
				return fmt.Sprintf("%s: member %q not found by name", at, k.Key())
			}
		}
	}
	return ""
}

// checkSplit parses data with one reader and with two, and fails unless
// the results are the same; it returns the number of splices.
func checkSplit(t *testing.T, data []byte, limits Limits) int {
	t.Helper()
	want, wantVerbatim, wantValues, _, wantErr := parseSplit(data, limits, 1<<62)
	got, gotVerbatim, gotValues, splices, gotErr := parseSplit(data, limits, 1)
	switch {
	case (wantErr == nil) != (gotErr == nil):
		t.Fatalf("%s: error %v, want %v", truncate(data), gotErr, wantErr)
	case wantErr != nil:
		if gotErr.Error() != wantErr.Error() {
			t.Fatalf("%s: error %q, want %q", truncate(data), gotErr, wantErr)
		}
		return splices
	case gotVerbatim != wantVerbatim || gotValues != wantValues:
		t.Fatalf("%s: verbatim %v, values %d; want %v, %d", truncate(data), gotVerbatim, gotValues, wantVerbatim, wantValues)
	}
	if d := sameTree(got, want, ""); d != "" {
		t.Fatalf("%s: %s", truncate(data), d)
	}
	return splices
}

// splitDoc is a pretty-printed document of n tools, each with a few
// members, nested arrays of objects, strings with line breaks written as
// escapes, brackets and commas, and non-ASCII names and values.
func splitDoc(n int) []byte {
	var tools []any
	for i := range n {
		tools = append(tools, map[string]any{
			"name":        fmt.Sprintf("tool_%d", i),
			"description": fmt.Sprintf("tool %d: {\"x\": [1, {2}]},\n{ é }", i),
			"ünïcode":     "日本語",
			"list":        []any{map[string]any{"a": 1.5}, map[string]any{"b": []any{true, nil, -3}}},
			"empty":       []any{},
		})
	}
	out, err := json.MarshalIndent(map[string]any{"mcpdesc": "0.9.0", "tools": tools, "after": map[string]any{"k": []any{1}}}, "", "  ")
	if err != nil {
		panic(err)
	}
	return out
}

// TestJSONSplit: a large input read by two goroutines gives the tree, the
// positions, the counts and the errors of one reader, whether the second
// reader's elements are taken or not.
func TestJSONSplit(t *testing.T) {
	skipOnLibraryPaths(t)
	doc := splitDoc(200)
	crlf := bytes.ReplaceAll(doc, []byte("\n"), []byte("\r\n"))
	cr := bytes.ReplaceAll(doc, []byte("\n"), []byte("\r"))
	mid := len(doc) / 2
	// an error after the middle, in the second reader's part
	late := bytes.Clone(doc)
	late[bytes.Index(late[mid:], []byte(`"name"`))+mid] = '\''
	// an error before the middle
	early := bytes.Clone(doc)
	early[bytes.Index(early, []byte(`"name"`))] = '\''
	// a member name written with an escape, and a duplicate member, after
	// the middle: the tree is not verbatim
	escaped := bytes.Replace(doc, []byte(`"name": "tool_150"`), []byte(`"n\u0061me": "tool_150"`), 1)
	dup := bytes.Replace(doc, []byte(`"name": "tool_150"`), []byte(`"name": "x", "name": "tool_150"`), 1)
	// an array of scalars, and an object last: the second reader reads
	// that one element
	scalars := []byte("[\n" + strings.Repeat("1,\n", 5000) + "{}\n]")
	var compact bytes.Buffer
	if err := json.Compact(&compact, doc); err != nil {
		t.Fatal(err)
	}
	// The document's values, and the smallest depth limit it meets.
	_, _, values, _, _ := parseSplit(doc, Limits{}, 1<<62)
	depth := 1
	for ; ; depth++ {
		if _, _, _, _, err := parseSplit(doc, Limits{Depth: depth}, 1<<62); err == nil {
			break
		}
	}
	for _, tc := range []struct {
		name    string
		data    []byte
		limits  Limits
		spliced bool
	}{
		{"pretty", doc, Limits{}, true},
		{"CRLF", crlf, Limits{}, true},
		{"CR", cr, Limits{}, true},
		{"error after the middle", late, Limits{}, false},
		{"error before the middle", early, Limits{}, false},
		{"escaped name", escaped, Limits{}, true},
		{"duplicate member", dup, Limits{}, false}, // an error
		{"scalars", scalars, Limits{}, true},       // the last element only
		{"no line break", compact.Bytes(), Limits{}, false},
		// the second reader counts from the array's level, and from 0
		{"depth limit", doc, Limits{Depth: depth - 1}, false},
		{"depth limit just met", doc, Limits{Depth: depth}, true},
		{"values limit", doc, Limits{Values: values - 1}, false},
		{"values limit just met", doc, Limits{Values: values}, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if splices := checkSplit(t, tc.data, tc.limits); (splices > 0) != tc.spliced {
				t.Errorf("%d splices, want spliced %v", splices, tc.spliced)
			}
		})
	}
}

// FuzzJSONSplit: whatever the input, reading it with two goroutines gives
// what one reader gives.
func FuzzJSONSplit(f *testing.F) {
	f.Add(splitDoc(3))
	f.Add([]byte("[\n{},\n{\"a\": [\n{}, {}]},\n{}]"))
	f.Add([]byte("{\"a\": [{\"b\": 1},\n {\"c\": \"},\\n{\"}, {\"d\": [{}, {}]}]}"))
	f.Add([]byte("[[\n{}, {}], [{}, {}\n]]"))
	f.Add([]byte("[\n\"é\", {\"ü\": 1}, {\"a\": \"日\"}, {}]"))
	f.Fuzz(func(t *testing.T, data []byte) {
		if checkEncoding("f.json", data) != nil {
			return
		}
		checkSplit(t, data, Limits{})
		checkSplit(t, data, Limits{Depth: 3, Values: 20})
	})
}
