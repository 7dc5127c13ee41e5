package cel

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"

	gocel "github.com/google/cel-go/cel"
	"github.com/google/cel-go/common/types"
	"github.com/google/cel-go/common/types/ref"
	"github.com/google/cel-go/interpreter"

	"github.com/celint/celint/internal/celnative"
)

// The native evaluator (internal/celnative) must give what cel-go gives, value
// and cost, on every evaluation it completes, and give up on the others.
// These tests compare three ways of running a compiled program: Eval as
// built (native first, with Config.VerifyNative running cel-go too), the
// native plan alone, and a copy of the program without its native plan.

// mismatches collects what Config.VerifyNative reports.
type mismatches struct {
	mu   sync.Mutex
	msgs []string
}

func (m *mismatches) record(msg string) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.msgs = append(m.msgs, msg)
}

// take returns the reports received since the last call and forgets them.
func (m *mismatches) take() []string {
	m.mu.Lock()
	defer m.mu.Unlock()
	out := m.msgs
	m.msgs = nil
	return out
}

// outcome is what one evaluation gave.
type outcome struct {
	v    ref.Val
	cost uint64
	err  error
}

func (o outcome) String() string {
	if o.err != nil {
		return fmt.Sprintf("error %q (cost %d)", o.err, o.cost)
	}
	return fmt.Sprintf("%v (%T, cost %d)", o.v, o.v, o.cost)
}

// same reports whether two outcomes are the same value, or the same error
// text, at the same cost.
func (o outcome) same(p outcome) bool {
	if o.cost != p.cost || (o.err == nil) != (p.err == nil) {
		return false
	}
	if o.err != nil {
		return o.err.Error() == p.err.Error()
	}
	return sameValue(o.v, p.v)
}

func evalOutcome(p *Program, act map[string]any) outcome {
	v, c, err := p.Eval(context.Background(), act)
	return outcome{v, c, err}
}

// celgoOnly is a copy of p that cel-go alone evaluates.
func celgoOnly(p *Program) *Program {
	cp := *p
	cp.nat, cp.verify = nil, nil
	return &cp
}

// nativeFirst is a copy of p that returns the native result whenever the
// native plan completes, as in production (no VerifyNative).
func nativeFirst(p *Program) *Program {
	cp := *p
	cp.verify = nil
	cp.direct = !cp.Interruptible()
	return &cp
}

// runNative runs p's native plan alone; ok is false when it gave up.
func runNative(p *Program, act map[string]any) (v ref.Val, cost uint64, ok bool) {
	var s celnative.State
	return p.nativePlan().Run(&s, &mapActivation{vars: act}, p.limit)
}

func nativeTestDoc() map[string]any {
	return map[string]any{
		"name":    "hello world",
		"n":       int64(3),
		"f":       2.5,
		"zero":    int64(0),
		"flag":    true,
		"none":    nil,
		"url":     "https://example.com/a?b=1",
		"pattern": "^h.*d$",
		"tags":    []any{"a", "b", "a", "c"},
		"nums":    []any{int64(1), int64(2), int64(3), 4.5},
		"obj": map[string]any{
			"x":    int64(1),
			"y":    map[string]any{"z": "deep"},
			"list": []any{map[string]any{"k": "v"}},
		},
		"items": []any{
			map[string]any{"id": "a", "n": int64(1), "tags": []any{"x"}},
			map[string]any{"id": "b", "n": int64(2)},
			map[string]any{"id": "a", "n": 3.0, "tags": []any{}},
		},
		"ref":   map[string]any{"$ref": "#/obj"},
		"empty": map[string]any{},
	}
}

// nativeTestActivations are the activations every case is evaluated on;
// the first is the one the cases' expectations describe.
func nativeTestActivations() []map[string]any {
	doc := nativeTestDoc()
	return []map[string]any{
		{"self": doc, "root": doc, "path": ""},
		{"self": doc["items"], "root": doc, "path": "/items"},
		{"self": "hello", "root": nil, "path": "/name"},
		{"self": int64(3), "root": []any{int64(1), "x", nil, 2.5}, "path": "/n"},
		// lazily bound values
		{"self": func() any { return nativeTestDoc() }, "root": func() any { return doc["obj"] }, "path": "/obj"},
		{"self": map[string]any{"name": 7, "tags": "abc", "obj": []any{}, "items": map[string]any{"a": 1.0}, "n": 2.0, "f": int64(1), "flag": "yes"}, "root": map[string]any{}, "path": ""},
	}
}

