package engine

import (
	"reflect"

	"github.com/google/cel-go/common/types"
	"github.com/google/cel-go/common/types/ref"
	"github.com/google/cel-go/common/types/traits"

	"github.com/celint/celint/internal/celtree"
	"github.com/celint/celint/loader"
)

// Document values reach CEL as views of the located tree: a map or list is
// its node, and a member or element is read from the node's children. A
// view is one pointer, so making one allocates nothing (cel-go's own
// wrapper of a map[string]any allocates a wrapper and an accessor each time
// a map is read), and a map iterates its members in document order. Value()
// is the node's native value, so that what converts values (cel.ToNative,
// JSON Schema) reads the document's own maps and lists, without a copy.

// celValue is the CEL value of a document node.
func celValue(n *loader.Node) ref.Val {
	switch n.Kind {
	case loader.Object:
		return nodeMap{n}
	case loader.Array:
		return nodeList{n}
	}
	return celtree.ScalarValue(n.Value())
}

// nativeVal is the cel-go value of the node's native value, for the rarer
// operations (conversion, equality, concatenation) that views delegate.
func nativeVal(n *loader.Node) ref.Val { return types.DefaultTypeAdapter.NativeToValue(n.Value()) }

// nodeMap is an object node as a CEL map.
type nodeMap struct{ n *loader.Node }

var (
	_ traits.Mapper   = nodeMap{}
	_ traits.Foldable = nodeMap{}
	_ traits.Lister   = nodeList{}
	_ traits.Foldable = nodeList{}
)

// ConvertToNative implements ref.Val.
func (m nodeMap) ConvertToNative(t reflect.Type) (any, error) {
	return nativeVal(m.n).ConvertToNative(t)
}

// ConvertToType implements ref.Val.
func (m nodeMap) ConvertToType(t ref.Type) ref.Val {
	switch t {
	case types.MapType:
		return m
	case types.TypeType:
		return types.MapType
	}
	return types.NewErr("type conversion error from '%s' to '%s'", types.MapType, t)
}

// Equal implements ref.Val.
func (m nodeMap) Equal(other ref.Val) ref.Val {
	o, ok := other.(traits.Mapper)
	if !ok {
		return types.False
	}
	if o.Size() != m.Size() {
		return types.False
	}
	for _, c := range m.n.Children() {
		ov, found := o.Find(types.String(c.Key()))
		if !found {
			return types.False
		}
		if types.Equal(celValue(c), ov) == types.False {
			return types.False
		}
	}
	return types.True
}

// Type implements ref.Val.
func (m nodeMap) Type() ref.Type { return types.MapType }

// Value implements ref.Val: the node's map[string]any.
func (m nodeMap) Value() any { return m.n.Value() }

// ImmutableValue implements celtree.Immutable: a document is never modified.
func (m nodeMap) ImmutableValue() any { return m.n.Value() }

// Contains implements traits.Container.
func (m nodeMap) Contains(key ref.Val) ref.Val {
	_, found := m.Find(key)
	return types.Bool(found)
}

// Get implements traits.Indexer.
func (m nodeMap) Get(key ref.Val) ref.Val {
	v, found := m.Find(key)
	if !found {
		return types.ValOrErr(v, "no such key: %v", key)
	}
	return v
}

// Find implements traits.Mapper.
func (m nodeMap) Find(key ref.Val) (ref.Val, bool) {
	k, ok := key.(types.String)
	if !ok {
		return nil, false
	}
	c := m.n.Member(string(k))
	if c == nil {
		return nil, false
	}
	return celValue(c), true
}

// FindAt implements celtree.PositionedMapper.
func (m nodeMap) FindAt(key string, h *celtree.Hint) (ref.Val, bool) {
	hint, name := h.Get()
	c, at := m.n.MemberHinted(key, hint, name)
	if c == nil {
		return nil, false
	}
	if at != hint || c.KeyRef() != name {
		h.Set(at, c.KeyRef())
	}
	return celValue(c), true
}

// KeyAt implements celtree.KeyLister: the i-th member name in document order.
func (m nodeMap) KeyAt(i int) ref.Val { return celtree.StringAt(m.n.Children()[i].KeyRef()) }

// Iterator implements traits.Iterable: the member names in document order.
func (m nodeMap) Iterator() traits.Iterator { return &keyIterator{nodes: m.n.Children()} }

// Size implements traits.Sizer.
func (m nodeMap) Size() ref.Val { return types.Int(m.n.Len()) }

// IsZeroValue reports whether the map is empty.
func (m nodeMap) IsZeroValue() bool { return m.n.Len() == 0 }

// Fold implements traits.Foldable, in document order.
func (m nodeMap) Fold(f traits.Folder) {
	for _, c := range m.n.Children() {
		if !f.FoldEntry(celtree.StringAt(c.KeyRef()), celValue(c)) {
			break
		}
	}
}

// keyIterator iterates an object's member names.
type keyIterator struct {
	celtree.IteratorVal
	nodes []*loader.Node
	i     int
}

