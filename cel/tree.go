package cel

import (
	"github.com/celint/celint/internal/celtree"
	"github.com/google/cel-go/common/types/ref"
)

// jv is a value the fast paths read: a Tree, or else a native value. It is
// passed by value, so reading a Tree's members allocates nothing.
type jv struct {
	t      celtree.Tree
	native any // when t is nil
}

// jvOf is v as the fast paths read it.
func jvOf(v any) jv {
	if t, ok := v.(celtree.Tree); ok {
		return jv{t: t}
	}
	return jv{native: v}
}

// nativeOf is the native value of v, a Tree or a native value.
func nativeOf(v any) any {
	if t, ok := v.(celtree.Tree); ok {
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
	case celtree.TreeNull:
		return nullBit, true
	case celtree.TreeBool:
		return boolBit, true
	case celtree.TreeNumber:
		return jsonTypeBit(v.t.Scalar())
	case celtree.TreeString:
		return stringBit, true
	case celtree.TreeArray:
		return arrayBit, true
	case celtree.TreeObject:
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
	case celtree.TreeArray, celtree.TreeObject:
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
	case celtree.TreeArray, celtree.TreeObject:
		return collection{}
	}
	return v.t.Scalar()
}

// isArray and isObject report v's type without building anything.
func (v jv) isArray() bool {
	if v.t != nil {
		return v.t.JSONType() == celtree.TreeArray
	}
	_, ok := v.native.([]any)
	return ok
}

func (v jv) isObject() bool {
	if v.t != nil {
		return v.t.JSONType() == celtree.TreeObject
	}
	_, ok := v.native.(map[string]any)
	return ok
}

// copyOf is v, a native value or a Tree, as a native value: a Tree's is
// its Native, which a document's Tree makes anew and nothing keeps. It is
// for what needs a schema's native value once, such as compiling it.
func copyOf(v any) any {
	if t, ok := v.(celtree.Tree); ok {
		return t.Native()
	}
	return v
}

// equal is jsonEqual of the two values' native forms.
func (v jv) equal(o any) (eq, sure bool) { return jsonEqual(v.scalar(), o) }

// instance is a value to validate: the document value a view reads, in
// place, or else the native value.
func instance(v ref.Val) (any, error) {
	if tv, ok := v.(celtree.TreeValue); ok {
		return tv.Tree(), nil
	}
	return ToNative(v)
}
