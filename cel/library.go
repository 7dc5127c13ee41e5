package cel

import (
	"math"

	gocel "github.com/google/cel-go/cel"
	"github.com/google/cel-go/common/types"
	"github.com/google/cel-go/common/types/ref"
	"github.com/google/cel-go/common/types/traits"
	"github.com/google/cel-go/interpreter"

	"github.com/celint/celint/internal/jsonpointer"
)

// Library returns the celint function library as a cel-go library
// ("celint.lib"). Each call makes a new library instance with its own
// compiled-schema cache. NewEnv includes it; use Library directly only to
// add the functions to an environment of your own.
//
// All functions are global (called as f(x), not x.f()). Functions that can
// fail return a CEL error value, which makes the whole expression fail
// unless it is absorbed by || or &&.
//
// # isURI
//
// Reports whether a string is an absolute URI by the RFC 3986 grammar:
// scheme ":" hier-part [ "?" query ] [ "#" fragment ]. Every character must
// be allowed in its component, percent-encodings must be "%" and two hex
// digits, an IP literal must be a bracketed IPv6 address (no zone) or
// IPvFuture, and a port must be digits. Non-ASCII characters and spaces are
// not allowed (IRIs are not URIs).
//
//	isURI(string) -> bool
//
// Examples:
//
//	isURI('https://auth.example.com/authorize') // true
//	isURI('urn:isbn:0451450523')                // true
//	isURI('example:///account')                 // true
//	isURI('http://[::1]:8080/')                 // true
//	isURI('not a valid URI')                    // false
//	isURI('/relative/path')                     // false
//	isURI('http://example.com/a b')             // false
//	isURI('http://example.com/%zz')             // false
//
// # isURIReference
//
// Reports whether a string is a URI or a relative reference (RFC 3986
// section 4.1). Every string accepted by isURI is accepted.
//
//	isURIReference(string) -> bool
//
// Examples:
//
//	isURIReference('../a/b?x=1#top') // true
//	isURIReference('#/components')   // true
//	isURIReference('')               // true
//	isURIReference('a:b:c')          // true (scheme "a")
//	isURIReference('1a:b')           // false (a relative path's first segment may not hold ":")
//	isURIReference('a b')            // false
//
// # jsonPointer
//
// Looks an RFC 6901 JSON Pointer up in a value. The pointer may also be in
// URI fragment form ("#/a/b"), which is percent-decoded first. "" and "#"
// address the value itself. "~0" stands for "~" and "~1" for "/". Array
// indexes are decimal without leading zeros; "-", "01", "+1" or an index
// past the end address nothing. A missing member or index gives
// optional.none(); a malformed pointer (not starting with "/", or a "~" not
// followed by "0" or "1", or a bad percent-encoding) is an error.
//
//	jsonPointer(dyn, string) -> optional(dyn)
//
// Examples:
//
//	jsonPointer({'a': [10, 20]}, '/a/1')            // optional.of(20)
//	jsonPointer({'a/b': {'~': 1}}, '/a~1b/~0')      // optional.of(1)
//	jsonPointer({'a b': 1}, '#/a%20b')              // optional.of(1)
//	jsonPointer({'a': 1}, '/x')                     // optional.none()
//	jsonPointer({'a': 1}, '/x').orValue(0)          // 0
//	jsonPointer({'a': [1]}, '/a/01').hasValue()     // false
//	jsonPointer({'a': 1}, 'a')                      // error: malformed JSON Pointer
//
// # jsonPointerTokens
//
// Splits a JSON Pointer (or "#/..." fragment) into its unescaped reference
// tokens. Malformed pointers are errors, as for jsonPointer.
//
//	jsonPointerTokens(string) -> list(string)
//
// Examples:
//
//	jsonPointerTokens('/paths/~1pets/get') // ['paths', '/pets', 'get']
//	jsonPointerTokens('')                  // []
//	jsonPointerTokens('/')                 // ['']
//
// # jsonPointerEscape
//
// Escapes a string for use as one JSON Pointer reference token ("~" becomes
// "~0", "/" becomes "~1"), e.g. to build a child's pointer from path.
//
//	jsonPointerEscape(string) -> string
//
// Examples:
//
//	jsonPointerEscape('/pets')            // '~1pets'
//	path + '/' + jsonPointerEscape('a~b') // '<path>/a~0b'
//
// # isReference
//
// Reports whether a value is a reference object: a map with a member named
// by the configured reference key (Config.ReferenceKey, e.g. "$ref") whose
// value is a string. Other members may sit beside it. Always false when no
// reference key is configured.
//
//	isReference(dyn) -> bool
//
// Examples (reference key "$ref"):
//
//	isReference({'$ref': '#/a'})                     // true
//	isReference({'$ref': '#/a', 'description': 'x'}) // true
//	isReference({'$ref': {'type': 'string'}})        // false
//	isReference('#/a')                               // false
//
// # resolve
//
// Follows a reference object's local reference ("#/..." JSON Pointer
// fragment) in root, and keeps following while the target is itself a
// reference, returning the first value that is not a reference. A value
// that is not a reference is returned unchanged. Errors: a target that does
// not exist, a cycle, a non-local reference (nothing is ever fetched), a
// reference that is not a JSON Pointer fragment, or a chain longer than 64.
//
//	resolve(dyn root, dyn value) -> dyn
//
// Examples (reference key "$ref", root = {'a': {'$ref': '#/b'}, 'b': {'type': 'string'}}):
//
//	resolve(root, root.a)                 // {'type': 'string'}
//	resolve(root, {'$ref': '#/a'})        // {'type': 'string'} (a chain)
//	resolve(root, 1)                      // 1
//	resolve(root, {'$ref': '#/x'})        // error: reference "#/x" does not resolve
//	resolve({'a': {'$ref': '#/a'}}, {'$ref': '#/a'})
//	                                      // error: reference cycle: #/a -> #/a
//	resolve(root, {'$ref': 'https://example.com/s.json'})
//	                                      // error: only local references (#/...) are resolved; "https://example.com/s.json" is never fetched
//
// # resolveAll
//
// Returns a copy of a value in which every reference object, at any depth,
// is replaced by its resolved target, itself with every reference inside
// it replaced, and so on. A reference that leads back into a reference
// being expanded is a cycle and an error, as are the errors of resolve.
// The expansion visits at most 1,000,000 nodes; more is an error.
//
//	resolveAll(dyn root, dyn value) -> dyn
//
// Examples (reference key "$ref", root = {'a': {'$ref': '#/b'}, 'b': {'type': 'string'}}):
//
//	resolveAll(root, {'items': [{'$ref': '#/a'}]}) // {'items': [{'type': 'string'}]}
//	resolveAll({'n': {'next': {'$ref': '#/n'}}}, {'$ref': '#/n'})
//	                                               // error: reference cycle: #/n -> #/n
//
// # matchesSchema
//
// Reports whether a value is valid against a JSON Schema given as a value
// (draft 2020-12 unless the schema's "$schema" names another draft known to
// github.com/santhosh-tekuri/jsonschema/v6: 4, 6, 7, 2019-09). "format" is
// asserted (a lint wants "format": "uri" checked), unlike the 2020-12
// default, which makes it an annotation only. A "$ref" may
// only point inside the schema itself: anything else (https:, file:, a
// relative file name) is refused, never fetched or read, and makes the
// schema invalid. An invalid schema is an error saying why. Compiled
// schemas are cached per library instance (up to 256).
//
//	matchesSchema(dyn value, dyn schema) -> bool
//
// Examples:
//
//	matchesSchema(3, {'type': 'integer', 'minimum': 1})        // true
//	matchesSchema('x', {'type': 'integer'})                    // false
//	matchesSchema(1, {'$ref': 'https://example.com/s.json'})   // error: invalid schema: ...
//	matchesSchema(1, {'type': 'wrong'})                        // error: invalid schema: ...
//
// # schemaErrors
//
// Validates like matchesSchema and lists the most specific causes of
// failure (the leaves of the validation error tree), sorted by pointer,
// keyword and message; [] when the value is valid. Each entry has
// "pointer": the JSON Pointer of the failing value within the validated
// value ("" for the value itself), "message": the validator's English
// message, and "keyword": the JSON Pointer of the failing keyword within
// the schema (through any "$ref", e.g. "/properties/a/$ref/type").
//
//	schemaErrors(dyn value, dyn schema) -> list(map(string, dyn))
//
// Examples:
//
//	schemaErrors({'a': 'x'}, {'properties': {'a': {'type': 'integer'}}})
//	// [{'pointer': '/a', 'keyword': '/properties/a/type', 'message': 'got string, want integer'}]
//	schemaErrors(1, {'type': 'integer'}) // []
//
// # duplicates
//
// Returns the elements of a list that occur more than once, each reported
// once (its first occurrence), in the order in which their first repeat
// appears. Equality is CEL equality (the == operator): 1, 1u and 1.0 are
// equal, as JSON Schema's uniqueItems also has it; NaN equals nothing;
// lists and maps compare element-wise. One exception keeps equality
// transitive: an integer that a double cannot represent exactly (beyond
// ±2^53) equals only the same integer, never a double. The work is about
// linear in the size of the list (values are bucketed by a canonical key).
//
//	duplicates(list(T)) -> list(T)
//
// Examples:
//
//	duplicates([1, 2, 1, 3, 2, 1]) // [1, 2]
//	duplicates(['a', 'b'])         // []
//	duplicates([1, 1.0])           // [1]
//	duplicates([{'a': 1}, {'a': 1}]) // [{'a': 1}]
//
// # duplicateIndexes
//
// Returns the indexes of every occurrence of a value after its first, in
// ascending order, with the equality of duplicates.
//
//	duplicateIndexes(list(T)) -> list(int)
//
// Examples:
//
//	duplicateIndexes([1, 2, 1, 3, 2, 1]) // [2, 4, 5]
//	duplicateIndexes([])                 // []
//
// # jsonType
//
// Names the JSON type of a value: "null", "boolean", "number" (int, uint
// and double), "string", "array" (list) or "object" (map). Other CEL values
// (bytes, timestamps, durations, types, optionals) are an error.
//
//	jsonType(dyn) -> string
//
// Examples:
//
//	jsonType(null)      // 'null'
//	jsonType(1)         // 'number'
//	jsonType(1.5)       // 'number'
//	jsonType([])        // 'array'
//	jsonType({'a': 1})  // 'object'
//	jsonType(b'x')      // error
//
// # isInteger
//
// Reports whether a value is an integer number: an int, a uint, or a finite
// double without a fractional part (JSON Schema's "integer"). Anything else,
// numbers or not, gives false.
//
//	isInteger(dyn) -> bool
//
// Examples:
//
//	isInteger(3)     // true
//	isInteger(3.0)   // true
//	isInteger(3.5)   // false
//	isInteger('3')   // false
func Library(cfg Config) gocel.EnvOption {
	return gocel.Lib(newLibrary(cfg))
}

