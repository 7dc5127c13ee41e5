package cel

import (
	"context"
	"encoding/json"
	"errors"
	"math"
	"reflect"
	"strconv"
	"strings"
	"testing"
	"time"

	gocel "github.com/google/cel-go/cel"
	"github.com/google/cel-go/common/types"
	"github.com/google/cel-go/common/types/ref"
	"github.com/google/cel-go/common/types/traits"
)

// Tests of the functions of library version 2 and of library versions.

func TestTotalHelpers(t *testing.T) {
	e := newEnv(t, Config{})
	doc := map[string]any{
		"required":   []any{"a", "b"},
		"properties": map[string]any{"a": map[string]any{}},
		"name":       "x",
		"n":          2.0,
		"s":          "str",
		"nothing":    nil,
	}
	runCases(t, e, []evalCase{
		{name: "asList list", expr: `asList([1, 2])`, want: []any{int64(1), int64(2)}},
		{name: "asList doc list", expr: `asList(self.required)`, self: doc, want: []any{"a", "b"}},
		{name: "asList optional member", expr: `asList(self.?required)`, self: doc, want: []any{"a", "b"}},
		{name: "asList absent member", expr: `asList(self.?missing)`, self: doc, want: []any{}},
		{name: "asList optional of non-list", expr: `asList(self.?name)`, self: doc, want: []any{}},
		{name: "asList none", expr: `asList(optional.none())`, want: []any{}},
		{name: "asList of optional list", expr: `asList(optional.of([1]))`, want: []any{int64(1)}},
		{name: "asList nested optional", expr: `asList(optional.of(optional.of([1])))`, want: []any{}},
		{name: "asList string", expr: `asList('x')`, want: []any{}},
		{name: "asList null", expr: `asList(null)`, want: []any{}},
		{name: "asList map", expr: `asList({'a': 1})`, want: []any{}},
		{name: "asList jsonPointer", expr: `asList(jsonPointer(self, '/required'))`, self: doc, want: []any{"a", "b"}},
		{name: "asList replaces the idiom", expr: `asList(self.?required) == (type(self.?required.orValue(null)) == list ? self.required : [])`, self: doc, want: true},
		{name: "asList is a list", expr: `asList(self.?required).all(r, r in asMap(self.?properties) || r == 'b')`, self: doc, want: true},

		{name: "asMap map", expr: `asMap({'a': 1})`, want: map[string]any{"a": int64(1)}},
		{name: "asMap optional member", expr: `asMap(self.?properties)`, self: doc, want: map[string]any{"a": map[string]any{}}},
		{name: "asMap absent", expr: `asMap(self.?nope)`, self: doc, want: map[string]any{}},
		{name: "asMap none", expr: `asMap(optional.none())`, want: map[string]any{}},
		{name: "asMap list", expr: `asMap([1])`, want: map[string]any{}},
		{name: "asMap null member", expr: `asMap(self.nothing)`, self: doc, want: map[string]any{}},
		{name: "asMap int keys pass", expr: `asMap({1: 'a'}).size()`, want: int64(1)},
		{name: "asMap member access", expr: `asMap(self.?properties).?a.hasValue()`, self: doc, want: true},

		{name: "asString string", expr: `asString('a')`, want: "a"},
		{name: "asString optional member", expr: `asString(self.?name)`, self: doc, want: "x"},
		{name: "asString absent", expr: `asString(self.?nope)`, self: doc, want: ""},
		{name: "asString number", expr: `asString(1)`, want: ""},
		{name: "asString bytes", expr: `asString(b'a')`, want: ""},
		{name: "asString none", expr: `asString(optional.none())`, want: ""},
		{name: "asString is a string", expr: `asString(self.?s).startsWith('s')`, self: doc, want: true},

		{name: "asInt int", expr: `asInt(3)`, want: int64(3)},
		{name: "asInt negative", expr: `asInt(-3)`, want: int64(-3)},
		{name: "asInt uint", expr: `asInt(3u)`, want: int64(3)},
		{name: "asInt max uint", expr: `asInt(18446744073709551615u)`, want: int64(0)},
		{name: "asInt max int", expr: `asInt(9223372036854775807)`, want: int64(math.MaxInt64)},
		{name: "asInt integral double", expr: `asInt(self.n)`, self: doc, want: int64(2)},
		{name: "asInt min int double", expr: `asInt(-9223372036854775808.0)`, want: int64(math.MinInt64)},
		{name: "asInt 2^63 double", expr: `asInt(9223372036854775808.0)`, want: int64(0)},
		{name: "asInt negative zero", expr: `asInt(-0.0)`, want: int64(0)},
		{name: "asInt fraction", expr: `asInt(2.5)`, want: int64(0)},
		{name: "asInt huge", expr: `asInt(1e300)`, want: int64(0)},
		{name: "asInt NaN", expr: `asInt(0.0/0.0)`, want: int64(0)},
		{name: "asInt inf", expr: `asInt(1.0/0.0)`, want: int64(0)},
		{name: "asInt string", expr: `asInt('3')`, want: int64(0)},
		{name: "asInt bool", expr: `asInt(true)`, want: int64(0)},
		{name: "asInt null", expr: `asInt(null)`, want: int64(0)},
		{name: "asInt optional", expr: `asInt(optional.of(2.0))`, want: int64(2)},
		{name: "asInt optional member", expr: `asInt(self.?n) + 1`, self: doc, want: int64(3)},
		{name: "asInt none", expr: `asInt(optional.none())`, want: int64(0)},
		{name: "asInt absent", expr: `asInt(self.?zz)`, self: doc, want: int64(0)},

		{name: "error argument propagates", expr: `asList(self.nope)`, self: doc, wantErr: "no such key"},
	})

	// Static types: the results type-check as their types.
	for expr, want := range map[string]string{
		`asList(self)`:   "list(dyn)",
		`asMap(self)`:    "map(string, dyn)",
		`asString(self)`: "string",
		`asInt(self)`:    "int",
	} {
		p, err := e.Compile(expr, Origin{})
		if err != nil {
			t.Fatal(err)
		}
		if got := p.OutputType().String(); got != want {
			t.Errorf("%s: output type %s, want %s", expr, got, want)
		}
	}
	if _, err := e.Compile(`asInt(self) + 'x'`, Origin{}); err == nil {
		t.Error("asInt(self) + 'x' compiled")
	}
}

