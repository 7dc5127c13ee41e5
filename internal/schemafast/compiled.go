package schemafast

import (
	"fmt"
	"math"
	"math/big"
	"regexp"
	"slices"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/celint/celint/internal/celtree"
)

// Schema is the fast path of a schema the library compiled. It is built
// from the compiled schema (so that references, drafts and keywords mean
// exactly what the JSON Schema library made of them) for the keywords
// most schemas use, and it gives up ("not sure") on anything else. It is
// safe for concurrent use.
type Schema struct {
	boolean *bool // a boolean schema
	types   uint8 // of the typeBits; 0: any type
	constv  *any
	enum    []any
	ref     *Schema
	refOnly bool    // drafts before 2019-09: $ref replaces its siblings
	dynRef  *Schema // a metaschema's $dynamicRef, to the metaschema itself
	not     *Schema
	allOf   []*Schema
	anyOf   []*Schema
	oneOf   []*Schema
	ifs     *Schema
	thens   *Schema
	elses   *Schema
	format  func(any) error

	minProps, maxProps int // -1: absent
	required           []string
	propNames          *Schema
	props              map[string]*Schema
	propList           []namedSchema // props, when they are few: a scan is quicker than the map
	patProps           []fastPattern
	addlFalse          bool // additionalProperties: false
	addl               *Schema

	minItems, maxItems int // -1: absent
	unique             bool
	items              *Schema

	minLen, maxLen int // -1: absent
	pattern        jsonschema.Regexp

	min, max, exMin, exMax *big.Rat

	// plain: the schema has no keyword but its types, and those of its
	// objects and arrays (check skips the others' tests).
	plain bool
}

type fastPattern struct {
	re jsonschema.Regexp
	s  *Schema
}

// The JSON types as bits of Schema.types.
const (
	nullBit uint8 = 1 << iota
	boolBit
	numberBit
	integerBit
	stringBit
	arrayBit
	objectBit
)

var typeBits = map[string]uint8{"null": nullBit, "boolean": boolBit, "number": numberBit, "integer": integerBit, "string": stringBit, "array": arrayBit, "object": objectBit}

// maxFastDepth bounds the fast path's recursion; deeper, it is not sure.
const maxFastDepth = 512

// New returns the fast path of a compiled schema, or nil when the schema,
// or a schema it refers to, uses a keyword the fast path does not
// implement.
func New(s *jsonschema.Schema) *Schema {
	b := fastBuilder{built: map[*jsonschema.Schema]*Schema{}}
	f := b.build(s)
	if b.unsupported {
		return nil
	}
	return f
}

type fastBuilder struct {
	built       map[*jsonschema.Schema]*Schema
	unsupported bool
	// meta is set when building a metaschema, to validate schemas as the
	// library does before it compiles them: each $dynamicRef to the
	// metaschema's dynamic anchor is the metaschema itself (the outermost
	// schema of the dynamic scope), and the regex format is asserted with
	// Go's regexp, the library's default engine.
	meta *jsonschema.Schema
}

