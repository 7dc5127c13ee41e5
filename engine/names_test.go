package engine

import (
	"testing"

	"github.com/google/cel-go/common/types"
	"github.com/google/cel-go/common/types/ref"

	"github.com/celint/celint/loader"
)

// TestResolveCode builds the chain of frames a rule's check reads from (an
// item's, a node's, the rule's run's and the document's), with variables
// that hide others of the same name further out, and asserts that every
// name, found by its code, is what ResolveName finds: the same value, or
// nothing.
func TestResolveCode(t *testing.T) {
	doc, err := loader.Parse("d.json", []byte(`{"tools": [{"name": "a", "x": 1}]}`), loader.DefaultOptions())
	if err != nil {
		t.Fatal(err)
	}
	tool := doc.Root.Member("tools").Children()[0]
	lazy := func(vals map[string]ref.Val, names ...string) ([]*variable, []lazyVar) {
		var vars []*variable
		var lv []lazyVar
		for _, n := range names {
			v := &variable{name: n}
			vars = append(vars, v)
			lv = append(lv, lazyVar{v: v, done: true, val: vals[n]})
		}
		return vars, lv
	}
	table := &sigTable{}
	docVars, docLazy := lazy(map[string]ref.Val{"shared": types.String("doc's"), "both": types.String("doc's both")}, "shared", "both")
	ruleDocVars, ruleLazy := lazy(map[string]ref.Val{"both": types.String("rule's both"), "own": types.Int(2)}, "both", "own")
	nodeVarList, nodeLazy := lazy(map[string]ref.Val{"v": types.Int(3), "own2": types.Bool(true)}, "v", "own2")

	docSig := table.sig(docNames, false, docVars, nil)
	r := &Rule{docVars: ruleDocVars, vars: nodeVarList}
	r.sigs = &ruleShapes{table: table, r: r}
	sh := r.sigs.in(docSig)

	rr := &ruleRun{rule: r}
	docFrame := &frame{names: docNames, vals: []any{celValue(doc.Root)}, lazy: docLazy, sig: docSig}
	ruleFrame := &frame{parent: docFrame, lazy: ruleLazy, sig: sh.rule}
	node := &frame{parent: ruleFrame, names: nodeNames, self: docTree{tool}, lazy: nodeLazy, sig: sh.node}
	node.node.rr, node.node.n, node.node.done = rr, tool, doneScope
	node.buf[0], node.buf[1] = celValue(tool), "2025-11-25"
	node.vals = node.buf[:2]
	item := &frame{parent: node, names: eachNames, sig: sh.each}
	name := tool.Member("name")
	item.buf = [3]any{celValue(name), int64(0), memberKey{name}}
	item.vals = item.buf[:3]

	names := []string{"item", "index", "key", "self", "scope", "selfKey", "path", "parent", "v", "own2", "own", "both", "shared", "root", "nothing"}
	for _, start := range []*frame{item, node, ruleFrame, docFrame} {
		b := newBinding(names, start.sig)
		if b == nil {
			t.Fatalf("no binding for a chain of %d frames", start.sig.depth)
		}
		for i, n := range names {
			want, wantOK := start.ResolveName(n)
			if wantOK {
				want = types.DefaultTypeAdapter.NativeToValue(want)
			}
			got, gotOK := start.ResolveCode(b.codes[i], n, types.DefaultTypeAdapter)
			if gotOK != wantOK || !sameValue(got, want) {
				t.Errorf("depth %d, %s: ResolveCode gave %v, %v; ResolveName %v, %v", start.sig.depth, n, got, gotOK, want, wantOK)
			}
		}
	}
	// The hidden document variable is the rule's, found one frame out
	// from the node.
	if got, _ := node.ResolveCode(codeOf("both", node.sig), "both", types.DefaultTypeAdapter); got != types.String("rule's both") {
		t.Errorf("both = %v, want the rule's", got)
	}
}

func sameValue(a ref.Val, b any) bool {
	if a == nil || b == nil {
		return a == nil && b == nil
	}
	bv, ok := b.(ref.Val)
	return ok && a.Equal(bv) == types.True
}

// TestSigTable asserts that shapes with the same names are one shape, and
// that a shape is told apart by anything that changes where a name is.
func TestSigTable(t *testing.T) {
	table := &sigTable{}
	v := func(names ...string) []*variable {
		var out []*variable
		for _, n := range names {
			out = append(out, &variable{name: n})
		}
		return out
	}
	doc := table.sig(docNames, false, v("a"), nil)
	if again := table.sig(docNames, false, v("a"), nil); again != doc {
		t.Error("the same shape twice gave two shapes")
	}
	node := table.sig(nodeNames, true, v("x", "y"), doc)
	for _, other := range []*frameSig{
		table.sig(nodeNames, true, v("y", "x"), doc),
		table.sig(nodeNames, false, v("x", "y"), doc),
		table.sig(eachNames, true, v("x", "y"), doc),
		table.sig(nodeNames, true, v("x", "y"), nil),
		table.sig(nodeNames, true, v("x", "y", "z"), doc),
	} {
		if other == node {
			t.Errorf("shape %+v is the node shape %+v", other, node)
		}
	}
	if node.depth != 2 || doc.depth != 1 {
		t.Errorf("depths %d and %d, want 2 and 1", node.depth, doc.depth)
	}
	deep := doc
	for range maxCodeDepth {
		deep = table.sig(nil, false, nil, deep)
	}
	if b := newBinding([]string{"a"}, deep); b != nil {
		t.Errorf("a chain of %d frames has codes %v; want none (deeper than a code says)", deep.depth, b.codes)
	}
}

// TestNodeVarNames asserts that the names the codes know where to find
// (names.go) are every variable the engine declares, and that each node
// variable among them is one nodeVars.get answers: a name only get knew
// would be read by name, slowly, and one only the list knew, not at all.
func TestNodeVarNames(t *testing.T) {
	known := map[string]bool{}
	for _, names := range [][]string{docNames, nodeNames, eachNames, nodeVarNames} {
		for _, n := range names {
			known[n] = true
		}
	}
	for _, v := range append([]string{"self", "root", "path"}, func() (out []string) {
		for _, v := range engineVars {
			out = append(out, v.Name)
		}
		return out
	}()...) {
		if !known[v] {
			t.Errorf("the engine declares %s, which no frame shape names", v)
		}
	}
	doc, err := loader.Parse("d.json", []byte(`{"a": [1]}`), loader.DefaultOptions())
	if err != nil {
		t.Fatal(err)
	}
	vars := nodeVars{rr: &ruleRun{}, n: doc.Root.Member("a").Children()[0]}
	for _, n := range nodeVarNames {
		if n == "parentScope" || n == "resolveError" {
			continue // (they read the run's linter, which this test has none of)
		}
		if _, ok := vars.get(n); !ok {
			t.Errorf("nodeVars.get does not answer %s", n)
		}
	}
}