// library is one instance of the celint library: its configuration and its
// compiled-schema cache.
type library struct {
	refKey  string
	schemas schemaCache
}

func newLibrary(cfg Config) *library {
	return &library{refKey: cfg.ReferenceKey}
}

// LibraryName implements gocel.SingletonLibrary.
func (*library) LibraryName() string { return "celint.lib" }

// CompileOptions implements gocel.Library.
func (l *library) CompileOptions() []gocel.EnvOption {
	listT := gocel.ListType(gocel.TypeParamType("T"))
	dyn := gocel.DynType
	str := gocel.StringType
	return []gocel.EnvOption{
		gocel.Function("isURI",
			gocel.Overload("string_is_uri", []*gocel.Type{str}, gocel.BoolType,
				gocel.UnaryBinding(stringPredicate(isURI)))),
		gocel.Function("isURIReference",
			gocel.Overload("string_is_uri_reference", []*gocel.Type{str}, gocel.BoolType,
				gocel.UnaryBinding(stringPredicate(isURIReference)))),
		gocel.Function("jsonPointer",
			gocel.Overload("dyn_json_pointer_string", []*gocel.Type{dyn, str}, gocel.OptionalType(dyn),
				gocel.BinaryBinding(jsonPointerBinding))),
		gocel.Function("jsonPointerTokens",
			gocel.Overload("string_json_pointer_tokens", []*gocel.Type{str}, gocel.ListType(str),
				gocel.UnaryBinding(jsonPointerTokensBinding))),
		gocel.Function("jsonPointerEscape",
			gocel.Overload("string_json_pointer_escape", []*gocel.Type{str}, str,
				gocel.UnaryBinding(jsonPointerEscapeBinding))),
		gocel.Function("isReference",
			gocel.Overload("dyn_is_reference", []*gocel.Type{dyn}, gocel.BoolType,
				gocel.UnaryBinding(l.isReferenceBinding))),
		gocel.Function("resolve",
			gocel.Overload("dyn_resolve_dyn", []*gocel.Type{dyn, dyn}, dyn,
				gocel.BinaryBinding(l.resolveBinding))),
		gocel.Function("resolveAll",
			gocel.Overload("dyn_resolve_all_dyn", []*gocel.Type{dyn, dyn}, dyn,
				gocel.BinaryBinding(l.resolveAllBinding))),
		gocel.Function("matchesSchema",
			gocel.Overload("dyn_matches_schema_dyn", []*gocel.Type{dyn, dyn}, gocel.BoolType,
				gocel.BinaryBinding(l.matchesSchemaBinding))),
		gocel.Function("schemaErrors",
			gocel.Overload("dyn_schema_errors_dyn", []*gocel.Type{dyn, dyn},
				gocel.ListType(gocel.MapType(str, dyn)),
				gocel.BinaryBinding(l.schemaErrorsBinding))),
		gocel.Function("duplicates",
			gocel.Overload("list_duplicates", []*gocel.Type{listT}, listT,
				gocel.UnaryBinding(duplicatesBinding))),
		gocel.Function("duplicateIndexes",
			gocel.Overload("list_duplicate_indexes", []*gocel.Type{listT}, gocel.ListType(gocel.IntType),
				gocel.UnaryBinding(duplicateIndexesBinding))),
		gocel.Function("jsonType",
			gocel.Overload("dyn_json_type", []*gocel.Type{dyn}, str,
				gocel.UnaryBinding(jsonTypeBinding))),
		gocel.Function("isInteger",
			gocel.Overload("dyn_is_integer", []*gocel.Type{dyn}, gocel.BoolType,
				gocel.UnaryBinding(isIntegerBinding))),
	}
}