type nativeCase struct {
	expr string
	// err is a substring of the error the first activation gives; ""
	// when it succeeds.
	err string
	// noNative: the expression has a construct the native evaluator does
	// not cover.
	noNative bool
	// fallback: the first activation succeeds only through cel-go (the
	// native plan gives up on it).
	fallback bool
}

var nativeCases = []nativeCase{
	// field selection and index
	{expr: `self.name`},
	{expr: `self.obj.y.z`},
	{expr: `root.obj.x + 1`},
	{expr: `self.tags[1]`},
	{expr: `self.obj['y']['z']`},
	{expr: `self.items[0].id`},
	{expr: `self.obj.list[0].k`},
	{expr: `self.tags[self.n - 2]`},
	{expr: `self.tags[size(self.tags) - 1]`},
	{expr: `self.obj[self.tags[0] == 'a' ? 'x' : 'y']`},
	{expr: `self.items[self.obj.x].n`},
	{expr: `path`},
	{expr: `self.none == null`},
	{expr: `self.nums[3]`},
	// has()
	{expr: `has(self.obj)`},
	{expr: `has(self.obj.y.z)`},
	{expr: `has(self.missing)`},
	{expr: `has(self.obj.missing)`},
	{expr: `has(self.empty.x) || has(self.name.x)`},
	{expr: `self.items.filter(i, has(i.tags)).size()`},
	// optionals
	{expr: `self.?missing.orValue('default')`},
	{expr: `self.?name.orValue('default')`},
	{expr: `self.obj.?y.?z.orValue('')`},
	{expr: `self.?obj.?y.z`},
	{expr: `self.tags[?7].orValue('none')`},
	{expr: `self.tags[?0]`},
	{expr: `self.obj[?'x']`},
	{expr: `self.?missing`},
	{expr: `self.?obj.?x.or(optional.of(5))`},
	{expr: `self.?missing.or(optional.of(5)).value()`},
	{expr: `self.?missing.or(self.?name).value()`},
	{expr: `optional.of(self.n).hasValue()`},
	// all and exists: the loop condition on bools, an error, a non-bool
	{expr: `self.items.all(i, has(i.tags))`},
	{expr: `self.items.exists(i, has(i.tags))`},
	{expr: `self.tags.all(t, t.size() > 100)`},
	{expr: `self.items.all(i, i.tags.size() > 0)`, fallback: true}, // an item without tags: cel-go's error, absorbed
	{expr: `self.items.exists(i, i.tags.size() > 0)`},
	{expr: `[1, 'a', 2].all(x, x > 0)`, err: "no such overload"},
	{expr: `[1, 'a', 0].all(x, x > 0)`, fallback: true}, // false absorbs the error
	{expr: `[0, 'a'].exists(x, x > 0)`, err: "no such overload"},
	{expr: `self.items.exists_one(i, has(i.tags))`},
	{expr: `self.items.all(i, self.tags.exists(t, t == 'x'))`},
	// an empty list's optional is one built once
	{expr: `optional.of([])`},
	{expr: `optional.of(self.items.filter(i, false))`},
	{expr: `optional.of(self.items.filter(i, false)).value() == []`},
	{expr: `size(optional.of(self.tags.filter(t, t == 'none')).value())`},
	{expr: `optional.of(self.items.filter(i, false)) == optional.of([])`},
	{expr: `[optional.of([]), optional.of([1])].map(o, o.value().size())`},
	{expr: `optional.none().orValue(self.n)`},
	{expr: `self.?name.hasValue() && !self.?nope.hasValue()`},
	{expr: `optional.ofNonZeroValue(self.zero).orValue(-1)`},
	{expr: `self.items.map(i, i.?tags.orValue([]).size())`},
	// an optional chain compared with a constant optional: no optional built
	{expr: `self.?name == optional.of('hello')`},
	{expr: `self.?name != optional.of('hello')`},
	{expr: `self.?name == optional.of('other')`},
	{expr: `self.?missing == optional.of('hello')`},
	{expr: `self.?missing == optional.none()`},
	{expr: `self.?name == optional.none()`},
	{expr: `self.?name == null`},
	{expr: `self.obj.?y.?z == optional.of(self.n)`},
	{expr: `self.?n == optional.of(3.0)`},
	{expr: `self.?obj == optional.of({'x': 1})`},
	{expr: `self.?obj == optional.ofNonZeroValue({})`},
	{expr: `self.items.filter(i, i.?n == optional.of(1)).size()`},
	// optional.of on a bool, as a check's fused when and test
	{expr: `self.flag ? optional.of(self.n == 3) : optional.none()`},
	{expr: `(self.n > 1) ? optional.of(self.name) : optional.none()`},
	{expr: `optional.of(self.n != 3).value()`},
	// the total helpers read an optional chain's value as it is
	{expr: `asMap(self.?obj).size()`},
	{expr: `asMap(self.?missing).size()`},
	{expr: `asString(self.?name) + asString(self.obj.?y.?z)`},
	{expr: `asList(self.?tags).size() + asList(self.?name).size()`},
	{expr: `asInt(self.?n) + asInt(self.?missing)`},
	{expr: `asInt([optional.of(1)][?0])`},
	{expr: `asList(self.?items).map(i, asInt(i.?n))`},
	// conditionals and logic
	{expr: `self.n > 2 ? 'big' : 'small'`},
	{expr: `self.flag ? self.obj.x : self.obj.y.z`},
	{expr: `!self.flag ? self.obj.x : self.obj.y.z`},
	{expr: `self.flag && self.n == 3`},
	{expr: `!self.flag || self.name.startsWith('h')`},
	{expr: `self.n != 3 || has(self.none)`},
	{expr: `!(self.zero == 0)`},
	{expr: `self.flag || self.missing`},
	{expr: `self.missing || self.flag`, fallback: true},
	{expr: `!self.flag && self.missing`},
	{expr: `self.missing && false`, fallback: true},
	// comparison and membership
	{expr: `self.n < 4`},
	{expr: `self.f < self.n`},
	{expr: `self.n <= 3.0 && self.n >= 3`},
	{expr: `self.name > 'a'`},
	{expr: `self.nums == [1, 2, 3, 4.5]`},
	{expr: `self.obj.y == {'z': 'deep'}`},
	{expr: `self.obj != root.obj`},
	{expr: `self.n == 3.0`},
	{expr: `'a' in self.tags`},
	{expr: `'x' in self.obj`},
	{expr: `self.n in [1, 2, 3]`},
	{expr: `'z' in self.obj.y && !('q' in self.obj.y)`},
	{expr: `self.name in {'hello world': 1}`},
	{expr: `self.n in self.nums`},
	// size
	{expr: `size(self.tags)`},
	{expr: `self.name.size()`},
	{expr: `size(self.obj) + size(self.empty)`},
	// strings
	{expr: `self.name.matches('^h.*d$')`},
	{expr: `self.name.matches(self.pattern)`},
	{expr: `matches(self.url, '^https://')`},
	{expr: `self.tags.exists(t, self.name.matches(t))`},
	{expr: `self.name.startsWith('he') && self.name.endsWith('ld')`},
	{expr: `self.name.contains('o w')`},
	{expr: `self.name.upperAscii()`},
	{expr: `self.name.split(' ')`},
	{expr: `self.name.substring(0, 5)`},
	{expr: `self.name.indexOf('o')`},
	{expr: `self.name.lastIndexOf('o')`},
	{expr: `self.name.replace('o', '0')`},
	{expr: `self.tags.join(',')`},
	{expr: `self.name.charAt(1)`},
	{expr: `'%s-%d'.format([self.name, self.n])`},
	{expr: `(' ' + self.name + ' ').trim()`},
	{expr: `self.name + '!' + string(self.n)`},
	{expr: `self.tags + ['d']`},
	{expr: `self.tags + self.tags`},
	{expr: `self.tags.reverse()`},
	{expr: `self.tags.sort()`},
	{expr: `self.tags.distinct()`},
	{expr: `lists.range(4)`},
	{expr: `sets.contains(self.tags, ['a', 'c'])`},
	{expr: `base64.encode(bytes(self.name))`},
	// literals
	{expr: `[1, 2, 'x']`},
	{expr: `[self.n, self.name, [self.f]]`},
	{expr: `{'a': 1, 'b': [2]}`},
	{expr: `{'n': self.n, self.name: self.flag}`},
	{expr: `[self.obj, {'k': self.tags}].size()`},
	{expr: `[[self.n], {'a': [self.name]}][1].a[0]`},
	{expr: `{'a': 1, 'b': 2}[self.tags[1]]`},
	// comprehensions
	{expr: `self.tags.all(t, t.size() == 1)`},
	{expr: `self.items.exists(i, i.id == 'b')`},
	{expr: `self.tags.exists_one(t, t == 'c')`},
	{expr: `self.items.map(i, i.id)`},
	{expr: `self.items.filter(i, i.id == 'a').size()`},
	{expr: `self.nums.filter(x, x > 1)`},
	{expr: `self.tags.map(t, t + t)`},
	{expr: `self.items.map(i, has(i.tags))`},
	{expr: `self.items.map(i, i.n > 1, i.id)`},
	{expr: `self.obj.all(k, k.size() == 1 || k == 'list')`},
	{expr: `self.obj.exists_one(k, k == 'x')`},
	{expr: `self.obj.filter(k, k != 'x').size()`},
	{expr: `self.obj.map(k, k).size()`},
	{expr: `[].all(x, x > 0) && ![].exists(x, x > 0)`},
	// all and exists run as quantifiers (nquant): the last element, a
	// stop at the first, and an empty map (a Go map's order is random:
	// where a loop over one stops, and so its cost, is not a case here)
	{expr: `self.obj.exists(k, k.size() > 0) && self.obj.all(k, k.size() < 9)`},
	{expr: `self.nums.exists(x, x == 4.5) && self.tags.all(t, t != 'd')`},
	{expr: `self.tags.exists(t, t == 'a') && !self.tags.all(t, t == 'b')`},
	{expr: `self.empty.all(k, false) && !self.empty.exists(k, true)`},
	{expr: `self.items.map(i, i.id).exists(x, x == 'b')`},
	{expr: `[self.flag, !self.flag].exists(b, b) == [self.flag].all(b, b)`},
	{expr: `self.items.all(i, self.items.exists(j, j.id == i.id))`},
	{expr: `self.items.map(i, self.tags.filter(t, t == i.id).size())`},
	{expr: `self.items.exists(i, i.?tags.orValue([]).exists(t, t == 'x'))`},
	{expr: `lists.range(4).map(x, lists.range(4).map(y, x + y).filter(z, z > 4).size())`},
	{expr: `self.items.map(i, [i.id, i.n]).filter(p, p[0] == 'a')`},
	{expr: `cel.bind(x, self.n * 2, x + x)`},
	{expr: `cel.bind(t, self.tags, t.filter(v, v == 'a').size() + size(t))`},
	{expr: `cel.bind(a, self.n, cel.bind(b, a + 1, [a, b, self.tags.map(t, t + string(b))]))`},
	{expr: `self.tags.exists(t, t == 'a') ? self.items.filter(i, i.id == 'a').map(i, i.n) : []`},
	// types and conversions
	{expr: `type(self.n) == int`},
	{expr: `type(self.name)`},
	{expr: `type(self.obj) == map && type(self.tags) == list`},
	{expr: `type(self.none) == null_type`},
	{expr: `string(self.n)`},
	{expr: `int(self.f)`},
	{expr: `int('42') + int(self.name.size())`},
	{expr: `double(self.n)`},
	{expr: `string(self.flag)`},
	{expr: `dyn(self.n) + 1`},
	{expr: `uint(self.n)`},
	{expr: `bool('true')`},
	{expr: `math.greatest(self.nums)`},
	{expr: `math.abs(-self.n)`},
	// the celint library
	{expr: `isURI(self.url)`},
	{expr: `isURIReference('../a')`},
	{expr: `jsonType(self.f)`},
	{expr: `self.items.map(i, jsonType(i))`},
	{expr: `jsonType(self.none)`},
	{expr: `asMap(self.obj).size()`},
	{expr: `asList(self.?missing).size()`},
	{expr: `asList(self.tags)`},
	{expr: `asString(self.name) + asString(self.n)`},
	{expr: `asInt(self.f) + asInt(3.0)`},
	{expr: `quote(self.tags)`},
	{expr: `quote(self.name)`},
	{expr: `duplicates(self.tags)`},
	{expr: `duplicateIndexes(self.items.map(i, i.id))`},
	{expr: `isInteger(self.f) || isInteger(self.n)`},
	{expr: `jsonPointer(root, '/obj/x')`},
	{expr: `jsonPointerTokens('/a/~1b')`},
	{expr: `jsonPointerEscape('a/b')`},
	{expr: `indexesBy(self.items, 'id')`},
	{expr: `indexOf(self.tags, 'c')`},
	{expr: `descendants(self.obj).size()`},
	{expr: `descendants(self.obj).map(d, d.path)`},
	{expr: `hasNestedKey(self, 'z')`},
	{expr: `isReference(self.ref) && !isReference(self.obj)`},
	{expr: `resolve(root, self.ref).x`},
	{expr: `resolveAll(root, [self.ref])`},
	{expr: `matchesSchema(self.n, {'type': 'integer'})`},
	{expr: `schemaErrors(self.obj, {'properties': {'x': {'type': 'string'}}})`},
	{expr: `schemaError({'type': 'string'})`},
	{expr: `isMediaType('text/plain') && mediaTypeEssence('Text/HTML; q=1') == 'text/html'`},
	{expr: `tryBase64Decode('aGk=')`},
	{expr: `isCanonicalBase64('aGk=')`},
	{expr: `uriTemplateMatches('https://{host}/a', 'https://x/a')`},
	{expr: `uriTemplateVariables('db://{schema}/{table}')`},
	// runtime errors
	{expr: `self.missing`, err: "no such key"},
	{expr: `self.obj.nope`, err: "no such key"},
	{expr: `self.tags[10]`, err: "index out of bounds"},
	{expr: `self.tags[-1]`, err: "index out of bounds"},
	{expr: `self.n / self.zero`, err: "division by zero"},
	{expr: `self.n % self.zero`, err: "modulus by zero"},
	{expr: `1 / 0`, err: "division by zero"},
	{expr: `dyn(self.name) + 1`, err: "no such overload"},
	{expr: `self.name < 1`, err: "no such overload"},
	{expr: `self.items.map(i, i.n * 2)`, err: "no such overload"},
	{expr: `int(self.name)`, err: "type conversion error"},
	{expr: `self.nums.map(x, self.nums.map(y, x + y).size())`, err: "no such overload"},
	{expr: `self.items.all(i, i.missing == 1)`, err: "no such key"},
	{expr: `self.items.exists(i, i.n / self.zero > 0)`, err: "division by zero"},
	{expr: `self.items.map(i, i.tags.size())`, err: "no such key"},
	{expr: `resolve(root, {'$ref': '#/nope'})`, err: "#/nope"},
	{expr: `self.name.matches(self.name + '[')`, err: "missing closing"},
	{expr: `self.tags[?0].value() + self.?missing.value()`, err: "optional.none"},
	{expr: `self.obj.x.y`, err: "no such key"},
	{expr: `self.name.z`, err: "no such key"},
	{expr: `self.tags['a']`, err: "unsupported index type"},
	{expr: `self.obj[1]`, err: "no such key"},
	{expr: `self.tags.exists_one(t, t.x)`, err: "no such key"},
	{expr: `cel.bind(x, self.missing, 1)`}, // a binding is read lazily
	{expr: `jsonPointer(root, 'a')`, err: "malformed JSON Pointer"},
	// constructs the native evaluator leaves to cel-go
	{expr: `self.obj.transformMapEntry(k, v, {k: v})`, noNative: true},
	{expr: `self.tags.transformList(i, v, i)`, noNative: true},
	{expr: `self.tags.all(i, v, i >= 0 && v != '')`, noNative: true},
	{expr: `google.protobuf.Duration{seconds: self.n}`, noNative: true},
	// also documented as left to cel-go (internal/celnative)
	{expr: `[?self.?missing, ?self.?name, self.n]`, noNative: true},
	{expr: `{?'a': self.?name, ?'b': self.?missing}`, noNative: true},
	{expr: `(self.flag ? self.obj : root).x`, noNative: true},
}

