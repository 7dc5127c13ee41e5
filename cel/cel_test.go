package cel

import (
	"context"
	"errors"
	"os"
	"reflect"
	"regexp"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	gocel "github.com/google/cel-go/cel"
	"github.com/google/cel-go/common/types"
	"github.com/google/cel-go/common/types/ref"

	"github.com/celint/celint/internal/jsonpointer"
)

func newEnv(t testing.TB, cfg Config) *Env {
	t.Helper()
	e, err := NewEnv(cfg)
	if err != nil {
		t.Fatalf("NewEnv: %v", err)
	}
	return e
}

// run compiles and evaluates expr with self/root/path bound (root defaults
// to self) and returns the native result.
func run(t testing.TB, e *Env, expr string, self any) (any, error) {
	t.Helper()
	p, err := e.Compile(expr, Origin{})
	if err != nil {
		t.Fatalf("compile %q: %v", expr, err)
	}
	v, _, err := p.Eval(context.Background(), map[string]any{"self": self, "root": self, "path": ""})
	if err != nil {
		return nil, err
	}
	return ToNative(v)
}

type evalCase struct {
	name    string
	expr    string
	self    any
	want    any
	wantErr string // substring of the expected error; "" means success
}

func runCases(t *testing.T, e *Env, cases []evalCase) {
	t.Helper()
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got, err := run(t, e, tc.expr, tc.self)
			if tc.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
					t.Fatalf("%s: error = %v, want one containing %q (result %#v)", tc.expr, err, tc.wantErr, got)
				}
				return
			}
			if err != nil {
				t.Fatalf("%s: %v", tc.expr, err)
			}
			if !reflect.DeepEqual(got, tc.want) {
				t.Fatalf("%s = %#v, want %#v", tc.expr, got, tc.want)
			}
		})
	}
}

func TestIsURI(t *testing.T) {
	cases := []struct {
		in       string
		uri, ref bool
	}{
		{"https://auth.example.com/authorize", true, true},
		{"urn:isbn:0451450523", true, true},
		{"example:///account", true, true},
		{"not a valid URI", false, false},
		{"http://example.com/a b", false, false},
		{"http://example.com/%zz", false, false},
		{"http://example.com/%4", false, false},
		{"http://example.com/%41", true, true},
		{"http://[::1]:8080/", true, true},
		{"http://[fe80::1%25eth0]/", false, false},
		{"http://[1.2.3.4]/", false, false},
		{"http://[v1.fe]/", true, true},
		{"http://[v.fe]/", false, false},
		{"http://[::1/", false, false},
		{"http://[::1]x/", false, false},
		{"http://example.com:80a/", false, false},
		{"http://example.com:/", true, true},
		{"http://user:pw@example.com/", true, true},
		{"http://a@b@example.com/", false, false},
		{"http://exa mple.com/", false, false},
		{"http://example.com/?q=1&r=[x]", false, false},
		{"http://example.com/?q=1/2?3#frag/x?y", true, true},
		{"http://example.com/#a#b", false, false},
		{"mailto:john@example.com", true, true},
		{"HTTP://EXAMPLE.COM", true, true},
		{"a+b-c.d:x", true, true},
		{"1a:b", false, false},
		{":nothing", false, false},
		{"http://example.com/ümlaut", false, false},
		{"/relative/path", false, true},
		{"../a/b?x=1#top", false, true},
		{"#/components", false, true},
		{"", false, true},
		{"//host/path", false, true},
		{"a:b:c", true, true},
		{"foo\x00bar", false, false},
		{"tag:example.com,2024:x", true, true},
	}
	for _, tc := range cases {
		if got := isURI(tc.in); got != tc.uri {
			t.Errorf("isURI(%q) = %v, want %v", tc.in, got, tc.uri)
		}
		if got := isURIReference(tc.in); got != tc.ref {
			t.Errorf("isURIReference(%q) = %v, want %v", tc.in, got, tc.ref)
		}
	}
	e := newEnv(t, Config{})
	runCases(t, e, []evalCase{
		{name: "cel isURI true", expr: `isURI("https://auth.example.com/authorize")`, want: true},
		{name: "cel isURI false", expr: `isURI("not a valid URI")`, want: false},
		{name: "cel isURIReference", expr: `isURIReference(self)`, self: "../x", want: true},
		{name: "cel isURI on non-string dyn", expr: `isURI(self)`, self: int64(1), wantErr: "no such overload"},
	})
}

func TestParsePointer(t *testing.T) {
	cases := []struct {
		in      string
		want    []string
		wantErr bool
	}{
		{"", nil, false},
		{"#", nil, false},
		{"/", []string{""}, false},
		{"/a/b", []string{"a", "b"}, false},
		{"/a~1b/~0c", []string{"a/b", "~c"}, false},
		{"/~01", []string{"~1"}, false},
		{"/~10", []string{"/0"}, false},
		{"#/a%20b/c%2Fd", []string{"a b", "c", "d"}, false}, // decoded before splitting (RFC 6901 section 6)
		{"#/c%7E1d", []string{"c/d"}, false},
		{"#/a~1b", []string{"a/b"}, false},
		{"a", nil, true},
		{"/a~", nil, true},
		{"/a~2", nil, true},
		{"#/a%zz", nil, true},
		{"#a", nil, true},
	}
	for _, tc := range cases {
		got, err := jsonpointer.ParseFragment(tc.in)
		if (err != nil) != tc.wantErr {
			t.Errorf("jsonpointer.ParseFragment(%q) error = %v, wantErr %v", tc.in, err, tc.wantErr)
			continue
		}
		if !tc.wantErr && !reflect.DeepEqual(got, tc.want) {
			t.Errorf("jsonpointer.ParseFragment(%q) = %#v, want %#v", tc.in, got, tc.want)
		}
	}
}

