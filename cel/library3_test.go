package cel

import (
	"fmt"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"github.com/celint/celint/internal/celtree"
	"github.com/google/cel-go/common/types"
	"github.com/google/cel-go/common/types/traits"
)

// Tests of the functions of library version 3.

func TestSchemaFunctionsWithOptions(t *testing.T) {
	e := newEnv(t, Config{})
	obj := map[string]any{
		"type":                 "object",
		"required":             []any{"count"},
		"properties":           map[string]any{"count": map[string]any{"type": "integer"}, "tag": map[string]any{"type": "string"}},
		"additionalProperties": false,
	}
	// A tuple form of items: an array in draft-07, a schema in 2020-12.
	tuple := map[string]any{"items": []any{map[string]any{"type": "string"}}}
	ext := map[string]any{
		"type": "object",
		"properties": map[string]any{
			"a": map[string]any{"$ref": "https://example.com/a.json"},
			"b": map[string]any{"$ref": "#/$defs/b"},
		},
		"$defs": map[string]any{"b": map[string]any{"type": "string"}},
	}
	type doc = map[string]any
	runCases(t, e, []evalCase{
		{name: "errors placed at the member", expr: `schemaErrors({'tag': 1, 'x': true}, self, {})`, self: obj, want: []any{
			doc{"pointer": "/count", "keyword": "required", "message": `missing required member "count"`},
			doc{"pointer": "/tag", "keyword": "type", "message": "got number, want string"},
			doc{"pointer": "/x", "keyword": "additionalProperties", "message": `unknown member "x"`},
		}},
		{name: "valid value", expr: `schemaErrors({'count': 2}, self, {'dialect': 'draft-07'})`, self: obj, want: []any{}},
		{name: "matches", expr: `matchesSchema({'count': 2}, self, {}) && !matchesSchema({'count': 'x'}, self, {})`, self: obj, want: true},
		{name: "draft-07 tuple items", expr: `matchesSchema(['a', 1], self, {'dialect': 'draft-07'})`, self: tuple, want: true},
		{name: "draft-07 tuple items fail", expr: `matchesSchema([1], self, {'dialect': 'draft-07'})`, self: tuple, want: false},
		{name: "2020-12 refuses array items", expr: `schemaError(self, {'dialect': '2020-12'}).startsWith('does not compile: ')`, self: tuple, want: true},
		{name: "$schema wins over the dialect", expr: `schemaError(self, {'dialect': 'draft-07'})`,
			self: map[string]any{"$schema": "https://json-schema.org/draft/2020-12/schema", "prefixItems": []any{true}}, want: ""},
		{name: "external ref refused", expr: `schemaError(self, {}).contains('https://example.com/a.json')`, self: ext, want: true},
		{name: "external ref ignored", expr: `schemaError(self, {'externalRefs': 'ignore'})`, self: ext, want: ""},
		{name: "ignored ref is satisfied, local still checked", expr: `[matchesSchema({'a': 5, 'b': 'x'}, self, {'externalRefs': 'ignore'}), matchesSchema({'a': 5, 'b': 5}, self, {'externalRefs': 'ignore'})]`, self: ext, want: []any{true, false}},
		{name: "schema that does not compile is one entry", expr: `schemaErrors(1, dyn({'type': 5}), dyn({}))`, want: []any{
			doc{"pointer": "", "keyword": "", "message": `schema does not compile: at /type: "type" must be one of "array", "boolean", "integer", "null", "number", "object", "string"`},
		}},
		{name: "matches false for a bad schema", expr: `matchesSchema(1, dyn({'type': 5}), dyn({}))`, want: false},
		{name: "a reference cycle does not compile, in any dialect", expr: `[schemaError(dyn({'$ref': '#'}), dyn({})), schemaError(dyn({'$ref': '#/definitions/a', 'definitions': {'a': {'$ref': '#/definitions/a'}}}), dyn({'dialect': 'draft-07'}))].all(e, e.contains('reference cycle that never descends into the value'))`, want: true},
		{name: "unknown dialect", expr: `schemaError(dyn({}), dyn({'dialect': '7'}))`, wantErr: `schema option dialect: got "7"`},
		{name: "unknown option", expr: `schemaError(dyn({}), dyn({'draft': '7'}))`, wantErr: `unknown schema option "draft"`},
		{name: "bad externalRefs", expr: `schemaError(dyn({}), dyn({'externalRefs': 'fetch'}))`, wantErr: `want "refuse" or "ignore"`},
		// several problems: the same one whatever the map's order
		{name: "unknown options, first by name", expr: `schemaError(dyn({}), dyn({'z': 1, 'draft': '7', 'b': 2, 'dialect': '2020-12'}))`, wantErr: `unknown schema option "b"`},
		{name: "a bad option before unknown ones", expr: `schemaError(dyn({}), dyn({'z': 1, 'externalRefs': 'fetch', 'a': 2}))`, wantErr: `schema option externalRefs: got "fetch"`},
		{name: "external refs listed", expr: `schemaExternalRefs(self)`, self: ext, want: []any{"/properties/a/$ref"}},
		{name: "refs into an $id resource are internal", expr: `schemaExternalRefs(self)`, self: map[string]any{
			"$defs":      map[string]any{"x": map[string]any{"$id": "https://example.com/x.json", "type": "string"}},
			"$ref":       "https://example.com/x.json",
			"properties": map[string]any{"d": map[string]any{"$ref": "other.json#/a"}},
		}, want: []any{"/properties/d/$ref"}},
		{name: "a $ref in data is not a reference", expr: `schemaExternalRefs(self)`, self: map[string]any{"const": map[string]any{"$ref": "https://e.com/x"}}, want: []any{}},
	})
}

