// Package celtree holds what the engine's document values and the CEL
// library share: the Tree a schema function reads in place, the interfaces
// by which a CEL value of a document node offers its tree, keys and
// positions, and the scalar values that share a node's storage. It is the
// seam between package engine's node views and package cel's functions;
// a rule author or embedder never needs it.
package celtree

import (
	"reflect"
	"sync/atomic"
	"unsafe"

	"github.com/google/cel-go/common/types"
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

// Owned is a Tree that knows the document it belongs to.
type Owned interface {
	Tree
	// Owner identifies the tree's document: the same comparable value
	// for every value of one document.
	Owner() any
}

// IteratorVal is the ref.Val side of an iterator, which CEL never
// converts or compares: a traits.Iterator embeds it and adds HasNext and
// Next.
type IteratorVal struct{}

// ConvertToNative implements ref.Val (iterators are never converted).
func (IteratorVal) ConvertToNative(reflect.Type) (any, error) {
	return nil, types.NewErr("type conversion on iterators not supported").(*types.Err)
}

// ConvertToType implements ref.Val.
func (IteratorVal) ConvertToType(ref.Type) ref.Val { return types.NewErr("no such overload") }

// Equal implements ref.Val.
func (IteratorVal) Equal(ref.Val) ref.Val { return types.NewErr("no such overload") }

// Type implements ref.Val.
func (IteratorVal) Type() ref.Type { return types.IteratorType }

// Value implements ref.Val.
func (IteratorVal) Value() any { return nil }

// Immutable is implemented by CEL values whose native value never changes
// while it can be reached, such as the views of a parsed document: what a
// function computes from such a value may be cached by its identity (a
// view's comparable Tree, or else its native map's address). A program
// that caches by Tree calls cel.Caches.ForgetOwner when it is done with a
// document.
type Immutable interface {
	// ImmutableValue is the native value, as ref.Val.Value returns it.
	ImmutableValue() any
}

// Native is v's native value: a Tree's, else v itself.
func Native(v any) any {
	if t, ok := v.(Tree); ok {
		return t.Native()
	}
	return v
}
