package loader

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"
)

// TestEdits: each edit changes only the bytes of what it changes, in YAML
// (comments, order and quoting elsewhere kept) and in JSON (its
// indentation kept).
func TestEdits(t *testing.T) {
	yamlDoc := "# a server\nname: s   # its name\ntools:\n  - name: a\n    tags: [x, y]\n  # the second tool\n  - name: 'b'\n    description: \"B\"\nempty:\n"
	jsonDoc := "{\n  \"name\": \"s\",\n  \"tools\": [\n    {\"name\": \"a\"},\n    {\"name\": \"b\"}\n  ],\n  \"tags\": []\n}\n"
	for _, tc := range []struct {
		name, file, src string
		edits           []Edit
		want            string
	}{
		{"yaml replace a scalar", "d.yaml", yamlDoc, []Edit{{Op: Replace, Pointer: "/name", Value: "t"}},
			strings.Replace(yamlDoc, "name: s   #", "name: t   #", 1)},
		{"yaml replace keeps quoting", "d.yaml", yamlDoc, []Edit{{Op: Replace, Pointer: "/tools/1/name", Value: "it's"}, {Op: Replace, Pointer: "/tools/1/description", Value: "C"}, {Op: Replace, Pointer: "/tools/0/name", Value: "0.8.0"}},
			strings.Replace(strings.Replace(strings.Replace(yamlDoc, "name: 'b'", "name: 'it''s'", 1), "description: \"B\"", "description: \"C\"", 1), "name: a", "name: 0.8.0", 1)},
		{"yaml replace a nested flow item", "d.yaml", yamlDoc, []Edit{{Op: Replace, Pointer: "/tools/0/tags/1", Value: "z"}},
			strings.Replace(yamlDoc, "[x, y]", "[x, z]", 1)},
		{"yaml remove a member", "d.yaml", yamlDoc, []Edit{{Op: Remove, Pointer: "/tools/1/description", Value: nil}},
			strings.Replace(yamlDoc, "    description: \"B\"\n", "", 1)},
		{"yaml remove an item", "d.yaml", yamlDoc, []Edit{{Op: Remove, Pointer: "/tools/0", Value: nil}},
			strings.Replace(yamlDoc, "  - name: a\n    tags: [x, y]\n", "", 1)},
		{"yaml remove the last item of a flow list", "d.yaml", yamlDoc, []Edit{{Op: Remove, Pointer: "/tools/0/tags/1", Value: nil}},
			strings.Replace(yamlDoc, "[x, y]", "[x]", 1)},
		{"yaml add a member", "d.yaml", yamlDoc, []Edit{{Op: Add, Pointer: "/tools/0/inputSchema", Value: map[string]any{"type": "object"}}},
			strings.Replace(yamlDoc, "    tags: [x, y]\n", "    tags: [x, y]\n    inputSchema:\n      type: object\n", 1)},
		{"yaml add an item", "d.yaml", yamlDoc, []Edit{{Op: Add, Pointer: "/tools/-", Value: map[string]any{"name": "c"}}},
			strings.Replace(yamlDoc, "    description: \"B\"\n", "    description: \"B\"\n  - name: c\n", 1)},
		{"yaml insert an item", "d.yaml", yamlDoc, []Edit{{Op: Add, Pointer: "/tools/0/tags/0", Value: "w"}},
			strings.Replace(yamlDoc, "[x, y]", "[w, x, y]", 1)},
		{"yaml fill a null", "d.yaml", yamlDoc, []Edit{{Op: Replace, Pointer: "/empty", Value: []any{1}}},
			strings.Replace(yamlDoc, "empty:\n", "empty: [1]\n", 1)},
		{"yaml remove every member of a block mapping", "d.yaml", "a:\n  b: 1\nc: 2\n", []Edit{{Op: Remove, Pointer: "/a/b", Value: nil}}, "a:\n  {}\nc: 2\n"},
		{"yaml add a quoted key", "d.yaml", "a: 1\n", []Edit{{Op: Add, Pointer: "/on", Value: true}}, "a: 1\n\"on\": true\n"},
		{"json replace", "d.json", jsonDoc, []Edit{{Op: Replace, Pointer: "/tools/1/name", Value: "c"}},
			strings.Replace(jsonDoc, "{\"name\": \"b\"}", "{\"name\": \"c\"}", 1)},
		{"json remove a member", "d.json", jsonDoc, []Edit{{Op: Remove, Pointer: "/tags", Value: nil}},
			strings.Replace(jsonDoc, "  ],\n  \"tags\": []\n", "  ]\n", 1)},
		{"json remove the first item", "d.json", jsonDoc, []Edit{{Op: Remove, Pointer: "/tools/0", Value: nil}},
			strings.Replace(jsonDoc, "    {\"name\": \"a\"},\n", "", 1)},
		{"json add a member", "d.json", jsonDoc, []Edit{{Op: Add, Pointer: "/version", Value: "1.0.0"}},
			strings.Replace(jsonDoc, "  \"tags\": []\n", "  \"tags\": [],\n  \"version\": \"1.0.0\"\n", 1)},
		{"json add to an empty list", "d.json", jsonDoc, []Edit{{Op: Add, Pointer: "/tags/-", Value: "x"}},
			strings.Replace(jsonDoc, "\"tags\": []", "\"tags\": [\"x\"]", 1)},
		{"json add an object, indented", "d.json", jsonDoc, []Edit{{Op: Add, Pointer: "/tools/-", Value: map[string]any{"name": "c"}}},
			strings.Replace(jsonDoc, "    {\"name\": \"b\"}\n", "    {\"name\": \"b\"},\n    {\n      \"name\": \"c\"\n    }\n", 1)},
		{"json replace a value written on one line", "d.json", jsonDoc, []Edit{{Op: Replace, Pointer: "/tools/0", Value: map[string]any{"name": "a", "tags": []any{"x"}}}},
			strings.Replace(jsonDoc, "{\"name\": \"a\"}", "{\"name\": \"a\", \"tags\": [\"x\"]}", 1)},
		{"json one line", "d.json", `{"a": 1, "b": [1, 2]}`, []Edit{{Op: Remove, Pointer: "/a", Value: nil}, {Op: Add, Pointer: "/b/1", Value: 5}}, `{"b": [1, 5, 2]}`},
		{"yaml rename a member in place", "d.yaml", yamlDoc, []Edit{{Op: Move, From: "/tools/1/description", Pointer: "/tools/1/x-description"}},
			strings.Replace(yamlDoc, "    description: \"B\"", "    x-description: \"B\"", 1)},
		{"yaml rename a quoted key", "d.yaml", "'a b': 1 # c\nd: 2\n", []Edit{{Op: Move, From: "/a b", Pointer: "/x-a b"}}, "\"x-a b\": 1 # c\nd: 2\n"},
		{"yaml rename a key in a flow mapping", "d.yaml", "o: {a: 1, b: 2}\n", []Edit{{Op: Move, From: "/o/b", Pointer: "/o/x-b"}}, "o: {a: 1, x-b: 2}\n"},
		{"json rename a member", "d.json", jsonDoc, []Edit{{Op: Move, From: "/tags", Pointer: "/x-tags"}},
			strings.Replace(jsonDoc, "\"tags\": []", "\"x-tags\": []", 1)},
		{"yaml move a member to another object", "d.yaml", "a:\n  b: 1\n  c: 2\nd:\n  e: 3\n", []Edit{{Op: Move, From: "/a/c", Pointer: "/d/c"}}, "a:\n  b: 1\nd:\n  e: 3\n  c: 2\n"},
		{"json move an item to an object", "d.json", `{"a": [1, {"k": 2}], "b": {}}`, []Edit{{Op: Move, From: "/a/1", Pointer: "/b/x"}}, `{"a": [1], "b": {"x": {"k": 2}}}`},
		{"yaml wrap a block mapping in a list", "d.yaml", "c:\n  # tools\n  tools:\n    listChanged: true\n  logging: {}\nz: 1\n", []Edit{{Op: Replace, Pointer: "/c", Value: []any{map[string]any{"tools": map[string]any{"listChanged": true}, "logging": map[string]any{}}}}},
			"c:\n  # tools\n  - tools:\n      listChanged: true\n    logging: {}\nz: 1\n"},
		{"json wrap an object in a list", "d.json", `{"c": {"a": 1}}`, []Edit{{Op: Replace, Pointer: "/c", Value: []any{map[string]any{"a": 1}}}}, `{"c": [{"a": 1}]}`},
		{"yaml replace a block list by one in block style", "d.yaml", "s:\n  # old\n  - type: a\n    name: k\nz: 1\n", []Edit{{Op: Replace, Pointer: "/s", Value: []any{map[string]any{"a": []any{}}, map[string]any{"b": []any{"x y", 1}}}}},
			"s:\n  # old\n  - a: []\n  - b: [x y, 1]\nz: 1\n"},
		{"yaml add a nested mapping", "d.yaml", "a: 1\n", []Edit{{Op: Add, Pointer: "/m", Value: map[string]any{"k": map[string]any{"on": true, "t": "x"}}}},
			"a: 1\nm:\n  k:\n    \"on\": true\n    t: x\n"},
		{"yaml remove a member that stands between blank lines", "d.yaml", "a: 1\n\nb: []\n\nc: 2\n", []Edit{{Op: Remove, Pointer: "/b"}}, "a: 1\n\nc: 2\n"},
		{"several edits in order", "d.yaml", "a: 1\nb: 2\n", []Edit{{Op: Remove, Pointer: "/a", Value: nil}, {Op: Add, Pointer: "/c", Value: 3}, {Op: Replace, Pointer: "/b", Value: 4}}, "b: 4\nc: 3\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := Edits(tc.file, []byte(tc.src), DefaultOptions(), tc.edits)
			if err != nil {
				t.Fatal(err)
			}
			if string(got) != tc.want {
				t.Errorf("got:\n%s\nwant:\n%s", got, tc.want)
			}
		})
	}
}

