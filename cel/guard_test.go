package cel

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/celint/celint/internal/celtree"
	"github.com/google/cel-go/common/types"
	"github.com/google/cel-go/common/types/ref"
)

// nested binds a0 to first, then each a<i> to step applied to a<i-1>, n
// times, and evaluates last on a<n>.
func nested(first, step string, n int, last string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "cel.bind(a0, %s, ", first)
	for i := 1; i <= n; i++ {
		fmt.Fprintf(&b, "cel.bind(a%d, %s, ", i, strings.ReplaceAll(step, "A", fmt.Sprintf("a%d", i-1)))
	}
	b.WriteString(strings.ReplaceAll(last, "A", fmt.Sprintf("a%d", n)))
	b.WriteString(strings.Repeat(")", n+1))
	return b.String()
}

// TestGuardedCalls: a value built cheaply by sharing (a list doubled again
// and again, or nested in itself) is refused by every call that would walk
// it, before the call runs, with a cost-limit error; the same calls on
// ordinary values run as before.
func TestGuardedCalls(t *testing.T) {
	e := newEnv(t, Config{})
	doubled := func(last string) string { return nested("[1, 2]", "A + A", 26, last) }
	shared := func(last string) string { return nested(`["x", "y"]`, "[A, A]", 40, last) }
	strs := func(last string) string { return nested(`["xxxxxxxxxx"]`, "A + A", 26, last) }
	hostile := map[string]string{
		"doubled reverse":       doubled("A.reverse().size()"),
		"doubled sort":          doubled("A.sort().size()"),
		"doubled distinct":      doubled("A.distinct().size()"),
		"doubled equality":      doubled("A == A"),
		"doubled format":        doubled(`"%s".format([A]).size()`),
		"doubled duplicates":    doubled("size(duplicates(A))"),
		"doubled strings join":  strs(`A.join(",").size()`),
		"shared equality":       shared("A == A"),
		"shared inequality":     shared("A != [A[0], A[1]]"),
		"shared membership":     shared("A in [A, A]"),
		"shared format":         shared(`"%s".format([A]).size()`),
		"shared flatten":        shared("A.flatten().size()"),
		"shared duplicates":     shared("size(duplicates(A))"),
		"shared quote":          shared("quote(A).size()"),
		"shared descendants":    shared("size(descendants(A))"),
		"shared schema":         shared(`matchesSchema(A, {"type": "array"})`),
		"shared schema options": shared(`size(schemaErrors(A, {"type": "array"}, {"dialect": "2020-12"}))`),
		"long range":            "lists.range(100000000).size()",
		"replacement blows up":  nested(`"xxxxxxxxxxxxxxxxxxxx"`, "A + A", 16, `A.replace("x", A).size()`),
	}
	for name, expr := range hostile {
		t.Run(name, func(t *testing.T) {
			p, err := e.Compile(expr, Origin{})
			if err != nil {
				t.Fatalf("compile: %v", err)
			}
			_, cost, err := p.Eval(context.Background(), map[string]any{"self": nil, "root": nil, "path": ""})
			if !errors.Is(err, ErrCostLimit) {
				t.Fatalf("error = %v, want the cost limit", err)
			}
			if cost < e.CostLimit() {
				t.Errorf("cost %d, want at least the limit %d", cost, e.CostLimit())
			}
		})
	}
	runCases(t, e, []evalCase{
		{name: "small equality", expr: nested("[1, 2]", "A + A", 5, "A == A"), want: true},
		{name: "small shared", expr: nested(`["x"]`, "[A, A]", 6, "A == A && size(A.flatten()) == 4"), want: true},
		{name: "join", expr: `["a", "b"].join("-")`, want: "a-b"},
		{name: "format", expr: `"%s and %d".format(["x", 2])`, want: "x and 2"},
		{name: "sort", expr: `[3, 1, 2].sort()`, want: []any{int64(1), int64(2), int64(3)}},
		{name: "distinct", expr: `[1, 1, 2].distinct()`, want: []any{int64(1), int64(2)}},
		{name: "membership", expr: `2 in [1, 2]`, want: true},
		{name: "not equal", expr: `[1] != [2]`, want: true},
		{name: "error operand", expr: `[1][5] == 1`, wantErr: "index out of bounds"},
		{name: "replace", expr: `"aXa".replace("X", "-")`, want: "a-a"},
		{name: "range", expr: `lists.range(3)`, want: []any{int64(0), int64(1), int64(2)}},
		{name: "document equality", expr: `self == self`, self: map[string]any{"a": []any{1.0, "x"}}, want: true},
	})
}

