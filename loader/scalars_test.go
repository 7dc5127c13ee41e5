package loader

import (
	"fmt"
	"reflect"
	"testing"
)

// TestJSONScalars reads plain scalars under both schemas, in block YAML
// (the fast path) and in flow YAML (yaml/v4's), which must agree.
func TestJSONScalars(t *testing.T) {
	for _, tc := range []struct {
		plain      string
		core, json any
	}{
		{"True", true, "True"},
		{"FALSE", false, "FALSE"},
		{"true", true, true},
		{"~", nil, "~"},
		{"Null", nil, "Null"},
		{"null", nil, nil},
		{"0x1F", int64(31), "0x1F"},
		{"0o17", int64(15), "0o17"},
		{"+1", int64(1), "+1"},
		{".5", 0.5, ".5"},
		{"-0", int64(0), int64(0)},
		{"017", int64(17), "017"},
		{"1.5e3", int64(1500), int64(1500)},
		{"-2.5E-1", -0.25, -0.25},
		{"1.", int64(1), int64(1)},
		{"1e", "1e", "1e"},
		{"2026-08-25", "2026-08-25", "2026-08-25"},
		{"foo", "foo", "foo"},
	} {
		for _, form := range []string{"a: %s\n", "{a: %s}\n"} {
			src := []byte(fmt.Sprintf(form, tc.plain))
			for _, schema := range []ScalarSchema{CoreScalars, JSONScalars} {
				opts := DefaultOptions()
				opts.Reject &^= NonFiniteNumbers
				opts.Scalars = schema
				doc, err := Parse("t.yaml", src, opts)
				if err != nil {
					t.Errorf("%q (schema %d): %v", src, schema, err)
					continue
				}
				want := tc.core
				if schema == JSONScalars {
					want = tc.json
				}
				if got := doc.Root.Value().(map[string]any)["a"]; !reflect.DeepEqual(got, want) {
					t.Errorf("%q (schema %d) = %#v, want %#v", src, schema, got, want)
				}
			}
		}
	}
	// An empty value is null, and a plain key a string, under the JSON
	// schema.
	opts := DefaultOptions()
	opts.Scalars = JSONScalars
	doc, err := Parse("t.yaml", []byte("a:\nTrue: 1\n"), opts)
	if err != nil {
		t.Fatal(err)
	}
	if v := doc.Root.Value().(map[string]any); v["a"] != nil || v["True"] != int64(1) {
		t.Errorf("empty value and plain key: %#v", v)
	}
}

func TestOtherReading(t *testing.T) {
	for s, want := range map[string]string{
		"True": "bool", "FALSE": "bool", "~": "null", "Null": "null", "0x1F": "int", "0o17": "int",
		"+1": "int", "017": "int", ".5": "float", "1e3": "", "-.inf": "float", ".NaN": "float",
		"2026-08-25": "timestamp", "2026-08-25T10:00:00Z": "timestamp", "2026-8-5 1:02:03.5 +01:00": "timestamp",
		"2025-11-25x": "", "true": "", "null": "", "12": "", "-0.5": "", "foo": "", "": "", "Yes": "",
	} {
		if got := OtherReading(s); got != want {
			t.Errorf("OtherReading(%q) = %q, want %q", s, got, want)
		}
	}
}