func TestNativeAgrees(t *testing.T) {
	skipOnLibraryPaths(t)
	var reports mismatches
	e := newEnv(t, Config{ReferenceKey: "$ref", VerifyNative: reports.record})
	acts := nativeTestActivations()
	completed, gaveUp := 0, 0
	var scratch celnative.Scratch
	for _, tc := range nativeCases {
		p, err := e.Compile(tc.expr, Origin{})
		if err != nil {
			t.Errorf("compile %s: %v", tc.expr, err)
			continue
		}
		if tc.noNative {
			if p.nativePlan() != nil {
				t.Errorf("%s: has a native plan, want none", tc.expr)
			}
		} else if p.nativePlan() == nil {
			t.Errorf("%s: has no native plan", tc.expr)
		}
		cg, nf := celgoOnly(p), nativeFirst(p)
		for i, act := range acts {
			want := evalOutcome(cg, act)
			got := evalOutcome(p, act)
			if !got.same(want) {
				t.Errorf("%s on activation %d: Eval with VerifyNative gave %v, cel-go %v", tc.expr, i, got, want)
			}
			if got := evalOutcome(nf, act); !got.same(want) {
				t.Errorf("%s on activation %d: native first gave %v, cel-go %v", tc.expr, i, got, want)
			}
			// with a Scratch, its state reused from one evaluation to the next
			if v, c, err := nf.Eval(context.Background(), &celnative.Input{Scratch: &scratch, Activation: &mapActivation{vars: act}}); !(outcome{v, c, err}).same(want) {
				t.Errorf("%s on activation %d: Eval with a Scratch gave %v, cel-go %v", tc.expr, i, outcome{v, c, err}, want)
			}
			for _, m := range reports.take() {
				t.Errorf("%s on activation %d: VerifyNative reported %s", tc.expr, i, m)
			}
			if p.nativePlan() != nil {
				v, c, ok := runNative(p, act)
				switch nat := (outcome{v: v, cost: c}); {
				case ok:
					completed++
					if !nat.same(want) {
						t.Errorf("%s on activation %d: native plan gave %v, cel-go %v", tc.expr, i, nat, want)
					}
				default:
					gaveUp++
					if i == 0 && tc.err == "" && !tc.fallback {
						t.Errorf("%s: the native plan gave up (cel-go: %v)", tc.expr, want)
					}
				}
			}
			if i != 0 {
				continue
			}
			switch {
			case tc.err == "" && want.err != nil:
				t.Errorf("%s: %v, want success", tc.expr, want)
			case tc.err != "" && (want.err == nil || !strings.Contains(want.err.Error(), tc.err)):
				t.Errorf("%s: %v, want an error containing %q", tc.expr, want, tc.err)
			}
		}
	}
	t.Logf("%d expressions on %d activations: the native plan completed %d evaluations and gave up on %d", len(nativeCases), len(acts), completed, gaveUp)
}

