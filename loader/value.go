package loader

import "unsafe"

// A document holds one node per value, and nodes are most of its memory,
// so a node keeps its value in two words, ptr and word, read by its Kind:
//
//	String  ptr, word are the string's header: its bytes and length
//	Number  ptr is the boxed int64 or float64; word is 0 for an int64, 1 for a float64
//	Bool    word is 1 for true, 0 for false
//	Null    both zero
//	Array   ptr points to the first of word *Node, the elements
//	Object  as Array, or, when the object has a name index (more than
//	        smallObject members), ptr is a *bigObject and word is -1
//
// Value makes an any of a scalar without allocating: its data word points
// into the node (a string's header) or at the node's box (a number), which
// never change once the document is read.

// bigObject is an object's members with their name index.
type bigObject struct {
	kids  []*Node
	index map[string]int // member name → position in kids
}

// eface is the layout of an any: its type word and its data word.
type eface struct {
	typ, data unsafe.Pointer
}

// typeOf is the type word of v.
func typeOf(v any) unsafe.Pointer { return (*eface)(unsafe.Pointer(&v)).typ }

// The type words of the scalar types. They are set once, when the package
// is initialised, and only read after.
var (
	stringType  = typeOf("")
	int64Type   = typeOf(int64(0))
	float64Type = typeOf(float64(0))
)

// anyOf is the any with type word typ and data word data.
func anyOf(typ, data unsafe.Pointer) any {
	var v any
	e := (*eface)(unsafe.Pointer(&v))
	e.typ, e.data = typ, data
	return v
}

// Key returns the member name of an object's member; "" for an element or
// the root.
func (n *Node) Key() string {
	if n.key == nil {
		return ""
	}
	return *n.key
}

// KeyRef returns the address of Key's string, which members of the same
// name may share: callers that need a string's address, such as a CEL
// value that shares it, take it here instead of copying the name. It must
// not be written.
func (n *Node) KeyRef() *string {
	if n.key == nil {
		return &noKey
	}
	return n.key
}

// noKey is the Key of an element or the root. It is never written.
var noKey string

// setKey makes name the member name of n, at an address of its own.
func (n *Node) setKey(name string) {
	p := new(string)
	*p = name
	n.key = p
}

// Children returns an array's elements or an object's members, in source
// order; nil for a scalar or an empty collection. The slice is the node's
// own and must not be modified.
func (n *Node) Children() []*Node {
	switch {
	case n.Kind < Array:
		return nil
	case n.word < 0:
		return (*bigObject)(n.ptr).kids
	}
	return n.list()
}

// list is the word elements from ptr: a small collection's children. It
// builds the slice by hand, without unsafe.Slice's checks, which cost more
// than the rest of a member lookup; setKids made ptr and word from a
// slice, so they hold.
func (n *Node) list() []*Node {
	var s []*Node
	h := (*sliceHeader)(unsafe.Pointer(&s))
	h.data, h.len, h.cap = n.ptr, n.word, n.word
	return s
}

// sliceHeader is the layout of a slice.
type sliceHeader struct {
	data     unsafe.Pointer
	len, cap int
}

// Len returns the number of an array's elements or an object's members; 0
// for a scalar.
func (n *Node) Len() int {
	switch {
	case n.Kind < Array:
		return 0
	case n.word < 0:
		return len((*bigObject)(n.ptr).kids)
	}
	return n.word
}

// memberIndex is an object's name index; nil when it has none.
func (n *Node) memberIndex() map[string]int {
	if n.Kind == Object && n.word < 0 {
		return (*bigObject)(n.ptr).index
	}
	return nil
}

// setKids gives a collection its children, kids (a list of its own), and
// an object its name index (nil for none).
func (n *Node) setKids(kids []*Node, index map[string]int) {
	switch {
	case index != nil:
		n.ptr, n.word = unsafe.Pointer(&bigObject{kids: kids, index: index}), -1
	case len(kids) == 0:
		n.ptr, n.word = nil, 0
	default:
		n.ptr, n.word = unsafe.Pointer(unsafe.SliceData(kids)), len(kids)
	}
}

// setString makes s the value of a String node.
func (n *Node) setString(s string) {
	n.ptr, n.word = unsafe.Pointer(unsafe.StringData(s)), len(s)
}

// setScalar makes v the value of a scalar node: nil, bool, int64, float64
// or string, as n's Kind says.
func (n *Node) setScalar(v any) {
	switch x := v.(type) {
	case string:
		n.setString(x)
	case bool:
		n.ptr, n.word = nil, 0
		if x {
			n.word = 1
		}
	case int64:
		n.ptr, n.word = (*eface)(unsafe.Pointer(&v)).data, 0
	case float64:
		n.ptr, n.word = (*eface)(unsafe.Pointer(&v)).data, 1
	default:
		n.ptr, n.word = nil, 0
	}
}

// Value returns the JSON-compatible value of the whole subtree: nil, bool,
// int64, float64, string, []any or map[string]any, a collection's map or
// slice holding its children's Values.
//
// A scalar's value shares the node's storage and costs no allocation. A
// collection's is built anew at each call, a copy of the subtree: reading
// a document through its nodes (Children, Member, Elem) builds nothing.
func (n *Node) Value() any {
	switch n.Kind {
	case String:
		return anyOf(stringType, unsafe.Pointer(&n.ptr))
	case Number:
		if n.word == 0 {
			return anyOf(int64Type, n.ptr)
		}
		return anyOf(float64Type, n.ptr)
	case Bool:
		return n.word != 0
	case Null:
		return nil
	}
	return n.collectionValue()
}

// collectionValue is Value for an array or object.
func (n *Node) collectionValue() any {
	kids := n.Children()
	if n.Kind == Array {
		vals := make([]any, len(kids))
		for i, c := range kids {
			vals[i] = c.Value()
		}
		return vals
	}
	m := make(map[string]any, len(kids))
	for _, c := range kids {
		m[c.Key()] = c.Value()
	}
	return m
}