func TestURITemplates(t *testing.T) {
	e := newEnv(t, Config{})
	runCases(t, e, []evalCase{
		{name: "valid level 1", expr: `isURITemplate('file:///{path}')`, want: true},
		{name: "valid level 4", expr: `isURITemplate('https://e.com/{+base}{/segs*}{?q,lang:2}{&more*}{#frag}')`, want: true},
		{name: "literal only", expr: `isURITemplate('https://e.com/a')`, want: true},
		{name: "unclosed", expr: `isURITemplate('file:///{path')`, want: false},
		{name: "bad variable", expr: `isURITemplate('file:///{pa th}')`, want: false},
		{name: "empty expression", expr: `isURITemplate('a{}')`, want: false},
		{name: "variables in order, once", expr: `uriTemplateVariables('db://{schema}/{table}{?schema,limit}')`, want: []any{"schema", "table", "limit"}},
		{name: "variables of an invalid template", expr: `uriTemplateVariables('{oops')`, want: []any{}},
		{name: "matches", expr: `uriTemplateMatches('db://{schema}/{table}', 'db://public/users')`, want: true},
		{name: "does not match", expr: `uriTemplateMatches('db://{schema}/{table}', 'file:///x')`, want: false},
		{name: "simple expansion excludes a slash", expr: `uriTemplateMatches('db://{table}', 'db://a/b')`, want: false},
		{name: "reserved expansion takes a slash", expr: `uriTemplateMatches('file:///{+path}', 'file:///a/b.txt')`, want: true},
		{name: "query", expr: `uriTemplateMatches('s://x{?q}', 's://x?q=1')`, want: true},
		{name: "invalid template never matches", expr: `uriTemplateMatches('{oops', '{oops')`, want: false},
	})
}

