package schemafast

import (
	"fmt"
	"math"
	"math/big"
	"unicode/utf8"

	"github.com/celint/celint/internal/celtree"
)

// A document usually embeds many small schemas (a tool's input and output
// schemas, a form's fields), each validated against a value or two. For
// such a schema, compiling it with the library costs far more than the
// validations. So a 2020-12 schema of the plain subset below, with no
// reference and valid against the metaschema (MetaValid), can be kept as
// it is: such a schema is known to compile, and a value is first checked
// against the schema's own value by RawValid, which answers only "valid"
// or "not sure". The library compiles the schema when a value is not
// surely valid, or when its compiled form is needed, so that every
// finding is still the library's.

// rawKeywords are the keywords of the plain subset: what rawValid
// implements, plus the annotations, which do not affect validity. A
// keyword is an annotation, data (its value is not a schema), one
// subschema, a list of them or a map of them.
var rawKeywords = map[string]rawKeyword{
	"$schema": rawData, "title": rawData, "description": rawData, "default": rawData, "examples": rawData,
	"deprecated": rawData, "readOnly": rawData, "writeOnly": rawData, "$comment": rawData,
	"type": rawData, "enum": rawData, "const": rawData, "required": rawData, "uniqueItems": rawData,
	"minimum": rawData, "maximum": rawData, "exclusiveMinimum": rawData, "exclusiveMaximum": rawData,
	"minLength": rawData, "maxLength": rawData, "minItems": rawData, "maxItems": rawData,
	"minProperties": rawData, "maxProperties": rawData,
	"additionalProperties": rawOne, "items": rawOne, "not": rawOne,
	"allOf": rawList, "anyOf": rawList, "oneOf": rawList,
	"properties": rawMap, "$defs": rawMap,
}

type rawKeyword uint8

const (
	rawData rawKeyword = iota
	rawOne
	rawList
	rawMap
)

// RawSubset reports whether every keyword of the schema doc and of its
// subschemas is one of the plain subset's (the shapes of their values are
// the metaschema's business). A schema RawValid reads is one of the
// subset, with no reference, that MetaValid passes and the library
// compiles without error.
func RawSubset(doc any) bool { return rawSubset(doc, 0) }

func rawSubset(v any, depth int) bool {
	if depth > maxFastDepth {
		return false
	}
	switch s := v.(type) {
	case bool:
		return true
	case map[string]any:
		for k, e := range s {
			kind, ok := rawKeywords[k]
			if !ok {
				return false
			}
			switch kind {
			case rawOne:
				if !rawSubset(e, depth+1) {
					return false
				}
			case rawList:
				l, _ := e.([]any)
				for _, x := range l {
					if !rawSubset(x, depth+1) {
						return false
					}
				}
			case rawMap:
				m, _ := e.(map[string]any)
				for _, x := range m {
					if !rawSubset(x, depth+1) {
						return false
					}
				}
			}
		}
		return true
	}
	return false
}

// RawValid reports whether v is valid against the schema s, one of the
// plain subset (see RawSubset), when sure is true; when sure is false it
// cannot tell, and the library must. It follows Schema.check keyword by
// keyword. The schema and the value are native values or Trees, read in
// place.
func RawValid(s, v any) (ok, sure bool) {
	return rawValidAt(celtree.ViewOf(s), celtree.ViewOf(v), 0)
}

func rawValidAt(s jv, v jv, depth int) (ok, sure bool) {
	if depth > maxFastDepth {
		return false, false
	}
	if s.IsObject() {
		return rawValidObject(s, v, depth)
	}
	if b, isBool := s.Leaf().(bool); isBool {
		return b, true
	}
	return false, false
}

func rawValidObject(s jv, v jv, depth int) (ok, sure bool) {
	t, known := typeBit(v)
	if !known {
		return false, false
	}
	ok, sure = true, true
	s.Each(func(k string, kv jv) bool {
		ok, sure = rawCheck(k, kv, s, v, t, depth)
		return ok && sure
	})
	return ok, sure
}

// rawCheck applies one keyword of the schema s to v.
func rawCheck(k string, kv jv, s jv, v jv, t uint8, depth int) (ok, sure bool) {
	switch k {
	case "type":
		bits, ok := rawTypeBits(kv)
		if !ok {
			return false, false
		}
		if bits&t == 0 && !(bits&integerBit != 0 && t == numberBit && isWhole(v.Scalar())) {
			return false, true
		}
	case "const":
		if eq, sure := equal(v, kv.Scalar()); !eq || !sure {
			return false, sure
		}
	case "enum":
		if !kv.IsArray() {
			return false, false
		}
		found, sure := false, true
		kv.Each(func(_ string, e jv) bool {
			var eq bool
			eq, sure = equal(v, e.Scalar())
			found = eq && sure
			return sure && !eq
		})
		if !found || !sure {
			return false, sure
		}
	case "not":
		ok, sure := rawValidAt(kv, v, depth+1)
		if !sure || ok {
			return false, sure
		}
	case "allOf", "anyOf", "oneOf":
		if !kv.IsArray() {
			return false, false
		}
		matched, sure := 0, true
		allOK := true
		kv.Each(func(_ string, sub jv) bool {
			var ok bool
			ok, sure = rawValidAt(sub, v, depth+1)
			if !sure {
				return false
			}
			if ok {
				matched++
			} else if k == "allOf" {
				allOK = false
				return false
			}
			return true
		})
		if !sure {
			return false, false
		}
		if !allOK || k == "anyOf" && matched == 0 || k == "oneOf" && matched != 1 {
			return false, true
		}
	default:
		return rawValidKind(k, kv, s, v, t, depth)
	}
	return true, true
}