func TestNativeCostLimit(t *testing.T) {
	skipOnLibraryPaths(t)
	var reports mismatches
	const limit = 50
	e := newEnv(t, Config{CostLimit: limit, VerifyNative: reports.record})
	roomy := newEnv(t, Config{})
	acts := nativeTestActivations()
	for _, expr := range []string{
		`self.items.map(i, self.tags.map(t, t + i.id)).size()`,
		`lists.range(100).map(x, x * 2).size()`,
		`lists.range(20).all(x, self.tags.exists(t, t == 'z') || x >= 0)`,
		`self.tags.map(t, self.nums.filter(n, n > 1)).size()`,
		`cel.bind(l, lists.range(30), l.map(x, l[x] + x)).size()`,
		`[1, 2, 3, 4, 5, 6, 7, 8, 9, 10].exists(x, [1, 2, 3, 4, 5, 6, 7, 8, 9, 10].exists(y, x * y == 90))`,
		`self.items.map(i, duplicates(self.tags + self.tags + self.tags)).size()`,
		`self.nums.map(x, self.name.matches('^h' + string(x))).size() + self.nums.map(x, self.name.matches('^h')).size()`,
	} {
		p, err := e.Compile(expr, Origin{})
		if err != nil {
			t.Fatalf("compile %s: %v", expr, err)
		}
		if p.nativePlan() == nil {
			t.Errorf("%s: has no native plan", expr)
			continue
		}
		// Without the limit the evaluation completes natively, at a cost
		// past it: the limit is met in the middle of the comprehension.
		big, err := roomy.Compile(expr, Origin{})
		if err != nil {
			t.Fatal(err)
		}
		if _, c, ok := runNative(big, acts[0]); !ok || c <= limit {
			t.Errorf("%s: under the default limit the native plan gave ok=%v, cost %d; want completion past %d", expr, ok, c, limit)
		}
		if _, _, ok := runNative(p, acts[0]); ok {
			t.Errorf("%s: the native plan completed under a limit of %d", expr, limit)
		}
		want := evalOutcome(celgoOnly(p), acts[0])
		if !errors.Is(want.err, ErrCostLimit) {
			t.Errorf("%s: cel-go gave %v, want the cost limit", expr, want)
		}
		for _, q := range []*Program{p, nativeFirst(p)} {
			got := evalOutcome(q, acts[0])
			if !errors.Is(got.err, ErrCostLimit) {
				t.Errorf("%s: %v does not wrap ErrCostLimit", expr, got)
			}
			if !got.same(want) {
				t.Errorf("%s: gave %v, cel-go %v", expr, got, want)
			}
		}
		for _, m := range reports.take() {
			t.Errorf("%s: VerifyNative reported %s", expr, m)
		}
	}
}