func TestJSONPointer(t *testing.T) {
	doc := map[string]any{
		"a":   []any{int64(10), int64(20), map[string]any{"x": nil}},
		"a/b": map[string]any{"~": int64(1)},
		"a b": "space",
		"":    "empty key",
		"n":   nil,
	}
	e := newEnv(t, Config{})
	runCases(t, e, []evalCase{
		{name: "index", expr: `jsonPointer(self, "/a/1").value()`, self: doc, want: int64(20)},
		{name: "nested null", expr: `jsonPointer(self, "/a/2/x").hasValue()`, self: doc, want: true},
		{name: "null member", expr: `jsonPointer(self, "/n")`, self: doc, want: nil},
		{name: "escapes", expr: `jsonPointer(self, "/a~1b/~0").value()`, self: doc, want: int64(1)},
		{name: "fragment", expr: `jsonPointer(self, "#/a%20b").value()`, self: doc, want: "space"},
		{name: "fragment escapes", expr: `jsonPointer(self, "#/a~1b/~0").value()`, self: doc, want: int64(1)},
		{name: "empty key", expr: `jsonPointer(self, "/").value()`, self: doc, want: "empty key"},
		{name: "whole", expr: `jsonPointer(self, "").value() == self`, self: doc, want: true},
		{name: "whole fragment", expr: `jsonPointer(self, "#").value() == self`, self: doc, want: true},
		{name: "missing", expr: `jsonPointer(self, "/zz").hasValue()`, self: doc, want: false},
		{name: "orValue", expr: `jsonPointer(self, "/zz").orValue(0)`, self: doc, want: int64(0)},
		{name: "out of range", expr: `jsonPointer(self, "/a/3").hasValue()`, self: doc, want: false},
		{name: "leading zero", expr: `jsonPointer(self, "/a/01").hasValue()`, self: doc, want: false},
		{name: "dash", expr: `jsonPointer(self, "/a/-").hasValue()`, self: doc, want: false},
		{name: "sign", expr: `jsonPointer(self, "/a/+1").hasValue()`, self: doc, want: false},
		{name: "huge index", expr: `jsonPointer(self, "/a/99999999999999999999999").hasValue()`, self: doc, want: false},
		{name: "through scalar", expr: `jsonPointer(self, "/a/0/x").hasValue()`, self: doc, want: false},
		{name: "cel literal", expr: `jsonPointer({'k': [1, {'z': 'y'}]}, '/k/1/z').value()`, want: "y"},
		{name: "malformed", expr: `jsonPointer(self, "a")`, self: doc, wantErr: "malformed JSON Pointer"},
		{name: "bad escape", expr: `jsonPointer(self, "/a~2")`, self: doc, wantErr: `"~" must be followed by`},
		{name: "bad percent", expr: `jsonPointer(self, "#/%G0")`, self: doc, wantErr: "bad percent-encoding"},
		{name: "tokens", expr: `jsonPointerTokens("/paths/~1pets/get")`, want: []any{"paths", "/pets", "get"}},
		{name: "tokens empty", expr: `jsonPointerTokens("")`, want: []any{}},
		{name: "tokens bad", expr: `jsonPointerTokens("x")`, wantErr: "malformed"},
		{name: "escape", expr: `jsonPointerEscape("a/b~c")`, want: "a~1b~0c"},
		{name: "escape roundtrip", expr: `jsonPointerTokens("/" + jsonPointerEscape("a/b~c"))[0]`, want: "a/b~c"},
	})
}

func refDoc() map[string]any {
	return map[string]any{
		"a":      map[string]any{"$ref": "#/b"},
		"b":      map[string]any{"$ref": "#/c", "description": "siblings allowed"},
		"c":      map[string]any{"type": "string"},
		"self":   map[string]any{"$ref": "#/self"},
		"x":      map[string]any{"$ref": "#/y"},
		"y":      map[string]any{"$ref": "#/x"},
		"miss":   map[string]any{"$ref": "#/nope"},
		"far":    map[string]any{"$ref": "https://example.com/s.json#/a"},
		"anch":   map[string]any{"$ref": "#anchor"},
		"notref": map[string]any{"$ref": map[string]any{"type": "object"}},
		"list":   []any{map[string]any{"$ref": "#/c"}, map[string]any{"$ref": "#/a"}, int64(3)},
		"node":   map[string]any{"next": map[string]any{"$ref": "#/node"}},
		"pair":   map[string]any{"l": map[string]any{"$ref": "#/c"}, "r": map[string]any{"$ref": "#/c"}},
		"a b":    map[string]any{"v": int64(1)},
		"sp":     map[string]any{"$ref": "#/a%20b"},
	}
}

func TestResolve(t *testing.T) {
	doc := refDoc()
	// A chain of 70 references.
	long := map[string]any{}
	for i := 0; i < 70; i++ {
		long["r"+itoa(i)] = map[string]any{"$ref": "#/r" + itoa(i+1)}
	}
	long["r70"] = "end"
	short := map[string]any{}
	for i := 0; i < 60; i++ {
		short["r"+itoa(i)] = map[string]any{"$ref": "#/r" + itoa(i+1)}
	}
	short["r60"] = "end"

	e := newEnv(t, Config{ReferenceKey: "$ref"})
	runCases(t, e, []evalCase{
		{name: "direct", expr: `resolve(root, root.b)`, self: doc, want: map[string]any{"type": "string"}},
		{name: "chain", expr: `resolve(root, root.a)`, self: doc, want: map[string]any{"type": "string"}},
		{name: "literal ref", expr: `resolve(root, {'$ref': '#/a'}).type`, self: doc, want: "string"},
		{name: "percent", expr: `resolve(root, root.sp).v`, self: doc, want: int64(1)},
		{name: "non-reference", expr: `resolve(root, root.c)`, self: doc, want: map[string]any{"type": "string"}},
		{name: "scalar", expr: `resolve(root, 1)`, self: doc, want: int64(1)},
		{name: "ref member not string", expr: `resolve(root, root.notref) == root.notref`, self: doc, want: true},
		{name: "self cycle", expr: `resolve(root, root.self)`, self: doc, wantErr: "reference cycle: #/self -> #/self"},
		{name: "cycle", expr: `resolve(root, root.x)`, self: doc, wantErr: "reference cycle: #/y -> #/x -> #/y"},
		{name: "missing", expr: `resolve(root, root.miss)`, self: doc, wantErr: `reference "#/nope" does not resolve`},
		{name: "non-local", expr: `resolve(root, root.far)`, self: doc, wantErr: `only local references (#/...) are resolved; "https://example.com/s.json#/a" is never fetched`},
		{name: "anchor", expr: `resolve(root, root.anch)`, self: doc, wantErr: `reference "#anchor" is not a JSON Pointer fragment`},
		{name: "long chain", expr: `resolve(root, root.r0)`, self: long, wantErr: "reference chain longer than 64"},
		{name: "60 chain", expr: `resolve(root, root.r0)`, self: short, want: "end"},
		{name: "isReference", expr: `isReference(root.a)`, self: doc, want: true},
		{name: "isReference siblings", expr: `isReference(root.b)`, self: doc, want: true},
		{name: "isReference not string", expr: `isReference(root.notref)`, self: doc, want: false},
		{name: "isReference scalar", expr: `isReference('#/a')`, self: doc, want: false},
		{name: "error absorbed by ||", expr: `true || resolve(root, root.miss) == 1`, self: doc, want: true},
	})
	// resolve's cycle message starts where the chain starts.
	runCases(t, e, []evalCase{
		{name: "cycle from x", expr: `resolve(root, {'$ref': '#/x'})`, self: doc, wantErr: "reference cycle: #/x -> #/y -> #/x"},
	})

	noKey := newEnv(t, Config{})
	runCases(t, noKey, []evalCase{
		{name: "no key resolve", expr: `resolve(root, root.a)`, self: doc, want: map[string]any{"$ref": "#/b"}},
		{name: "no key resolveAll", expr: `resolveAll(root, root.a)`, self: doc, want: map[string]any{"$ref": "#/b"}},
		{name: "no key isReference", expr: `isReference(root.a)`, self: doc, want: false},
	})
}