func (b *fastBuilder) build(s *jsonschema.Schema) *Schema {
	if s == nil || b.unsupported {
		return nil
	}
	if f, ok := b.built[s]; ok {
		return f // a reference cycle: the schema being built
	}
	f := &Schema{minProps: -1, maxProps: -1, minItems: -1, maxItems: -1, minLen: -1, maxLen: -1}
	b.built[s] = f
	if s.Bool != nil {
		f.boolean = s.Bool
		return f
	}
	if d := s.DynamicRef; d != nil && b.meta != nil && d.Anchor != "" && d.Anchor == b.meta.DynamicAnchor && d.Ref != nil && d.Ref.DynamicAnchor == d.Anchor {
		f.dynRef = b.build(b.meta)
	} else if d != nil {
		b.unsupported = true
		return nil
	}
	regexFormat := s.Format != nil && s.Format.Name == "regex"
	if s.RecursiveRef != nil || s.Dependencies != nil || s.DependentRequired != nil ||
		s.DependentSchemas != nil || s.UnevaluatedProperties != nil || s.UnevaluatedItems != nil ||
		s.Contains != nil || s.PrefixItems != nil || s.AdditionalItems != nil || s.ContentEncoding != nil ||
		s.ContentMediaType != nil || s.ContentSchema != nil || s.MultipleOf != nil || len(s.Extensions) > 0 ||
		regexFormat && b.meta == nil {
		b.unsupported = true
		return nil
	}
	if s.Types != nil {
		for _, t := range s.Types.ToStrings() {
			bit, ok := typeBits[t]
			if !ok {
				b.unsupported = true
				return nil
			}
			f.types |= bit
		}
	}
	f.constv = s.Const
	if s.Enum != nil {
		f.enum = s.Enum.Values
		if f.enum == nil {
			f.enum = []any{}
		}
	}
	if s.Ref != nil {
		f.ref = b.build(s.Ref)
		f.refOnly = s.DraftVersion < 2019
	}
	f.not = b.build(s.Not)
	f.allOf = b.list(s.AllOf)
	f.anyOf = b.list(s.AnyOf)
	f.oneOf = b.list(s.OneOf)
	f.ifs, f.thens, f.elses = b.build(s.If), b.build(s.Then), b.build(s.Else)
	switch {
	case regexFormat:
		f.format = validRegexp
	case s.Format != nil:
		f.format = s.Format.Validate
	}
	f.minProps, f.maxProps = intOr(s.MinProperties), intOr(s.MaxProperties)
	f.required = s.Required
	f.propNames = b.build(s.PropertyNames)
	if len(s.Properties) > 0 {
		f.props = make(map[string]*Schema, len(s.Properties))
		for name, ps := range s.Properties {
			f.props[name] = b.build(ps)
		}
		if len(f.props) <= fewProps {
			for name, ps := range f.props {
				f.propList = append(f.propList, namedSchema{name, ps})
			}
			slices.SortFunc(f.propList, func(a, b namedSchema) int { return strings.Compare(a.name, b.name) })
		}
	}
	for re, ps := range s.PatternProperties {
		f.patProps = append(f.patProps, fastPattern{re, b.build(ps)})
	}
	switch a := s.AdditionalProperties.(type) {
	case nil:
	case bool:
		f.addlFalse = !a
	case *jsonschema.Schema:
		f.addl = b.build(a)
	default:
		b.unsupported = true
	}
	f.minItems, f.maxItems, f.unique = intOr(s.MinItems), intOr(s.MaxItems), s.UniqueItems
	switch it := s.Items.(type) {
	case nil:
	case *jsonschema.Schema:
		f.items = b.build(it)
	default: // a list of schemas, one per position
		b.unsupported = true
	}
	if s.Items2020 != nil {
		f.items = b.build(s.Items2020)
	}
	f.minLen, f.maxLen, f.pattern = intOr(s.MinLength), intOr(s.MaxLength), s.Pattern
	f.min, f.max, f.exMin, f.exMax = s.Minimum, s.Maximum, s.ExclusiveMinimum, s.ExclusiveMaximum
	f.plain = f.constv == nil && f.enum == nil && f.format == nil && f.ref == nil && f.dynRef == nil &&
		f.not == nil && f.allOf == nil && f.anyOf == nil && f.oneOf == nil && f.ifs == nil &&
		f.thens == nil && f.elses == nil && f.minLen < 0 && f.maxLen < 0 && f.pattern == nil &&
		f.min == nil && f.max == nil && f.exMin == nil && f.exMax == nil
	return f
}

// validRegexp is the regex format as the library asserts it when it
// validates a schema: a string Go's regexp compiles.
func validRegexp(v any) error {
	if s, ok := v.(string); ok {
		_, err := regexp.Compile(s)
		return err
	}
	return nil
}

// metaschema2020 is the fast path of the 2020-12 metaschema, compiled as
// the library compiles the metaschemas it validates schemas against (with
// formats asserted); nil if it cannot be built.
var metaschema2020 = sync.OnceValue(func() *Schema {
	c := jsonschema.NewCompiler()
	c.AssertFormat()
	meta, err := c.Compile(jsonschema.Draft2020.String())
	if err != nil {
		return nil
	}
	b := fastBuilder{built: map[*jsonschema.Schema]*Schema{}, meta: meta}
	f := b.build(meta)
	if b.unsupported {
		return nil
	}
	return f
})