// HasNext implements traits.Iterator.
func (it *keyIterator) HasNext() ref.Val { return types.Bool(it.i < len(it.nodes)) }

// Next implements traits.Iterator.
func (it *keyIterator) Next() ref.Val {
	if it.i >= len(it.nodes) {
		return nil
	}
	it.i++
	return celtree.StringAt(it.nodes[it.i-1].KeyRef())
}

// nodeList is an array node as a CEL list.
type nodeList struct{ n *loader.Node }

// ConvertToNative implements ref.Val.
func (l nodeList) ConvertToNative(t reflect.Type) (any, error) {
	return nativeVal(l.n).ConvertToNative(t)
}

// ConvertToType implements ref.Val.
func (l nodeList) ConvertToType(t ref.Type) ref.Val {
	switch t {
	case types.ListType:
		return l
	case types.TypeType:
		return types.ListType
	}
	return types.NewErr("type conversion error from '%s' to '%s'", types.ListType, t)
}

// Equal implements ref.Val.
func (l nodeList) Equal(other ref.Val) ref.Val {
	o, ok := other.(traits.Lister)
	if !ok {
		return types.False
	}
	if o.Size() != l.Size() {
		return types.False
	}
	for i, c := range l.n.Children() {
		if eq := types.Equal(celValue(c), o.Get(types.Int(i))); eq == types.False {
			return types.False
		}
	}
	return types.True
}

// Type implements ref.Val.
func (l nodeList) Type() ref.Type { return types.ListType }

// Value implements ref.Val: the node's []any.
func (l nodeList) Value() any { return l.n.Value() }

// Add implements traits.Adder.
func (l nodeList) Add(other ref.Val) ref.Val { return nativeVal(l.n).(traits.Adder).Add(other) }

// Contains implements traits.Container.
func (l nodeList) Contains(elem ref.Val) ref.Val {
	for _, c := range l.n.Children() {
		if b, ok := elem.Equal(celValue(c)).(types.Bool); ok && b == types.True {
			return types.True
		}
	}
	return types.False
}

// Get implements traits.Indexer.
func (l nodeList) Get(index ref.Val) ref.Val {
	i, err := types.IndexOrError(index)
	if err != nil {
		return types.ValOrErr(index, "%v", err)
	}
	if i < 0 || i >= l.n.Len() {
		return types.NewErr("index '%d' out of range in list size '%d'", i, l.n.Len())
	}
	return celValue(l.n.Children()[i])
}

// Iterator implements traits.Iterable.
func (l nodeList) Iterator() traits.Iterator {
	return &elemIterator{keyIterator{nodes: l.n.Children()}}
}

// Size implements traits.Sizer.
func (l nodeList) Size() ref.Val { return types.Int(l.n.Len()) }

// IsZeroValue reports whether the list is empty.
func (l nodeList) IsZeroValue() bool { return l.n.Len() == 0 }

// Fold implements traits.Foldable.
func (l nodeList) Fold(f traits.Folder) {
	for i, c := range l.n.Children() {
		if !f.FoldEntry(types.Int(i), celValue(c)) {
			break
		}
	}
}

// elemIterator iterates an array's elements.
type elemIterator struct {
	keyIterator
}

// Next implements traits.Iterator.
func (it *elemIterator) Next() ref.Val {
	if it.i >= len(it.nodes) {
		return nil
	}
	it.i++
	return celValue(it.nodes[it.i-1])
}

// docTree is a document node as a celtree.Tree, which the schema functions
// read in place.
type docTree struct{ n *loader.Node }

var _ celtree.Owned = docTree{}

// Owner implements celtree.Owned: the document's root.
func (t docTree) Owner() any {
	n := t.n
	for n.Parent != nil {
		n = n.Parent
	}
	return n
}

// JSONType implements celtree.Tree.
func (t docTree) JSONType() celtree.TreeType { return celtree.TreeType(t.n.Kind) }

// Scalar implements celtree.Tree.
func (t docTree) Scalar() any {
	if t.n.Kind == loader.Array || t.n.Kind == loader.Object {
		return nil
	}
	return t.n.Value()
}

// Len implements celtree.Tree.
func (t docTree) Len() int { return t.n.Len() }

// Member implements celtree.Tree.
func (t docTree) Member(name string) (celtree.Tree, bool) {
	if c := t.n.Member(name); c != nil {
		return docTree{c}, true
	}
	return nil, false
}

// At implements celtree.Tree.
func (t docTree) At(i int) (string, celtree.Tree) {
	c := t.n.Children()[i]
	if t.n.Kind == loader.Array {
		return "", docTree{c}
	}
	return c.Key(), docTree{c}
}

// Native implements celtree.Tree.
func (t docTree) Native() any { return t.n.Value() }

// Tree implements celtree.TreeValue.
func (m nodeMap) Tree() celtree.Tree { return docTree{m.n} }

// Tree implements celtree.TreeValue.
func (l nodeList) Tree() celtree.Tree { return docTree{l.n} }