func itoa(i int) string { return strconv.Itoa(i) }

func TestResolveAll(t *testing.T) {
	doc := refDoc()
	e := newEnv(t, Config{ReferenceKey: "$ref"})
	str := map[string]any{"type": "string"}
	runCases(t, e, []evalCase{
		{name: "list", expr: `resolveAll(root, root.list)`, self: doc, want: []any{str, str, int64(3)}},
		{name: "nested literal", expr: `resolveAll(root, {'items': [{'$ref': '#/a'}], 'n': 1})`, self: doc,
			want: map[string]any{"items": []any{str}, "n": int64(1)}},
		{name: "shared twice is not a cycle", expr: `resolveAll(root, root.pair)`, self: doc, want: map[string]any{"l": str, "r": str}},
		{name: "top reference", expr: `resolveAll(root, root.a)`, self: doc, want: str},
		{name: "nesting cycle", expr: `resolveAll(root, root.node)`, self: doc, wantErr: "reference cycle: #/node -> #/node"},
		{name: "nesting cycle via ref", expr: `resolveAll(root, {'$ref': '#/node'})`, self: doc, wantErr: "reference cycle: #/node -> #/node"},
		{name: "missing inside", expr: `resolveAll(root, [root.miss])`, self: doc, wantErr: `reference "#/nope" does not resolve`},
		{name: "non-local inside", expr: `resolveAll(root, {'k': root.far})`, self: doc, wantErr: "is never fetched"},
		{name: "scalar", expr: `resolveAll(root, 'x')`, self: doc, want: "x"},
		{name: "empty list", expr: `resolveAll(root, [])`, self: doc, want: []any{}},
	})

	// Exponential expansion: each level references the next twice.
	blow := map[string]any{}
	for i := 0; i < 40; i++ {
		blow["l"+itoa(i)] = []any{map[string]any{"$ref": "#/l" + itoa(i+1)}, map[string]any{"$ref": "#/l" + itoa(i+1)}}
	}
	blow["l40"] = int64(1)
	// The walk stops at its node bound (the error says so), whatever the
	// machine: 2^40 nodes are never visited.
	_, err := run(t, e, `resolveAll(root, root.l0)`, blow)
	if err == nil || !strings.Contains(err.Error(), "nodes visited") {
		t.Fatalf("exponential resolveAll: err = %v", err)
	}
}