// MetaValid reports whether the fast path is sure that doc, a 2020-12
// schema, is valid against the metaschema, and that doc does not depend
// on where it is compiled: it names no dialect but 2020-12 (and that only
// at its root), declares no $id or vocabulary, and every $ref in it is a
// fragment of itself. Anything else is left to the library.
func MetaValid(doc any) bool {
	meta := metaschema2020()
	if meta == nil || !locationFree(doc, true) {
		return false
	}
	ok, sure := meta.Valid(doc)
	return ok && sure
}

// locationFree walks doc (values inside const or enum included, which
// only makes it stricter than it needs to be).
func locationFree(v any, root bool) bool {
	switch x := v.(type) {
	case map[string]any:
		for k, e := range x {
			switch k {
			case "$id", "$vocabulary", "$dynamicRef", "$dynamicAnchor", "$recursiveRef", "$recursiveAnchor":
				return false
			case "$schema":
				if s, _ := e.(string); !root || s != "https://json-schema.org/draft/2020-12/schema" && s != "https://json-schema.org/draft/2020-12/schema#" {
					return false
				}
			case "$ref":
				if s, ok := e.(string); ok && !strings.HasPrefix(s, "#") {
					return false
				}
			}
			if !locationFree(e, false) {
				return false
			}
		}
	case []any:
		for _, e := range x {
			if !locationFree(e, false) {
				return false
			}
		}
	}
	return true
}

func (b *fastBuilder) list(ss []*jsonschema.Schema) []*Schema {
	if len(ss) == 0 {
		return nil
	}
	out := make([]*Schema, len(ss))
	for i, s := range ss {
		out[i] = b.build(s)
	}
	return out
}

func intOr(p *int) int {
	if p == nil {
		return -1
	}
	return *p
}

// Valid reports whether v, a native value or a celtree.Tree, is valid,
// when sure is true; when sure is false the fast path cannot tell (a value
// of a kind it does not know, a format that fails, a recursion too deep),
// and the library must.
func (f *Schema) Valid(v any) (ok, sure bool) {
	return f.check(celtree.ViewOf(v), 0)
}