// rawValidKind applies the keywords that concern one kind of value (t is
// v's type bit); any other keyword here is an annotation.
func rawValidKind(k string, kv jv, s jv, v jv, t uint8, depth int) (ok, sure bool) {
	ok, sure = true, true
	switch t {
	case objectBit:
		switch k {
		case "required":
			if !kv.IsArray() {
				return false, false
			}
			kv.Each(func(_ string, name jv) bool {
				n, isString := name.Leaf().(string)
				if !isString {
					ok, sure = false, false
				} else if _, found := v.Member(n); !found {
					ok = false
				}
				return ok && sure
			})
		case "minProperties", "maxProperties":
			return rawBound(k == "minProperties", v.Len(), kv)
		case "properties":
			if !kv.IsObject() {
				return false, false
			}
			kv.Each(func(name string, ps jv) bool {
				if pv, found := v.Member(name); found {
					ok, sure = rawValidAt(ps, pv, depth+1)
				}
				return ok && sure
			})
		case "additionalProperties":
			props, _ := s.Member("properties")
			declared := func(name string) bool {
				if !props.IsObject() {
					return false
				}
				_, found := props.Member(name)
				return found
			}
			v.Each(func(name string, pv jv) bool {
				if !declared(name) {
					ok, sure = rawValidAt(kv, pv, depth+1)
				}
				return ok && sure
			})
		}
	case arrayBit:
		switch k {
		case "minItems", "maxItems":
			return rawBound(k == "minItems", v.Len(), kv)
		case "uniqueItems":
			if u, _ := kv.Leaf().(bool); u {
				return unique(v)
			}
		case "items":
			v.Each(func(_ string, it jv) bool {
				ok, sure = rawValidAt(kv, it, depth+1)
				return ok && sure
			})
		}
	case stringBit:
		switch k {
		case "minLength", "maxLength":
			x, _ := v.Scalar().(string)
			return rawBound(k == "minLength", utf8.RuneCountInString(x), kv)
		}
	case numberBit:
		switch k {
		case "minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum":
			c, ok := compareNumbers(v.Scalar(), kv.Leaf())
			if !ok {
				return false, false
			}
			switch {
			case k == "minimum" && c < 0, k == "maximum" && c > 0,
				k == "exclusiveMinimum" && c <= 0, k == "exclusiveMaximum" && c >= 0:
				return false, true
			}
		}
	}
	return ok, sure
}

// rawTypeBits is the typeBits of a type keyword's value.
func rawTypeBits(v jv) (uint8, bool) {
	if s, ok := v.Leaf().(string); ok {
		bit, ok := typeBits[s]
		return bit, ok
	}
	if !v.IsArray() {
		return 0, false
	}
	var bits uint8
	ok := v.Each(func(_ string, e jv) bool {
		s, _ := e.Leaf().(string)
		bit, ok := typeBits[s]
		bits |= bit
		return ok
	})
	return bits, ok
}

// rawBound checks a count against a min* (min true) or max* keyword's
// value, a non-negative integer (written 2 or 2.0). It is not sure of a
// bound beyond 2^53 (a uint64, or a float64 that large): the library keeps
// a bound as an int, and one beyond its range needs the care package cel
// takes of it (clampBounds).
func rawBound(min bool, n int, bound jv) (ok, sure bool) {
	var b float64
	switch x := bound.Leaf().(type) {
	case int64:
		b = float64(x)
	case float64:
		b = x
	default:
		return false, false
	}
	if b > 1<<53 {
		return false, false
	}
	if min {
		return float64(n) >= b, true
	}
	return float64(n) <= b, true
}

// compareNumbers compares two document numbers by their decimal values,
// as the library does: -1, 0 or 1; false when either is not a number.
func compareNumbers(a, b any) (int, bool) {
	switch x := a.(type) {
	case int64:
		switch y := b.(type) {
		case int64:
			return cmpOrdered(x, y), true
		case float64:
			if exactFloat(x) {
				return cmpOrdered(float64(x), y), true
			}
		}
	case float64:
		switch y := b.(type) {
		case float64:
			return cmpOrdered(x, y), true
		case int64:
			if exactFloat(y) {
				return cmpOrdered(x, float64(y)), true
			}
		}
	}
	// Large integers against floats: exact rational arithmetic.
	ra, ok1 := ratOf(a)
	rb, ok2 := ratOf(b)
	if !ok1 || !ok2 {
		return 0, false
	}
	return ra.Cmp(rb), true
}

// exactFloat reports whether float64 holds i exactly.
func exactFloat(i int64) bool { return i >= -1<<53 && i <= 1<<53 }

func cmpOrdered[T int64 | float64](a, b T) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// ratOf is a number's decimal value, as the fast path reads it.
func ratOf(v any) (*big.Rat, bool) {
	switch x := v.(type) {
	case int64:
		return new(big.Rat).SetInt64(x), true
	case float64:
		if math.IsNaN(x) || math.IsInf(x, 0) {
			return nil, false
		}
		return new(big.Rat).SetString(fmt.Sprintf("%v", x))
	}
	return nil, false
}