func TestSchema(t *testing.T) {
	e := newEnv(t, Config{})
	schema := map[string]any{
		"type":     "object",
		"required": []any{"name"},
		"properties": map[string]any{
			"name": map[string]any{"type": "string"},
			"tags": map[string]any{"type": "array", "items": map[string]any{"$ref": "#/$defs/tag"}},
			"n":    map[string]any{"type": "integer", "maximum": int64(10)},
		},
		"$defs": map[string]any{"tag": map[string]any{"type": "string", "minLength": int64(2)}},
	}
	good := map[string]any{"name": "x", "tags": []any{"ab"}, "n": int64(3)}
	// (The validator skips "maximum" once "type" fails for n.)
	bad := map[string]any{"tags": []any{"ab", "c", int64(5)}, "n": 11.5}
	act := func(v any) map[string]any { return map[string]any{"self": v, "root": schema, "path": ""} }

	evalWith := func(expr string, a map[string]any) (any, error) {
		p, err := e.Compile(expr, Origin{})
		if err != nil {
			t.Fatalf("compile: %v", err)
		}
		v, _, err := p.Eval(context.Background(), a)
		if err != nil {
			return nil, err
		}
		return ToNative(v)
	}
	if got, err := evalWith(`matchesSchema(self, root)`, act(good)); err != nil || got != true {
		t.Fatalf("matchesSchema(good) = %v, %v", got, err)
	}
	if got, err := evalWith(`matchesSchema(self, root)`, act(bad)); err != nil || got != false {
		t.Fatalf("matchesSchema(bad) = %v, %v", got, err)
	}
	if got, err := evalWith(`schemaErrors(self, root)`, act(good)); err != nil || !reflect.DeepEqual(got, []any{}) {
		t.Fatalf("schemaErrors(good) = %v, %v", got, err)
	}
	got, err := evalWith(`schemaErrors(self, root)`, act(bad))
	if err != nil {
		t.Fatal(err)
	}
	type leaf struct{ pointer, keyword string }
	var leaves []leaf
	for _, it := range got.([]any) {
		m := it.(map[string]any)
		if m["message"] == "" {
			t.Errorf("empty message in %v", m)
		}
		leaves = append(leaves, leaf{m["pointer"].(string), m["keyword"].(string)})
	}
	want := []leaf{
		{"", "/required"},
		{"/n", "/properties/n/type"},
		{"/tags/1", "/properties/tags/items/$ref/minLength"},
		{"/tags/2", "/properties/tags/items/$ref/type"},
	}
	if !reflect.DeepEqual(leaves, want) {
		t.Fatalf("schemaErrors leaves =\n%v\nwant\n%v\n(full: %v)", leaves, want, got)
	}

	runCases(t, e, []evalCase{
		{name: "literal", expr: `matchesSchema(3, {'type': 'integer', 'minimum': 1})`, want: true},
		{name: "integral double is integer", expr: `matchesSchema(3.0, {'type': 'integer'})`, want: true},
		{name: "mismatch", expr: `matchesSchema('x', {'type': 'integer'})`, want: false},
		{name: "bool schema", expr: `matchesSchema(1, false)`, want: false},
		{name: "bool schema errors", expr: `size(schemaErrors(1, false))`, want: int64(1)},
		{name: "message", expr: `schemaErrors({'a': 'x'}, {'properties': {'a': {'type': 'integer'}}})`,
			want: []any{map[string]any{"pointer": "/a", "keyword": "/properties/a/type", "message": "got string, want integer"}}},
		{name: "escaped pointer", expr: `schemaErrors({'a/b': 1}, {'properties': {'a/b': {'type': 'string'}}})[0].pointer`, want: "/a~1b"},
		// A schema that does not compile is false, or one entry saying why
		// (version 2); version 1 errors, below.
		{name: "invalid schema", expr: `matchesSchema(1, dyn({'type': 'wrong'}))`, want: false},
		{name: "invalid schema errors", expr: `schemaErrors(1, dyn({'minimum': 'x'}))`,
			want: []any{map[string]any{"pointer": "", "keyword": "", "message": `schema does not compile: at /minimum: "minimum" must be of type number (got string)`}}},
		{name: "remote ref", expr: `matchesSchema(1, dyn({'$ref': 'https://example.com/s.json'}))`, want: false},
		{name: "remote ref errors", expr: `schemaErrors(1, dyn({'$ref': 'https://example.com/s.json'}))[0].message`,
			want: `schema does not compile: at /$ref: $ref "https://example.com/s.json" leaves the schema: references must point inside it; nothing is fetched`},
		{name: "file ref", expr: `schemaErrors(1, dyn({'$ref': 'file:///etc/passwd'}))[0].message`,
			want: `schema does not compile: at /$ref: $ref "file:///etc/passwd" leaves the schema: references must point inside it; nothing is fetched`},
		{name: "relative file ref", expr: `matchesSchema(1, dyn({'$ref': 'other.json'}))`, want: false},
		{name: "self reference", expr: `matchesSchema(1, dyn({'$ref': '#/$defs/a', '$defs': {'a': {'$ref': '#/$defs/a'}}}))`, want: false},
		{name: "self reference errors", expr: `schemaErrors(1, dyn({'$ref': '#/$defs/a', '$defs': {'a': {'$ref': '#/$defs/a'}}}))`,
			want: []any{map[string]any{"pointer": "", "keyword": "", "message": `schema does not compile: at /$defs/a/$ref: reference cycle that never descends into the value (/$defs/a → /$defs/a): validation would never end`}}},
		{name: "remote metaschema", expr: `matchesSchema(1, dyn({'$schema': 'https://example.com/meta'}))`, want: false},
		{name: "draft 7", expr: `matchesSchema(5, {'$schema': 'http://json-schema.org/draft-07/schema#', 'exclusiveMaximum': 5})`, want: false},
		{name: "internal id ref", expr: `matchesSchema('a', {'$id': 'https://x.test/root', '$defs': {'s': {'type': 'string'}}, '$ref': '#/$defs/s'})`, want: true},
		{name: "NaN schema", expr: `matchesSchema(1, {'minimum': 0.0/0.0})`, want: false},
		{name: "value without JSON form", expr: `matchesSchema(duration('1s'), true)`, want: true},
		{name: "value error is still an error", expr: `matchesSchema(type(1), true)`, wantErr: "value cannot be validated"},
		{name: "value error with a bad schema", expr: `matchesSchema(type(1), dyn({'type': 'wrong'}))`, want: false},
	})
	// Version 1: a schema that does not compile is an error.
	v1 := newEnv(t, Config{Library: 1})
	runCases(t, v1, []evalCase{
		{name: "v1 invalid schema", expr: `matchesSchema(1, dyn({'type': 'wrong'}))`, wantErr: "invalid schema"},
		{name: "v1 invalid schema errors", expr: `schemaErrors(1, dyn({'minimum': 'x'}))`, wantErr: "invalid schema"},
		{name: "v1 remote ref", expr: `matchesSchema(1, dyn({'$ref': 'https://example.com/s.json'}))`, wantErr: `invalid schema: at /$ref: $ref "https://example.com/s.json" leaves the schema`},
		{name: "v1 file ref", expr: `matchesSchema(1, dyn({'$ref': 'file:///etc/passwd'}))`, wantErr: `invalid schema: at /$ref: $ref "file:///etc/passwd" leaves the schema`},
		{name: "v1 self reference", expr: `matchesSchema(1, dyn({'$ref': '#'}))`, wantErr: `invalid schema: at /$ref: reference cycle`},
		{name: "v1 relative file ref", expr: `matchesSchema(1, dyn({'$ref': 'other.json'}))`, wantErr: `$ref "other.json" leaves the schema`},
		{name: "v1 remote metaschema", expr: `matchesSchema(1, dyn({'$schema': 'https://example.com/meta'}))`, wantErr: `unknown $schema "https://example.com/meta"`},
		{name: "v1 NaN schema", expr: `matchesSchema(1, {'minimum': 0.0/0.0})`, wantErr: "invalid schema"},
		{name: "v1 valid", expr: `matchesSchema(3, {'type': 'integer', 'minimum': 1})`, want: true},
		{name: "v1 errors", expr: `schemaErrors({'a': 'x'}, {'properties': {'a': {'type': 'integer'}}})`,
			want: []any{map[string]any{"pointer": "/a", "keyword": "/properties/a/type", "message": "got string, want integer"}}},
	})

	// Compiled schemas are cached per library instance.
	lib := e.lib
	s := types.DefaultTypeAdapter.NativeToValue(map[string]any{"type": "string"})
	s1, err := lib.compiledSchema(s)
	if err != nil {
		t.Fatal(err)
	}
	s2, _ := lib.compiledSchema(types.DefaultTypeAdapter.NativeToValue(map[string]any{"type": "string"}))
	if s1 != s2 {
		t.Fatal("schema not cached")
	}
	const bound = 256
	lib.caches.schemas.maxEntries = bound
	for i := 0; i < bound+20; i++ {
		if _, err := lib.compiledSchema(types.DefaultTypeAdapter.NativeToValue(map[string]any{"maxLength": int64(i)})); err != nil {
			t.Fatal(err)
		}
	}
	if n := len(lib.caches.schemas.entries); n > bound {
		t.Fatalf("schema cache holds %d entries, bound %d", n, bound)
	}
	// A new environment has its own cache.
	if newEnv(t, Config{}).lib == lib {
		t.Fatal("library instance shared between environments")
	}
}

