package cel

import (
	"fmt"
	"math"

	gocel "github.com/google/cel-go/cel"
	"github.com/google/cel-go/common/types"
	"github.com/google/cel-go/common/types/ref"
	"github.com/google/cel-go/common/types/traits"

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
// Config.Library picks the version of the library (see LatestLibrary):
// each function below says "(version 2)" when it is not in version 1, and
// an environment of an older version does not declare it.
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
// schema invalid. A schema that does not compile gives false (schemaError
// says why); in version 1 it is an error saying why. Compiled schemas are
// cached per library instance (up to 256).
//
//	matchesSchema(dyn value, dyn schema) -> bool
//
// Examples:
//
//	matchesSchema(3, {'type': 'integer', 'minimum': 1})        // true
//	matchesSchema('x', {'type': 'integer'})                    // false
//	matchesSchema(1, {'$ref': 'https://example.com/s.json'})   // false (version 1: error: invalid schema: ...)
//	matchesSchema(1, {'type': 'wrong'})                        // false (version 1: error: invalid schema: ...)
//
// # schemaErrors
//
// Validates like matchesSchema and lists the most specific causes of
// failure (the leaves of the validation error tree), sorted by pointer,
// keyword and message; [] when the value is valid. Each entry has
// "pointer": the JSON Pointer of the failing value within the validated
// value ("" for the value itself), "message": the validator's English
// message, and "keyword": the JSON Pointer of the failing keyword within
// the schema (through any "$ref", e.g. "/properties/a/$ref/type"). A
// schema that does not compile gives one entry, with an empty "pointer"
// and "keyword" and the "message" "schema " + schemaError(schema); in
// version 1 it is an error, as for matchesSchema.
//
//	schemaErrors(dyn value, dyn schema) -> list(map(string, dyn))
//
// Examples:
//
//	schemaErrors({'a': 'x'}, {'properties': {'a': {'type': 'integer'}}})
//	// [{'pointer': '/a', 'keyword': '/properties/a/type', 'message': 'got string, want integer'}]
//	schemaErrors(1, {'type': 'integer'}) // []
//	schemaErrors(1, {'$ref': '#/$defs/x'})
//	// [{'pointer': '', 'keyword': '', 'message': 'schema does not compile: unresolved $ref #/$defs/x'}]
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
//
// # asList, asMap, asString, asInt
//
// (Version 2.) Total accessors: each returns its argument when it has the
// wanted type, else the empty value of that type, and never fails. An
// optional argument stands for its value, so a member that may be absent
// reads as asList(self.?required); optional.none() gives the empty value.
// asInt takes an integral number: an int, a uint or an integral double
// within int range (1u and 2.0 give 1 and 2; 2.5, 1e300 and NaN give 0).
// A map passes through asMap whatever its key type. The argument is
// returned as it is, without a copy.
//
//	asList(dyn) -> list(dyn)
//	asMap(dyn) -> map(string, dyn)
//	asString(dyn) -> string
//	asInt(dyn) -> int
//
// Examples (self = {'required': ['a'], 'n': 2.0}):
//
//	asList(self.?required)      // ['a']
//	asList(self.?missing)       // []
//	asList(self.n)              // []
//	asMap(self.?properties)     // {}
//	asString(self.?name)        // ''
//	asInt(self.n)               // 2
//	asInt(2.5)                  // 0
//
// # descendants
//
// (Version 2.) Lists every value nested inside a value, at any depth (not
// the value itself), depth first and in pre-order: a member or element
// comes before the values inside it. Map members come in sorted key order
// (CEL maps keep no document order), list elements in order. Each entry is
// a map {'path': p, 'key': k, 'value': v}: p is the RFC 6901 JSON Pointer
// of v relative to the argument ("/a/0"; tokens escaped, "~0" and "~1"), k
// is the member name (the key as it is: a string in documents) or the
// element index (an int). Scalars have no descendants. The walk visits at
// most 1,000,000 nodes (fewer when the cost limit is lower); more is an
// error. It costs one unit per node.
//
//	descendants(dyn) -> list(map(string, dyn))
//
// Examples:
//
//	descendants({'b': 1, 'a': [true]})
//	// [{'path': '/a', 'key': 'a', 'value': [true]},
//	//  {'path': '/a/0', 'key': 0, 'value': true},
//	//  {'path': '/b', 'key': 'b', 'value': 1}]
//	descendants({'a/b': 1})[0].path                     // '/a~1b'
//	descendants(self).filter(d, isReference(d.value)).map(d, d.path)
//	descendants('x')                                    // []
//
// # indexesBy
//
// (Version 2.) Groups the indexes of a list's elements by the value of one
// member: every element that is a map with that member, whose value is a
// string or an integer number, puts its index under that value; other
// elements are skipped. Integer numbers group as CEL equality has it (1,
// 1u and 1.0 are the key 1). Index lists are in ascending order. The work
// is linear in the length of the list.
//
//	indexesBy(list(dyn), string field) -> map(dyn, list(int))
//
// Examples:
//
//	indexesBy([{'n': 'a'}, {'n': 'b'}, {'n': 'a'}], 'n') // {'a': [0, 2], 'b': [1]}
//	indexesBy([{'n': 1}, {'n': 1.0}, {'n': 1.5}, 'x', {}], 'n') // {1: [0, 1]}
//	indexesBy(self.tools, 'name').exists(k, size(indexesBy(self.tools, 'name')[k]) > 1)
//
// # indexOf
//
// (Version 2.) The index of the first element of a list equal to a value
// (CEL equality: 1 == 1.0), or -1. This global function sits beside the
// strings extension's member function string.indexOf(string), which is
// unchanged.
//
//	indexOf(list(dyn), dyn) -> int
//
// Examples:
//
//	indexOf(['a', 'b', 'a'], 'a') // 0
//	indexOf([1, 2], 2.0)          // 1
//	indexOf([], 1)                // -1
//	'banana'.indexOf('n')         // 2 (the strings extension)
//
// # tryBase64Decode
//
// (Version 2.) Decodes standard base64 (RFC 4648 section 4, padded or
// not) to bytes, accepting what base64.decode accepts; text that is not
// base64 gives optional.none() instead of an error.
//
//	tryBase64Decode(string) -> optional(bytes)
//
// Examples:
//
//	tryBase64Decode('aGk=')                     // optional.of(b'hi')
//	tryBase64Decode('aGk')                      // optional.of(b'hi')
//	tryBase64Decode('not base64!')              // optional.none()
//	tryBase64Decode(self.data).hasValue()
//
// # quote
//
// (Version 2.) Writes a value as celint's message templates write one
// (see Quote): a string double-quoted with Go escapes, anything else as
// compact JSON with sorted map keys. '%s'.format([quote(x)]) is what the
// template {x} gives. A value without a JSON form (NaN, infinities, a
// type) is an error, as it is in a template.
//
//	quote(dyn) -> string
//
// Examples:
//
//	quote('a"b')             // '"a\\"b"'
//	quote([1, 'x'])          // '[1,"x"]'
//	quote({'b': 1, 'a': 2})  // '{"a":2,"b":1}'
//	quote(null)              // 'null'
//
// # schemaError
//
// (Version 2.) Says why a value is not a JSON Schema that compiles, with
// the compiler of matchesSchema (nothing is fetched): "" when it compiles,
// else "does not compile: " and the reason.
//
//	schemaError(dyn schema) -> string
//
// Examples:
//
//	schemaError({'type': 'string'})              // ''
//	schemaError({'$ref': '#/$defs/x'})           // 'does not compile: unresolved $ref #/$defs/x'
//	schemaError({'$schema': 'https://example.com/meta'})
//	// 'does not compile: unknown $schema dialect https://example.com/meta (only drafts 4, 6, 7, 2019-09 and 2020-12 are known; nothing is fetched)'
//	schemaError({'$ref': 'https://example.com/s.json'})
//	// 'does not compile: $ref https://example.com/s.json leaves the schema (nothing is fetched)'
//	schemaError({'type': 'wrong'})               // 'does not compile: at "/type": ...'
func Library(cfg Config) gocel.EnvOption {
	lib, err := newLibrary(cfg)
	if err != nil {
		return func(*gocel.Env) (*gocel.Env, error) { return nil, err }
	}
	return gocel.Lib(lib)
}

// library is one instance of the celint library: its configuration and its
// compiled-schema cache.
type library struct {
	refKey  string
	version int // 1 to LatestLibrary
	// walkBound bounds the nodes one descendants call visits.
	walkBound int
	// The empty values of the total helpers, made once so that asList and
	// asMap never allocate.
	emptyList traits.Lister
	emptyMap  traits.Mapper
	caches    *Caches // compiled schemas and parsed URI templates
}

func newLibrary(cfg Config) (*library, error) {
	version := cfg.Library
	if version == 0 {
		version = LatestLibrary
	}
	if version < 1 || version > LatestLibrary {
		return nil, fmt.Errorf("celint: unknown celint library version %d (Config.Library): the newest known is %d, and 0 means the newest", cfg.Library, LatestLibrary)
	}
	caches := cfg.Caches
	if caches == nil {
		caches = NewCaches()
	}
	return &library{
		caches:    caches,
		refKey:    cfg.ReferenceKey,
		version:   version,
		walkBound: maxDescendantsNodes,
		emptyList: types.NewRefValList(types.DefaultTypeAdapter, []ref.Val{}),
		emptyMap:  types.NewRefValMap(types.DefaultTypeAdapter, map[ref.Val]ref.Val{}),
	}, nil
}

// LibraryName implements gocel.SingletonLibrary.
func (*library) LibraryName() string { return "celint.lib" }

// versioned is a function declaration and the library version that
// introduced it.
type versioned struct {
	since int
	decl  gocel.EnvOption
}

// CompileOptions implements gocel.Library: the functions of the library's
// version and earlier ones.
func (l *library) CompileOptions() []gocel.EnvOption {
	var opts []gocel.EnvOption
	for _, f := range l.functions() {
		if f.since <= l.version {
			opts = append(opts, f.decl)
		}
	}
	return opts
}

// functions declares every function of the library with the version that
// introduced it.
//
// The total helpers (asList, ...) take dyn, which also admits an optional
// argument (asList(self.?required)): the binding unwraps it. cel-go cannot
// declare an optional_type(dyn) overload beside a dyn one: it refuses the
// pair as an "overload signature collision", dyn being assignable from
// every type.
func (l *library) functions() []versioned {
	listT := gocel.ListType(gocel.TypeParamType("T"))
	dyn := gocel.DynType
	str := gocel.StringType
	entries := gocel.ListType(gocel.MapType(str, dyn))
	opts := gocel.MapType(str, dyn)
	return []versioned{
		{1, gocel.Function("isURI",
			gocel.Overload("string_is_uri", []*gocel.Type{str}, gocel.BoolType,
				gocel.UnaryBinding(stringPredicate(isURI))))},
		{1, gocel.Function("isURIReference",
			gocel.Overload("string_is_uri_reference", []*gocel.Type{str}, gocel.BoolType,
				gocel.UnaryBinding(stringPredicate(isURIReference))))},
		{1, gocel.Function("jsonPointer",
			gocel.Overload("dyn_json_pointer_string", []*gocel.Type{dyn, str}, gocel.OptionalType(dyn),
				gocel.BinaryBinding(jsonPointerBinding)))},
		{1, gocel.Function("jsonPointerTokens",
			gocel.Overload("string_json_pointer_tokens", []*gocel.Type{str}, gocel.ListType(str),
				gocel.UnaryBinding(jsonPointerTokensBinding)))},
		{1, gocel.Function("jsonPointerEscape",
			gocel.Overload("string_json_pointer_escape", []*gocel.Type{str}, str,
				gocel.UnaryBinding(jsonPointerEscapeBinding)))},
		{1, gocel.Function("isReference",
			gocel.Overload("dyn_is_reference", []*gocel.Type{dyn}, gocel.BoolType,
				gocel.UnaryBinding(l.isReferenceBinding)))},
		{1, gocel.Function("resolve",
			gocel.Overload("dyn_resolve_dyn", []*gocel.Type{dyn, dyn}, dyn,
				gocel.BinaryBinding(l.resolveBinding)))},
		{1, gocel.Function("resolveAll",
			gocel.Overload("dyn_resolve_all_dyn", []*gocel.Type{dyn, dyn}, dyn,
				gocel.BinaryBinding(l.resolveAllBinding)))},
		{1, gocel.Function("matchesSchema",
			gocel.Overload("dyn_matches_schema_dyn", []*gocel.Type{dyn, dyn}, gocel.BoolType,
				gocel.BinaryBinding(l.matchesSchemaBinding)))},
		{1, gocel.Function("schemaErrors",
			gocel.Overload("dyn_schema_errors_dyn", []*gocel.Type{dyn, dyn},
				gocel.ListType(gocel.MapType(str, dyn)),
				gocel.BinaryBinding(l.schemaErrorsBinding)))},
		{1, gocel.Function("duplicates",
			gocel.Overload("list_duplicates", []*gocel.Type{listT}, listT,
				gocel.UnaryBinding(duplicatesBinding)))},
		{1, gocel.Function("duplicateIndexes",
			gocel.Overload("list_duplicate_indexes", []*gocel.Type{listT}, gocel.ListType(gocel.IntType),
				gocel.UnaryBinding(duplicateIndexesBinding)))},
		{1, gocel.Function("jsonType",
			gocel.Overload("dyn_json_type", []*gocel.Type{dyn}, str,
				gocel.UnaryBinding(jsonTypeBinding)))},
		{1, gocel.Function("isInteger",
			gocel.Overload("dyn_is_integer", []*gocel.Type{dyn}, gocel.BoolType,
				gocel.UnaryBinding(isIntegerBinding)))},

		{2, gocel.Function("asList",
			gocel.Overload("dyn_as_list", []*gocel.Type{dyn}, gocel.ListType(dyn),
				gocel.UnaryBinding(l.asListBinding)))},
		{2, gocel.Function("asMap",
			gocel.Overload("dyn_as_map", []*gocel.Type{dyn}, gocel.MapType(str, dyn),
				gocel.UnaryBinding(l.asMapBinding)))},
		{2, gocel.Function("asString",
			gocel.Overload("dyn_as_string", []*gocel.Type{dyn}, str,
				gocel.UnaryBinding(asStringBinding)))},
		{2, gocel.Function("asInt",
			gocel.Overload("dyn_as_int", []*gocel.Type{dyn}, gocel.IntType,
				gocel.UnaryBinding(asIntBinding)))},
		{2, gocel.Function("descendants",
			gocel.Overload("dyn_descendants", []*gocel.Type{dyn}, entries,
				gocel.UnaryBinding(l.descendantsBinding)))},
		{2, gocel.Function("indexesBy",
			gocel.Overload("list_indexes_by_string", []*gocel.Type{gocel.ListType(dyn), str},
				gocel.MapType(dyn, gocel.ListType(gocel.IntType)),
				gocel.BinaryBinding(indexesByBinding)))},
		// A global function; ext.Strings declares the member function
		// string.indexOf(string) under the same name.
		{2, gocel.Function("indexOf",
			gocel.Overload("list_index_of_dyn", []*gocel.Type{gocel.ListType(dyn), dyn}, gocel.IntType,
				gocel.BinaryBinding(indexOfBinding)))},
		{2, gocel.Function("tryBase64Decode",
			gocel.Overload("string_try_base64_decode", []*gocel.Type{str}, gocel.OptionalType(gocel.BytesType),
				gocel.UnaryBinding(tryBase64DecodeBinding)))},
		{2, gocel.Function("quote",
			gocel.Overload("dyn_quote", []*gocel.Type{dyn}, str,
				gocel.UnaryBinding(quoteBinding)))},
		{2, gocel.Function("schemaError",
			gocel.Overload("dyn_schema_error", []*gocel.Type{dyn}, str,
				gocel.UnaryBinding(l.schemaErrorBinding)))},

		{3, gocel.Function("schemaErrors",
			gocel.Overload("dyn_schema_errors_dyn_options", []*gocel.Type{dyn, dyn, opts},
				gocel.ListType(gocel.MapType(str, dyn)),
				gocel.FunctionBinding(l.schemaErrors3Binding)))},
		{3, gocel.Function("matchesSchema",
			gocel.Overload("dyn_matches_schema_dyn_options", []*gocel.Type{dyn, dyn, opts}, gocel.BoolType,
				gocel.FunctionBinding(l.matchesSchema3Binding)))},
		{3, gocel.Function("schemaError",
			gocel.Overload("dyn_schema_error_options", []*gocel.Type{dyn, opts}, str,
				gocel.BinaryBinding(l.schemaError3Binding)))},
		{3, gocel.Function("schemaExternalRefs",
			gocel.Overload("dyn_schema_external_refs", []*gocel.Type{dyn}, gocel.ListType(str),
				gocel.UnaryBinding(l.schemaExternalRefsBinding)))},
		{3, gocel.Function("isURITemplate",
			gocel.Overload("string_is_uri_template", []*gocel.Type{str}, gocel.BoolType,
				gocel.UnaryBinding(l.isURITemplateBinding)))},
		{3, gocel.Function("uriTemplateVariables",
			gocel.Overload("string_uri_template_variables", []*gocel.Type{str}, gocel.ListType(str),
				gocel.UnaryBinding(l.uriTemplateVariablesBinding)))},
		{3, gocel.Function("uriTemplateMatches",
			gocel.Overload("string_uri_template_matches_string", []*gocel.Type{str, str}, gocel.BoolType,
				gocel.BinaryBinding(l.uriTemplateMatchesBinding)))},
		{3, gocel.Function("isMediaType",
			gocel.Overload("string_is_media_type", []*gocel.Type{str}, gocel.BoolType,
				gocel.UnaryBinding(stringPredicate(isMediaType))))},
		{3, gocel.Function("mediaTypeEssence",
			gocel.Overload("string_media_type_essence", []*gocel.Type{str}, str,
				gocel.UnaryBinding(stringFunction(mediaTypeEssence))))},
		{3, gocel.Function("isCanonicalBase64",
			gocel.Overload("string_is_canonical_base64", []*gocel.Type{str}, gocel.BoolType,
				gocel.UnaryBinding(stringPredicate(isCanonicalBase64))))},
		{4, gocel.Function("hasNestedKey",
			gocel.Overload("dyn_has_nested_key_string", []*gocel.Type{dyn, str}, gocel.BoolType,
				gocel.BinaryBinding(l.hasNestedKeyBinding)))},
	}
}

// ProgramOptions implements gocel.Library. The library's functions are
// charged by the guard (guard.go), not by cel-go's cost tracker.
func (l *library) ProgramOptions() []gocel.ProgramOption { return nil }

// stringFunction makes a binding of a string-to-string function.
func stringFunction(f func(string) string) func(ref.Val) ref.Val {
	return func(v ref.Val) ref.Val {
		s, ok := v.(types.String)
		if !ok {
			return types.MaybeNoSuchOverloadErr(v)
		}
		return types.String(f(string(s)))
	}
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

// From version 2, matchesSchema and schemaErrors report a schema that does
// not compile as a result (false; one entry saying why) instead of an
// error. validate compiles first, so a failure is a compile failure exactly
// when schemaProblem, which asks the (cached) compiler again, says so; the
// common path compiles once.

func (l *library) matchesSchemaBinding(v, schema ref.Val) ref.Val {
	issues, err := l.validate(v, schema)
	if err != nil {
		if l.version >= 2 && l.schemaProblem(schema) != "" {
			return types.False
		}
		return types.WrapErr(err)
	}
	return types.Bool(len(issues) == 0)
}

func (l *library) schemaErrorsBinding(v, schema ref.Val) ref.Val {
	issues, err := l.validate(v, schema)
	if err != nil {
		if l.version >= 2 {
			if problem := l.schemaProblem(schema); problem != "" {
				return types.DefaultTypeAdapter.NativeToValue([]any{map[string]any{
					"pointer": "",
					"keyword": "",
					"message": "schema " + problem,
				}})
			}
		}
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

func (l *library) schemaErrorBinding(schema ref.Val) ref.Val {
	return types.String(l.schemaProblem(schema))
}

func (l *library) descendantsBinding(v ref.Val) ref.Val {
	out, err := descendants(v, l.walkBound)
	if err != nil {
		return types.WrapErr(err)
	}
	return types.NewRefValList(types.DefaultTypeAdapter, out)
}

// hasNestedKeyBinding reports whether v, or a map nested anywhere inside
// it, has a member named key: a cheap test of whether a rule has anything
// to look at, before it builds lists of what it looks at.
func (l *library) hasNestedKeyBinding(v, key ref.Val) ref.Val {
	k, ok := key.(types.String)
	if !ok {
		return types.MaybeNoSuchOverloadErr(key)
	}
	visited := 0
	var found bool
	var err error
	if tv, ok := v.(TreeValue); ok {
		// A document value is walked in place, in document order, without
		// building its native value.
		found, err = hasNestedKeyTree(tv.Tree(), string(k), &visited, l.walkBound)
	} else {
		native, nerr := ToNative(v)
		if nerr != nil {
			return types.NewErr("hasNestedKey: %v", nerr)
		}
		found, err = hasNestedKey(native, string(k), &visited, l.walkBound)
	}
	if err != nil {
		return types.WrapErr(err)
	}
	return types.Bool(found)
}

// hasNestedKeyTree is hasNestedKey on a document value: a map's own
// members first, then its values and a list's elements in order.
func hasNestedKeyTree(t Tree, key string, visited *int, bound int) (bool, error) {
	*visited++
	if *visited > bound {
		return false, fmt.Errorf("hasNestedKey: more than %d nodes", bound)
	}
	switch t.JSONType() {
	case TreeObject:
		if _, ok := t.Member(key); ok {
			return true, nil
		}
		fallthrough
	case TreeArray:
		for i, n := 0, t.Len(); i < n; i++ {
			_, e := t.At(i)
			if found, err := hasNestedKeyTree(e, key, visited, bound); found || err != nil {
				return found, err
			}
		}
	}
	return false, nil
}

func hasNestedKey(v any, key string, visited *int, bound int) (bool, error) {
	*visited++
	if *visited > bound {
		return false, fmt.Errorf("hasNestedKey: more than %d nodes", bound)
	}
	switch x := v.(type) {
	case map[string]any:
		if _, ok := x[key]; ok {
			return true, nil
		}
		for _, e := range x {
			if found, err := hasNestedKey(e, key, visited, bound); found || err != nil {
				return found, err
			}
		}
	case []any:
		for _, e := range x {
			if found, err := hasNestedKey(e, key, visited, bound); found || err != nil {
				return found, err
			}
		}
	}
	return false, nil
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