// TestEditsRefused: an edit whose pointer names nothing, or that the JSON
// Patch rules refuse, is an error wrapping ErrEdit, and nothing is
// returned.
func TestEditsRefused(t *testing.T) {
	for _, e := range []Edit{
		{Op: Replace, Pointer: "/nope", Value: 1},
		{Op: Remove, Pointer: "/a/b", Value: nil},
		{Op: Add, Pointer: "/a", Value: 1},
		{Op: Add, Pointer: "/l/5", Value: 1},
		{Op: Remove, Pointer: "", Value: nil},
		{Op: Add, Pointer: "/l/x", Value: 1},
		{Op: Replace, Pointer: "no-slash", Value: 1},
		{Op: Move, From: "/nope", Pointer: "/b"},
		{Op: Move, From: "/a", Pointer: "/a"},
		{Op: Move, From: "/l", Pointer: "/l/0"},
		{Op: Move, From: "/a", Pointer: "/l"},
		{Op: EditOp(9), Pointer: "/a", Value: 1},
	} {
		out, err := Edits("d.yaml", []byte("a: 1\nl: [1]\n"), DefaultOptions(), []Edit{e})
		if !errors.Is(err, ErrEdit) || out != nil {
			t.Errorf("%+v: %v, %q; want an ErrEdit", e, err, out)
		}
	}
}