func TestDuplicates(t *testing.T) {
	e := newEnv(t, Config{})
	runCases(t, e, []evalCase{
		{name: "ints", expr: `duplicates([1, 2, 1, 3, 2, 1])`, want: []any{int64(1), int64(2)}},
		{name: "order of first repeat", expr: `duplicates(['b', 'a', 'a', 'b'])`, want: []any{"a", "b"}},
		{name: "none", expr: `duplicates(['a', 'b'])`, want: []any{}},
		{name: "empty", expr: `duplicates([])`, want: []any{}},
		{name: "cross numeric", expr: `duplicates([1, 1.0, 1u])`, want: []any{int64(1)}},
		{name: "negative zero", expr: `duplicates([0.0, -0.0])`, want: []any{0.0}},
		{name: "NaN", expr: `duplicates([0.0/0.0, 0.0/0.0])`, want: []any{}},
		{name: "maps", expr: `duplicates([{'a': 1, 'b': [1]}, {'b': [1.0], 'a': 1}, {'a': 2}])`, want: []any{map[string]any{"a": int64(1), "b": []any{int64(1)}}}},
		{name: "lists", expr: `duplicates([[1, 2], [2, 1], [1, 2]])`, want: []any{[]any{int64(1), int64(2)}}},
		{name: "mixed types", expr: `duplicates([null, 'null', null, false, 0, false])`, want: []any{nil, false}},
		{name: "document", expr: `duplicates(self)`, self: []any{"x", int64(2), 2.0, "x"}, want: []any{int64(2), "x"}},
		{name: "indexes", expr: `duplicateIndexes([1, 2, 1, 3, 2, 1])`, want: []any{int64(2), int64(4), int64(5)}},
		{name: "indexes none", expr: `duplicateIndexes([])`, want: []any{}},
		{name: "timestamps", expr: `duplicates([timestamp('2024-01-01T00:00:00Z'), timestamp('2024-01-01T00:00:00Z')]).size()`, want: int64(1)},
		{name: "non-list dyn", expr: `duplicates(self)`, self: "x", wantErr: "no such overload"},
		// Integers a double cannot hold exactly equal only themselves.
		{name: "big ints", expr: `duplicateIndexes([9007199254740993, 9007199254740992.0, 9007199254740993u, 9007199254740992])`, want: []any{int64(2), int64(3)}},
		{name: "max uint", expr: `duplicateIndexes([18446744073709551615u, 18446744073709551615u, 18446744073709551614u])`, want: []any{int64(1)}},
		{name: "optionals", expr: `duplicateIndexes([optional.of(1), optional.none(), optional.of(1.0), optional.none()])`, want: []any{int64(2), int64(3)}},
		{name: "tricky strings", expr: `duplicates(['a,', 'a', ',a', ['a,'], ['a', ''], ['a,']])`, want: []any{[]any{"a,"}}},
	})
	// Deeply nested equal values: keys stay linear in size.
	nest := func() any {
		var v any = `q"\`
		for i := 0; i < 2000; i++ {
			v = []any{`"`, v}
		}
		return v
	}
	start := time.Now()
	got, err := run(t, e, `duplicateIndexes(self)`, []any{nest(), nest(), "x"})
	if err != nil || !reflect.DeepEqual(got, []any{int64(1)}) {
		t.Fatalf("deep duplicates = %v, %v", got, err)
	}
	if d := time.Since(start); d > 5*time.Second {
		t.Fatalf("deep duplicates took %v", d)
	}

	// Large list stays fast (bucketed, not quadratic).
	big := make([]any, 50000)
	for i := range big {
		big[i] = int64(i % 25000)
	}
	start = time.Now()
	got, err = run(t, e, `size(duplicateIndexes(self))`, big)
	if err != nil || got != int64(25000) {
		t.Fatalf("big duplicates = %v, %v", got, err)
	}
	if d := time.Since(start); d > 5*time.Second {
		t.Fatalf("big duplicates took %v", d)
	}
}

func TestJSONTypeAndIsInteger(t *testing.T) {
	e := newEnv(t, Config{})
	runCases(t, e, []evalCase{
		{name: "null", expr: `jsonType(null)`, want: "null"},
		{name: "bool", expr: `jsonType(true)`, want: "boolean"},
		{name: "int", expr: `jsonType(1)`, want: "number"},
		{name: "uint", expr: `jsonType(1u)`, want: "number"},
		{name: "double", expr: `jsonType(1.5)`, want: "number"},
		{name: "string", expr: `jsonType('')`, want: "string"},
		{name: "list", expr: `jsonType([])`, want: "array"},
		{name: "map", expr: `jsonType({})`, want: "object"},
		{name: "doc object", expr: `jsonType(self)`, self: map[string]any{}, want: "object"},
		{name: "doc array", expr: `jsonType(self)`, self: []any{}, want: "array"},
		{name: "doc null", expr: `jsonType(self)`, self: nil, want: "null"},
		{name: "bytes", expr: `jsonType(b'x')`, wantErr: "has no JSON type"},
		{name: "isInteger int", expr: `isInteger(3)`, want: true},
		{name: "isInteger uint", expr: `isInteger(3u)`, want: true},
		{name: "isInteger double", expr: `isInteger(3.0)`, want: true},
		{name: "isInteger frac", expr: `isInteger(3.5)`, want: false},
		{name: "isInteger inf", expr: `isInteger(1.0/0.0)`, want: false},
		{name: "isInteger nan", expr: `isInteger(0.0/0.0)`, want: false},
		{name: "isInteger string", expr: `isInteger('3')`, want: false},
		{name: "isInteger doc", expr: `isInteger(self)`, self: 2.0, want: true},
	})
}