// TestWeight: the measure counts values and a tenth of string lengths,
// counts shared values once per path, and stops past its limit.
func TestWeight(t *testing.T) {
	e := newEnv(t, Config{})
	p, err := e.Compile(nested(`["0123456789"]`, "[A, A]", 3, "A"), Origin{})
	if err != nil {
		t.Fatal(err)
	}
	v, _, err := p.Eval(context.Background(), map[string]any{"self": nil, "root": nil, "path": ""})
	if err != nil {
		t.Fatal(err)
	}
	// 8 leaves of 1+1, under 1+2+4 lists and the innermost 8 one-element lists
	if got, want := Weight(v, 1000), uint64(8*2+8+4+2+1); got != want {
		t.Errorf("Weight = %d, want %d", got, want)
	}
	if got := Weight(v, 5); got != 6 {
		t.Errorf("Weight capped at 5 = %d, want 6 (it stops once past the limit)", got)
	}
	// A map or list built in CEL weighs what the same native value does.
	native := map[string]any{"abcdefghijkl": []any{"0123456789", int64(1)}, "k": map[string]any{"x": true}}
	p, err = e.Compile(`{"abcdefghijkl": ["0123456789", 1], "k": {"x": true}}`, Origin{})
	if err != nil {
		t.Fatal(err)
	}
	built, _, err := p.Eval(context.Background(), map[string]any{"self": nil, "root": nil, "path": ""})
	if err != nil {
		t.Fatal(err)
	}
	want := Weight(types.DefaultTypeAdapter.NativeToValue(native), 1000)
	if got := Weight(built, 1000); got != want || want != 8 {
		t.Errorf("Weight of a map built in CEL = %d, of the native map %d; want 8", got, want)
	}
	if got := Weight(treeVal{types.DefaultTypeAdapter.NativeToValue(native), celtree.TreeOf(native)}, 1000); got != want {
		t.Errorf("Weight of the map as a celtree.Tree = %d, want %d", got, want)
	}
}

// doublingSchema is a schema whose $defs refer twice to the next level,
// levels deep: about 1.8 KB at 40 levels, 2^40 subschemas once expanded.
func doublingSchema(levels int) map[string]any {
	defs := map[string]any{fmt.Sprintf("d%d", levels): map[string]any{"type": "string"}}
	for i := 0; i < levels; i++ {
		next := map[string]any{"$ref": fmt.Sprintf("#/$defs/d%d", i+1)}
		defs[fmt.Sprintf("d%d", i)] = map[string]any{"allOf": []any{next, next}}
	}
	return map[string]any{"$defs": defs, "$ref": "#/$defs/d0"}
}

// TestExplodingSchemaRefused: a schema whose expansion explodes is refused
// when it compiles, as a rule's fragment and as a document's schema in
// CEL, in every dialect; one that shares a definition many times within
// the bound still compiles and validates.
func TestExplodingSchemaRefused(t *testing.T) {
	bomb := doublingSchema(40)
	if _, err := CompileSchemaWith(bomb, SchemaOptions{}); err == nil || !strings.Contains(err.Error(), "expands to more than") {
		t.Errorf("CompileSchemaWith = %v, want the expansion refused", err)
	}
	e := newEnv(t, Config{})
	for _, expr := range []string{
		`schemaError(self, {})`,
		`schemaErrors("x", self, {})[0].message`,
		`schemaError(self, {"dialect": "draft-07"})`,
	} {
		got, err := run(t, e, expr, bomb)
		if err != nil || !strings.Contains(fmt.Sprint(got), "expands to more than") {
			t.Errorf("%s = %v, %v; want the expansion named", expr, got, err)
		}
	}
	if got, err := run(t, e, `matchesSchema("x", self)`, bomb); err != nil || got != false {
		t.Errorf("matchesSchema on the bomb = %v, %v; want false, as for any schema that does not compile", got, err)
	}
	fine := doublingSchema(12) // 2^12 paths: within the bound
	got, err := run(t, e, `schemaErrors("x", self, {})`, fine)
	if err != nil || len(got.([]any)) != 0 {
		t.Errorf("a schema within the bound: %v, %v", got, err)
	}
}

// treeVal is a CEL value that is a view of a Tree, as the engine's
// document values are.
type treeVal struct {
	ref.Val
	t celtree.Tree
}

func (v treeVal) Tree() celtree.Tree { return v.t }