// ProgramOptions implements gocel.Library: the functions that walk values
// cost one unit per node walked (capped), so the cost limit also bounds
// them.
func (l *library) ProgramOptions() []gocel.ProgramOption {
	argNodes := func(i int) interpreter.FunctionTracker {
		return func(args []ref.Val, _ ref.Val) *uint64 {
			c := uint64(1)
			if i < len(args) {
				c += nodeCount(args[i], maxCostNodes)
			}
			return &c
		}
	}
	resultNodes := func(args []ref.Val, result ref.Val) *uint64 {
		c := 1 + nodeCount(result, maxCostNodes)
		return &c
	}
	stringLen := func(args []ref.Val, _ ref.Val) *uint64 {
		c := uint64(1)
		if len(args) == 1 {
			if s, ok := args[0].(types.String); ok {
				c += uint64(len(s)) / 10
			}
		}
		return &c
	}
	return []gocel.ProgramOption{
		gocel.CostTrackerOptions(
			interpreter.OverloadCostTracker("string_is_uri", stringLen),
			interpreter.OverloadCostTracker("string_is_uri_reference", stringLen),
			interpreter.OverloadCostTracker("dyn_resolve_all_dyn", resultNodes),
			interpreter.OverloadCostTracker("dyn_matches_schema_dyn", argNodes(0)),
			interpreter.OverloadCostTracker("dyn_schema_errors_dyn", argNodes(0)),
			interpreter.OverloadCostTracker("list_duplicates", argNodes(0)),
			interpreter.OverloadCostTracker("list_duplicate_indexes", argNodes(0)),
		),
	}
}