func TestEnvBasics(t *testing.T) {
	e := newEnv(t, Config{Variables: []Var{{Name: "ruleParam", Type: gocel.IntType}}})
	runCases(t, e, []evalCase{
		{name: "cross-type comparison", expr: `1 <= 2.5`, want: true},
		{name: "cross-type with doc", expr: `self.maximum < 2.5`, self: map[string]any{"maximum": int64(2)}, want: true},
		{name: "int arithmetic", expr: `self.maximum + 1`, self: map[string]any{"maximum": int64(41)}, want: int64(42)},
		{name: "double doc", expr: `self.maximum * 2.0`, self: map[string]any{"maximum": 1.5}, want: 3.0},
		{name: "strings ext", expr: `'a,b'.split(',')`, want: []any{"a", "b"}},
		{name: "lists ext", expr: `lists.range(3)`, want: []any{int64(0), int64(1), int64(2)}},
		{name: "sets ext", expr: `sets.contains([1, 2], [2])`, want: true},
		{name: "math ext", expr: `math.greatest(1, 5, 3)`, want: int64(5)},
		{name: "bindings ext", expr: `cel.bind(x, 2, x * x)`, want: int64(4)},
		{name: "encoders ext", expr: `base64.encode(b'hi')`, want: "aGk="},
		{name: "optional", expr: `self.?missing.orValue('d')`, self: map[string]any{}, want: "d"},
		{name: "two var comprehension", expr: `{'a': 1, 'b': 2}.all(k, v, v > 0)`, want: true},
		{name: "regex ext", expr: `regex.replace('banana', 'a', 'x')`, want: "bxnxnx"},
		{name: "path", expr: `path`, want: ""},
		{name: "no such key", expr: `self.nope`, self: map[string]any{}, wantErr: "no such key"},
	})

	p, err := e.Compile(`ruleParam * 2`, Origin{})
	if err != nil {
		t.Fatal(err)
	}
	if p.OutputType().String() != "int" {
		t.Fatalf("OutputType = %v", p.OutputType())
	}
	v, cost, err := p.Eval(context.Background(), map[string]any{"ruleParam": int64(21)})
	if err != nil || v.Equal(types.Int(42)) != types.True {
		t.Fatalf("ruleParam*2 = %v, %v", v, err)
	}
	if cost == 0 {
		t.Fatalf("cost not tracked")
	}
	if _, err := NewEnv(Config{Variables: []Var{{Name: "x"}}}); err == nil {
		t.Fatal("variable without type accepted")
	}
	// nil activation means no variables.
	p2, _ := e.Compile(`1 + 1`, Origin{})
	if v, _, err := p2.Eval(context.Background(), nil); err != nil || v.Equal(types.Int(2)) != types.True {
		t.Fatalf("nil activation: %v %v", v, err)
	}
}

func TestExtend(t *testing.T) {
	e := newEnv(t, Config{ReferenceKey: "$ref"})
	e2, err := e.Extend(Var{Name: "item", Type: gocel.DynType}, Var{Name: "index", Type: gocel.IntType})
	if err != nil {
		t.Fatal(err)
	}
	if e2.lib != e.lib {
		t.Fatal("Extend made a new library instance")
	}
	p, err := e2.Compile(`isReference(item) && index == 1`, Origin{})
	if err != nil {
		t.Fatal(err)
	}
	v, _, err := p.Eval(context.Background(), map[string]any{"item": map[string]any{"$ref": "#/x"}, "index": int64(1)})
	if err != nil || v != types.True {
		t.Fatalf("got %v, %v", v, err)
	}
	if _, err := e.Compile(`item`, Origin{}); err == nil {
		t.Fatal("base env sees extended variable")
	}
}

func TestCompileCache(t *testing.T) {
	e := newEnv(t, Config{})
	p1, err := e.Compile(`self.a + 1`, Origin{File: "a.yaml", Line: 3, Col: 5})
	if err != nil {
		t.Fatal(err)
	}
	p2, err := e.Compile(`self.a + 1`, Origin{File: "b.yaml", Line: 9, Col: 1})
	if err != nil {
		t.Fatal(err)
	}
	if p1 != p2 {
		t.Fatal("same expression compiled twice gave different programs")
	}
	// An Extend'ed environment with the same variables shares the cache.
	ex1, _ := e.Extend(Var{Name: "item", Type: gocel.DynType})
	ex2, _ := e.Extend(Var{Name: "item", Type: gocel.DynType})
	q1, _ := ex1.Compile(`item + 1`, Origin{})
	q2, _ := ex2.Compile(`item + 1`, Origin{})
	if q1 == nil || q1 != q2 {
		t.Fatal("Extend'ed environments with the same variables do not share programs")
	}
	// Different variable types give different programs.
	ex3, _ := e.Extend(Var{Name: "item", Type: gocel.IntType})
	q3, _ := ex3.Compile(`item + 1`, Origin{})
	if q3 == q1 {
		t.Fatal("program shared across different variable declarations")
	}
	if q3.OutputType().String() != "int" {
		t.Fatalf("output type %v", q3.OutputType())
	}
}

