package engine

import (
	"fmt"
	"math"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/celint/celint/internal/celtree"
	"github.com/celint/celint/loader"
)

// A shape is a compiled 'assume' schema: a small subset of JSON Schema
// (type, required, properties, items, enum, const, minItems, minLength),
// checked by a direct walk of the value rather than a full validation, so
// that it costs about as much as the guards it replaces.
type shape struct {
	never      bool     // the schema false
	types      []string // JSON types the value may have; nil for any
	required   []string
	properties []namedShape
	items      *shape
	enum       []any // the values allowed (an empty list allows none); nil for any
	minItems   int
	minLength  int
}

type namedShape struct {
	name  string
	shape *shape
}

// shapeKeywords are the JSON Schema keywords an assume schema may use.
var shapeKeywords = []string{"type", "required", "properties", "items", "enum", "const", "minItems", "minLength"}

var jsonTypes = []string{"null", "boolean", "object", "array", "number", "integer", "string"}

// compileShape compiles an assume schema written at n in file.
func compileShape(file string, n *loader.Node) (*shape, error) {
	var issues loader.Issues
	add := func(p loader.Pos, format string, args ...any) {
		issues.Append(&loader.Error{File: file, Pos: p, Msg: fmt.Sprintf(format, args...)})
	}
	var build func(n *loader.Node) *shape
	build = func(n *loader.Node) *shape {
		s := &shape{}
		if b, ok := n.Value().(bool); ok {
			s.never = !b
			return s
		}
		if n.Kind != loader.Object {
			add(n.Pos, "assume: expected a schema (a mapping or a boolean), found a %s", n.Kind)
			return s
		}
		for _, m := range n.Children() {
			switch m.Key() {
			case "type":
				for _, t := range stringsOf(m) {
					if !slices.Contains(jsonTypes, t) {
						add(m.Pos, "assume: unknown type %q; expected one of %s", t, strings.Join(jsonTypes, ", "))
					}
					s.types = append(s.types, t)
				}
				if len(s.types) == 0 {
					add(m.Pos, "assume: type is a type name or a list of them")
				}
			case "required":
				s.required = stringsOf(m)
				if m.Kind != loader.Array || len(s.required) != m.Len() {
					add(m.Pos, "assume: required is a list of member names")
				}
			case "properties":
				if m.Kind != loader.Object {
					add(m.Pos, "assume: properties is a mapping of member names to schemas")
					continue
				}
				for _, p := range m.Children() {
					s.properties = append(s.properties, namedShape{p.Key(), build(p)})
				}
			case "items":
				s.items = build(m)
			case "enum":
				if m.Kind != loader.Array {
					add(m.Pos, "assume: enum is a list of values")
					continue
				}
				s.enum = make([]any, 0, m.Len())
				for _, c := range m.Children() {
					s.enum = append(s.enum, c.Value())
				}
			case "const":
				s.enum = []any{m.Value()}
			case "minItems", "minLength":
				i, ok := m.Value().(int64)
				if !ok || i < 0 {
					add(m.Pos, "assume: %s is a non-negative integer", m.Key())
					continue
				}
				if m.Key() == "minItems" {
					s.minItems = int(i)
				} else {
					s.minLength = int(i)
				}
			default:
				add(m.KeyPos, "assume: keyword %q is not supported in a precondition; use one of %s, or a CEL condition", m.Key(), strings.Join(shapeKeywords, ", "))
			}
		}
		return s
	}
	s := build(n)
	if err := issues.Err(); err != nil {
		return nil, err
	}
	return s, nil
}

func stringsOf(n *loader.Node) []string {
	if s, ok := n.Value().(string); ok {
		return []string{s}
	}
	var out []string
	for _, c := range n.Children() {
		if s, ok := c.Value().(string); ok {
			out = append(out, s)
		}
	}
	return out
}

// holds reports whether v has the shape.
func (s *shape) holds(v celtree.Tree) bool {
	if s.never {
		return false
	}
	if s.types != nil && !slices.ContainsFunc(s.types, func(t string) bool { return treeHasType(v, t) }) {
		return false
	}
	if s.enum != nil {
		var x any
		if t := v.JSONType(); t == celtree.TreeArray || t == celtree.TreeObject {
			x = v.Native()
		} else {
			x = v.Scalar()
		}
		if !slices.ContainsFunc(s.enum, func(e any) bool { return sameJSON(e, x) }) {
			return false
		}
	}
	switch v.JSONType() {
	case celtree.TreeObject:
		for _, r := range s.required {
			if _, ok := v.Member(r); !ok {
				return false
			}
		}
		for _, p := range s.properties {
			if m, ok := v.Member(p.name); ok && !p.shape.holds(m) {
				return false
			}
		}
	case celtree.TreeArray:
		if v.Len() < s.minItems {
			return false
		}
		if s.items != nil {
			for i := range v.Len() {
				if _, e := v.At(i); !s.items.holds(e) {
					return false
				}
			}
		}
	case celtree.TreeString:
		if t, _ := v.Scalar().(string); s.minLength > 0 && utf8.RuneCountInString(t) < s.minLength {
			return false
		}
	}
	return true
}

// treeHasType reports whether v has the JSON Schema type t.
func treeHasType(v celtree.Tree, t string) bool {
	switch v.JSONType() {
	case celtree.TreeArray:
		return t == "array"
	case celtree.TreeObject:
		return t == "object"
	}
	return hasType(v.Scalar(), t)
}

func hasType(v any, t string) bool {
	switch x := v.(type) {
	case nil:
		return t == "null"
	case bool:
		return t == "boolean"
	case string:
		return t == "string"
	case []any:
		return t == "array"
	case map[string]any:
		return t == "object"
	case int64:
		return t == "number" || t == "integer"
	case float64:
		return t == "number" || t == "integer" && x == math.Trunc(x) && !math.IsInf(x, 0)
	}
	return false
}

// sameJSON compares two JSON-compatible values as JSON Schema's enum and
// const do: numbers by their exact values, arrays item by item, objects
// member by member whatever their order.
func sameJSON(a, b any) bool {
	switch x := a.(type) {
	case int64:
		switch y := b.(type) {
		case int64:
			return x == y
		case float64:
			return intIsFloat(x, y)
		}
	case float64:
		switch y := b.(type) {
		case int64:
			return intIsFloat(y, x)
		case float64:
			return x == y
		}
	case nil, bool, string:
		return a == b
	case []any:
		y, ok := b.([]any)
		return ok && len(x) == len(y) && sameItems(x, y)
	case map[string]any:
		y, ok := b.(map[string]any)
		if !ok || len(x) != len(y) {
			return false
		}
		for k, e := range x {
			f, ok := y[k]
			if !ok || !sameJSON(e, f) {
				return false
			}
		}
		return true
	}
	return false
}

// sameItems compares two lists of the same length item by item.
func sameItems(x, y []any) bool {
	for i := range x {
		if !sameJSON(x[i], y[i]) {
			return false
		}
	}
	return true
}

// intIsFloat reports whether i and f are the same number, exactly: f is
// an integer in the int64 range, and equal to i.
func intIsFloat(i int64, f float64) bool {
	return f == math.Trunc(f) && f >= -(1<<63) && f < 1<<63 && int64(f) == i
}
