package celtree

import (
	"unsafe"

	"github.com/google/cel-go/common/types"
	"github.com/google/cel-go/common/types/ref"
)

// A document's scalars are read far more often than anything else: every
// field an expression selects is one. Making a CEL value of a Go string,
// int64 or float64 boxes it in a new interface value, an allocation per
// read. But a document node gives its scalar as an any that points at the
// node's own storage (loader.Node.Value), and its member name by address
// (loader.Node.KeyRef): a CEL value can share that storage. The CEL types
// are defined on the same Go types (types.String is a string, types.Int an
// int64, ...), so a CEL value is the document's interface value with its
// type word swapped for the CEL type's. The storage is never written after
// the document is read, so sharing it is safe.

// ifaceWords is the layout of an interface value: its type (or itab) word
// and its data word.
type ifaceWords struct {
	tab, data unsafe.Pointer
}

// itabOf is the type word of a CEL value of v's type.
func itabOf(v ref.Val) unsafe.Pointer { return (*ifaceWords)(unsafe.Pointer(&v)).tab }

// The type words of the CEL scalar types, as ref.Val. They are set once,
// when the package is initialised, and only read after.
var (
	stringTab = itabOf(types.String(""))
	intTab    = itabOf(types.Int(0))
	doubleTab = itabOf(types.Double(0))
	boolTab   = itabOf(types.Bool(false))
)

// valueAt is the ref.Val with type word tab and data word data.
func valueAt(tab, data unsafe.Pointer) ref.Val {
	var v ref.Val
	w := (*ifaceWords)(unsafe.Pointer(&v))
	w.tab, w.data = tab, data
	return v
}

// ScalarValue returns the CEL value of a JSON scalar held in v (nil, bool,
// int64, float64 or string) without allocating: the CEL value shares v's
// storage, which must never change while the value is in use, as a parsed
// document's scalars never do. Any other value is converted by cel-go's
// default adapter.
func ScalarValue(v any) ref.Val {
	data := (*ifaceWords)(unsafe.Pointer(&v)).data
	switch v.(type) {
	case nil:
		return types.NullValue
	case string:
		return valueAt(stringTab, data)
	case int64:
		return valueAt(intTab, data)
	case float64:
		return valueAt(doubleTab, data)
	case bool:
		return valueAt(boolTab, data)
	}
	return types.DefaultTypeAdapter.NativeToValue(v)
}

// StringAt returns *p as a CEL string without allocating: the value shares
// *p, which must never change while the value is in use, as the member
// names of a parsed document never do.
func StringAt(p *string) ref.Val { return valueAt(stringTab, unsafe.Pointer(p)) }