func TestMediaTypesAndBase64(t *testing.T) {
	e := newEnv(t, Config{})
	runCases(t, e, []evalCase{
		{name: "media type", expr: `isMediaType('text/plain')`, want: true},
		{name: "with parameters", expr: `isMediaType('text/plain; charset=utf-8')`, want: true},
		{name: "vendor tree", expr: `isMediaType('application/vnd.api+json')`, want: true},
		{name: "no subtype", expr: `isMediaType('text')`, want: false},
		{name: "empty subtype", expr: `isMediaType('text/')`, want: false},
		{name: "two slashes", expr: `isMediaType('text/plain/x')`, want: false},
		{name: "space in type", expr: `isMediaType('te xt/plain')`, want: false},
		{name: "essence lower-cased without parameters", expr: `mediaTypeEssence('Text/HTML; charset=UTF-8')`, want: "text/html"},
		{name: "essence of an invalid type", expr: `mediaTypeEssence('nope')`, want: ""},
		{name: "canonical", expr: `isCanonicalBase64('aGk=')`, want: true},
		{name: "empty is canonical", expr: `isCanonicalBase64('')`, want: true},
		{name: "unpadded", expr: `isCanonicalBase64('aGk')`, want: false},
		{name: "non-zero pad bits", expr: `isCanonicalBase64('aGl=')`, want: false},
		{name: "url alphabet", expr: `isCanonicalBase64('-_8=')`, want: false},
		{name: "line break", expr: `isCanonicalBase64('aGk=\n')`, want: false},
		{name: "size of decoded bytes", expr: `size(tryBase64Decode('aGVsbG8=').value())`, want: int64(5)},
	})
}

func TestLibrary3IsVersioned(t *testing.T) {
	v2 := newEnv(t, Config{Library: 2})
	for _, expr := range []string{
		`isURITemplate('a')`, `uriTemplateVariables('a')`, `uriTemplateMatches('a', 'a')`,
		`isMediaType('a/b')`, `mediaTypeEssence('a/b')`, `isCanonicalBase64('')`,
		`schemaExternalRefs({})`, `schemaError({}, {})`, `matchesSchema(1, {}, {})`, `schemaErrors(1, {}, {})`,
	} {
		if _, err := v2.Compile(expr, Origin{}); err == nil {
			t.Errorf("library 2 compiles %s, a version-3 function", expr)
		} else if !strings.Contains(err.Error(), "undeclared reference") && !strings.Contains(err.Error(), "no matching overload") {
			t.Errorf("library 2, %s: %v", expr, err)
		}
	}
}

// TestSchemaCacheCompilesOnce: every distinct schema and options is
// compiled once, however often and in whatever order it is used, for more
// schemas than the version-2 cache holds.
func TestSchemaCacheCompilesOnce(t *testing.T) {
	lib, err := newLibrary(Config{})
	if err != nil {
		t.Fatal(err)
	}
	adapter := types.DefaultTypeAdapter
	const n = 768 // more than the version-2 cache held
	opts := adapter.NativeToValue(map[string]any{"dialect": "draft-07"})
	for round := 0; round < 3; round++ {
		for i := 0; i < n; i++ {
			schema := adapter.NativeToValue(map[string]any{"type": "object", "title": strconv.Itoa(i)})
			got := lib.schemaErrors3Binding(adapter.NativeToValue(map[string]any{}), schema, opts)
			if l, ok := got.(traits.Lister); !ok || l.Size() != types.Int(0) {
				t.Fatalf("schema %d: %v", i, got)
			}
		}
	}
	if lib.caches.schemas.misses != n {
		t.Errorf("%d distinct schemas used 3 times each were compiled %d times", n, lib.caches.schemas.misses)
	}
	lib.schemaError3Binding(adapter.NativeToValue(map[string]any{"type": "object", "title": "0"}), adapter.NativeToValue(map[string]any{}))
	if lib.caches.schemas.misses != n+1 {
		t.Errorf("other options share a compiled schema: %d compiles", lib.caches.schemas.misses)
	}
}

// immutableMap is a document-like map value: cel.Immutable.
type immutableMap struct {
	traits.Mapper
	m map[string]any
}

func (v immutableMap) ImmutableValue() any { return v.m }

