package cel

import (
	"fmt"
	"testing"

	"github.com/celint/celint/internal/celtree"
	"github.com/celint/celint/internal/libcache"
	"github.com/google/cel-go/common/types"
	"github.com/google/cel-go/common/types/ref"
)

// ownedTree is a document object of the document owner, as the engine's
// trees are: comparable, so that it keys the identity index.
type ownedTree struct{ n *ownedNode }

type ownedNode struct {
	celtree.Tree
	owner string
}

func (t ownedTree) JSONType() celtree.TreeType              { return t.n.JSONType() }
func (t ownedTree) Scalar() any                             { return t.n.Scalar() }
func (t ownedTree) Len() int                                { return t.n.Len() }
func (t ownedTree) Member(name string) (celtree.Tree, bool) { return t.n.Member(name) }
func (t ownedTree) At(i int) (name string, v celtree.Tree)  { return t.n.At(i) }
func (t ownedTree) Native() any                             { return t.n.Native() }
func (t ownedTree) Owner() any                              { return t.n.owner }
func (v ownedVal) Tree() celtree.Tree                       { return v.t }
func (v ownedVal) ImmutableValue() any                      { return v.native }
func newOwned(owner string, schema map[string]any) ownedVal {
	return ownedVal{types.DefaultTypeAdapter.NativeToValue(schema), ownedTree{&ownedNode{celtree.TreeOf(schema), owner}}, schema}
}

// ownedVal is the CEL view of an ownedTree.
type ownedVal struct {
	ref.Val
	t      ownedTree
	native map[string]any
}

// TestForgetOwner: ForgetOwner, through the handle the library was built
// with, drops what the identity indexes keep for
// one document's values and nothing of another's, whether the caches hold
// one document's values (where it does not read them) or several's.
func TestForgetOwner(t *testing.T) {
	h := new(libcache.Caches)
	l, err := newLibrary(Config{Caches: h})
	if err != nil {
		t.Fatal(err)
	}
	c := l.caches
	held := func(owner string) (n int) {
		s := &c.schemas
		for id := range s.byIdentity {
			if o, ok := id.m.(celtree.Owned); ok && o.Owner() == owner {
				n++
			}
		}
		for id := range s.extRefs {
			if o, ok := id.(celtree.Owned); ok && o.Owner() == owner {
				n++
			}
		}
		return n
	}
	remember := func(owner string, n int) {
		for i := range n {
			v := newOwned(owner, map[string]any{"type": "object", "title": fmt.Sprint(owner, i)})
			if _, err := l.compiledSchemaWith(v, schemaOptions{dialect: "2020-12"}); err != nil {
				t.Fatal(err)
			}
			// A schema with a reference is not plain: its answer is kept
			// in extRefs.
			r := newOwned(owner, map[string]any{"$ref": "https://example.com/s.json", "title": fmt.Sprint(owner, i)})
			l.schemaExternalRefsBinding(r)
		}
	}
	remember("a", 3)
	remember("b", 2)
	if held("a") != 6 || held("b") != 4 {
		t.Fatalf("held a %d, b %d; want 6 and 4", held("a"), held("b"))
	}
	h.ForgetOwner("a") // two documents: each value is read
	if held("a") != 0 || held("b") != 4 {
		t.Errorf("after forgetting a: held a %d, b %d; want 0 and 4", held("a"), held("b"))
	}
	h.ForgetOwner("b") // b's alone
	if held("b") != 0 || len(c.schemas.byIdentity)+len(c.schemas.extRefs) != 0 {
		t.Errorf("after forgetting b: %d identities left", len(c.schemas.byIdentity)+len(c.schemas.extRefs))
	}
	if len(c.schemas.owners) != 0 {
		t.Errorf("owners left: %v", c.schemas.owners)
	}
	remember("c", 1)
	h.ForgetOwner("a") // not there: c's stay
	if held("c") != 2 {
		t.Errorf("forgetting another document dropped %d of c's 2 values", 2-held("c"))
	}
	// A value that is not Owned is never forgotten by owner.
	plain := newOwned("d", map[string]any{"type": "string"})
	l.compiledSchemaWith(treeVal{plain.Val, celtree.TreeOf(map[string]any{"type": "string"})}, schemaOptions{dialect: "2020-12"})
	h.ForgetOwner("c")
	if held("c") != 0 {
		t.Errorf("c's values stayed")
	}
}
