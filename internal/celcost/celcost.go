// Package celcost holds the measures of celint's CEL cost model that the
// cel package's guard and the native evaluator (internal/celnative) both
// charge: the weight of a value, what an equality costs, and what a call's
// result costs beyond the call. Both evaluators read them from here, so
// that they charge the same.
package celcost

import (
	"github.com/celint/celint/internal/celtree"
	"github.com/google/cel-go/common/types"
	"github.com/google/cel-go/common/types/ref"
	"github.com/google/cel-go/common/types/traits"
)

// Weight is the size of a CEL value in cost units, as the guarded calls
// measure their arguments: one per value, plus a tenth of each string's or
// bytes' length (member names included), counting a value reachable along several paths once per
// path (the work a walk over it does). It stops counting past limit, so
// measuring costs at most limit steps, and then returns limit+1: where
// the walk stopped depends on the order it met a map's members in (a Go
// map's order, which changes from run to run), and the weight does not.
func Weight(v ref.Val, limit uint64) uint64 {
	w := weigher{limit: limit}
	w.walk(v)
	if w.n > limit {
		return limit + 1
	}
	return w.n
}

// walkNative weighs a document's value behind a CEL map or list, as walk
// would, without converting it.
func (w *weigher) walkNative(v any) {
	if w.n > w.limit {
		return
	}
	w.n++
	switch t := v.(type) {
	case string:
		w.n += uint64(len(t)) / 10
	case []any:
		for _, e := range t {
			if w.n > w.limit {
				return
			}
			w.walkNative(e)
		}
	case map[string]any:
		for k, e := range t {
			if w.n > w.limit {
				return
			}
			w.n += uint64(len(k)) / 10
			w.walkNative(e)
		}
	}
}

// walkTree weighs a document value in place, as walkNative weighs its
// native value.
func (w *weigher) walkTree(t celtree.Tree) {
	if w.n > w.limit {
		return
	}
	w.n++
	switch t.JSONType() {
	case celtree.TreeString:
		s, _ := t.Scalar().(string)
		w.n += uint64(len(s)) / 10
	case celtree.TreeArray, celtree.TreeObject:
		for i, n := 0, t.Len(); i < n && w.n <= w.limit; i++ {
			name, e := t.At(i)
			w.n += uint64(len(name)) / 10
			w.walkTree(e)
		}
	}
}

type weigher struct {
	n, limit uint64
}

func (w *weigher) walk(v ref.Val) {
	if w.n > w.limit {
		return
	}
	if tv, ok := v.(celtree.TreeValue); ok {
		w.walkTree(tv.Tree())
		return
	}
	w.n++
	switch t := v.(type) {
	case types.String:
		w.n += uint64(len(t)) / 10
	case types.Bytes:
		w.n += uint64(len(t)) / 10
	case traits.Mapper:
		switch m := t.Value().(type) {
		case map[string]any:
			w.n--
			w.walkNative(m)
			return
		case map[ref.Val]ref.Val: // a map built in CEL: no reflection
			for k, e := range m {
				if w.n > w.limit {
					return
				}
				if s, ok := k.(types.String); ok {
					w.n += uint64(len(s)) / 10
				}
				w.walk(e)
			}
			return
		}
		for it := t.Iterator(); it.HasNext() == types.True && w.n <= w.limit; {
			k := it.Next()
			if s, ok := k.(types.String); ok {
				w.n += uint64(len(s)) / 10
			}
			w.walk(t.Get(k))
		}
	case traits.Lister:
		switch l := t.Value().(type) {
		case []any:
			w.n--
			w.walkNative(l)
			return
		case []ref.Val: // a list built in CEL
			for _, e := range l {
				if w.n > w.limit {
					return
				}
				w.walk(e)
			}
			return
		}
		for it := t.Iterator(); it.HasNext() == types.True && w.n <= w.limit; {
			w.walk(it.Next())
		}
	}
}

// Equality is what == and != cost on operands that are not both Scalar:
// the walk of the smaller operand, where a comparison of two trees stops
// at the latest.
func Equality(args []ref.Val, limit uint64) uint64 {
	a := Weight(args[0], limit)
	return Weight(args[1], a)
}

// Scalar reports whether comparing v walks nothing: it is not a list, a
// map or a long string.
func Scalar(v ref.Val) bool {
	switch t := v.(type) {
	case types.String:
		return len(t) < 1024
	case traits.Lister, traits.Mapper:
		return false
	}
	return true
}

// Shallow is what a call's result costs beyond the call: the length of a
// list or map, a tenth of a string's or bytes' length.
func Shallow(v ref.Val) uint64 {
	switch t := v.(type) {
	case types.Bool, types.Int, types.Double, types.Null:
		return 0 // (most results: found before asking for a Sizer)
	case types.String:
		return uint64(len(t)) / 10
	case types.Bytes:
		return uint64(len(t)) / 10
	case traits.Sizer:
		if n, ok := t.Size().(types.Int); ok && n > 0 {
			return uint64(n)
		}
	}
	return 0
}
