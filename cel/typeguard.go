package cel

import (
	"reflect"

	"github.com/google/cel-go/common/decls"
	"github.com/google/cel-go/common/functions"
	"github.com/google/cel-go/common/types"
	"github.com/google/cel-go/common/types/ref"
	"github.com/google/cel-go/common/types/traits"
)

// cel-go guards every call of a function overload with a run-time check
// that its arguments have the declared types. For a map or a list it reads
// the first element through an iterator, which allocates (for a Go map, a
// reflect iterator): for `schemaError(self, {"dialect": ...})` that is a
// third of the call's allocations, on every node.
//
// fastBindings keeps cel-go's guard and answers the common cases without
// it: when every argument certainly has its declared type, the unguarded
// binding runs; otherwise the guarded one, which reports a mismatch as
// cel-go does. "Certainly" is decided only where the answer cannot differ
// from cel-go's (assignable reports whether it knows).

// fastBindings returns fn's bindings with each overload's guard answered
// first by assignable: by overload id, as fn.Bindings gives them. The
// function-level dispatcher, when there is one, is left as it is.
func fastBindings(fn *decls.FunctionDecl) ([]*functions.Overload, error) {
	guarded, err := fn.Bindings()
	if err != nil {
		return nil, err
	}
	// The same declaration without type guards: its bindings call the
	// implementations directly. The copy shares fn's overloads, which
	// neither changes.
	bare := *fn
	if _, err := decls.DisableTypeGuards(true)(&bare); err != nil {
		return guarded, nil
	}
	unguarded, err := bare.Bindings()
	if err != nil || len(unguarded) != len(guarded) {
		return guarded, nil
	}
	byID := map[string]*decls.OverloadDecl{}
	for _, o := range fn.OverloadDecls() {
		byID[o.ID()] = o
	}
	out := make([]*functions.Overload, len(guarded))
	for i, g := range guarded {
		out[i] = g
		o := byID[g.Operator]
		if o == nil || g.Operator == fn.Name() || unguarded[i].Operator != g.Operator {
			continue
		}
		out[i] = withFastGuard(o, g, unguarded[i])
	}
	return out, nil
}

// withFastGuard returns g, whose calls run u, g's implementation without
// its guard, when the arguments certainly match o's signature, and g
// otherwise.
func withFastGuard(o *decls.OverloadDecl, g, u *functions.Overload) *functions.Overload {
	argTypes := o.ArgTypes()
	trait := o.OperandTrait()
	fast := *g
	if g.Unary != nil && u.Unary != nil && len(argTypes) == 1 {
		t := argTypes[0]
		fast.Unary = func(a ref.Val) ref.Val {
			if assignable(t, a) && hasTrait(trait, a) {
				return u.Unary(a)
			}
			return g.Unary(a)
		}
	}
	if g.Binary != nil && u.Binary != nil && len(argTypes) == 2 {
		t0, t1 := argTypes[0], argTypes[1]
		fast.Binary = func(a, b ref.Val) ref.Val {
			if assignable(t0, a) && assignable(t1, b) && hasTrait(trait, a) {
				return u.Binary(a, b)
			}
			return g.Binary(a, b)
		}
	}
	if g.Function != nil && u.Function != nil {
		fast.Function = func(args ...ref.Val) ref.Val {
			if len(args) == len(argTypes) && len(args) > 0 && hasTrait(trait, args[0]) {
				ok := true
				for i, a := range args {
					if !assignable(argTypes[i], a) {
						ok = false
						break
					}
				}
				if ok {
					return u.Function(args...)
				}
			}
			return g.Function(args...)
		}
	}
	return &fast
}

func hasTrait(trait int, v ref.Val) bool {
	return trait == 0 || v.Type().HasTrait(trait)
}

// assignable reports whether v is certainly of type t as cel-go's guard
// judges it (types.Type.IsAssignableRuntimeType): false also when the
// answer is no, or not known without the guard's own walk. An error or an
// unknown is never certain (a non-strict overload accepts them, a strict
// one does not).
func assignable(t *types.Type, v ref.Val) bool {
	if v == nil || types.IsUnknownOrError(v) {
		return false
	}
	if isDyn(t) {
		return true
	}
	// The types whose assignability is their name alone, and the lists
	// and maps (whose element types cel-go checks on the first element).
	switch t {
	case types.BoolType, types.IntType, types.UintType, types.DoubleType, types.StringType,
		types.BytesType, types.NullType, types.DurationType, types.TimestampType:
		return t.TypeName() == v.Type().TypeName()
	}
	switch t.Kind() {
	case types.ListKind:
		if v.Type().TypeName() != t.TypeName() {
			return false
		}
		elem := t.Parameters()[0]
		if isDyn(elem) {
			return true
		}
		l, ok := v.(traits.Lister)
		if !ok {
			return false
		}
		if l.Size() == types.IntZero {
			return true
		}
		// cel-go reads the first element through the list's iterator;
		// every list gives its elements in index order.
		return assignable(elem, l.Get(types.IntZero))
	case types.MapKind:
		if v.Type().TypeName() != t.TypeName() {
			return false
		}
		key, elem := t.Parameters()[0], t.Parameters()[1]
		if isDyn(key) && isDyn(elem) {
			return true
		}
		m, ok := v.(traits.Mapper)
		if !ok {
			return false
		}
		if m.Size() == types.IntZero {
			return true
		}
		// cel-go checks the entry its iterator gives first; which one that
		// is is known only when every entry would pass: a map literal's Go
		// map can be read without the iterator.
		if reflect.TypeOf(m) != refValMapType {
			return false // its Value may be a copy
		}
		entries, ok := m.Value().(map[ref.Val]ref.Val)
		if !ok {
			return false
		}
		for k, e := range entries {
			if !assignable(key, k) || !assignable(elem, e) {
				return false
			}
		}
		return true
	}
	return false
}

// refValMapType is the type of cel-go's maps of CEL values (a map
// literal's), whose Value is the map they hold.
var refValMapType = reflect.TypeOf(types.NewRefValMap(types.DefaultTypeAdapter, map[ref.Val]ref.Val{}))

func isDyn(t *types.Type) bool {
	switch t.Kind() {
	case types.DynKind, types.AnyKind, types.TypeParamKind:
		return true
	}
	return false
}