// TestSchemaCacheByIdentity: a schema that is an Immutable value is found
// again by the identity of its map, without being encoded; a map that
// merely has the same content is found by its canonical form, and a
// changed map (which an Immutable value never is) would not be confused
// with another of other content.
func TestSchemaCacheByIdentity(t *testing.T) {
	lib, err := newLibrary(Config{})
	if err != nil {
		t.Fatal(err)
	}
	adapter := types.DefaultTypeAdapter
	opts := adapter.NativeToValue(map[string]any{})
	// (Schemas outside the plain subset of rawschema.go, which compile.)
	a := map[string]any{"type": "string", "pattern": "^x"}
	b := map[string]any{"type": "integer", "multipleOf": int64(1)}
	va := immutableMap{adapter.NativeToValue(a).(traits.Mapper), a}
	vb := immutableMap{adapter.NativeToValue(b).(traits.Mapper), b}
	for range 3 {
		for _, v := range []immutableMap{va, vb} {
			if got := lib.schemaError3Binding(v, opts); got != types.String("") {
				t.Fatalf("schemaError: %v", got)
			}
		}
	}
	c := &lib.caches.schemas
	if c.misses != 2 || len(c.byIdentity) != 2 {
		t.Fatalf("two schemas used three times: %d compiles, %d identities", c.misses, len(c.byIdentity))
	}
	same := map[string]any{"type": "string", "pattern": "^x"}
	lib.schemaError3Binding(immutableMap{adapter.NativeToValue(same).(traits.Mapper), same}, opts)
	if c.misses != 2 || len(c.byIdentity) != 3 {
		t.Errorf("a map of the same content: %d compiles, %d identities", c.misses, len(c.byIdentity))
	}
	// A plain schema is kept by identity too, and never compiled.
	plain := map[string]any{"type": "object", "required": []any{"a"}}
	vplain := immutableMap{adapter.NativeToValue(plain).(traits.Mapper), plain}
	for range 2 {
		if got := lib.schemaError3Binding(vplain, opts); got != types.String("") {
			t.Fatalf("schemaError: %v", got)
		}
	}
	if e, ok := c.byIdentity[identityKey{reflect.ValueOf(plain).UnsafePointer(), schemaOptions{dialect: "2020-12"}.code()}]; !ok || e.schema.raw == nil || e.schema.s != nil || len(c.byIdentity) != 4 {
		t.Errorf("a plain schema: kept %v, raw %v, %d identities", ok, e.schema != nil && e.schema.raw != nil, len(c.byIdentity))
	}
	// schemaExternalRefs is kept by identity too.
	ext := map[string]any{"properties": map[string]any{"a": map[string]any{"$ref": "other.json"}}}
	vext := immutableMap{adapter.NativeToValue(ext).(traits.Mapper), ext}
	for range 2 {
		got, ok := lib.schemaExternalRefsBinding(vext).(traits.Lister)
		if !ok || got.Size() != types.Int(1) || got.Get(types.Int(0)) != types.String("/properties/a/$ref") {
			t.Fatalf("schemaExternalRefs: %v", got)
		}
	}
	if len(c.extRefs) != 1 {
		t.Errorf("schemaExternalRefs kept %d answers for one map", len(c.extRefs))
	}
	// The plain schema's answer, none, comes from its compiled entry: it
	// is neither walked nor kept a second time.
	if got, ok := lib.schemaExternalRefsBinding(vplain).(traits.Lister); !ok || got.Size() != types.Int(0) || len(c.extRefs) != 1 {
		t.Errorf("schemaExternalRefs of a plain schema: %v, %d answers kept", got, len(c.extRefs))
	}
	// A schema whose references are taken out before it compiles (the
	// "ignore" option) may compile as plain, but still has them: its
	// answer is walked, not taken from its compiled entry.
	ignore := adapter.NativeToValue(map[string]any{"externalRefs": "ignore"})
	refd := map[string]any{"type": "object", "properties": map[string]any{"id": map[string]any{"$ref": "https://x.example/id.json"}}}
	vrefd := immutableMap{adapter.NativeToValue(refd).(traits.Mapper), refd}
	if got := lib.schemaError3Binding(vplain, ignore); got != types.String("") {
		t.Fatalf("schemaError of the plain schema, ignoring references: %v", got)
	}
	if got := lib.schemaError3Binding(vrefd, ignore); got != types.String("") {
		t.Fatalf("schemaError ignoring references: %v", got)
	}
	if got, ok := lib.schemaExternalRefsBinding(vrefd).(traits.Lister); !ok || got.Size() != types.Int(1) {
		t.Errorf("schemaExternalRefs of a schema compiled without its references: %v", got)
	}
	// Each identity validates as its own schema.
	one := adapter.NativeToValue("x")
	if lib.matchesSchema3Binding(one, va, opts) != types.True || lib.matchesSchema3Binding(one, vb, opts) != types.False {
		t.Error("identities confused")
	}
}

