package cel

import (
	"github.com/google/cel-go/common/types"
	"github.com/google/cel-go/common/types/ref"
	"github.com/google/cel-go/common/types/traits"

	"github.com/celint/celint/internal/jsonpointer"
)

// JSON Pointer syntax (parsing, escaping, array indices) lives in
// internal/jsonpointer; this file walks CEL values with its tokens.

// lookupPointer follows tokens from v. It reports false when a member or
// index does not exist, when an array index is not a canonical decimal
// (no sign, no leading zeros; "-" names the nonexistent element after the
// last), or when a token meets a scalar.
func lookupPointer(v ref.Val, tokens []string) (ref.Val, bool) {
	for _, tok := range tokens {
		next, ok := child(v, tok)
		if !ok {
			return nil, false
		}
		v = next
	}
	return v, true
}

// child returns the member or element of v that tok names.
func child(v ref.Val, tok string) (ref.Val, bool) {
	switch t := v.(type) {
	case traits.Mapper:
		got, found := t.Find(types.String(tok))
		if !found || got == nil || types.IsError(got) {
			return nil, false
		}
		return got, true
	case traits.Lister:
		idx, ok := jsonpointer.ArrayIndex(tok)
		if !ok {
			return nil, false
		}
		size, ok := t.Size().(types.Int)
		if !ok || int64(idx) >= int64(size) {
			return nil, false
		}
		got := t.Get(types.Int(idx))
		if types.IsError(got) {
			return nil, false
		}
		return got, true
	}
	return nil, false
}
