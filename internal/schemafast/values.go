package schemafast

import "github.com/celint/celint/internal/celtree"

// jv is a value the fast paths read: a Tree, or else a native value.
type jv = celtree.View

// typeBit is the value's typeBits bit; false for a Go value the fast paths
// do not know.
func typeBit(v jv) (uint8, bool) {
	t := v.Tree()
	if t == nil {
		return jsonTypeBit(v.Value())
	}
	switch t.JSONType() {
	case celtree.TreeNull:
		return nullBit, true
	case celtree.TreeBool:
		return boolBit, true
	case celtree.TreeNumber:
		return jsonTypeBit(t.Scalar())
	case celtree.TreeString:
		return stringBit, true
	case celtree.TreeArray:
		return arrayBit, true
	case celtree.TreeObject:
		return objectBit, true
	}
	return 0, false
}

// in reports whether v equals one of the values of an enum.
func in(v jv, enum []any) (ok, sure bool) {
	x := v.Scalar() // (once: a collection's is built anew at each call)
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
func unique(v jv) (ok, sure bool) {
	var es []jv
	v.Each(func(_ string, e jv) bool {
		es = append(es, e)
		return true
	})
	for i := range es {
		for j := i + 1; j < len(es); j++ {
			eq, sure := equal(es[i], es[j].Scalar())
			if !sure || eq {
				return false, sure
			}
		}
	}
	return true, true
}

// equal is jsonEqual of the two values' native forms.
func equal(v jv, o any) (eq, sure bool) { return jsonEqual(v.Scalar(), o) }