// maxCostNodes caps the node count a cost tracker walks.
const maxCostNodes = 1_000_000

// nodeCount counts the nodes of a value, stopping at limit.
func nodeCount(v ref.Val, limit uint64) uint64 {
	var n uint64
	var walk func(v ref.Val)
	walk = func(v ref.Val) {
		if n >= limit {
			return
		}
		n++
		switch t := v.(type) {
		case traits.Mapper:
			it := t.Iterator()
			for it.HasNext() == types.True && n < limit {
				walk(t.Get(it.Next()))
			}
		case traits.Lister:
			it := t.Iterator()
			for it.HasNext() == types.True && n < limit {
				walk(it.Next())
			}
		}
	}
	walk(v)
	return n
}

func stringPredicate(f func(string) bool) func(ref.Val) ref.Val {
	return func(v ref.Val) ref.Val {
		s, ok := v.(types.String)
		if !ok {
			return types.MaybeNoSuchOverloadErr(v)
		}
		return types.Bool(f(string(s)))
	}
}

func jsonPointerBinding(v, p ref.Val) ref.Val {
	s, ok := p.(types.String)
	if !ok {
		return types.MaybeNoSuchOverloadErr(p)
	}
	tokens, err := jsonpointer.ParseFragment(string(s))
	if err != nil {
		return types.WrapErr(err)
	}
	got, found := lookupPointer(v, tokens)
	if !found {
		return types.OptionalNone
	}
	return types.OptionalOf(got)
}