func TestNativeVerifyReports(t *testing.T) {
	skipOnLibraryPaths(t)
	var reports mismatches
	e := newEnv(t, Config{VerifyNative: reports.record})
	act := nativeTestActivations()[0]
	for _, tc := range []struct {
		expr   string
		native string // an expression whose native plan replaces expr's
		want   string // in the report
	}{
		// A literal costs nothing in either: the values differ.
		{`'hello'`, `'something else'`, "native gave something else (types.String), cel-go hello (types.String)"},
		{`[1, 2]`, `[2, 1]`, "native gave [2, 1]"},
		{`1`, `1.0`, "native gave 1 (types.Double), cel-go 1 (types.Int)"},
		// The same value, but reading self.name costs 2 units.
		{`self.name`, `'hello world'`, "native cost 0, cel-go 2 (value hello world)"},
	} {
		p, err := e.Compile(tc.expr, Origin{})
		if err != nil {
			t.Fatal(err)
		}
		other, err := e.Compile(tc.native, Origin{})
		if err != nil {
			t.Fatal(err)
		}
		if p.nativePlan() == nil || other.nativePlan() == nil {
			t.Fatalf("%s, %s: has no native plan", tc.expr, tc.native)
		}
		// A copy, so that the cached program keeps its plan.
		cp := *p
		cp.nat = &nativeSlot{prog: other.nativePlan()}
		if got := evalOutcome(&cp, act); !got.same(evalOutcome(celgoOnly(p), act)) {
			t.Errorf("%s: Eval with VerifyNative gave %v, not cel-go's result", tc.expr, got)
		}
		got := reports.take()
		if len(got) != 1 || !strings.HasPrefix(got[0], tc.expr+": ") || !strings.Contains(got[0], tc.want) {
			t.Errorf("%s: VerifyNative reported %q, want one report naming the expression and containing %q", tc.expr, got, tc.want)
		}
		// The program as compiled agrees with cel-go.
		evalOutcome(p, act)
		if got := reports.take(); len(got) != 0 {
			t.Errorf("%s: VerifyNative reported %q on the intact program", tc.expr, got)
		}
	}
}