// TestTotalHelpersPassThrough checks that a value of the wanted type (or an
// optional holding one) comes back as it is, without allocating.
func TestTotalHelpersPassThrough(t *testing.T) {
	e := newEnv(t, Config{})
	l := e.lib
	list := types.DefaultTypeAdapter.NativeToValue([]any{int64(1)})
	m := types.DefaultTypeAdapter.NativeToValue(map[string]any{"a": int64(1)})
	s := types.String("text")
	i := types.Int(12345)
	optList := types.OptionalOf(list)
	cases := []struct {
		name string
		f    func(ref.Val) ref.Val
		in   ref.Val
		want ref.Val
	}{
		{"asList", l.asListBinding, list, list},
		{"asList optional", l.asListBinding, optList, list},
		{"asList empty", l.asListBinding, s, l.emptyList},
		{"asList none", l.asListBinding, types.OptionalNone, l.emptyList},
		{"asMap", l.asMapBinding, m, m},
		{"asMap optional", l.asMapBinding, types.OptionalOf(m), m},
		{"asMap empty", l.asMapBinding, list, l.emptyMap},
		{"asString", asStringBinding, s, s},
		{"asString optional", asStringBinding, types.OptionalOf(s), s},
		{"asString empty", asStringBinding, i, types.String("")},
		{"asInt", asIntBinding, i, i},
		{"asInt optional", asIntBinding, types.OptionalOf(i), i},
		{"asInt empty", asIntBinding, s, types.IntZero},
	}
	for _, tc := range cases {
		var got ref.Val
		allocs := testing.AllocsPerRun(100, func() { got = tc.f(tc.in) })
		if allocs != 0 {
			t.Errorf("%s: %v allocations per call", tc.name, allocs)
		}
		if got != tc.want {
			t.Errorf("%s: got %v, want the same value %v", tc.name, got, tc.want)
		}
	}
}

// TestOptionalOverloadCollision records why the total helpers have one dyn
// overload rather than a dyn and an optional_type(dyn) one: cel-go refuses
// the pair.
func TestOptionalOverloadCollision(t *testing.T) {
	id := func(v ref.Val) ref.Val { return v }
	_, err := gocel.NewEnv(gocel.OptionalTypes(), gocel.Function("asList",
		gocel.Overload("dyn_as_list", []*gocel.Type{gocel.DynType}, gocel.ListType(gocel.DynType), gocel.UnaryBinding(id)),
		gocel.Overload("optional_as_list", []*gocel.Type{gocel.OptionalType(gocel.DynType)}, gocel.ListType(gocel.DynType), gocel.UnaryBinding(id)),
	))
	if err == nil || !strings.Contains(err.Error(), "overload signature collision") {
		t.Fatalf("cel-go accepted dyn and optional_type(dyn) overloads side by side (%v): consider declaring both", err)
	}
}

