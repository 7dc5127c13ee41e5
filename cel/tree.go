package cel

import (
	"github.com/google/cel-go/common/types/ref"

	"github.com/celint/celint/internal/celtree"
)

// copyOf is v, a native value or a Tree, as a native value: a Tree's is
// its Native, which a document's Tree makes anew and nothing keeps. It is
// for what needs a schema's native value once, such as compiling it.
func copyOf(v any) any { return celtree.Native(v) }

// instance is a value to validate: the document value a view reads, in
// place, or else the native value.
func instance(v ref.Val) (any, error) {
	if tv, ok := v.(celtree.TreeValue); ok {
		return tv.Tree(), nil
	}
	return ToNative(v)
}