// FuzzEdits: on any document the loader reads, an edit either fails with
// ErrEdit or gives a source whose value is the JSON Patch result (Edits
// checks that itself; the fuzzer looks for panics and for edits refused
// where they should be made).
func FuzzEdits(f *testing.F) {
	f.Add("a: 1\nb:\n  - x\n  - y\n", uint8(0), uint8(1), "z")
	f.Add("{\"a\": {\"b\": [1, 2]}, \"c\": 3}", uint8(1), uint8(2), "v")
	f.Add("# c\na:\n  b: 1 # d\n  c: [1, {e: f}]\n", uint8(2), uint8(3), "")
	f.Fuzz(func(t *testing.T, src string, op, which uint8, value string) {
		name := "d.yaml"
		if strings.HasPrefix(strings.TrimSpace(src), "{") {
			name = "d.json"
		}
		doc, err := Parse(name, []byte(src), DefaultOptions())
		if err != nil {
			return
		}
		var nodes []*Node
		var walk func(n *Node)
		walk = func(n *Node) {
			nodes = append(nodes, n)
			for _, c := range n.Children() {
				walk(c)
			}
		}
		walk(doc.Root)
		n := nodes[int(which)%len(nodes)]
		e := Edit{Op: EditOp(op%4) + 1, Pointer: n.Pointer(), Value: value}
		if e.Op == Move {
			// a member renamed (x- prefixed) where it stands
			if n.Parent == nil || n.Parent.Kind != Object {
				return
			}
			e = Edit{Op: Move, From: n.Pointer(), Pointer: n.Parent.Pointer() + "/x-" + strings.ReplaceAll(strings.ReplaceAll(n.Key(), "~", "~0"), "/", "~1")}
		}
		if e.Op == Add {
			if n.Kind == Object {
				e.Pointer += "/new"
			} else if n.Kind == Array {
				e.Pointer += "/-"
			} else {
				return
			}
		}
		out, err := Edits(name, []byte(src), DefaultOptions(), []Edit{e})
		if err != nil {
			if !errors.Is(err, ErrEdit) {
				t.Fatalf("%+v on %q: %v", e, src, err)
			}
			return
		}
		if _, err := Parse(name, out, DefaultOptions()); err != nil {
			t.Fatalf("%+v on %q gave %q, which does not parse: %v", e, src, out, err)
		}
	})
}

// TestEditJSON: an edit is written as a JSON Patch operation, a null value
// included, and a remove carries none.
func TestEditJSON(t *testing.T) {
	for _, tc := range []struct {
		e    Edit
		want string
	}{
		{Edit{Op: Replace, Pointer: "/a", Value: nil}, `{"op":"replace","path":"/a","value":null}`},
		{Edit{Op: Add, Pointer: "/a", Value: []any{1}}, `{"op":"add","path":"/a","value":[1]}`},
		{Edit{Op: Remove, Pointer: "/a"}, `{"op":"remove","path":"/a"}`},
		{Edit{Op: Move, From: "/a", Pointer: "/b"}, `{"op":"move","from":"/a","path":"/b"}`},
	} {
		b, err := json.Marshal(tc.e)
		if err != nil || string(b) != tc.want {
			t.Errorf("%+v: %s %v, want %s", tc.e, b, err, tc.want)
		}
	}
}