var (
	nativeFuzzOnce    sync.Once
	nativeFuzzEnv     *Env
	nativeFuzzReports mismatches
)

// FuzzNativeAgrees evaluates an expression on a JSON document natively
// (with VerifyNative) and with cel-go alone: the results, errors and costs
// must be the same, and VerifyNative must report nothing.
func FuzzNativeAgrees(f *testing.F) {
	docs := []string{
		`{"name":"hello world","n":3,"f":2.5,"zero":0,"flag":true,"none":null,"tags":["a","b","a","c"],"nums":[1,2,3,4.5],"obj":{"x":1,"y":{"z":"deep"},"list":[{"k":"v"}]},"items":[{"id":"a","n":1,"tags":["x"]},{"id":"b","n":2},{"id":"a","n":3.0,"tags":[]}],"ref":{"$ref":"#/obj"},"pattern":"^h.*d$","url":"https://example.com/a?b=1","empty":{}}`,
		`[1,"x",null,2.5,{"a":[true]}]`,
		`"hello"`,
		`{"tags":"abc","n":2.0,"obj":[],"items":{"a":1},"name":7}`,
		`null`,
	}
	seeds := 0
	for i, tc := range nativeCases {
		if i%5 != 0 {
			continue
		}
		f.Add(tc.expr, docs[seeds%len(docs)])
		seeds++
	}
	f.Add(`self.items.map(i, i.?tags.orValue([]).size())`, docs[0])
	f.Add(`self.tags.exists_one(t, t == 'c')`, docs[3])
	f.Add(`self.?a[?0].orValue(false)`, docs[1])
	f.Fuzz(func(t *testing.T, expr, doc string) {
		v, _, ok := decodeJSON([]byte(doc))
		if !ok {
			return
		}
		nativeFuzzOnce.Do(func() {
			nativeFuzzEnv, _ = NewEnv(Config{ReferenceKey: "$ref", CostLimit: 10_000, VerifyNative: nativeFuzzReports.record})
		})
		e := nativeFuzzEnv
		if e == nil {
			t.Fatal("NewEnv failed")
		}
		p, err := e.Compile(expr, Origin{})
		// The program cache is not bounded: forget every program.
		e.cache.mu.Lock()
		clear(e.cache.programs)
		e.cache.mu.Unlock()
		if err != nil {
			return
		}
		nativeFuzzReports.take()
		act := map[string]any{"self": v, "root": v, "path": ""}
		got := evalOutcome(p, act)
		reports := nativeFuzzReports.take()
		cg := celgoOnly(p)
		want := evalOutcome(cg, act)
		var nat outcome
		natOK := false
		if p.nativePlan() != nil {
			nat.v, nat.cost, natOK = runNative(p, act)
		}
		if len(reports) == 0 && got.same(want) && (!natOK || nat.same(want)) {
			return
		}
		// cel-go's own results may vary from run to run (a map's
		// iteration order): then no difference counts.
		for range 20 {
			if !evalOutcome(cg, act).same(want) {
				t.Skipf("%s on %s: cel-go's result varies", expr, doc)
			}
		}
		for _, m := range reports {
			t.Errorf("VerifyNative reported %s (document %s)", m, doc)
		}
		if !got.same(want) {
			t.Errorf("%s on %s: Eval gave %v, cel-go %v", expr, doc, got, want)
		}
		if natOK && !nat.same(want) {
			t.Errorf("%s on %s: the native plan gave %v, cel-go %v", expr, doc, nat, want)
		}
	})
}

