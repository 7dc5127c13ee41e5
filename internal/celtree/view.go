package celtree

// View is a value that code reading JSON values in place walks: a Tree, or
// else a native value. It is passed by value, so reading a Tree's members
// allocates nothing.
type View struct {
	t      Tree
	native any // when t is nil
}

// ViewOf is v, a Tree or a native value, as a View.
func ViewOf(v any) View {
	if t, ok := v.(Tree); ok {
		return View{t: t}
	}
	return View{native: v}
}

// TreeView is the View of a Tree.
func TreeView(t Tree) View { return View{t: t} }

// NativeView is the View of a native value.
func NativeView(v any) View { return View{native: v} }

// Tree is the Tree the view reads; nil for a native value.
func (v View) Tree() Tree { return v.t }

// Value is the native value the view reads; nil for a Tree.
func (v View) Value() any { return v.native }

// Scalar is a scalar's value; for a collection, its native value, made
// anew at each call for a Tree's.
func (v View) Scalar() any {
	if v.t == nil {
		return v.native
	}
	switch v.t.JSONType() {
	case TreeArray, TreeObject:
		return v.t.Native()
	}
	return v.t.Scalar()
}

// Len is the number of members or elements; 0 for a scalar.
func (v View) Len() int {
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

// Member returns an object's member.
func (v View) Member(name string) (View, bool) {
	if v.t != nil {
		m, ok := v.t.Member(name)
		return View{t: m}, ok
	}
	m, ok := v.native.(map[string]any)[name]
	return View{native: m}, ok
}

// Each calls fn for each member or element until it returns false, and
// reports whether it went through all of them. A native object's members
// come in the order of a Go map.
func (v View) Each(fn func(name string, e View) bool) bool {
	if v.t != nil {
		for i, n := 0, v.t.Len(); i < n; i++ {
			name, e := v.t.At(i)
			if !fn(name, View{t: e}) {
				return false
			}
		}
		return true
	}
	switch x := v.native.(type) {
	case map[string]any:
		for k, e := range x {
			if !fn(k, View{native: e}) {
				return false
			}
		}
	case []any:
		for _, e := range x {
			if !fn("", View{native: e}) {
				return false
			}
		}
	}
	return true
}

// collection stands for an array or an object in what Leaf returns.
type collection struct{}

// Leaf is a scalar's value, as Scalar gives it, and for an array or an
// object a value of a type of this package's own, none of the scalar
// types: it does not build the collection's native value.
func (v View) Leaf() any {
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

// IsArray reports whether v is an array, without building anything.
func (v View) IsArray() bool {
	if v.t != nil {
		return v.t.JSONType() == TreeArray
	}
	_, ok := v.native.([]any)
	return ok
}

// IsObject reports whether v is an object, without building anything.
func (v View) IsObject() bool {
	if v.t != nil {
		return v.t.JSONType() == TreeObject
	}
	_, ok := v.native.(map[string]any)
	return ok
}
