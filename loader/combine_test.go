package loader

import (
	"encoding/json"
	"fmt"
	"testing"
)

// TestCombine: fixes computed on one document are made together when they
// touch different places, in an order where removals and insertions of
// array items do not move what later fixes edit; a fix that overlaps an
// earlier one is left out, and one that repeats it adds nothing.
func TestCombine(t *testing.T) {
	src := "tags:\n  - {name: a}\n  - {name: a}   # again\n  - {name: b, colour: red}\n  - {name: a}\n  - {name: c, size: 1}\nlist: [1, 2, 2, 3]\n"
	doc, err := Parse("d.yaml", []byte(src), Options{})
	if err != nil {
		t.Fatal(err)
	}
	rm := func(p string) []Edit { return []Edit{{Op: Remove, Pointer: p}} }
	for _, tc := range []struct {
		name  string
		fixes [][]Edit
		taken string
		want  string
	}{
		{"removals of items, and renames after them", [][]Edit{
			rm("/tags/1"),
			{{Op: Move, From: "/tags/2/colour", Pointer: "/tags/2/x-colour"}},
			rm("/tags/3"),
			{{Op: Move, From: "/tags/4/size", Pointer: "/tags/4/x-size"}},
		}, "[true true true true]",
			"tags:\n  - {name: a}\n  - {name: b, x-colour: red}\n  - {name: c, x-size: 1}\nlist: [1, 2, 2, 3]\n"},
		{"a repeated fix adds nothing", [][]Edit{
			{{Op: Replace, Pointer: "/list", Value: []any{1, 2, 3}}},
			{{Op: Replace, Pointer: "/list", Value: []any{1, 2, 3}}},
		}, "[true true]",
			"tags:\n  - {name: a}\n  - {name: a}   # again\n  - {name: b, colour: red}\n  - {name: a}\n  - {name: c, size: 1}\nlist: [1, 2, 3]\n"},
		{"an overlapping fix waits", [][]Edit{
			{{Op: Replace, Pointer: "/list", Value: []any{1, 2, 3}}},
			rm("/list/2"),
			rm("/tags/1"),
		}, "[true false true]",
			"tags:\n  - {name: a}\n  - {name: b, colour: red}\n  - {name: a}\n  - {name: c, size: 1}\nlist: [1, 2, 3]\n"},
		{"a fix of several edits that removes items holds its array", [][]Edit{
			{{Op: Remove, Pointer: "/tags/3"}, {Op: Remove, Pointer: "/tags/1"}},
			{{Op: Move, From: "/tags/4/size", Pointer: "/tags/4/x-size"}},
			rm("/list/2"),
		}, "[true false true]",
			"tags:\n  - {name: a}\n  - {name: b, colour: red}\n  - {name: c, size: 1}\nlist: [1, 2, 3]\n"},
	} {
		edits, taken := Combine(doc.Root.Value(), tc.fixes)
		if got := fmt.Sprint(taken); got != tc.taken {
			t.Errorf("%s: taken %s, want %s", tc.name, got, tc.taken)
		}
		out, err := Edits("d.yaml", []byte(src), Options{}, edits)
		if err != nil || string(out) != tc.want {
			t.Errorf("%s: %v\n%s\nwant\n%s", tc.name, err, out, tc.want)
		}
	}
}

// TestPointerMap: a location is followed through removals, insertions and
// moves, and is gone with the value holding it.
func TestPointerMap(t *testing.T) {
	root := map[string]any{
		"tags": []any{"a", "b", "c", "d"},
		"o":    map[string]any{"a": map[string]any{"b": 1}},
	}
	m := NewPointerMap(root, []Edit{
		{Op: Remove, Pointer: "/tags/3"},
		{Op: Remove, Pointer: "/tags/1"},
		{Op: Add, Pointer: "/tags/0", Value: "z"},
		{Op: Move, From: "/o/a", Pointer: "/o/x-a"},
		{Op: Replace, Pointer: "/o/x-a", Value: 2},
	})
	for _, tc := range []struct{ in, want string }{
		{"/tags/0", "/tags/1"},
		{"/tags/1", ""},
		{"/tags/2", "/tags/2"},
		{"/tags/3", ""},
		{"/tags/4", "/tags/3"},
		{"/o/a", "/o/x-a"},
		{"/o/a/b", ""},
		{"/o/c", "/o/c"},
	} {
		got, ok := m.Map(tc.in)
		if !ok {
			got = ""
		}
		if got != tc.want {
			t.Errorf("Map(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

// TestEditJSONReadsBack: an edit written as JSON, as a report writes a finding's
// fix, reads back as the same edit.
func TestEditJSONReadsBack(t *testing.T) {
	in := []Edit{{Op: Move, From: "/a", Pointer: "/x-a"}, {Op: Replace, Pointer: "/b", Value: "c"}}
	data, err := json.Marshal(in)
	if err != nil {
		t.Fatal(err)
	}
	var out []Edit
	if err := json.Unmarshal(data, &out); err != nil || fmt.Sprint(out) != fmt.Sprint(in) {
		t.Errorf("%s read back as %v, %v", data, out, err)
	}
	if err := json.Unmarshal([]byte(`[{"op": "copy", "path": "/a"}]`), &out); err == nil {
		t.Error("an unknown op reads")
	}
}
