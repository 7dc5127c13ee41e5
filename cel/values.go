package cel

import (
	"encoding/base64"
	"math"

	"github.com/google/cel-go/common/types"
	"github.com/google/cel-go/common/types/ref"
	"github.com/google/cel-go/common/types/traits"
)

// The total helpers (asList, asMap, asString, asInt) return their argument
// unchanged when it has the wanted type, so the common case allocates
// nothing; an optional argument stands for its value (optional.none() for
// nothing, which gives the empty value).

// unwrapOptional returns the value an optional holds, or nil for
// optional.none(); any other value is returned as it is.
func unwrapOptional(v ref.Val) ref.Val {
	if o, ok := v.(*types.Optional); ok {
		if !o.HasValue() {
			return nil
		}
		return o.GetValue()
	}
	return v
}

// Each returns the interface value it got (not the asserted one, which
// would be boxed again: an allocation for a string or a large int).

func (l *library) asListBinding(v ref.Val) ref.Val {
	u := unwrapOptional(v)
	if _, ok := u.(traits.Lister); ok {
		return u
	}
	return l.emptyList
}

func (l *library) asMapBinding(v ref.Val) ref.Val {
	u := unwrapOptional(v)
	if _, ok := u.(traits.Mapper); ok {
		return u
	}
	return l.emptyMap
}

func asStringBinding(v ref.Val) ref.Val {
	u := unwrapOptional(v)
	if _, ok := u.(types.String); ok {
		return u
	}
	return types.String("")
}

func asIntBinding(v ref.Val) ref.Val {
	u := unwrapOptional(v)
	switch t := u.(type) {
	case types.Int:
		return u
	case types.Uint:
		if uint64(t) <= math.MaxInt64 {
			return types.Int(t)
		}
	case types.Double:
		// Integral and within int range: -2^63 <= f < 2^63 (NaN fails both).
		if f := float64(t); f == math.Trunc(f) && f >= -(1<<63) && f < 1<<63 {
			return types.Int(int64(f))
		}
	}
	return types.IntZero
}

// groupKey returns the indexesBy key of a member value: a string, or an
// integer number (int, uint or integral double) as an int, so that 1, 1u
// and 1.0 group together as CEL equality has it (a uint beyond int range
// stays a uint). ok is false for anything else.
func groupKey(v ref.Val) (ref.Val, bool) {
	switch t := v.(type) {
	case types.String, types.Int:
		return t, true
	case types.Uint:
		if uint64(t) <= math.MaxInt64 {
			return types.Int(t), true
		}
		return t, true
	case types.Double:
		if f := float64(t); f == math.Trunc(f) && f >= -(1<<63) && f < 1<<63 {
			return types.Int(int64(f)), true
		}
	}
	return nil, false
}

func indexesByBinding(listVal, fieldVal ref.Val) ref.Val {
	list, ok := listVal.(traits.Lister)
	if !ok {
		return types.MaybeNoSuchOverloadErr(listVal)
	}
	field, ok := fieldVal.(types.String)
	if !ok {
		return types.MaybeNoSuchOverloadErr(fieldVal)
	}
	size := 0
	if n, ok := list.Size().(types.Int); ok && n > 0 {
		size = int(n)
	}
	// A key per element is the most there can be; the map is made that
	// large up to a bound, so that a long list of few keys does not get
	// a large, empty table.
	at := make(map[ref.Val]int32, min(size, 1<<16))
	var keys []ref.Val
	key := make([]int32, 0, size) // each element's place in keys, -1 for none
	it := list.Iterator()
	for it.HasNext() == types.True {
		place := int32(-1)
		if m, ok := it.Next().(traits.Mapper); ok {
			if member, found := m.Find(field); found {
				if k, ok := groupKey(member); ok {
					p, seen := at[k]
					if !seen {
						p = int32(len(keys))
						at[k] = p
						keys = append(keys, k)
					}
					place = p
				}
			}
		}
		key = append(key, place)
	}
	return newGroups(keys, at, key)
}

func indexOfBinding(listVal, v ref.Val) ref.Val {
	list, ok := listVal.(traits.Lister)
	if !ok {
		return types.MaybeNoSuchOverloadErr(listVal)
	}
	it := list.Iterator()
	for i := 0; it.HasNext() == types.True; i++ {
		if types.Equal(it.Next(), v) == types.True {
			return types.Int(i)
		}
	}
	return types.IntNegOne
}

// base64Decode decodes standard base64, padded or not, as cel-go's
// base64.decode does.
func base64Decode(s string) ([]byte, bool) {
	b, err := base64.StdEncoding.DecodeString(s)
	if err == nil {
		return b, true
	}
	if _, corrupt := err.(base64.CorruptInputError); corrupt {
		if b, err := base64.RawStdEncoding.DecodeString(s); err == nil {
			return b, true
		}
	}
	return nil, false
}

func tryBase64DecodeBinding(v ref.Val) ref.Val {
	s, ok := v.(types.String)
	if !ok {
		return types.MaybeNoSuchOverloadErr(v)
	}
	b, ok := base64Decode(string(s))
	if !ok {
		return types.OptionalNone
	}
	return types.OptionalOf(types.Bytes(b))
}