func TestCompileErrorPositions(t *testing.T) {
	e := newEnv(t, Config{})
	cases := []struct {
		name string
		expr string
		o    Origin
		want []string
	}{
		{
			name: "single line offset",
			// undeclared reference at column 8 (1-based) of the expression
			expr: `self + nope`,
			o:    Origin{File: "rules.yaml", Line: 12, Col: 10},
			want: []string{"rules.yaml:12:17: undeclared reference to 'nope'"},
		},
		{
			name: "block scalar",
			expr: "self.a == 1 &&\n  nope == 2",
			o:    Origin{File: "r.yaml", Line: 5, Block: true, Indent: 6},
			want: []string{"r.yaml:6:9: undeclared reference to 'nope'"},
		},
		{
			name: "quoted multi-line best effort",
			expr: "self.a == 1 &&\nnope == 2",
			o:    Origin{File: "r.yaml", Line: 5, Col: 14},
			want: []string{"r.yaml:6:1: undeclared reference to 'nope'"},
		},
		{
			name: "two issues",
			expr: `foo + bar`,
			o:    Origin{File: "f.yaml", Line: 1, Col: 3},
			want: []string{"f.yaml:1:3: undeclared reference to 'foo'", "f.yaml:1:9: undeclared reference to 'bar'"},
		},
		{
			name: "syntax error",
			expr: `self.`,
			o:    Origin{File: "s.yaml", Line: 2, Col: 4},
			want: []string{"s.yaml:2:"},
		},
		{
			name: "no origin",
			expr: `nope`,
			o:    Origin{},
			want: []string{"<expression>:1:1: undeclared reference to 'nope'"},
		},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			_, err := e.Compile(tc.expr, tc.o)
			var ce *CompileError
			if !errors.As(err, &ce) {
				t.Fatalf("error %v (%T) is not a *CompileError", err, err)
			}
			if len(ce.Issues) < len(tc.want) {
				t.Fatalf("issues %v, want %v", ce.Issues, tc.want)
			}
			lines := strings.Split(err.Error(), "\n")
			for i, w := range tc.want {
				if !strings.HasPrefix(lines[i], w) {
					t.Errorf("issue %d = %q, want prefix %q", i, lines[i], w)
				}
			}
			if len(lines) != len(ce.Issues) {
				t.Errorf("Error() has %d lines for %d issues", len(lines), len(ce.Issues))
			}
		})
	}
}

func TestCostLimit(t *testing.T) {
	e := newEnv(t, Config{CostLimit: 10_000})
	p, err := e.Compile(`lists.range(1000).map(x, lists.range(1000).map(y, x * y)).size()`, Origin{})
	if err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	_, cost, err := p.Eval(context.Background(), map[string]any{})
	if !errors.Is(err, ErrCostLimit) {
		t.Fatalf("error %v does not wrap ErrCostLimit", err)
	}
	if err.Error() != "CEL cost limit of 10000 exceeded" {
		t.Fatalf("message %q", err.Error())
	}
	if d := time.Since(start); d > 2*time.Second {
		t.Fatalf("cost limit took %v", d)
	}
	if cost < 10_000 {
		t.Fatalf("cost after exceeding the limit = %d, want at least the limit", cost)
	}

	// Default limit applies when unset.
	d := newEnv(t, Config{})
	if d.CostLimit() != DefaultCostLimit {
		t.Fatalf("default limit %d", d.CostLimit())
	}
	p, _ = d.Compile(`[1,2,3,4,5,6,7,8,9,10].map(a, [1,2,3,4,5,6,7,8,9,10].map(b, [1,2,3,4,5,6,7,8,9,10].map(c, [1,2,3,4,5,6,7,8,9,10].map(e, [1,2,3,4,5,6,7,8,9,10].map(f, [1,2,3,4,5,6,7,8,9,10].map(g, a+b+c+e+f+g))))))`, Origin{})
	start = time.Now()
	_, _, err = p.Eval(context.Background(), map[string]any{})
	if !errors.Is(err, ErrCostLimit) || !strings.Contains(err.Error(), "CEL cost limit of 1000000 exceeded") {
		t.Fatalf("nested maps: %v", err)
	}
	if d := time.Since(start); d > 5*time.Second {
		t.Fatalf("cost limit took %v", d)
	}

	// Library functions that walk values are charged per node.
	small := newEnv(t, Config{CostLimit: 1000})
	big := make([]any, 5000)
	for i := range big {
		big[i] = int64(i)
	}
	_, err = run(t, small, `duplicates(self)`, big)
	if !errors.Is(err, ErrCostLimit) {
		t.Fatalf("duplicates on 5000 elements with limit 1000: %v", err)
	}
}

func TestPanicRecovered(t *testing.T) {
	e := newEnv(t, Config{})
	pe := newEnv(t, Config{Extra: []gocel.EnvOption{gocel.Function("boom",
		gocel.Overload("boom_int", []*gocel.Type{gocel.IntType}, gocel.IntType,
			gocel.UnaryBinding(func(v ref.Val) ref.Val { panic("kaboom") })))}})
	p, err := pe.Compile(`boom(1) + 1`, Origin{})
	if err != nil {
		t.Fatal(err)
	}
	_, _, err = p.Eval(context.Background(), map[string]any{})
	if !errors.Is(err, ErrPanic) || !strings.Contains(err.Error(), "kaboom") {
		t.Fatalf("error %v does not wrap ErrPanic", err)
	}
	// Inside a comprehension too.
	p, _ = pe.Compile(`[1, 2].all(x, boom(x) > 0)`, Origin{})
	if _, _, err = p.Eval(context.Background(), nil); !errors.Is(err, ErrPanic) {
		t.Fatalf("comprehension: %v", err)
	}
	// A lazily-bound value that panics.
	p, _ = e.Compile(`self == 1`, Origin{})
	_, _, err = p.Eval(context.Background(), map[string]any{"self": func() any { panic("lazy boom") }})
	if !errors.Is(err, ErrPanic) {
		t.Fatalf("lazy panic: %v", err)
	}
	// The extra function is not declared in an environment without it.
	if _, err := e.Compile(`boom(1)`, Origin{}); err == nil {
		t.Fatal("an extra function leaked into another environment")
	}
}

func TestContextCancel(t *testing.T) {
	e := newEnv(t, Config{CostLimit: 1 << 62})
	p, err := e.Compile(`lists.range(1000000).map(x, lists.range(1000).exists(y, y == x)).size()`, Origin{})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	start := time.Now()
	_, _, err = p.Eval(ctx, map[string]any{})
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("error %v is not the context's", err)
	}
	if d := time.Since(start); d > 5*time.Second {
		t.Fatalf("cancellation took %v", d)
	}
	done, cancel2 := context.WithCancel(context.Background())
	cancel2()
	if _, _, err := p.Eval(done, map[string]any{}); !errors.Is(err, context.Canceled) {
		t.Fatalf("pre-cancelled: %v", err)
	}
}