func TestDescendants(t *testing.T) {
	e := newEnv(t, Config{ReferenceKey: "$ref"})
	entry := func(path string, key, value any) any {
		return map[string]any{"path": path, "key": key, "value": value}
	}
	doc := map[string]any{
		"c": int64(3),
		"a": []any{int64(1), map[string]any{"b": "x"}},
	}
	runCases(t, e, []evalCase{
		{name: "pre-order, sorted keys", expr: `descendants(self)`, self: doc, want: []any{
			entry("/a", "a", doc["a"]),
			entry("/a/0", int64(0), int64(1)),
			entry("/a/1", int64(1), map[string]any{"b": "x"}),
			entry("/a/1/b", "b", "x"),
			entry("/c", "c", int64(3)),
		}},
		{name: "paths", expr: `descendants(self).map(d, d.path)`, self: doc, want: []any{"/a", "/a/0", "/a/1", "/a/1/b", "/c"}},
		{name: "literal key order", expr: `descendants({'b': 1, 'a': 2, 'aa': 3, '': 4}).map(d, d.path)`, want: []any{"/", "/a", "/aa", "/b"}},
		{name: "escaped tokens", expr: `descendants({'a/b': {'~': 1}}).map(d, d.path)`, want: []any{"/a~1b", "/a~1b/~0"}},
		{name: "raw keys", expr: `descendants({'a/b': {'~': 1}}).map(d, d.key)`, want: []any{"a/b", "~"}},
		{name: "path finds the value", expr: `descendants(self).all(d, jsonPointer(self, d.path) == optional.of(d.value))`, self: doc, want: true},
		{name: "scalar", expr: `descendants('x')`, want: []any{}},
		{name: "null", expr: `descendants(null)`, want: []any{}},
		{name: "empty list", expr: `descendants([])`, want: []any{}},
		{name: "empty map", expr: `descendants({})`, want: []any{}},
		{name: "list", expr: `descendants([[true]])`, want: []any{entry("/0", int64(0), []any{true}), entry("/0/0", int64(0), true)}},
		{name: "index is an int", expr: `type(descendants([5])[0].key) == int`, want: true},
		{name: "non-string keys", expr: `descendants({2: 'x', true: 'y', 1: 'z'}).map(d, [d.path, d.key])`,
			want: []any{[]any{"/1", int64(1)}, []any{"/2", int64(2)}, []any{"/true", true}}},
		{name: "same text, two key types", expr: `descendants({1: 'int', '1': 'string'}).map(d, d.value)`, want: []any{"int", "string"}},
		{name: "filter", expr: `descendants(self).filter(d, jsonType(d.value) == 'string').map(d, d.path)`, self: doc, want: []any{"/a/1/b"}},
		{name: "references", expr: `descendants({'x': {'$ref': '#/a'}, 'y': [{'$ref': '#/b'}]}).filter(d, isReference(d.value)).map(d, d.path)`,
			want: []any{"/x", "/y/0"}},
		// An entry behaves as a map.
		{name: "entry equals a map", expr: `descendants({'a': 1})[0] == {'path': '/a', 'key': 'a', 'value': 1}`, want: true},
		{name: "map equals an entry", expr: `{'path': '/a', 'key': 'a', 'value': 1} == descendants({'a': 1})[0]`, want: true},
		{name: "entry differs", expr: `descendants({'a': 1})[0] == {'path': '/a', 'key': 'a', 'value': 2}`, want: false},
		{name: "entry list equals", expr: `descendants({'a': 1}) == [{'path': '/a', 'key': 'a', 'value': 1}]`, want: true},
		{name: "entry size", expr: `size(descendants({'a': 1})[0])`, want: int64(3)},
		{name: "entry in", expr: `'path' in descendants({'a': 1})[0] && !('nope' in descendants({'a': 1})[0])`, want: true},
		{name: "entry has", expr: `has(descendants({'a': 1})[0].value)`, want: true},
		{name: "entry optional member", expr: `descendants({'a': 1})[0].?nope.hasValue()`, want: false},
		{name: "entry index", expr: `descendants({'a': 1})[0]['key']`, want: "a"},
		{name: "entry missing member", expr: `descendants({'a': 1})[0].nope`, wantErr: "no such key"},
		{name: "entry iteration", expr: `descendants({'a': 1})[0].map(k, k).sort()`, want: []any{"key", "path", "value"}},
		{name: "entry two-var iteration", expr: `descendants({'a': 1})[0].all(k, v, k != 'path' || v == '/a')`, want: true},
		{name: "entry format", expr: `'%s'.format([descendants({'a': 1})[0]]) == '%s'.format([{'path': '/a', 'key': 'a', 'value': 1}])`, want: true},
		{name: "entry in list", expr: `{'path': '/a', 'key': 'a', 'value': 1} in descendants({'a': 1})`, want: true},
		{name: "entries as map values", expr: `descendants({'a': 1}).map(d, d.path == '/a' ? d : d)[0].value`, want: int64(1)},
		{name: "quote of entries", expr: `quote(descendants({'a': 1}))`, want: `[{"key":"a","path":"/a","value":1}]`},
		{name: "non-map dyn errors", expr: `descendants(type(1))`, want: []any{}},
	})

	// The entry converts to native maps like any map.
	v := types.NewRefValList(types.DefaultTypeAdapter, mustDescendants(t, types.DefaultTypeAdapter.NativeToValue(map[string]any{"a": int64(1)})))
	n, err := v.ConvertToNative(reflect.TypeFor[[]map[string]any]())
	if err != nil {
		t.Fatal(err)
	}
	if got := n.([]map[string]any); len(got) != 1 || got[0]["path"] != "/a" {
		t.Fatalf("ConvertToNative = %#v", n)
	}
	if d := v.Get(types.Int(0)); d.ConvertToType(types.TypeType) != types.MapType || d.ConvertToType(types.MapType) != d {
		t.Fatal("ConvertToType")
	}
}