func (f *Schema) check(v jv, depth int) (ok, sure bool) {
	if depth > maxFastDepth {
		return false, false
	}
	if f.boolean != nil {
		return *f.boolean, true
	}
	t, known := typeBit(v)
	if !known {
		return false, false
	}
	if f.types != 0 && f.types&t == 0 && !(f.types&integerBit != 0 && t == numberBit && isWhole(v.Scalar())) {
		return false, true
	}
	if f.plain {
		switch t {
		case objectBit:
			return f.checkObject(v, depth)
		case arrayBit:
			return f.checkArray(v, depth)
		}
		return true, true
	}
	if f.constv != nil {
		eq, sure := equal(v, *f.constv)
		if !sure || !eq {
			return false, sure
		}
	}
	if f.enum != nil {
		if ok, sure := in(v, f.enum); !ok || !sure {
			return ok, sure
		}
	}
	if f.format != nil && t&(arrayBit|objectBit) == 0 && f.format(v.Scalar()) != nil { // (formats ignore collections)
		return false, false // let the library say why
	}
	if f.ref != nil {
		if ok, sure := f.ref.check(v, depth+1); !ok || !sure || f.refOnly {
			return ok, sure
		}
	}
	if f.dynRef != nil {
		if ok, sure := f.dynRef.check(v, depth+1); !ok || !sure {
			return ok, sure
		}
	}
	switch t {
	case objectBit:
		if ok, sure := f.checkObject(v, depth); !ok || !sure {
			return ok, sure
		}
	case arrayBit:
		if ok, sure := f.checkArray(v, depth); !ok || !sure {
			return ok, sure
		}
	}
	var sv any
	if t&(arrayBit|objectBit) == 0 {
		sv = v.Scalar()
	}
	switch x := sv.(type) {
	case string:
		if f.minLen >= 0 || f.maxLen >= 0 {
			n := utf8.RuneCountInString(x)
			if f.minLen >= 0 && n < f.minLen || f.maxLen >= 0 && n > f.maxLen {
				return false, true
			}
		}
		if f.pattern != nil && !f.pattern.MatchString(x) {
			return false, true
		}
	case int64, float64:
		if f.min != nil || f.max != nil || f.exMin != nil || f.exMax != nil {
			n, ok := new(big.Rat).SetString(fmt.Sprintf("%v", x))
			if !ok {
				return false, false
			}
			if f.min != nil && n.Cmp(f.min) < 0 || f.max != nil && n.Cmp(f.max) > 0 ||
				f.exMin != nil && n.Cmp(f.exMin) <= 0 || f.exMax != nil && n.Cmp(f.exMax) >= 0 {
				return false, true
			}
		}
	}
	if f.not != nil {
		ok, sure := f.not.check(v, depth+1)
		if !sure || ok {
			return false, sure
		}
	}
	for _, s := range f.allOf {
		if ok, sure := s.check(v, depth+1); !ok || !sure {
			return ok, sure
		}
	}
	if len(f.anyOf) > 0 {
		matched := false
		for _, s := range f.anyOf {
			ok, sure := s.check(v, depth+1)
			if !sure {
				return false, false
			}
			if ok {
				matched = true
				break
			}
		}
		if !matched {
			return false, true
		}
	}
	if len(f.oneOf) > 0 {
		matched := 0
		for _, s := range f.oneOf {
			ok, sure := s.check(v, depth+1)
			if !sure {
				return false, false
			}
			if ok {
				matched++
			}
		}
		if matched != 1 {
			return false, true
		}
	}
	if f.ifs != nil {
		ok, sure := f.ifs.check(v, depth+1)
		if !sure {
			return false, false
		}
		next := f.elses
		if ok {
			next = f.thens
		}
		if next != nil {
			if ok, sure := next.check(v, depth+1); !ok || !sure {
				return ok, sure
			}
		}
	}
	return true, true
}

func (f *Schema) checkObject(obj jv, depth int) (ok, sure bool) {
	n := obj.Len()
	if f.minProps >= 0 && n < f.minProps || f.maxProps >= 0 && n > f.maxProps {
		return false, true
	}
	for _, name := range f.required {
		if _, ok := obj.Member(name); !ok {
			return false, true
		}
	}
	if f.props == nil && f.patProps == nil && !f.addlFalse && f.addl == nil && f.propNames == nil {
		return true, true
	}
	if t := obj.Tree(); t != nil {
		for i := range n {
			name, e := t.At(i)
			if ok, sure := f.checkMember(name, celtree.TreeView(e), depth); !ok || !sure {
				return ok, sure
			}
		}
		return true, true
	}
	ok, sure = true, true
	obj.Each(func(name string, pv jv) bool {
		ok, sure = f.checkMember(name, pv, depth)
		return ok && sure
	})
	return ok, sure
}

// namedSchema is a property's name and schema.
type namedSchema struct {
	name string
	s    *Schema
}

// fewProps is the most properties a schema looks up by scanning a list.
const fewProps = 8

// prop returns the schema of property name; nil when there is none.
func (f *Schema) prop(name string) *Schema {
	if f.propList != nil {
		for i := range f.propList {
			if f.propList[i].name == name {
				return f.propList[i].s
			}
		}
		return nil
	}
	return f.props[name]
}

func (f *Schema) checkMember(name string, pv jv, depth int) (ok, sure bool) {
	evaluated := false
	if ps := f.prop(name); ps != nil {
		evaluated = true
		if ok, sure := ps.check(pv, depth+1); !ok || !sure {
			return ok, sure
		}
	}
	for _, pp := range f.patProps {
		if pp.re.MatchString(name) {
			evaluated = true
			if ok, sure := pp.s.check(pv, depth+1); !ok || !sure {
				return ok, sure
			}
		}
	}
	if !evaluated {
		if f.addlFalse {
			return false, true
		}
		if f.addl != nil {
			if ok, sure := f.addl.check(pv, depth+1); !ok || !sure {
				return ok, sure
			}
		}
	}
	if f.propNames != nil {
		if ok, sure := f.propNames.check(celtree.NativeView(name), depth+1); !ok || !sure {
			return ok, sure
		}
	}
	return true, true
}