func jsonPointerTokensBinding(p ref.Val) ref.Val {
	s, ok := p.(types.String)
	if !ok {
		return types.MaybeNoSuchOverloadErr(p)
	}
	tokens, err := jsonpointer.ParseFragment(string(s))
	if err != nil {
		return types.WrapErr(err)
	}
	if tokens == nil {
		tokens = []string{}
	}
	return types.NewStringList(types.DefaultTypeAdapter, tokens)
}

func jsonPointerEscapeBinding(p ref.Val) ref.Val {
	s, ok := p.(types.String)
	if !ok {
		return types.MaybeNoSuchOverloadErr(p)
	}
	return types.String(jsonpointer.Escape(string(s)))
}

func (l *library) isReferenceBinding(v ref.Val) ref.Val {
	_, ok := l.referenceOf(v)
	return types.Bool(ok)
}

func (l *library) resolveBinding(root, v ref.Val) ref.Val {
	got, err := l.resolve(root, v)
	if err != nil {
		return types.WrapErr(err)
	}
	return got
}

func (l *library) resolveAllBinding(root, v ref.Val) ref.Val {
	if l.refKey == "" {
		return v
	}
	got, err := l.resolveAll(root, v)
	if err != nil {
		return types.WrapErr(err)
	}
	return types.DefaultTypeAdapter.NativeToValue(got)
}

func (l *library) matchesSchemaBinding(v, schema ref.Val) ref.Val {
	issues, err := l.validate(v, schema)
	if err != nil {
		return types.WrapErr(err)
	}
	return types.Bool(len(issues) == 0)
}

func (l *library) schemaErrorsBinding(v, schema ref.Val) ref.Val {
	issues, err := l.validate(v, schema)
	if err != nil {
		return types.WrapErr(err)
	}
	if issues == nil {
		issues = []any{}
	}
	return types.DefaultTypeAdapter.NativeToValue(issues)
}

func duplicatesBinding(v ref.Val) ref.Val {
	list, ok := v.(traits.Lister)
	if !ok {
		return types.MaybeNoSuchOverloadErr(v)
	}
	dups, _ := findDuplicates(list)
	if dups == nil {
		dups = []ref.Val{}
	}
	return types.NewRefValList(types.DefaultTypeAdapter, dups)
}

func duplicateIndexesBinding(v ref.Val) ref.Val {
	list, ok := v.(traits.Lister)
	if !ok {
		return types.MaybeNoSuchOverloadErr(v)
	}
	_, idx := findDuplicates(list)
	out := make([]ref.Val, len(idx))
	for i, n := range idx {
		out[i] = types.Int(n)
	}
	return types.NewRefValList(types.DefaultTypeAdapter, out)
}

func jsonTypeBinding(v ref.Val) ref.Val {
	if t := jsonTypeOf(v); t != "" {
		return types.String(t)
	}
	return types.NewErr("jsonType: a %s value has no JSON type", v.Type().TypeName())
}

func isIntegerBinding(v ref.Val) ref.Val {
	switch t := v.(type) {
	case types.Int, types.Uint:
		return types.True
	case types.Double:
		f := float64(t)
		return types.Bool(!math.IsInf(f, 0) && !math.IsNaN(f) && f == math.Trunc(f))
	}
	return types.False
}
