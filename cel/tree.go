package cel

import (
	"sync/atomic"
	"unsafe"

	"github.com/google/cel-go/common/types/ref"
	"github.com/google/cel-go/common/types/traits"
)

// Tree is a document value that the schema functions read in place,
// without building its native value: the engine's document nodes are
// Trees. Its native value is built only when the JSON Schema library
// must validate it, because a fast path was not sure that it is valid.
type Tree interface {
	// JSONType is the value's type: one of the TreeNull ... TreeObject.
	JSONType() TreeType
	// Scalar is a scalar's value: nil, bool, int64, float64 or string.
	Scalar() any
	// Len is the number of members or elements of a collection.
	Len() int
	// Member returns an object's member; false when there is none.
	Member(name string) (Tree, bool)
	// At returns a collection's i-th member, with its name, or element,
	// with "", for i from 0 to Len()-1.
	At(i int) (name string, v Tree)
	// Native is the value as nil, bool, int64, float64, string, []any or
	// map[string]any, equal at every call; it must not be modified. It may
	// be made anew at each call, as a document's is: the document keeps no
	// native copy of itself.
	Native() any
}

// TreeType is a Tree's JSON type.
type TreeType uint8

// The JSON types of a Tree.
const (
	TreeNull TreeType = iota
	TreeBool
	TreeNumber
	TreeString
	TreeArray
	TreeObject
)

// KeyLister is implemented by CEL maps whose keys can be read by
// position, in the order their iterator gives them, so that a
// comprehension reads them without making an iterator.
type KeyLister interface {
	traits.Mapper
	// KeyAt is the i-th key, for i from 0 to Size()-1.
	KeyAt(i int) ref.Val
}

// PositionedMapper is implemented by CEL maps that find a string key
// faster given a hint: where the caller found the key in the last map it
// read. The objects of a document's array usually have their members in
// the same order, so a selection that keeps the hint finds the member at
// once. A map's values are never errors.
type PositionedMapper interface {
	traits.Mapper
	// FindAt is Find(String(key)). It reads h, and updates it to where it
	// found the key.
	FindAt(key string, h *Hint) (v ref.Val, found bool)
}

// Hint is where a selection found its key in the last map it read: the
// key's position, and the address of the key's string there (see
// loader.Node.KeyRef), by which a map can tell the key at once without
// comparing it. Evaluations on several goroutines share a program's
// hints, so they are read and written atomically; a hint that does not
// fit the map only costs the search. The zero Hint is ready to use.
type Hint struct {
	// Plain words read with sync/atomic's functions, not atomic types: a
	// plan's steps are copied while it is built, before any evaluation.
	at  int32
	key unsafe.Pointer // *string
}

// Get returns the hint: a position, and the address of the key's string
// found there last; nil when none was.
func (h *Hint) Get() (at int, key *string) {
	return int(atomic.LoadInt32(&h.at)), (*string)(atomic.LoadPointer(&h.key))
}

// Set notes that the key was found at position at, with its string at
// key.
func (h *Hint) Set(at int, key *string) {
	if int(atomic.LoadInt32(&h.at)) != at {
		atomic.StoreInt32(&h.at, int32(at))
	}
	if (*string)(atomic.LoadPointer(&h.key)) != key {
		atomic.StorePointer(&h.key, unsafe.Pointer(key))
	}
}

// TreeValue is implemented by CEL values that are views of a Tree.
type TreeValue interface {
	ref.Val
	// Tree is the document value the CEL value views.
	Tree() Tree
}

// jv is a value the fast paths read: a Tree, or else a native value. It is
// passed by value, so reading a Tree's members allocates nothing.
type jv struct {
	t      Tree
	native any // when t is nil
}

// jvOf is v as the fast paths read it.
func jvOf(v any) jv {
	if t, ok := v.(Tree); ok {
		return jv{t: t}
	}
	return jv{native: v}
}

// nativeOf is the native value of v, a Tree or a native value.
func nativeOf(v any) any {
	if t, ok := v.(Tree); ok {
		return t.Native()
	}
	return v
}

// typeBit is the value's typeBits bit; false for a Go value the fast paths
// do not know.
func (v jv) typeBit() (uint8, bool) {
	if v.t == nil {
		return jsonTypeBit(v.native)
	}
	switch v.t.JSONType() {
	case TreeNull:
		return nullBit, true
	case TreeBool:
		return boolBit, true
	case TreeNumber:
		return jsonTypeBit(v.t.Scalar())
	case TreeString:
		return stringBit, true
	case TreeArray:
		return arrayBit, true
	case TreeObject:
		return objectBit, true
	}
	return 0, false
}

// scalar is a scalar's value; for a collection, its native value.
func (v jv) scalar() any {
	if v.t == nil {
		return v.native
	}
	switch v.t.JSONType() {
	case TreeArray, TreeObject:
		return v.t.Native()
	}
	return v.t.Scalar()
}

// length is the number of members or elements; 0 for a scalar.
func (v jv) length() int {
	if v.t != nil {
		return v.t.Len()
	}
	switch x := v.native.(type) {
	case map[string]any:
		return len(x)
	case []any:
		return len(x)
	}
	return 0
}