func (f *Schema) checkArray(arr jv, depth int) (ok, sure bool) {
	n := arr.Len()
	if f.minItems >= 0 && n < f.minItems || f.maxItems >= 0 && n > f.maxItems {
		return false, true
	}
	if f.unique {
		if ok, sure := unique(arr); !ok || !sure {
			return ok, sure
		}
	}
	if t := arr.Tree(); f.items != nil && t != nil {
		for i := range n {
			_, e := t.At(i)
			if ok, sure := f.items.check(celtree.TreeView(e), depth+1); !ok || !sure {
				return ok, sure
			}
		}
		return true, true
	}
	if f.items != nil {
		ok, sure = true, true
		arr.Each(func(_ string, it jv) bool {
			ok, sure = f.items.check(it, depth+1)
			return ok && sure
		})
		return ok, sure
	}
	return true, true
}

// jsonTypeBit is the JSON type of a document value; false for a Go value
// the fast path does not know (the library may, or may reject it).
func jsonTypeBit(v any) (uint8, bool) {
	switch x := v.(type) {
	case nil:
		return nullBit, true
	case bool:
		return boolBit, true
	case int64:
		return numberBit, true
	case float64:
		if math.IsNaN(x) || math.IsInf(x, 0) {
			return 0, false
		}
		return numberBit, true
	case string:
		return stringBit, true
	case []any:
		return arrayBit, true
	case map[string]any:
		return objectBit, true
	}
	return 0, false
}

// isWhole reports whether a number has no fractional part, as the
// library's integer test does.
func isWhole(v any) bool {
	switch x := v.(type) {
	case int64:
		return true
	case float64:
		return x == math.Trunc(x)
	}
	return false
}

// jsonEqual is the library's equality of JSON values: numbers by their
// decimal value, whatever their Go type. sure is false for a value the
// fast path does not know.
func jsonEqual(a, b any) (eq, sure bool) {
	switch x := a.(type) {
	case nil:
		return b == nil, true
	case bool:
		y, ok := b.(bool)
		return ok && x == y, true
	case string:
		y, ok := b.(string)
		return ok && x == y, true
	case int64:
		switch y := b.(type) {
		case int64:
			return x == y, true
		case float64:
			return ratEqual(a, b)
		}
		_, known := jsonTypeBit(b)
		return false, known
	case float64:
		switch y := b.(type) {
		case float64:
			return x == y, true
		case int64:
			return ratEqual(a, b)
		}
		_, known := jsonTypeBit(b)
		return false, known
	case []any:
		y, ok := b.([]any)
		if !ok {
			_, known := jsonTypeBit(b)
			return false, known
		}
		if len(x) != len(y) {
			return false, true
		}
		for i := range x {
			if eq, sure := jsonEqual(x[i], y[i]); !eq || !sure {
				return eq, sure
			}
		}
		return true, true
	case map[string]any:
		y, ok := b.(map[string]any)
		if !ok {
			_, known := jsonTypeBit(b)
			return false, known
		}
		if len(x) != len(y) {
			return false, true
		}
		for k, xv := range x {
			yv, ok := y[k]
			if !ok {
				return false, true
			}
			if eq, sure := jsonEqual(xv, yv); !eq || !sure {
				return eq, sure
			}
		}
		return true, true
	}
	return false, false
}

func ratEqual(a, b any) (eq, sure bool) {
	x, ok1 := new(big.Rat).SetString(fmt.Sprint(a))
	y, ok2 := new(big.Rat).SetString(fmt.Sprint(b))
	if !ok1 || !ok2 {
		return false, false
	}
	return x.Cmp(y) == 0, true
}