// TestHasNestedKey: library 4's hasNestedKey finds a member name at any
// depth, in maps only (not in strings, nor as a list's value), and stops
// at the walk bound; library 3 does not declare it.
func TestHasNestedKey(t *testing.T) {
	e := newEnv(t, Config{})
	doc := map[string]any{"type": "object", "properties": map[string]any{
		"a": map[string]any{"type": "string"},
		"b": map[string]any{"items": []any{map[string]any{"x-mcp-header": "X-B"}}},
	}}
	runCases(t, e, []evalCase{
		{name: "deep in a list", expr: `hasNestedKey(self, 'x-mcp-header')`, self: doc, want: true},
		{name: "at the top", expr: `hasNestedKey(self, 'type')`, self: doc, want: true},
		{name: "absent", expr: `hasNestedKey(self, 'x-other')`, self: doc, want: false},
		{name: "a value is not a key", expr: `hasNestedKey(self, 'X-B')`, self: doc, want: false},
		{name: "a string", expr: `hasNestedKey('x-mcp-header', 'x-mcp-header')`, want: false},
		{name: "a CEL map", expr: `hasNestedKey([1, {'k': {'j': 1}}], 'j')`, want: true},
	})
	lib, err := newLibrary(Config{})
	if err != nil {
		t.Fatal(err)
	}
	lib.walkBound = 3
	deep := types.DefaultTypeAdapter.NativeToValue(map[string]any{"a": map[string]any{"b": map[string]any{"c": map[string]any{"d": 1}}}})
	if got := lib.hasNestedKeyBinding(deep, types.String("d")); !types.IsError(got) || !strings.Contains(fmt.Sprint(got), "more than 3 nodes") {
		t.Errorf("past the walk bound: %v", got)
	}
	if got := lib.hasNestedKeyBinding(treeVal{deep, celtree.TreeOf(deep.Value())}, types.String("d")); !types.IsError(got) || !strings.Contains(fmt.Sprint(got), "more than 3 nodes") {
		t.Errorf("a document value past the walk bound: %v", got)
	}
	// A document value (a Tree) is walked in place, with the same answers.
	lib.walkBound = 1000
	for _, key := range []string{"x-mcp-header", "type", "items", "x-other", "X-B", "a"} {
		want := lib.hasNestedKeyBinding(types.DefaultTypeAdapter.NativeToValue(doc), types.String(key))
		got := lib.hasNestedKeyBinding(treeVal{types.DefaultTypeAdapter.NativeToValue(doc), celtree.TreeOf(doc)}, types.String(key))
		if got != want {
			t.Errorf("hasNestedKey(tree, %q) = %v, the native value gives %v", key, got, want)
		}
	}
	if _, err := newEnv(t, Config{Library: 3}).Compile(`hasNestedKey({}, 'a')`, Origin{}); err == nil {
		t.Error("library 3 compiles hasNestedKey")
	}
}

// TestOptionCodes: options that differ have different codes in the
// identity index, so that a schema compiled under one dialect is never
// taken for another's.
func TestOptionCodes(t *testing.T) {
	seen := map[uint8]schemaOptions{}
	for d := range schemaDialects {
		if _, ok := dialectCodes[d]; !ok {
			t.Errorf("dialect %q has no code", d)
		}
		for _, ignore := range []bool{false, true} {
			o := schemaOptions{dialect: d, ignoreExternal: ignore}
			if prev, dup := seen[o.code()]; dup {
				t.Errorf("%+v and %+v share code %d", o, prev, o.code())
			}
			seen[o.code()] = o
		}
	}
}