func TestRegexIsLinear(t *testing.T) {
	e := newEnv(t, Config{})
	in := strings.Repeat("a", 30) + "!"
	start := time.Now()
	got, err := run(t, e, `self.matches('(a+)+$')`, in)
	if err != nil {
		t.Fatal(err)
	}
	if got != false {
		t.Fatalf("matches = %v", got)
	}
	in = strings.Repeat("a", 100000) + "!"
	got, err = run(t, e, `self.matches('^(a+)+$') || regex.replace(self, '(a|aa)+$', 'x') == ''`, in)
	if err != nil || got != false {
		t.Fatalf("long input: %v %v", got, err)
	}
	if d := time.Since(start); d > 2*time.Second {
		t.Fatalf("pathological regex took %v", d)
	}
}

func TestLazyActivation(t *testing.T) {
	e := newEnv(t, Config{})
	var calls atomic.Int32
	lazyRoot := func() any { calls.Add(1); return map[string]any{"k": int64(7)} }
	act := map[string]any{"self": int64(1), "root": lazyRoot, "path": "/x"}

	p, _ := e.Compile(`self == 1`, Origin{})
	if v, _, err := p.Eval(context.Background(), act); err != nil || v != types.True {
		t.Fatalf("%v %v", v, err)
	}
	if calls.Load() != 0 {
		t.Fatalf("unused lazy value was computed")
	}
	p, _ = e.Compile(`root.k + root.k + size(path)`, Origin{})
	v, _, err := p.Eval(context.Background(), act)
	if err != nil || v.Equal(types.Int(16)) != types.True {
		t.Fatalf("%v %v", v, err)
	}
	if calls.Load() != 1 {
		t.Fatalf("lazy value computed %d times in one evaluation", calls.Load())
	}
	if _, ok := act["root"].(func() any); !ok {
		t.Fatal("caller's activation map was modified")
	}
	// func() ref.Val works too.
	act["root"] = func() ref.Val { return types.DefaultTypeAdapter.NativeToValue(map[string]any{"k": int64(1)}) }
	v, _, err = p.Eval(context.Background(), act)
	if err != nil || v.Equal(types.Int(4)) != types.True {
		t.Fatalf("func() ref.Val: %v %v", v, err)
	}
	// Any other func type is not lazy.
	act["root"] = func() map[string]any { return nil }
	if _, _, err = p.Eval(context.Background(), act); err == nil {
		t.Fatal("func() map[string]any unexpectedly accepted")
	}
}

func TestToNative(t *testing.T) {
	e := newEnv(t, Config{})
	runCases(t, e, []evalCase{
		{name: "uint small", expr: `5u`, want: int64(5)},
		{name: "uint big", expr: `18446744073709551615u`, want: float64(18446744073709551615)},
		{name: "optional some", expr: `optional.of(1)`, want: int64(1)},
		{name: "optional none", expr: `optional.none()`, want: nil},
		{name: "bytes", expr: `b'hi'`, want: "aGk="},
		{name: "timestamp", expr: `timestamp('2024-01-02T03:04:05Z')`, want: "2024-01-02T03:04:05Z"},
		{name: "duration", expr: `duration('90s')`, want: "90s"},
		{name: "int keys", expr: `{1: 'a', true: 'b'}`, want: map[string]any{"1": "a", "true": "b"}},
		{name: "nested", expr: `{'a': [1, 2.5, null, optional.of('x')]}`, want: map[string]any{"a": []any{int64(1), 2.5, nil, "x"}}},
		{name: "doc passthrough", expr: `self`, self: map[string]any{"a": []any{true}}, want: map[string]any{"a": []any{true}}},
		{name: "type value", expr: `type(1)`, wantErr: "has no JSON form"},
	})
	if v, err := ToNative(nil); v != nil || err != nil {
		t.Fatal("nil")
	}
	if _, err := ToNative(types.NewErr("bad")); err == nil || err.Error() != "bad" {
		t.Fatalf("error value: %v", err)
	}
}

func TestConcurrentEval(t *testing.T) {
	e := newEnv(t, Config{ReferenceKey: "$ref"})
	p, err := e.Compile(`matchesSchema(self, {'type': 'integer'}) && resolve(root, root.a) == 1`, Origin{})
	if err != nil {
		t.Fatal(err)
	}
	act := map[string]any{"self": int64(1), "root": func() any { return map[string]any{"a": map[string]any{"$ref": "#/b"}, "b": int64(1)} }, "path": ""}
	errs := make(chan error, 16)
	for i := 0; i < 16; i++ {
		go func() {
			for j := 0; j < 50; j++ {
				v, _, err := p.Eval(context.Background(), act)
				if err == nil && v != types.True {
					err = errors.New("wrong result")
				}
				if err != nil {
					errs <- err
					return
				}
			}
			errs <- nil
		}()
	}
	for i := 0; i < 16; i++ {
		if err := <-errs; err != nil {
			t.Fatal(err)
		}
	}
}

// docCall finds a line of the package documentation that is a call.
var docCall = regexp.MustCompile(`^[a-zA-Z]+\(`)

// TestDocExamples evaluates the one-line "call == result" examples of the
// package documentation, so the reference documentation stays true.
func TestDocExamples(t *testing.T) {
	src, err := os.ReadFile("doc.go")
	if err != nil {
		t.Fatal(err)
	}
	e := newEnv(t, Config{ReferenceKey: "$ref"})
	n := 0
	for _, line := range strings.Split(string(src), "\n") {
		line = strings.TrimSpace(strings.TrimPrefix(line, "//"))
		if !strings.Contains(line, " == ") || !docCall.MatchString(line) {
			continue
		}
		if i := strings.Index(line, "   ("); i >= 0 {
			line = strings.TrimSpace(line[:i])
		}
		if strings.Contains(line, "1 == 1.0") {
			continue
		}
		n++
		got, err := run(t, e, line, nil)
		if err != nil || got != true {
			t.Errorf("doc example %q = %v, %v", line, got, err)
		}
	}
	if n < 12 {
		t.Fatalf("only %d doc examples found", n)
	}
}