// member returns an object's member.
func (v jv) member(name string) (jv, bool) {
	if v.t != nil {
		m, ok := v.t.Member(name)
		return jv{t: m}, ok
	}
	m, ok := v.native.(map[string]any)[name]
	return jv{native: m}, ok
}

// each calls fn for each member or element until it returns false, and
// reports whether it went through all of them.
func (v jv) each(fn func(name string, e jv) bool) bool {
	if v.t != nil {
		for i, n := 0, v.t.Len(); i < n; i++ {
			name, e := v.t.At(i)
			if !fn(name, jv{t: e}) {
				return false
			}
		}
		return true
	}
	switch x := v.native.(type) {
	case map[string]any:
		for k, e := range x {
			if !fn(k, jv{native: e}) {
				return false
			}
		}
	case []any:
		for _, e := range x {
			if !fn("", jv{native: e}) {
				return false
			}
		}
	}
	return true
}

// in reports whether v equals one of the values of an enum.
func (v jv) in(enum []any) (ok, sure bool) {
	x := v.scalar() // (once: a collection's is built anew at each call)
	for _, e := range enum {
		eq, sure := jsonEqual(x, e)
		if !sure {
			return false, false
		}
		if eq {
			return true, true
		}
	}
	return false, true
}

// unique reports whether no two elements of an array are equal.
func (v jv) unique() (ok, sure bool) {
	var es []jv
	v.each(func(_ string, e jv) bool {
		es = append(es, e)
		return true
	})
	for i := range es {
		for j := i + 1; j < len(es); j++ {
			eq, sure := es[i].equal(es[j].scalar())
			if !sure || eq {
				return false, sure
			}
		}
	}
	return true, true
}

// collection stands for an array or an object in what leaf returns.
type collection struct{}

// leaf is a scalar's value, as scalar gives it, and collection{} for an
// array or an object, whose native value it does not build.
func (v jv) leaf() any {
	if v.t == nil {
		switch v.native.(type) {
		case []any, map[string]any:
			return collection{}
		}
		return v.native
	}
	switch v.t.JSONType() {
	case TreeArray, TreeObject:
		return collection{}
	}
	return v.t.Scalar()
}

// isArray and isObject report v's type without building anything.
func (v jv) isArray() bool {
	if v.t != nil {
		return v.t.JSONType() == TreeArray
	}
	_, ok := v.native.([]any)
	return ok
}

func (v jv) isObject() bool {
	if v.t != nil {
		return v.t.JSONType() == TreeObject
	}
	_, ok := v.native.(map[string]any)
	return ok
}

// copyOf is v, a native value or a Tree, as a native value: a Tree's is
// its Native, which a document's Tree makes anew and nothing keeps. It is
// for what needs a schema's native value once, such as compiling it.
func copyOf(v any) any {
	if t, ok := v.(Tree); ok {
		return t.Native()
	}
	return v
}

// equal is jsonEqual of the two values' native forms.
func (v jv) equal(o any) (eq, sure bool) { return jsonEqual(v.scalar(), o) }

// instance is a value to validate: the document value a view reads, in
// place, or else the native value.
func instance(v ref.Val) (any, error) {
	if tv, ok := v.(TreeValue); ok {
		return tv.Tree(), nil
	}
	return ToNative(v)
}

// TreeOf is v as a Tree: v itself when it is one, else a Tree that reads
// v, a JSON-compatible native value.
func TreeOf(v any) Tree {
	if t, ok := v.(Tree); ok {
		return t
	}
	return newNativeTree(v)
}

// nativeTree is a Tree over a native value; keys are a map's member names,
// in an order of their own.
type nativeTree struct {
	v    any
	keys []string
}

func newNativeTree(v any) nativeTree {
	t := nativeTree{v: v}
	if m, ok := v.(map[string]any); ok {
		t.keys = make([]string, 0, len(m))
		for k := range m {
			t.keys = append(t.keys, k)
		}
	}
	return t
}

func (t nativeTree) JSONType() TreeType {
	switch t.v.(type) {
	case nil:
		return TreeNull
	case bool:
		return TreeBool
	case string:
		return TreeString
	case []any:
		return TreeArray
	case map[string]any:
		return TreeObject
	}
	return TreeNumber
}

func (t nativeTree) Scalar() any {
	switch t.v.(type) {
	case []any, map[string]any:
		return nil
	}
	return t.v
}

func (t nativeTree) Len() int {
	switch x := t.v.(type) {
	case []any:
		return len(x)
	case map[string]any:
		return len(x)
	}
	return 0
}

func (t nativeTree) Member(name string) (Tree, bool) {
	m, ok := t.v.(map[string]any)[name]
	if !ok {
		return nil, false
	}
	return newNativeTree(m), true
}

func (t nativeTree) At(i int) (string, Tree) {
	if l, ok := t.v.([]any); ok {
		return "", newNativeTree(l[i])
	}
	k := t.keys[i]
	return k, newNativeTree(t.v.(map[string]any)[k])
}

func (t nativeTree) Native() any { return t.v }