// nestedActivation computes x, while an evaluation runs, by evaluating
// inner with the same Scratch.
type nestedActivation struct {
	inner   *Program
	scratch *celnative.Scratch
	t       *testing.T
}

func (a *nestedActivation) ResolveName(name string) (any, bool) {
	switch name {
	case "x":
		v, _, err := a.inner.Eval(context.Background(), &celnative.Input{Scratch: a.scratch, Activation: a})
		if err != nil {
			a.t.Errorf("inner evaluation: %v", err)
		}
		return v, true
	case "y":
		return types.Int(21), true
	}
	return nil, false
}

func (a *nestedActivation) Parent() interpreter.Activation { return nil }

// TestEvalNestedScratch evaluates, with one Scratch, an expression whose
// variable is computed by another evaluation with the same Scratch while
// the first runs (internal/celnative tests that each gets a state of its
// own).
func TestEvalNestedScratch(t *testing.T) {
	skipOnLibraryPaths(t)
	e := newEnv(t, Config{Variables: []Var{{Name: "x", Type: gocel.DynType}, {Name: "y", Type: gocel.DynType}}})
	outer, err := e.Compile(`[1, 2, 3].map(i, i + x).filter(v, v > 43)`, Origin{})
	if err != nil {
		t.Fatal(err)
	}
	inner, err := e.Compile(`[y, y].map(v, v)[0] + y`, Origin{})
	if err != nil {
		t.Fatal(err)
	}
	if outer.nativePlan() == nil || inner.nativePlan() == nil {
		t.Fatal("both expressions should have a native plan")
	}
	var s celnative.Scratch
	act := &nestedActivation{inner: inner, scratch: &s, t: t}
	for range 3 {
		v, _, err := outer.Eval(context.Background(), &celnative.Input{Scratch: &s, Activation: act})
		if err != nil {
			t.Fatal(err)
		}
		if got := fmt.Sprint(v); got != "[44, 45]" {
			t.Fatalf("got %s, want [44, 45]", got)
		}
	}
}

// Eval with a Scratch checks its context every few evaluations, not at
// each: a cancelled context still ends a run of evaluations within that
// many.
func TestEvalScratchCancelled(t *testing.T) {
	e := newEnv(t, Config{Variables: []Var{{Name: "x", Type: gocel.DynType}}})
	p, err := e.Compile(`x + 1`, Origin{})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	var s celnative.Scratch
	in := &celnative.Input{Scratch: &s, Activation: &mapActivation{vars: map[string]any{"x": int64(1)}}}
	for range celnative.CheckEvery {
		if _, _, err := p.Eval(ctx, in); err != nil {
			if !errors.Is(err, context.Canceled) {
				t.Errorf("the error is %v, want the context's", err)
			}
			return
		}
	}
	t.Errorf("%d evaluations under a cancelled context all ran", celnative.CheckEvery)
}
