package schemafast

import (
	"math"

	"github.com/celint/celint/internal/celtree"
)

// PlainValid reports, in one walk, that doc is a 2020-12 schema that
// RawValid may read as it is: of the plain subset (RawSubset), valid
// against the 2020-12 metaschema, free of references and of anything that
// depends on where it is compiled, and of fewer than limit values.
//
// It is a fast, stricter form of RawSubset(doc) && MetaValid(doc) and a
// walk that finds no reference and counts the values, which read the
// schema four times, once against the whole metaschema: what it accepts
// they accept (FuzzPlainValid), and what it refuses is left to them. Each
// keyword's value is checked as the metaschema's vocabularies require it;
// a member name starting with '$' inside a keyword's data (const, enum,
// default, examples) is refused outright.
func PlainValid(doc any, limit int) bool {
	w := plainWalk{limit: limit}
	return w.schema(celtree.ViewOf(doc), 0, true) && w.values < limit
}

// plainMaxDepth bounds the nesting PlainValid walks, far below what the
// metaschema's fast path allows (maxFastDepth, which counts the
// metaschema's own levels too); past it, it leaves the schema to them.
// plainMaxStrings bounds a "type" or "required" list, whose names are
// compared pairwise.
const (
	plainMaxDepth   = 64
	plainMaxStrings = 64
)

// plainWalk counts the values of the schema it walks. It reads a
// document's schema in place (jv), building no native value.
type plainWalk struct{ values, limit int }

// simpleType reports whether s is one of the names "type" may hold.
func simpleType(s string) bool {
	switch s {
	case "array", "boolean", "integer", "null", "number", "object", "string":
		return true
	}
	return false
}

func (w *plainWalk) schema(v jv, depth int, root bool) bool {
	if depth > plainMaxDepth || w.values >= w.limit {
		return false
	}
	w.values++
	if !v.IsObject() {
		_, ok := v.Leaf().(bool)
		return ok
	}
	return v.Each(func(k string, e jv) bool { return w.keyword(k, e, depth, root) })
}

// keyword checks one keyword of a schema object and its value.
func (w *plainWalk) keyword(k string, e jv, depth int, root bool) bool {
	switch k {
	case "$schema":
		w.values++
		s, _ := e.Leaf().(string)
		return root && (s == "https://json-schema.org/draft/2020-12/schema" || s == "https://json-schema.org/draft/2020-12/schema#")
	case "title", "description", "$comment":
		w.values++
		_, ok := e.Leaf().(string)
		return ok
	case "default", "const":
		return w.data(e, depth+1)
	case "examples", "enum":
		return e.IsArray() && w.data(e, depth+1)
	case "deprecated", "readOnly", "writeOnly", "uniqueItems":
		w.values++
		_, ok := e.Leaf().(bool)
		return ok
	case "type":
		w.values++
		if s, ok := e.Leaf().(string); ok {
			return simpleType(s)
		}
		if !e.IsArray() || e.Len() == 0 {
			return false
		}
		return w.uniqueStrings(e, simpleType)
	case "required":
		w.values++
		return e.IsArray() && w.uniqueStrings(e, nil)
	case "minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum":
		w.values++
		switch n := e.Leaf().(type) {
		case int64, uint64:
			return true
		case float64:
			return !math.IsNaN(n) && !math.IsInf(n, 0)
		}
		return false
	case "minLength", "maxLength", "minItems", "maxItems", "minProperties", "maxProperties":
		w.values++
		switch n := e.Leaf().(type) {
		case int64:
			return n >= 0
		case uint64:
			return true
		case float64:
			return n >= 0 && n <= 1<<53 && n == math.Trunc(n)
		}
		return false
	case "additionalProperties", "items", "not":
		return w.schema(e, depth+1, false)
	case "allOf", "anyOf", "oneOf":
		w.values++
		if !e.IsArray() || e.Len() == 0 {
			return false
		}
		return e.Each(func(_ string, x jv) bool { return w.schema(x, depth+2, false) })
	case "properties", "$defs":
		w.values++
		if !e.IsObject() {
			return false
		}
		return e.Each(func(_ string, x jv) bool { return w.schema(x, depth+2, false) })
	}
	return false
}

// uniqueStrings reports whether l, an array, holds distinct strings, each
// one that allowed accepts (any, when allowed is nil).
func (w *plainWalk) uniqueStrings(l jv, allowed func(string) bool) bool {
	n := l.Len()
	if n > plainMaxStrings {
		return false
	}
	w.values += n
	var buf [plainMaxStrings]string
	seen := buf[:0]
	return l.Each(func(_ string, x jv) bool {
		s, ok := x.Leaf().(string)
		if !ok || allowed != nil && !allowed(s) {
			return false
		}
		for _, y := range seen {
			if y == s {
				return false
			}
		}
		seen = append(seen, s)
		return true
	})
}

// data walks a keyword's data value: any JSON value, counted, whose
// objects have no member name starting with '$'.
func (w *plainWalk) data(v jv, depth int) bool {
	if depth > plainMaxDepth || w.values >= w.limit {
		return false
	}
	w.values++
	switch {
	case v.IsObject():
		return v.Each(func(k string, e jv) bool { return !(len(k) > 0 && k[0] == '$') && w.data(e, depth+1) })
	case v.IsArray():
		return v.Each(func(_ string, e jv) bool { return w.data(e, depth+1) })
	}
	switch v.Leaf().(type) {
	case nil, bool, string, int64, uint64, float64:
		return true
	}
	return false
}