func mustDescendants(t *testing.T, v ref.Val) []ref.Val {
	t.Helper()
	out, err := descendants(v, maxDescendantsNodes)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func TestDescendantsBounds(t *testing.T) {
	// The node bound.
	small := types.DefaultTypeAdapter.NativeToValue([]any{[]any{int64(1), int64(2)}, int64(3)}) // 4 descendants
	if _, err := descendants(small, 4); err != nil {
		t.Fatalf("4 nodes with bound 4: %v", err)
	}
	if _, err := descendants(small, 3); err == nil || err.Error() != "descendants: more than 3 nodes" {
		t.Fatalf("4 nodes with bound 3: %v", err)
	}

	// At full size: 1,000,001 elements, with a cost limit above the bound.
	big := make([]any, maxDescendantsNodes+1)
	for i := range big {
		big[i] = int64(i)
	}
	unlimited := newEnv(t, Config{CostLimit: 1 << 62})
	if unlimited.lib.walkBound != maxDescendantsNodes {
		t.Fatalf("walk bound %d", unlimited.lib.walkBound)
	}
	start := time.Now()
	_, err := run(t, unlimited, `size(descendants(self))`, big)
	if err == nil || !strings.Contains(err.Error(), "descendants: more than 1000000 nodes") {
		t.Fatalf("1,000,001 nodes: %v", err)
	}
	if d := time.Since(start); d > 20*time.Second {
		t.Fatalf("descendants of 1,000,001 nodes took %v", d)
	}

	// The cost limit: one unit per node, and the walk stops at the limit.
	limited := newEnv(t, Config{CostLimit: 1000})
	if limited.lib.walkBound != 1000 {
		t.Fatalf("walk bound %d with cost limit 1000", limited.lib.walkBound)
	}
	for _, expr := range []string{
		`size(descendants(self))`,
		`size(descendants(self)) > 0 || true`, // not absorbed: the limit stops everything
		`descendants([self]).size()`,
	} {
		_, err = run(t, limited, expr, big[:5000])
		if !errors.Is(err, ErrCostLimit) {
			t.Fatalf("%s on 5000 nodes with limit 1000: %v", expr, err)
		}
	}
	// Below the limit.
	got, err := run(t, limited, `size(descendants(self))`, big[:900])
	if err != nil || got != int64(900) {
		t.Fatalf("900 nodes with limit 1000: %v, %v", got, err)
	}
	// Cost grows with the nodes.
	p, _ := limited.Compile(`descendants(self)`, Origin{})
	_, c1, _ := p.Eval(context.Background(), map[string]any{"self": big[:10]})
	_, c2, _ := p.Eval(context.Background(), map[string]any{"self": big[:500]})
	if c2 < c1+490 {
		t.Fatalf("cost of 10 nodes %d, of 500 nodes %d", c1, c2)
	}

	// Deep nesting stays linear.
	var deep any = "leaf"
	for i := 0; i < 5000; i++ {
		deep = map[string]any{"k": deep}
	}
	got, err = run(t, newEnv(t, Config{}), `size(descendants(self))`, deep)
	if err != nil || got != int64(5000) {
		t.Fatalf("deep: %v, %v", got, err)
	}
}

func TestIndexesBy(t *testing.T) {
	e := newEnv(t, Config{})
	tools := []any{
		map[string]any{"name": "a"},
		map[string]any{"name": "b"},
		map[string]any{"name": "a"},
		"not a map",
		map[string]any{"title": "a"},
		map[string]any{"name": nil},
		map[string]any{"name": int64(7)},
		map[string]any{"name": 7.0},
		map[string]any{"name": 7.5},
		map[string]any{"name": []any{"a"}},
		map[string]any{"name": true},
	}
	runCases(t, e, []evalCase{
		{name: "example", expr: `indexesBy([{'n': 'a'}, {'n': 'b'}, {'n': 'a'}], 'n')`,
			want: map[string]any{"a": []any{int64(0), int64(2)}, "b": []any{int64(1)}}},
		{name: "example equality", expr: `indexesBy([{'n': 'a'}, {'n': 'b'}, {'n': 'a'}], 'n') == {'a': [0, 2], 'b': [1]}`, want: true},
		{name: "skips", expr: `indexesBy(self, 'name')`, self: tools,
			want: map[string]any{"a": []any{int64(0), int64(2)}, "b": []any{int64(1)}, "7": []any{int64(6), int64(7)}}},
		{name: "int key", expr: `indexesBy(self, 'name')[7]`, self: tools, want: []any{int64(6), int64(7)}},
		{name: "numbers group", expr: `indexesBy([{'n': 1}, {'n': 1u}, {'n': 1.0}, {'n': -0.0}, {'n': 0}], 'n') == {1: [0, 1, 2], 0: [3, 4]}`, want: true},
		{name: "big uint", expr: `indexesBy([{'n': 18446744073709551615u}], 'n')[18446744073709551615u]`, want: []any{int64(0)}},
		{name: "string and int differ", expr: `indexesBy([{'n': '1'}, {'n': 1}], 'n').size()`, want: int64(2)},
		{name: "empty", expr: `indexesBy([], 'n')`, want: map[string]any{}},
		{name: "no member anywhere", expr: `indexesBy(self, 'zzz')`, self: tools, want: map[string]any{}},
		{name: "empty field name", expr: `indexesBy([{'': 'x'}], '')`, want: map[string]any{"x": []any{int64(0)}}},
		{name: "duplicated names", expr: `cel.bind(g, indexesBy(self, 'name'), g.filter(k, size(g[k]) > 1).map(k, g[k][1]))`, self: tools[:3], want: []any{int64(2)}},
		{name: "pairing", expr: `cel.bind(g, indexesBy(self, 'name'), self.all(t, !has(t.name) || type(t.name) != string || g[t.name][0] <= 1))`,
			self: []any{map[string]any{"name": "a"}, map[string]any{"name": "b"}, map[string]any{"name": "a"}}, want: true},
		{name: "not a list", expr: `indexesBy(self, 'n')`, self: "x", wantErr: "no such overload"},
		{name: "keys in the order they came", expr: `indexesBy([{'n': 'b'}, {'n': 'a'}, {'n': 'b'}], 'n').map(k, k)`, want: []any{"b", "a"}},
		{name: "a double finds an int key", expr: `indexesBy([{'n': 1}], 'n')[1.0]`, want: []any{int64(0)}},
		{name: "a uint finds an int key", expr: `1u in indexesBy([{'n': 1}], 'n')`, want: true},
		{name: "missing key", expr: `indexesBy([{'n': 1}], 'n')['x']`, wantErr: "no such key"},
		{name: "optional missing key", expr: `indexesBy([{'n': 1}], 'n')[?'x'].orValue([7])`, want: []any{int64(7)}},
		{name: "group equality", expr: `indexesBy([{'n': 'a'}, {'n': 'a'}], 'n')['a'] == [0, 1]`, want: true},
		{name: "group operations", expr: `cel.bind(l, indexesBy([{'n': 'a'}, {'n': 'a'}], 'n')['a'], [1 in l, 2 in l, size(l + [5]), l[1], type(l) == list])`, want: []any{true, false, int64(3), int64(1), true}},
		{name: "group index out of range", expr: `indexesBy([{'n': 'a'}], 'n')['a'][1]`, wantErr: "index out of bounds: 1"},
		{name: "map type and size", expr: `cel.bind(g, indexesBy([{'n': 'a'}, {'n': 2}], 'n'), [type(g) == map, size(g), g.exists(k, k == 2)])`, want: []any{true, int64(2), true}},
	})
	if _, err := e.Compile(`indexesBy([1], 1)`, Origin{}); err == nil {
		t.Fatal("indexesBy with an int field compiled")
	}

	// Linear: 200,000 elements, half of them repeating names.
	big := make([]any, 200_000)
	for i := range big {
		big[i] = map[string]any{"name": "n" + strconv.Itoa(i%100_000)}
	}
	unlimited := newEnv(t, Config{CostLimit: 1 << 62})
	start := time.Now()
	got, err := run(t, unlimited, `size(indexesBy(self, 'name'))`, big)
	if err != nil || got != int64(100_000) {
		t.Fatalf("big indexesBy = %v, %v", got, err)
	}
	if d := time.Since(start); d > 10*time.Second {
		t.Fatalf("indexesBy of 200,000 elements took %v", d)
	}
	// One unit of cost per element.
	_, err = run(t, newEnv(t, Config{CostLimit: 1000}), `indexesBy(self, 'name')`, big[:5000])
	if !errors.Is(err, ErrCostLimit) {
		t.Fatalf("indexesBy on 5000 elements with limit 1000: %v", err)
	}
}

func TestIndexOf(t *testing.T) {
	e := newEnv(t, Config{})
	runCases(t, e, []evalCase{
		{name: "found", expr: `indexOf([1, 2, 3], 2)`, want: int64(1)},
		{name: "first", expr: `indexOf(['a', 'b', 'a'], 'a')`, want: int64(0)},
		{name: "missing", expr: `indexOf([1, 2, 3], 4)`, want: int64(-1)},
		{name: "empty", expr: `indexOf([], 1)`, want: int64(-1)},
		{name: "cross numeric", expr: `indexOf([1, 2], 2.0)`, want: int64(1)},
		{name: "uint", expr: `indexOf([1.0, 5], 5u)`, want: int64(1)},
		{name: "type differs", expr: `indexOf(['1', 1], 1)`, want: int64(1)},
		{name: "NaN", expr: `indexOf([0.0/0.0], 0.0/0.0)`, want: int64(-1)},
		{name: "maps", expr: `indexOf([{'a': 2}, {'a': 1}], {'a': 1.0})`, want: int64(1)},
		{name: "lists", expr: `indexOf([[1], [1, 2]], [1, 2])`, want: int64(1)},
		{name: "null", expr: `indexOf([1, null], null)`, want: int64(1)},
		{name: "document", expr: `indexOf(self, 'b')`, self: []any{"a", "b"}, want: int64(1)},
		{name: "document map element", expr: `indexOf(self, {'n': 'b'})`, self: []any{map[string]any{"n": "a"}, map[string]any{"n": "b"}}, want: int64(1)},
		{name: "not a list", expr: `indexOf(self, 'b')`, self: "abc", wantErr: "no such overload"},
		// The strings extension's member function is unchanged.
		{name: "string member", expr: `'hello'.indexOf('l')`, want: int64(2)},
		{name: "string member offset", expr: `'hello'.indexOf('l', 3)`, want: int64(3)},
		{name: "string member missing", expr: `'hello'.indexOf('z')`, want: int64(-1)},
		{name: "both", expr: `indexOf(['he', 'llo'], 'llo') == 1 && 'hello'.indexOf('llo') == 2`, want: true},
		{name: "string member on doc", expr: `self.indexOf('c')`, self: "abc", want: int64(2)},
		{name: "global on a string list", expr: `indexOf('a,b'.split(','), 'b')`, want: int64(1)},
	})
	if _, err := e.Compile(`indexOf('hello', 'l')`, Origin{}); err == nil {
		t.Fatal("indexOf(string, string) compiled as a global call")
	}
	if _, err := e.Compile(`[1].indexOf(1)`, Origin{}); err == nil {
		t.Fatal("list.indexOf compiled as a member call")
	}
	big := make([]any, 5000)
	for i := range big {
		big[i] = int64(i)
	}
	_, err := run(t, newEnv(t, Config{CostLimit: 1000}), `indexOf(self, -1)`, big)
	if !errors.Is(err, ErrCostLimit) {
		t.Fatalf("indexOf on 5000 elements with limit 1000: %v", err)
	}
}

func TestTryBase64Decode(t *testing.T) {
	e := newEnv(t, Config{})
	runCases(t, e, []evalCase{
		{name: "padded", expr: `tryBase64Decode('aGk=') == optional.of(b'hi')`, want: true},
		{name: "unpadded", expr: `tryBase64Decode('aGk') == optional.of(b'hi')`, want: true},
		{name: "hello", expr: `tryBase64Decode('aGVsbG8=').value() == b'hello'`, want: true},
		{name: "empty", expr: `tryBase64Decode('') == optional.of(b'')`, want: true},
		{name: "not base64", expr: `tryBase64Decode('not base64!')`, want: nil},
		{name: "not base64 hasValue", expr: `tryBase64Decode('%%%').hasValue()`, want: false},
		{name: "too much padding", expr: `tryBase64Decode('aGk==').hasValue()`, want: false},
		{name: "url alphabet", expr: `tryBase64Decode('-_8=').hasValue()`, want: false},
		{name: "standard alphabet", expr: `tryBase64Decode('+/8=') == optional.of(b'\xfb\xff')`, want: true},
		{name: "orValue", expr: `tryBase64Decode('!').orValue(b'x')`, want: "eA=="},
		{name: "document", expr: `tryBase64Decode(self).hasValue()`, self: "aGk=", want: true},
		{name: "not a string", expr: `tryBase64Decode(self)`, self: int64(1), wantErr: "no such overload"},
		{name: "base64.decode still errors", expr: `base64.decode('!')`, wantErr: "illegal base64"},
	})
	// tryBase64Decode has a value exactly when base64.decode succeeds, and
	// the same bytes.
	p, err := e.Compile(`[tryBase64Decode(self).hasValue(), tryBase64Decode(self).orValue(b''), base64.decode(self)]`, Origin{})
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range []string{"", "a", "aG", "aGk", "aGk=", "aGk==", "aG=k", "a\nGk=", "a Gk=", "aGk=\n", "QQ", "QR", "QR==", "////", "é"} {
		v, _, err := p.Eval(context.Background(), map[string]any{"self": s})
		if err != nil {
			p1, _ := e.Compile(`tryBase64Decode(self).hasValue()`, Origin{})
			has, _, err1 := p1.Eval(context.Background(), map[string]any{"self": s})
			if err1 != nil || has != types.False {
				t.Errorf("%q: base64.decode fails (%v) but tryBase64Decode has a value (%v, %v)", s, err, has, err1)
			}
			continue
		}
		l := v.(traits.Lister)
		if l.Get(types.Int(0)) != types.True || l.Get(types.Int(1)).Equal(l.Get(types.Int(2))) != types.True {
			t.Errorf("%q: base64.decode succeeds but tryBase64Decode gives %v", s, v)
		}
	}
}

func TestQuote(t *testing.T) {
	for _, tc := range []struct {
		in   any
		want string
	}{
		{"a\"b", `"a\"b"`},
		{"", `""`},
		{"é\n\x00", `"é\n\x00"`},
		{"<b>", `"<b>"`},
		{nil, "null"},
		{true, "true"},
		{int64(-3), "-3"},
		{int64(math.MaxInt64), "9223372036854775807"},
		{1.5, "1.5"},
		{2.0, "2"},
		{1e21, "1e+21"},
		{[]any{int64(1), "x"}, `[1,"x"]`},
		{[]any{}, "[]"},
		{map[string]any{"b": int64(1), "a": []any{true, nil}}, `{"a":[true,null],"b":1}`},
		{map[string]any{"<": "&"}, `{"\u003c":"\u0026"}`},
		{math.NaN(), "NaN"},
		{[]any{math.Inf(1)}, "[+Inf]"},
	} {
		if got := Quote(tc.in); got != tc.want {
			t.Errorf("Quote(%#v) = %s, want %s", tc.in, got, tc.want)
		}
		// Strings as strconv.Quote, the rest as encoding/json.
		if s, ok := tc.in.(string); ok {
			if Quote(s) != strconv.Quote(s) {
				t.Errorf("Quote(%q) is not strconv.Quote", s)
			}
		} else if j, err := json.Marshal(tc.in); err == nil && Quote(tc.in) != string(j) {
			t.Errorf("Quote(%#v) is not json.Marshal", tc.in)
		}
	}

	e := newEnv(t, Config{})
	runCases(t, e, []evalCase{
		{name: "string", expr: `quote('a"b')`, want: `"a\"b"`},
		{name: "string literal", expr: `quote('a"b') == '"a\\"b"'`, want: true},
		{name: "list", expr: `quote([1, 'x'])`, want: `[1,"x"]`},
		{name: "map sorted", expr: `quote({'b': 1, 'a': [true, null]})`, want: `{"a":[true,null],"b":1}`},
		{name: "double", expr: `quote(1.0)`, want: "1"},
		{name: "fraction", expr: `quote(-2.5)`, want: "-2.5"},
		{name: "uint", expr: `quote(5u)`, want: "5"},
		{name: "bytes", expr: `quote(b'hi')`, want: `"aGk="`},
		{name: "none", expr: `quote(optional.none())`, want: "null"},
		{name: "some", expr: `quote(optional.of('x'))`, want: `"x"`},
		{name: "int keys", expr: `quote({1: 'a'})`, want: `{"1":"a"}`},
		{name: "duration", expr: `quote(duration('90s'))`, want: `"90s"`},
		{name: "document", expr: `quote(self)`, self: map[string]any{"k": []any{"v", 1.5}}, want: `{"k":["v",1.5]}`},
		{name: "format", expr: `'tool %s is bad'.format([quote(self.name)])`, self: map[string]any{"name": "x y"}, want: `tool "x y" is bad`},
		{name: "NaN", expr: `quote(0.0/0.0)`, wantErr: "quote: json: unsupported value: NaN"},
		{name: "type", expr: `quote(type(1))`, wantErr: "has no JSON form"},
	})
	big := make([]any, 5000)
	for i := range big {
		big[i] = int64(i)
	}
	_, err := run(t, newEnv(t, Config{CostLimit: 1000}), `quote(self)`, big)
	if !errors.Is(err, ErrCostLimit) {
		t.Fatalf("quote of 5000 elements with limit 1000: %v", err)
	}
	_, err = run(t, newEnv(t, Config{CostLimit: 1000}), `quote(self)`, strings.Repeat("x", 20000))
	if !errors.Is(err, ErrCostLimit) {
		t.Fatalf("quote of a 20000-byte string with limit 1000: %v", err)
	}
}

func TestSchemaError(t *testing.T) {
	e := newEnv(t, Config{})
	const (
		dialects = ": use a JSON Schema draft (2020-12, 2019-09, 7, 6 or 4); nothing is fetched"
		leaves   = " leaves the schema: references must point inside it; nothing is fetched"
	)
	runCases(t, e, []evalCase{
		{name: "compiles", expr: `schemaError({'type': 'string'})`, want: ""},
		{name: "true", expr: `schemaError(true)`, want: ""},
		{name: "false", expr: `schemaError(false)`, want: ""},
		{name: "empty", expr: `schemaError({})`, want: ""},
		{name: "draft 7", expr: `schemaError({'$schema': 'http://json-schema.org/draft-07/schema#', 'exclusiveMaximum': 5})`, want: ""},
		{name: "local ref", expr: `schemaError({'$defs': {'x': {}}, '$ref': '#/$defs/x'})`, want: ""},
		{name: "unresolved ref", expr: `schemaError(dyn({'$ref': '#/$defs/x'}))`, want: `does not compile: at /$ref: $ref "#/$defs/x" points to nothing in the schema`},
		{name: "unresolved nested ref", expr: `schemaError(dyn({'properties': {'a': {'items': {'$ref': '#/$defs/nope'}}}}))`, want: `does not compile: at /properties/a/items/$ref: $ref "#/$defs/nope" points to nothing in the schema`},
		{name: "unresolved ref under $id", expr: `schemaError(dyn({'$id': 'https://x.test/root', 'properties': {'a': {'$ref': '#/$defs/missing'}}}))`,
			want: `does not compile: at /properties/a/$ref: $ref "#/$defs/missing" points to nothing in the schema`},
		{name: "unresolved anchor", expr: `schemaError(dyn({'$ref': '#nope'}))`, want: `does not compile: at /$ref: $ref "#nope" names no anchor in the schema`},
		{name: "unknown dialect", expr: `schemaError(dyn({'$schema': 'https://example.com/meta'}))`,
			want: `does not compile: at /$schema: unknown $schema "https://example.com/meta"` + dialects},
		{name: "draft 3", expr: `schemaError(dyn({'$schema': 'http://json-schema.org/draft-03/schema#'}))`,
			want: `does not compile: at /$schema: unknown $schema "http://json-schema.org/draft-03/schema#"` + dialects},
		{name: "nested unknown dialect", expr: `schemaError(dyn({'$defs': {'x': {'$schema': 'http://json-schema.org/draft-99/schema#'}}}))`,
			want: `does not compile: at /$defs/x/$schema: unknown $schema "http://json-schema.org/draft-99/schema#"` + dialects},
		{name: "remote ref", expr: `schemaError(dyn({'$ref': 'https://example.com/s.json'}))`,
			want: `does not compile: at /$ref: $ref "https://example.com/s.json"` + leaves},
		{name: "relative ref", expr: `schemaError(dyn({'$ref': 'other.json'}))`,
			want: `does not compile: at /$ref: $ref "other.json"` + leaves},
		{name: "file ref", expr: `schemaError(dyn({'$ref': 'file:///etc/passwd'}))`,
			want: `does not compile: at /$ref: $ref "file:///etc/passwd"` + leaves},
		{name: "meta-schema", expr: `schemaError(dyn({'minimum': 'x'}))`, want: `does not compile: at /minimum: "minimum" must be of type number (got string)`},
		{name: "meta-schema enum", expr: `schemaError(dyn({'type': 'wrong'}))`,
			want: `does not compile: at /type: "type" must be one of "array", "boolean", "integer", "null", "number", "object", "string"`},
		{name: "many problems", expr: `schemaError(dyn({'minimum': 'x', 'maximum': 'y', 'minLength': 'a', 'maxLength': 'b', 'pattern': 1, 'required': 3, 'title': 4}))`,
			want: `does not compile: at /maxLength: "maxLength" must be of type integer (got string) (and 6 more problems)`},
		{name: "not a schema", expr: `schemaError(dyn('x'))`, want: "does not compile: the schema must be of type boolean or object (got string)"},
		{name: "bad regex", expr: `schemaError(dyn({'pattern': '('})).startsWith('does not compile: at /pattern: "pattern" must be a valid regex: ')`, want: true},
		{name: "NaN", expr: `schemaError({'minimum': 0.0/0.0})`, want: "does not compile: json: unsupported value: NaN"},
		{name: "no JSON form", expr: `schemaError({'type': type(1)})`, want: "does not compile: celint: type value has no JSON form"},
		{name: "duplicate anchor", expr: `schemaError(dyn({'$defs': {'a': {'$anchor': 'x'}, 'b': {'$anchor': 'x'}}}))`,
			want: `does not compile: at /$defs/b: duplicate anchor "x" (also at /$defs/a)`},
		{name: "document schema", expr: `schemaError(self)`, self: map[string]any{"type": "object", "properties": map[string]any{"a": map[string]any{"$ref": "#/$defs/a"}}},
			want: `does not compile: at /properties/a/$ref: $ref "#/$defs/a" points to nothing in the schema`},
		// The same message in matchesSchema and schemaErrors.
		{name: "matchesSchema false", expr: `matchesSchema(1, dyn({'$ref': '#/$defs/x'}))`, want: false},
		{name: "schemaErrors entry", expr: `schemaErrors(1, dyn({'$ref': '#/$defs/x'}))`,
			want: []any{map[string]any{"pointer": "", "keyword": "", "message": `schema does not compile: at /$ref: $ref "#/$defs/x" points to nothing in the schema`}}},
		{name: "schemaErrors dialect entry", expr: `schemaErrors(1, dyn({'$schema': 'https://example.com/meta'}))[0].message == 'schema ' + schemaError(dyn({'$schema': 'https://example.com/meta'}))`, want: true},
	})
	// The compile result (and so the error) is cached.
	s := types.DefaultTypeAdapter.NativeToValue(map[string]any{"$ref": "#/$defs/x"})
	if e.lib.schemaProblem(s) == "" || len(e.lib.caches.schemas.entries) == 0 {
		t.Fatal("schema compile failure not cached")
	}
	// Cost: one unit per schema node.
	props := map[string]any{}
	for i := 0; i < 2000; i++ {
		props["p"+strconv.Itoa(i)] = map[string]any{"type": "string"}
	}
	_, err := run(t, newEnv(t, Config{CostLimit: 1000}), `schemaError(self)`, map[string]any{"properties": props})
	if !errors.Is(err, ErrCostLimit) {
		t.Fatalf("schemaError of 4000 nodes with limit 1000: %v", err)
	}
}

func TestLibraryVersions(t *testing.T) {
	if LatestLibrary != 4 {
		t.Fatalf("LatestLibrary = %d", LatestLibrary)
	}
	latest := newEnv(t, Config{})
	v2 := newEnv(t, Config{Library: 2})
	v1 := newEnv(t, Config{Library: 1})
	if latest.LibraryVersion() != LatestLibrary || v2.LibraryVersion() != 2 || v1.LibraryVersion() != 1 {
		t.Fatalf("versions %d %d %d", latest.LibraryVersion(), v2.LibraryVersion(), v1.LibraryVersion())
	}
	ext, err := v1.Extend(Var{Name: "item", Type: gocel.DynType})
	if err != nil || ext.LibraryVersion() != 1 {
		t.Fatalf("Extend: %v, version %d", err, ext.LibraryVersion())
	}

	for _, bad := range []int{LatestLibrary + 1, 100, -1} {
		_, err := NewEnv(Config{Library: bad})
		want := "unknown celint library version " + strconv.Itoa(bad)
		if err == nil || !strings.Contains(err.Error(), want) || !strings.Contains(err.Error(), "the newest known is "+strconv.Itoa(LatestLibrary)) {
			t.Errorf("Library %d: error %v", bad, err)
		}
		if _, err := gocel.NewEnv(Library(Config{Library: bad})); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("Library(Config{Library: %d}) in a cel-go environment: %v", bad, err)
		}
	}

	// Every version-2 function: compiles at version 2 (and 0), not at 1.
	v2only := []struct{ expr, v1err string }{
		{`asList(self)`, "undeclared reference to 'asList'"},
		{`asMap(self)`, "undeclared reference to 'asMap'"},
		{`asString(self)`, "undeclared reference to 'asString'"},
		{`asInt(self)`, "undeclared reference to 'asInt'"},
		{`descendants(self)`, "undeclared reference to 'descendants'"},
		{`indexesBy([], 'n')`, "undeclared reference to 'indexesBy'"},
		{`indexOf([1], 1)`, "found no matching overload for 'indexOf'"}, // string.indexOf is declared
		{`tryBase64Decode('aGk=')`, "undeclared reference to 'tryBase64Decode'"},
		{`quote(self)`, "undeclared reference to 'quote'"},
		{`schemaError(self)`, "undeclared reference to 'schemaError'"},
		{`asList(self.?a).size() + asInt(self) > 0`, "undeclared reference to 'asList'"},
	}
	for _, tc := range v2only {
		for _, e := range []*Env{latest, v2} {
			if _, err := e.Compile(tc.expr, Origin{}); err != nil {
				t.Errorf("version %d: %s: %v", e.LibraryVersion(), tc.expr, err)
			}
		}
		_, err := v1.Compile(tc.expr, Origin{File: "r.yaml", Line: 3, Col: 10})
		var ce *CompileError
		if !errors.As(err, &ce) || !strings.Contains(err.Error(), tc.v1err) || !strings.HasPrefix(err.Error(), "r.yaml:3:") {
			t.Errorf("version 1: %s: error %v, want a compile error with %q", tc.expr, err, tc.v1err)
		}
	}

	// The functions of version 1 work at version 1.
	runCases(t, newEnv(t, Config{Library: 1, ReferenceKey: "$ref"}), []evalCase{
		{name: "v1 isInteger", expr: `isInteger(2.0)`, want: true},
		{name: "v1 duplicates", expr: `duplicates([1, 2, 1])`, want: []any{int64(1)}},
		{name: "v1 jsonPointer", expr: `jsonPointer({'a': [1, 2]}, '/a/1').value()`, want: int64(2)},
		{name: "v1 resolve", expr: `resolve(root, root.a)`, self: map[string]any{"a": map[string]any{"$ref": "#/b"}, "b": int64(1)}, want: int64(1)},
		{name: "v1 matchesSchema", expr: `matchesSchema(3, {'type': 'integer'})`, want: true},
		{name: "v1 string indexOf", expr: `'hello'.indexOf('l')`, want: int64(2)},
		{name: "v1 isURI", expr: `isURI('https://example.com')`, want: true},
	})

	// Programs are cached per library version: the same text in two
	// environments of different versions never shares a program.
	p1, err := v1.Compile(`isInteger(self)`, Origin{})
	if err != nil {
		t.Fatal(err)
	}
	p2, err := v2.Compile(`isInteger(self)`, Origin{})
	if err != nil {
		t.Fatal(err)
	}
	if p1 == p2 {
		t.Fatal("a program shared between library versions")
	}
	if again, _ := v1.Compile(`isInteger(self)`, Origin{}); again != p1 {
		t.Fatal("program not cached")
	}
	if v1.cacheKey("x") == v2.cacheKey("x") {
		t.Fatal("cache key without the library version")
	}
	// Even in one cache (as if a family of environments mixed versions).
	mixed := *v2
	mixed.cache = v1.cache
	if p3, _ := mixed.Compile(`isInteger(self)`, Origin{}); p3 == p1 {
		t.Fatal("version 2 got the version-1 program from a shared cache")
	}

	// Library used directly in a cel-go environment.
	env, err := gocel.NewEnv(gocel.OptionalTypes(), Library(Config{Library: 1}))
	if err != nil {
		t.Fatal(err)
	}
	if _, iss := env.Compile(`asList([])`); iss.Err() == nil {
		t.Fatal("Library(version 1) declares asList")
	}
	env, err = gocel.NewEnv(gocel.OptionalTypes(), Library(Config{}))
	if err != nil {
		t.Fatal(err)
	}
	ast, iss := env.Compile(`size(descendants({'a': [1]}))`)
	if iss.Err() != nil {
		t.Fatal(iss.Err())
	}
	prg, err := env.Program(ast)
	if err != nil {
		t.Fatal(err)
	}
	if v, _, err := prg.Eval(map[string]any{}); err != nil || v != types.Int(2) {
		t.Fatalf("descendants in a plain cel-go environment: %v, %v", v, err)
	}
}
