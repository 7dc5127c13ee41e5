package cel

import (
	gocel "github.com/google/cel-go/cel"
)

// libraryFunctionRecords are the functions of the celint library, one
// record each (see libFunction), in the order of the documentation: by the
// version that added them.
var libraryFunctionRecords = libraryRecords()

func libraryRecords() []libFunction {
	dyn := gocel.DynType
	str := gocel.StringType
	boolean := gocel.BoolType
	integer := gocel.IntType
	listT := gocel.ListType(gocel.TypeParamType("T"))
	entries := gocel.ListType(gocel.MapType(str, dyn))
	options := gocel.MapType(str, dyn)
	p := func(name string, typ *gocel.Type) param { return param{name, typ} }
	scans := measured(scanCost)
	walks := measured(sumOfWeights)
	validates := costRule{measure: sumOfWeights, byLibrary: func(l *library) callCost { return l.schemaCost }}
	return []libFunction{
		{
			name:  "isURI",
			since: 1,
			overloads: []libOverload{
				{id: "string_is_uri", params: []param{p("s", str)}, result: boolean, impl: stringPredicate(isURI)},
			},
			cost:    scans,
			native:  nativeCall,
			summary: "whether `s` is an absolute URI by the RFC 3986 grammar",
			doc: `Reports whether a string is an absolute URI by the RFC 3986 grammar:
scheme ":" hier-part [ "?" query ] [ "#" fragment ]. Every character must
be allowed in its component, percent-encodings must be "%" and two hex
digits, an IP literal must be a bracketed IPv6 address (no zone) or
IPvFuture, and a port must be digits. Non-ASCII characters and spaces are
not allowed (IRIs are not URIs).`,
			examples: []example{
				{expr: `isURI('https://auth.example.com/authorize')`, want: `true`},
				{expr: `isURI('urn:isbn:0451450523')`, want: `true`},
				{expr: `isURI('example:///account')`, want: `true`},
				{expr: `isURI('http://[::1]:8080/')`, want: `true`},
				{expr: `isURI('not a valid URI')`, want: `false`},
				{expr: `isURI('/relative/path')`, want: `false`},
				{expr: `isURI('http://example.com/a b')`, want: `false`},
				{expr: `isURI('http://example.com/%zz')`, want: `false`},
			},
		},
		{
			name:  "isURIReference",
			since: 1,
			overloads: []libOverload{
				{id: "string_is_uri_reference", params: []param{p("s", str)}, result: boolean, impl: stringPredicate(isURIReference)},
			},
			cost:    scans,
			native:  nativeCall,
			summary: "whether `s` is a URI or a relative reference (RFC 3986)",
			doc: `Reports whether a string is a URI or a relative reference (RFC 3986
section 4.1). Every string accepted by isURI is accepted.`,
			examples: []example{
				{expr: `isURIReference('../a/b?x=1#top')`, want: `true`},
				{expr: `isURIReference('#/components')`, want: `true`},
				{expr: `isURIReference('')`, want: `true`},
				{expr: `isURIReference('a:b:c')`, want: `true`, note: `scheme "a"`},
				{expr: `isURIReference('1a:b')`, want: `false`, note: `a relative path's first segment may not hold ":"`},
				{expr: `isURIReference('a b')`, want: `false`},
			},
		},
		{
			name:  "jsonPointer",
			since: 1,
			overloads: []libOverload{
				{id: "dyn_json_pointer_string", params: []param{p("value", dyn), p("pointer", str)}, result: gocel.OptionalType(dyn), impl: jsonPointerBinding},
			},
			cost:    chargedAfterwards,
			native:  nativeCall,
			summary: "the member of `value` at an RFC 6901 JSON Pointer (also a `#/...` fragment), or `optional.none()`",
			doc: `Looks an RFC 6901 JSON Pointer up in a value. The pointer may also be in
URI fragment form ("#/a/b"), which is percent-decoded first. "" and "#"
address the value itself. "~0" stands for "~" and "~1" for "/". Array
indexes are decimal without leading zeros; "-", "01", "+1" or an index
past the end address nothing. A missing member or index gives
optional.none(); a malformed pointer (not starting with "/", or a "~" not
followed by "0" or "1", or a bad percent-encoding) is an error.`,
			examples: []example{
				{expr: `jsonPointer({'a': [10, 20]}, '/a/1')`, want: `optional.of(20)`},
				{expr: `jsonPointer({'a/b': {'~': 1}}, '/a~1b/~0')`, want: `optional.of(1)`},
				{expr: `jsonPointer({'a b': 1}, '#/a%20b')`, want: `optional.of(1)`},
				{expr: `jsonPointer({'a': 1}, '/x')`, want: `optional.none()`},
				{expr: `jsonPointer({'a': 1}, '/x').orValue(0)`, want: `0`},
				{expr: `jsonPointer({'a': [1]}, '/a/01').hasValue()`, want: `false`},
				{expr: `jsonPointer({'a': 1}, 'a')`, want: `error: JSON Pointer`},
			},
		},
		{
			name:  "jsonPointerTokens",
			since: 1,
			overloads: []libOverload{
				{id: "string_json_pointer_tokens", params: []param{p("pointer", str)}, result: gocel.ListType(str), impl: jsonPointerTokensBinding},
			},
			cost:    scans,
			native:  nativeCall,
			summary: "the unescaped reference tokens of a JSON Pointer",
			doc: `Splits a JSON Pointer (or "#/..." fragment) into its unescaped reference
tokens. Malformed pointers are errors, as for jsonPointer.`,
			examples: []example{
				{expr: `jsonPointerTokens('/paths/~1pets/get')`, want: `['paths', '/pets', 'get']`},
				{expr: `jsonPointerTokens('')`, want: `[]`},
				{expr: `jsonPointerTokens('/')`, want: `['']`},
			},
		},
		{
			name:  "jsonPointerEscape",
			since: 1,
			overloads: []libOverload{
				{id: "string_json_pointer_escape", params: []param{p("token", str)}, result: str, impl: jsonPointerEscapeBinding},
			},
			cost:    scans,
			native:  nativeCall,
			summary: "a string escaped as one JSON Pointer token (`~` as `~0`, `/` as `~1`)",
			doc: `Escapes a string for use as one JSON Pointer reference token ("~" becomes
"~0", "/" becomes "~1"), e.g. to build a child's pointer from path:
path + '/' + jsonPointerEscape(name).`,
			examples: []example{
				{expr: `jsonPointerEscape('/pets')`, want: `'~1pets'`},
				{expr: `'/paths' + '/' + jsonPointerEscape('a~b')`, want: `'/paths/a~0b'`},
			},
		},
		{
			name:  "isReference",
			since: 1,
			overloads: []libOverload{
				{id: "dyn_is_reference", params: []param{p("value", dyn)}, result: boolean, impl: (*library).isReferenceBinding},
			},
			cost:    chargedAfterwards,
			native:  nativeCall,
			summary: "whether `value` is a reference object: a map whose reference-key member (`$ref`) is a string",
			doc: `Reports whether a value is a reference object: a map with a member named
by the configured reference key (Config.ReferenceKey, e.g. "$ref") whose
value is a string. Other members may sit beside it. Always false when no
reference key is configured.`,
			examples: []example{
				{expr: `isReference({'$ref': '#/a'})`, want: `true`},
				{expr: `isReference({'$ref': '#/a', 'description': 'x'})`, want: `true`},
				{expr: `isReference({'$ref': {'type': 'string'}})`, want: `false`},
				{expr: `isReference('#/a')`, want: `false`},
			},
		},
		{
			name:  "resolve",
			since: 1,
			overloads: []libOverload{
				{id: "dyn_resolve_dyn", params: []param{p("root", dyn), p("value", dyn)}, result: dyn, impl: (*library).resolveBinding},
			},
			cost:    chargedAfterwards,
			native:  nativeCall,
			summary: "the target of a reference object in `root`, following chains of references",
			doc: `Follows a reference object's local reference ("#/..." JSON Pointer
fragment) in root, and keeps following while the target is itself a
reference, returning the first value that is not a reference. A value
that is not a reference is returned unchanged. Errors: a target that does
not exist, a cycle, a non-local reference (nothing is ever fetched), a
reference that is not a JSON Pointer fragment, or a chain longer than 64.`,
			exampleRoot: `{'a': {'$ref': '#/b'}, 'b': {'type': 'string'}}`,
			examples: []example{
				{expr: `resolve(root, root.a)`, want: `{'type': 'string'}`},
				{expr: `resolve(root, {'$ref': '#/a'})`, want: `{'type': 'string'}`, note: "a chain"},
				{expr: `resolve(root, 1)`, want: `1`},
				{expr: `resolve(root, {'$ref': '#/x'})`, want: `error: reference "#/x" does not resolve`},
				{expr: `resolve({'a': {'$ref': '#/a'}}, {'$ref': '#/a'})`, want: `error: reference cycle: #/a -> #/a`},
				{expr: `resolve(root, {'$ref': 'https://example.com/s.json'})`, want: `error: only local references (#/...) are resolved; "https://example.com/s.json" is never fetched`},
			},
		},
		{
			name:  "resolveAll",
			since: 1,
			overloads: []libOverload{
				{id: "dyn_resolve_all_dyn", params: []param{p("root", dyn), p("value", dyn)}, result: dyn, impl: (*library).resolveAllBinding},
			},
			cost:    walks,
			native:  nativeCall,
			summary: "`value` with every reference inside it replaced by its (recursively resolved) target",
			doc: `Returns a copy of a value in which every reference object, at any depth,
is replaced by its resolved target, itself with every reference inside
it replaced, and so on. A reference that leads back into a reference
being expanded is a cycle and an error, as are the errors of resolve.
The expansion visits at most 1,000,000 nodes; more is an error.`,
			exampleRoot: `{'a': {'$ref': '#/b'}, 'b': {'type': 'string'}}`,
			examples: []example{
				{expr: `resolveAll(root, {'items': [{'$ref': '#/a'}]})`, want: `{'items': [{'type': 'string'}]}`},
				{expr: `resolveAll({'n': {'next': {'$ref': '#/n'}}}, {'$ref': '#/n'})`, want: `error: reference cycle: #/n -> #/n`},
			},
		},
		{
			name:  "matchesSchema",
			since: 1,
			overloads: []libOverload{
				{id: "dyn_matches_schema_dyn", params: []param{p("value", dyn), p("schema", dyn)}, result: boolean, impl: (*library).matchesSchemaBinding},
				{id: "dyn_matches_schema_dyn_options", since: 3, params: []param{p("value", dyn), p("schema", dyn), p("options", options)}, result: boolean, impl: (*library).matchesSchema3Binding,
					summary: "as `matchesSchema(value, schema)`, under the options of `schemaErrors(value, schema, options)`"},
			},
			cost:      validates,
			native:    nativeCall,
			constArgs: []constArgCheck{{arg: 1, check: schemaCompiles(2)}, {arg: 2, check: schemaOptionsParse}},
			summary:   "whether `value` is valid against a JSON Schema (draft 2020-12 unless it says otherwise; formats asserted; nothing fetched)",
			doc: `Reports whether a value is valid against a JSON Schema given as a value
(draft 2020-12 unless the schema's "$schema" names another draft known to
github.com/santhosh-tekuri/jsonschema/v6: 4, 6, 7, 2019-09). "format" is
asserted (a lint wants "format": "uri" checked), unlike the 2020-12
default, which makes it an annotation only. A "$ref" may only point
inside the schema itself: anything else (https:, file:, a relative file
name) is refused, never fetched or read, and makes the schema invalid.
A schema that does not compile gives false (schemaError says why); in
version 1 it is an error saying why. A schema written as a constant
that does not compile is a compile error at the schema. Compiled schemas
are cached.

With options (version 3), the schema is compiled under them, as for
schemaErrors(value, schema, options).`,
			examples: []example{
				{expr: `matchesSchema(3, {'type': 'integer', 'minimum': 1})`, want: `true`},
				{expr: `matchesSchema('x', {'type': 'integer'})`, want: `false`},
				{expr: `matchesSchema(1, self.schema)`, want: `false`, note: "self.schema does not compile"},
				{expr: `matchesSchema(1, self.schema)`, want: `error: invalid schema`, version: 1},
				{expr: `matchesSchema(1, {'$ref': 'https://example.com/s.json'})`, want: `compile error: JSON Schema does not compile`},
				{expr: `matchesSchema(['a', 1], {'items': [{'type': 'string'}]}, {'dialect': 'draft-07'})`, want: `true`},
				{expr: `matchesSchema(1, {'$ref': 'https://example.com/s.json'}, {'externalRefs': 'ignore'})`, want: `true`},
			},
			exampleSelf: `{'schema': {'type': 'wrong'}}`,
		},
		{
			name:  "schemaErrors",
			since: 1,
			overloads: []libOverload{
				{id: "dyn_schema_errors_dyn", params: []param{p("value", dyn), p("schema", dyn)}, result: entries, impl: (*library).schemaErrorsBinding},
				{id: "dyn_schema_errors_dyn_options", since: 3, params: []param{p("value", dyn), p("schema", dyn), p("options", options)}, result: entries, impl: (*library).schemaErrors3Binding,
					summary: "`value`'s violations of a schema from the document, `{\"pointer\", \"keyword\", \"message\"}` each, placed as a rule's own schema fragment places them (a missing member at `/<member>`); options `{\"dialect\": \"draft-07\"}` (the draft for a schema without `$schema`: `2020-12` by default, `2019-09`, `draft-07`, `draft-06`, `draft-04`) and `{\"externalRefs\": \"ignore\"}` (a `$ref` leaving the schema is taken as satisfied, instead of making the schema not compile); a schema that does not compile gives one entry with pointer `\"\"`"},
			},
			cost:      validates,
			native:    nativeCall,
			constArgs: []constArgCheck{{arg: 1, check: schemaCompiles(2)}, {arg: 2, check: schemaOptionsParse}},
			summary:   "the most specific causes of `value`'s failure against a JSON Schema, `{\"pointer\", \"keyword\", \"message\"}` each; `[]` when it is valid",
			doc: `Validates like matchesSchema and lists the most specific causes of
failure (the leaves of the validation error tree), sorted by pointer,
keyword and message; [] when the value is valid. Each entry has
"pointer": the JSON Pointer of the failing value within the validated
value ("" for the value itself), "message": the validator's English
message, and "keyword": the JSON Pointer of the failing keyword within
the schema (through any "$ref", e.g. "/properties/a/$ref/type"). A
schema that does not compile gives one entry, with an empty "pointer"
and "keyword" and the "message" "schema " + schemaError(schema); in
version 1 it is an error, as for matchesSchema.

With options (version 3), each entry is placed as a rule's own schema
fragment places it: a missing required member at /<member>, an unknown
member at itself, anything else at the failing value, and "keyword" is
the failing keyword's name. The options are "dialect", the draft for a
schema without "$schema": "2020-12" (the default), "2019-09",
"draft-07", "draft-06" or "draft-04"; and "externalRefs": "refuse" (the
default: a reference that leaves the schema makes it not compile) or
"ignore" (such a reference is taken as satisfied, so validation is
partial; nothing is ever fetched). An unknown option or value is an
error. A schema that does not compile gives one entry, pointer "",
message "schema does not compile: <why>". Each distinct schema and
options is compiled once and cached.`,
			examples: []example{
				{expr: `schemaErrors({'a': 'x'}, {'properties': {'a': {'type': 'integer'}}})`, want: `[{'pointer': '/a', 'keyword': '/properties/a/type', 'message': 'got string, want integer'}]`},
				{expr: `schemaErrors(1, {'type': 'integer'})`, want: `[]`},
				{expr: `schemaErrors(1, dyn({'$ref': '#/$defs/x'}))`, want: `[{'pointer': '', 'keyword': '', 'message': 'schema does not compile: at /$ref: $ref "#/$defs/x" points to nothing in the schema'}]`},
				{expr: `schemaErrors({'n': 'x'}, {'properties': {'n': {'type': 'integer'}}}, {})`, want: `[{'pointer': '/n', 'keyword': 'type', 'message': 'got string, want integer'}]`},
				{expr: `schemaErrors(1, {'type': 'integer'}, {'dialect': 'draft-05'})`, want: `compile error: schema option dialect`},
			},
		},
		{
			name:  "duplicates",
			since: 1,
			overloads: []libOverload{
				{id: "list_duplicates", params: []param{p("list", listT)}, result: listT, impl: duplicatesBinding},
			},
			cost:    walks,
			native:  nativeCall,
			summary: "the values that occur more than once in a list (CEL equality: `1 == 1.0`)",
			doc: `Returns the elements of a list that occur more than once, each reported
once (its first occurrence), in the order in which their first repeat
appears. Equality is CEL equality (the == operator): 1, 1u and 1.0 are
equal, as JSON Schema's uniqueItems also has it; NaN equals nothing;
lists and maps compare element-wise. One exception keeps equality
transitive: an integer that a double cannot represent exactly (beyond
±2^53) equals only the same integer, never a double. The work is about
linear in the size of the list (values are bucketed by a canonical key).`,
			examples: []example{
				{expr: `duplicates([1, 2, 1, 3, 2, 1])`, want: `[1, 2]`},
				{expr: `duplicates(['a', 'b'])`, want: `[]`},
				{expr: `duplicates([1, 1.0])`, want: `[1]`},
				{expr: `duplicates([{'a': 1}, {'a': 1}])`, want: `[{'a': 1}]`},
			},
		},
		{
			name:  "duplicateIndexes",
			since: 1,
			overloads: []libOverload{
				{id: "list_duplicate_indexes", params: []param{p("list", listT)}, result: gocel.ListType(integer), impl: duplicateIndexesBinding},
			},
			cost:    walks,
			native:  nativeCall,
			summary: "the indexes of every repeat occurrence of a value in a list",
			doc: `Returns the indexes of every occurrence of a value after its first, in
ascending order, with the equality of duplicates.`,
			examples: []example{
				{expr: `duplicateIndexes([1, 2, 1, 3, 2, 1])`, want: `[2, 4, 5]`},
				{expr: `duplicateIndexes([])`, want: `[]`},
			},
		},
		{
			name:  "jsonType",
			since: 1,
			overloads: []libOverload{
				{id: "dyn_json_type", params: []param{p("value", dyn)}, result: str, impl: jsonTypeBinding},
			},
			cost:    chargedAfterwards,
			native:  nativeCall,
			summary: "the JSON type of `value`: `\"null\"`, `\"boolean\"`, `\"number\"`, `\"string\"`, `\"array\"` or `\"object\"`",
			doc: `Names the JSON type of a value: "null", "boolean", "number" (int, uint
and double), "string", "array" (list) or "object" (map). Other CEL values
(bytes, timestamps, durations, types, optionals) are an error.`,
			examples: []example{
				{expr: `jsonType(null)`, want: `'null'`},
				{expr: `jsonType(1)`, want: `'number'`},
				{expr: `jsonType(1.5)`, want: `'number'`},
				{expr: `jsonType([])`, want: `'array'`},
				{expr: `jsonType({'a': 1})`, want: `'object'`},
				{expr: `jsonType(b'x')`, want: `error: a bytes value has no JSON type`},
			},
		},
		{
			name:  "isInteger",
			since: 1,
			overloads: []libOverload{
				{id: "dyn_is_integer", params: []param{p("value", dyn)}, result: boolean, impl: isIntegerBinding},
			},
			cost:    chargedAfterwards,
			native:  nativeCall,
			summary: "whether `value` is an int, a uint or an integral finite double (JSON Schema's `integer`)",
			doc: `Reports whether a value is an integer number: an int, a uint, or a finite
double without a fractional part (JSON Schema's "integer"). Anything else,
numbers or not, gives false.`,
			examples: []example{
				{expr: `isInteger(3)`, want: `true`},
				{expr: `isInteger(3.0)`, want: `true`},
				{expr: `isInteger(3.5)`, want: `false`},
				{expr: `isInteger('3')`, want: `false`},
			},
		},

		{
			name:  "asList",
			since: 2,
			overloads: []libOverload{
				{id: "dyn_as_list", params: []param{p("value", dyn)}, result: gocel.ListType(dyn), impl: (*library).asListBinding},
			},
			cost:    chargedAfterwards,
			native:  nativeUnwrapsOptional,
			summary: "`value` when it is a list, else `[]`; an optional stands for its value: `asList(self.?required)`",
			doc: `A total accessor: returns its argument when it is a list, else [], and
never fails. An optional argument stands for its value, so a member that
may be absent reads as asList(self.?required); optional.none() gives [].
The argument is returned as it is, without a copy. asMap, asString and
asInt are the same for maps, strings and integers.

The argument is dyn, which also admits an optional: cel-go cannot declare
an optional_type(dyn) overload beside a dyn one (it refuses the pair as
an "overload signature collision", dyn being assignable from every
type), so the implementation unwraps it.`,
			exampleSelf: `{'required': ['a'], 'n': 2.0}`,
			examples: []example{
				{expr: `asList(self.?required)`, want: `['a']`},
				{expr: `asList(self.?missing)`, want: `[]`},
				{expr: `asList(self.n)`, want: `[]`},
				{expr: `asList(optional.of([1]))`, want: `[1]`},
			},
		},
		{
			name:  "asMap",
			since: 2,
			overloads: []libOverload{
				{id: "dyn_as_map", params: []param{p("value", dyn)}, result: gocel.MapType(str, dyn), impl: (*library).asMapBinding},
			},
			cost:    chargedAfterwards,
			native:  nativeUnwrapsOptional,
			summary: "`value` when it is a map, else `{}`; optionals as for `asList`",
			doc: `Returns its argument when it is a map, whatever its key type, else {};
optionals as for asList.`,
			exampleSelf: `{'required': ['a'], 'n': 2.0}`,
			examples: []example{
				{expr: `asMap(self.?properties)`, want: `{}`},
				{expr: `asMap(self).required`, want: `['a']`},
				{expr: `asMap('x')`, want: `{}`},
			},
		},
		{
			name:  "asString",
			since: 2,
			overloads: []libOverload{
				{id: "dyn_as_string", params: []param{p("value", dyn)}, result: str, impl: asStringBinding},
			},
			cost:        chargedAfterwards,
			native:      nativeUnwrapsOptional,
			summary:     "`value` when it is a string, else `\"\"`; optionals as for `asList`",
			doc:         `Returns its argument when it is a string, else ""; optionals as for asList.`,
			exampleSelf: `{'name': 'pets', 'n': 2.0}`,
			examples: []example{
				{expr: `asString(self.?name)`, want: `'pets'`},
				{expr: `asString(self.?title)`, want: `''`},
				{expr: `asString(optional.of('a'))`, want: `'a'`},
				{expr: `asString(self.n)`, want: `''`},
			},
		},
		{
			name:  "asInt",
			since: 2,
			overloads: []libOverload{
				{id: "dyn_as_int", params: []param{p("value", dyn)}, result: integer, impl: asIntBinding},
			},
			cost:    chargedAfterwards,
			native:  nativeUnwrapsOptional,
			summary: "`value` when it is an integral number (`1u`, `2.0`) within int range, as an int, else `0`; optionals as for `asList`",
			doc: `Returns its argument as an int when it is an integral number: an int, a
uint or an integral double within int range (1u and 2.0 give 1 and 2;
2.5, 1e300 and NaN give 0); else 0. Optionals as for asList.`,
			exampleSelf: `{'required': ['a'], 'n': 2.0}`,
			examples: []example{
				{expr: `asInt(self.n)`, want: `2`},
				{expr: `asInt(self.?n)`, want: `2`},
				{expr: `asInt(2.5)`, want: `0`},
				{expr: `asInt(1u)`, want: `1`},
				{expr: `asInt(self.required)`, want: `0`},
			},
		},
		{
			name:  "descendants",
			since: 2,
			overloads: []libOverload{
				{id: "dyn_descendants", params: []param{p("value", dyn)}, result: entries, impl: (*library).descendantsBinding},
			},
			cost:    walks,
			native:  nativeCall,
			summary: "every value inside `value`, depth first, as `{\"path\": \"/a/0\", \"key\": 0, \"value\": ...}`",
			doc: `Lists every value nested inside a value, at any depth (not the value
itself), depth first and in pre-order: a member or element comes before
the values inside it. Map members come in sorted key order (CEL maps
keep no document order), list elements in order. Each entry is a map
{'path': p, 'key': k, 'value': v}: p is the RFC 6901 JSON Pointer of v
relative to the argument ("/a/0"; tokens escaped, "~0" and "~1"), k is
the member name (the key as it is: a string in documents) or the element
index (an int). Scalars have no descendants. The walk visits at most
1,000,000 nodes (fewer when the cost limit is lower); more is an error.
It costs one unit per node.`,
			exampleSelf: `{'a': {'$ref': '#/b'}, 'b': [{'$ref': '#/c'}]}`,
			examples: []example{
				{expr: `descendants({'b': 1, 'a': [true]})`, want: `[{'path': '/a', 'key': 'a', 'value': [true]}, {'path': '/a/0', 'key': 0, 'value': true}, {'path': '/b', 'key': 'b', 'value': 1}]`},
				{expr: `descendants({'a/b': 1})[0].path`, want: `'/a~1b'`},
				{expr: `descendants(self).filter(d, isReference(d.value)).map(d, d.path)`, want: `['/a', '/b/0']`},
				{expr: `descendants('x')`, want: `[]`},
			},
		},
		{
			name:  "indexesBy",
			since: 2,
			overloads: []libOverload{
				{id: "list_indexes_by_string", params: []param{p("list", gocel.ListType(dyn)), p("field", str)}, result: gocel.MapType(dyn, gocel.ListType(integer)), impl: indexesByBinding},
			},
			cost:    walks,
			native:  nativeCall,
			summary: "the indexes of a list's elements, grouped by their member `field`: `{\"a\": [0, 2], \"b\": [1]}`, in linear time",
			doc: `Groups the indexes of a list's elements by the value of one member:
every element that is a map with that member, whose value is a string
or an integer number, puts its index under that value; other elements
are skipped. Integer numbers group as CEL equality has it (1, 1u and 1.0
are the key 1). Index lists are in ascending order. The work is linear
in the length of the list.`,
			exampleSelf: `{'tools': [{'name': 'a'}, {'name': 'b'}, {'name': 'a'}]}`,
			examples: []example{
				{expr: `indexesBy([{'n': 'a'}, {'n': 'b'}, {'n': 'a'}], 'n')`, want: `{'a': [0, 2], 'b': [1]}`},
				{expr: `indexesBy([{'n': 1}, {'n': 1.0}, {'n': 1.5}, 'x', {}], 'n')`, want: `{1: [0, 1]}`},
				{expr: `indexesBy(self.tools, 'name').exists(k, size(indexesBy(self.tools, 'name')[k]) > 1)`, want: `true`},
			},
		},
		{
			name:  "indexOf",
			since: 2,
			overloads: []libOverload{
				{id: "list_index_of_dyn", params: []param{p("list", gocel.ListType(dyn)), p("value", dyn)}, result: integer, impl: indexOfBinding},
			},
			cost:    measured(indexOfCost),
			native:  nativeCall,
			summary: "the index of the first element of `list` equal to `value`, or -1",
			doc: `The index of the first element of a list equal to a value (CEL
equality: 1 == 1.0), or -1. This global function sits beside the strings
extension's member function string.indexOf(string), which is unchanged.`,
			examples: []example{
				{expr: `indexOf(['a', 'b', 'a'], 'a')`, want: `0`},
				{expr: `indexOf([1, 2], 2.0)`, want: `1`},
				{expr: `indexOf([], 1)`, want: `-1`},
				{expr: `'banana'.indexOf('n')`, want: `2`, note: "the strings extension"},
			},
		},
		{
			name:  "tryBase64Decode",
			since: 2,
			overloads: []libOverload{
				{id: "string_try_base64_decode", params: []param{p("s", str)}, result: gocel.OptionalType(gocel.BytesType), impl: tryBase64DecodeBinding},
			},
			cost:    scans,
			native:  nativeCall,
			summary: "the bytes `s` decodes to as standard base64, or `optional.none()` when it is not base64",
			doc: `Decodes standard base64 (RFC 4648 section 4, padded or not) to bytes,
accepting what base64.decode accepts; text that is not base64 gives
optional.none() instead of an error.`,
			exampleSelf: `{'data': 'aGk='}`,
			examples: []example{
				{expr: `tryBase64Decode('aGk=')`, want: `optional.of(b'hi')`},
				{expr: `tryBase64Decode('aGk')`, want: `optional.of(b'hi')`},
				{expr: `tryBase64Decode('not base64!')`, want: `optional.none()`},
				{expr: `tryBase64Decode(self.data).hasValue()`, want: `true`},
			},
		},
		{
			name:  "quote",
			since: 2,
			overloads: []libOverload{
				{id: "dyn_quote", params: []param{p("value", dyn)}, result: str, impl: quoteBinding},
			},
			cost:    walks,
			native:  nativeCall,
			summary: "`value` as a template writes it: a string quoted, anything else as JSON; `\"%s\".format([quote(x)])` says what `{x}` says",
			doc: `Writes a value as celint's message templates write one (see Quote): a
string double-quoted with Go escapes, anything else as compact JSON with
sorted map keys. '%s'.format([quote(x)]) is what the template {x} gives.
A value without a JSON form (NaN, infinities, a type) is an error, as it
is in a template.`,
			examples: []example{
				{expr: `quote('a"b')`, want: `'"a\\"b"'`},
				{expr: `quote([1, 'x'])`, want: `'[1,"x"]'`},
				{expr: `quote({'b': 1, 'a': 2})`, want: `'{"a":2,"b":1}'`},
				{expr: `quote(null)`, want: `'null'`},
				{expr: `quote(double('NaN'))`, want: `error: NaN`},
			},
		},
		{
			name:  "schemaError",
			since: 2,
			overloads: []libOverload{
				{id: "dyn_schema_error", params: []param{p("schema", dyn)}, result: str, impl: (*library).schemaErrorBinding},
				{id: "dyn_schema_error_options", since: 3, params: []param{p("schema", dyn), p("options", options)}, result: str, impl: (*library).schemaError3Binding,
					summary: "as `schemaError(schema)`, under the options of `schemaErrors(value, schema, options)`"},
			},
			cost:      walks,
			native:    nativeCall,
			constArgs: []constArgCheck{{arg: 0, check: schemaCompiles(1)}, {arg: 1, check: schemaOptionsParse}},
			summary:   "`\"\"` when `schema`, a JSON Schema from the document, compiles; else why, with where in the schema: `does not compile: at /$ref: $ref \"#/$defs/x\" points to nothing in the schema` (the same words as a rule's own schema fragment gets)",
			doc: `Says why a value is not a JSON Schema that compiles, with the compiler
of matchesSchema (nothing is fetched): "" when it compiles, else "does
not compile: " and the reason. With options (version 3), the schema is
compiled under them, as for schemaErrors(value, schema, options).`,
			exampleSelf: `{'$ref': '#/$defs/x'}`,
			examples: []example{
				{expr: `schemaError({'type': 'string'})`, want: `''`},
				{expr: `schemaError(self)`, want: `'does not compile: at /$ref: $ref "#/$defs/x" points to nothing in the schema'`},
				{expr: `schemaError(dyn({'$schema': 'https://example.com/meta'}))`, want: `'does not compile: at /$schema: unknown $schema "https://example.com/meta": use a JSON Schema draft (2020-12, 2019-09, 7, 6 or 4); nothing is fetched'`},
				{expr: `schemaError(dyn({'$ref': 'https://example.com/s.json'}))`, want: `'does not compile: at /$ref: $ref "https://example.com/s.json" leaves the schema: references must point inside it; nothing is fetched'`},
				{expr: `schemaError({'$ref': 'https://example.com/s.json'}, {'externalRefs': 'ignore'})`, want: `''`},
			},
		},

		{
			name:  "schemaExternalRefs",
			since: 3,
			overloads: []libOverload{
				{id: "dyn_schema_external_refs", params: []param{p("schema", dyn)}, result: gocel.ListType(str), impl: (*library).schemaExternalRefsBinding},
			},
			cost:    walks,
			native:  nativeCall,
			summary: "the pointers, within `schema`, of each `$ref` that leaves it: `[\"/properties/a/$ref\"]`",
			doc: `The JSON Pointers, within a schema, of each $ref, $dynamicRef and
$recursiveRef whose target is outside the schema value (not the schema
itself, nor a resource it declares with $id), in walk order; references
in data ("const", "enum", ...) are not references.`,
			examples: []example{
				{expr: `schemaExternalRefs({'properties': {'a': {'$ref': 'other.json'}}})`, want: `['/properties/a/$ref']`},
				{expr: `schemaExternalRefs({'$defs': {'a': {}}, '$ref': '#/$defs/a'})`, want: `[]`},
			},
		},
		{
			name:  "isURITemplate",
			since: 3,
			overloads: []libOverload{
				{id: "string_is_uri_template", params: []param{p("s", str)}, result: boolean, impl: (*library).isURITemplateBinding},
			},
			cost:    scans,
			native:  nativeCall,
			summary: "whether `s` is an RFC 6570 URI template (levels 1 to 4)",
			doc:     `Reports whether a string is an RFC 6570 URI template (levels 1 to 4).`,
			examples: []example{
				{expr: `isURITemplate('file:///{+path}{?q}')`, want: `true`},
				{expr: `isURITemplate('file:///{path')`, want: `false`},
			},
		},
		{
			name:  "uriTemplateVariables",
			since: 3,
			overloads: []libOverload{
				{id: "string_uri_template_variables", params: []param{p("template", str)}, result: gocel.ListType(str), impl: (*library).uriTemplateVariablesBinding},
			},
			cost:    scans,
			native:  nativeCall,
			summary: "the variable names of an RFC 6570 template, once each, in order",
			doc: `The variable names of an RFC 6570 URI template, once each, in order of
first appearance; [] when it is not a valid template.`,
			examples: []example{
				{expr: `uriTemplateVariables('db://{schema}/{table}{?schema}')`, want: `['schema', 'table']`},
				{expr: `uriTemplateVariables('db://{schema')`, want: `[]`},
			},
		},
		{
			name:  "uriTemplateMatches",
			since: 3,
			overloads: []libOverload{
				{id: "string_uri_template_matches_string", params: []param{p("template", str), p("uri", str)}, result: boolean, impl: (*library).uriTemplateMatchesBinding},
			},
			cost:    measured(uriTemplateMatchCost),
			native:  nativeCall,
			summary: "whether `uri` is an expansion of the RFC 6570 template `template`",
			doc: `Reports whether a URI is an expansion of an RFC 6570 template (some
values of its variables expand to it); false when the template is not
valid.`,
			examples: []example{
				{expr: `uriTemplateMatches('db://{schema}/{table}', 'db://public/users')`, want: `true`},
				{expr: `uriTemplateMatches('db://{table}', 'db://a/b')`, want: `false`},
			},
		},
		{
			name:  "isMediaType",
			since: 3,
			overloads: []libOverload{
				{id: "string_is_media_type", params: []param{p("s", str)}, result: boolean, impl: stringPredicate(isMediaType)},
			},
			cost:    scans,
			native:  nativeCall,
			summary: "whether `s` is a media type, `type/subtype` with optional parameters",
			doc: `Reports whether a string is a media type, type/subtype with optional
parameters (RFC 2045 and RFC 6838 syntax).`,
			examples: []example{
				{expr: `isMediaType('text/plain; charset=utf-8')`, want: `true`},
				{expr: `isMediaType('text')`, want: `false`},
			},
		},
		{
			name:  "mediaTypeEssence",
			since: 3,
			overloads: []libOverload{
				{id: "string_media_type_essence", params: []param{p("s", str)}, result: str, impl: stringFunction(mediaTypeEssence)},
			},
			cost:    scans,
			native:  nativeCall,
			summary: "the lower-case `type/subtype` of a media type, without parameters (`\"\"` when invalid)",
			doc: `The lower-case type/subtype of a media type, without parameters; ""
when the string is not a media type.`,
			examples: []example{
				{expr: `mediaTypeEssence('Text/HTML; charset=UTF-8')`, want: `'text/html'`},
				{expr: `mediaTypeEssence('text')`, want: `''`},
			},
		},
		{
			name:  "isCanonicalBase64",
			since: 3,
			overloads: []libOverload{
				{id: "string_is_canonical_base64", params: []param{p("s", str)}, result: boolean, impl: stringPredicate(isCanonicalBase64)},
			},
			cost:    scans,
			native:  nativeCall,
			summary: "whether `s` is padded standard base64 that re-encodes to itself",
			doc: `Reports whether a string is padded standard base64 that decodes and
re-encodes to itself (no line breaks, no URL alphabet, zero pad bits).`,
			examples: []example{
				{expr: `isCanonicalBase64('aGk=')`, want: `true`},
				{expr: `isCanonicalBase64('aGk')`, want: `false`},
				{expr: `isCanonicalBase64('aGl=')`, want: `false`, note: "pad bits not zero"},
			},
		},

		{
			name:  "hasNestedKey",
			since: 4,
			overloads: []libOverload{
				{id: "dyn_has_nested_key_string", params: []param{p("value", dyn), p("key", str)}, result: boolean, impl: (*library).hasNestedKeyBinding},
			},
			cost:    walks,
			native:  nativeCall,
			summary: "whether `value`, or a map anywhere inside it, has a member `key`: a cheap rule-level `when` before building lists of what to check",
			doc: `Reports whether a value, or a map nested anywhere inside it, has a
member named key: a cheap test of whether a rule has anything to look
at, before it builds lists of what it looks at. A document's value is
walked in place, in document order. At most 1,000,000 nodes; more is an
error.`,
			examples: []example{
				{expr: `hasNestedKey({'a': [{'x-b': 1}]}, 'x-b')`, want: `true`},
				{expr: `hasNestedKey({'a': 'x-b'}, 'x-b')`, want: `false`},
			},
		},
	}
}
