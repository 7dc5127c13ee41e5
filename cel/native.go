package cel

import (
	"encoding/base64"
	"fmt"
	"math"
	"strconv"

	"github.com/celint/celint/internal/celtree"
	"github.com/google/cel-go/common/types"
	"github.com/google/cel-go/common/types/ref"
	"github.com/google/cel-go/common/types/traits"
)

// ToNative converts a CEL value to a JSON-compatible Go value: nil, bool,
// int64, float64, string, []any or map[string]any.
//
//   - uint becomes int64 when it fits, float64 otherwise;
//   - an optional becomes its value, or nil when empty;
//   - bytes become a standard base64 string, timestamps and durations their
//     CEL string form (as in the protobuf JSON mapping);
//   - map keys of type int, uint or bool become their decimal/"true"/"false"
//     text;
//   - an error value is returned as the error; unknowns and other values
//     without a JSON form (types, protobuf messages) are errors.
func ToNative(v ref.Val) (any, error) {
	if v == nil {
		return nil, nil
	}
	if tv, ok := v.(celtree.TreeValue); ok {
		// A document's map or list: JSON by construction (Tree.Native),
		// not walked again to check it.
		switch n := tv.Tree().Native().(type) {
		case map[string]any, []any:
			return n, nil
		}
	}
	switch t := v.(type) {
	case types.Null:
		return nil, nil
	case types.Bool:
		return bool(t), nil
	case types.Int:
		return int64(t), nil
	case types.Uint:
		if uint64(t) <= math.MaxInt64 {
			return int64(t), nil
		}
		return float64(t), nil
	case types.Double:
		return float64(t), nil
	case types.String:
		return string(t), nil
	case types.Bytes:
		return base64.StdEncoding.EncodeToString([]byte(t)), nil
	case *types.Err:
		return nil, t
	case *types.Unknown:
		return nil, fmt.Errorf("celint: unknown value %v has no JSON form", t)
	case *types.Optional:
		if !t.HasValue() {
			return nil, nil
		}
		return ToNative(t.GetValue())
	case types.Timestamp, types.Duration:
		s := t.ConvertToType(types.StringType)
		if str, ok := s.(types.String); ok {
			return string(str), nil
		}
		return nil, fmt.Errorf("celint: %s value has no JSON form", v.Type().TypeName())
	case traits.Mapper:
		if m, ok := t.Value().(map[string]any); ok && isJSON(m, 0) {
			return m, nil // a document's value, shared as it is
		}
		out := make(map[string]any)
		it := t.Iterator()
		for it.HasNext() == types.True {
			k := it.Next()
			key, err := mapKeyString(k)
			if err != nil {
				return nil, err
			}
			val, err := ToNative(t.Get(k))
			if err != nil {
				return nil, err
			}
			out[key] = val
		}
		return out, nil
	case traits.Lister:
		if l, ok := t.Value().([]any); ok && isJSON(l, 0) {
			return l, nil
		}
		n, ok := t.Size().(types.Int)
		if !ok {
			return nil, fmt.Errorf("celint: list has no size")
		}
		out := make([]any, 0, int(n))
		it := t.Iterator()
		for it.HasNext() == types.True {
			val, err := ToNative(it.Next())
			if err != nil {
				return nil, err
			}
			out = append(out, val)
		}
		return out, nil
	}
	return nil, fmt.Errorf("celint: %s value has no JSON form", v.Type().TypeName())
}

// isJSON reports whether v, a native value behind a CEL map or list (a
// document's value, as the loader builds it), is already JSON-compatible in
// ToNative's sense, so that it can be returned without a copy. Callers
// never modify what ToNative returns. Values nested deeper than the
// loader's ceiling are converted instead.
func isJSON(v any, depth int) bool {
	if depth > 10_000 {
		return false
	}
	switch t := v.(type) {
	case nil, bool, int64, string:
		return true
	case float64:
		return !math.IsNaN(t) && !math.IsInf(t, 0)
	case []any:
		for _, e := range t {
			if !isJSON(e, depth+1) {
				return false
			}
		}
		return true
	case map[string]any:
		for _, e := range t {
			if !isJSON(e, depth+1) {
				return false
			}
		}
		return true
	}
	return false
}

func mapKeyString(k ref.Val) (string, error) {
	switch t := k.(type) {
	case types.String:
		return string(t), nil
	case types.Int:
		return strconv.FormatInt(int64(t), 10), nil
	case types.Uint:
		return strconv.FormatUint(uint64(t), 10), nil
	case types.Bool:
		return strconv.FormatBool(bool(t)), nil
	}
	return "", fmt.Errorf("celint: map key of type %s has no JSON form", k.Type().TypeName())
}

// jsonTypeOf names the JSON type of a CEL value, or "" when it has none.
func jsonTypeOf(v ref.Val) string {
	switch v.(type) {
	case types.Null:
		return "null"
	case types.Bool:
		return "boolean"
	case types.Int, types.Uint, types.Double:
		return "number"
	case types.String:
		return "string"
	case traits.Mapper:
		return "object"
	case traits.Lister:
		return "array"
	}
	return ""
}
