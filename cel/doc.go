// Package cel holds celint's CEL environment and the domain-free function
// library that rule expressions may call.
//
// # Environment
//
// NewEnv builds an environment in which every rule expression is compiled.
// It declares these variables:
//
//	self  dyn     the selected node
//	root  dyn     the whole document
//	path  string  the JSON Pointer of self within root ("" for the root)
//
// plus the Config.Variables and, through Env.Extend, rule-level variables
// and loop variables. Documents are JSON-compatible Go values (nil, bool,
// int64, float64, string, []any, map[string]any); in CEL they are null,
// bool, int, double, string, list and map values.
//
// Besides the CEL standard library, expressions may use these cel-go
// extension libraries (see https://pkg.go.dev/github.com/google/cel-go/ext):
//
//   - strings: charAt, indexOf, lastIndexOf, lowerAscii, upperAscii,
//     replace, split, substring, trim, join, strings.quote, reverse, format
//   - lists: lists.range, slice, flatten, distinct, reverse, sort, sortBy
//   - sets: sets.contains, sets.equivalent, sets.intersects
//   - math: math.greatest, math.least, math.abs, math.ceil, math.floor,
//     math.round, math.isNaN, math.isInf, math.sqrt, bit operations, ...
//   - bindings: cel.bind(name, value, expr)
//   - encoders: base64.encode, base64.decode
//   - two-variable comprehensions: all(k, v, ...), exists(k, v, ...),
//     existsOne(k, v, ...), transformList, transformMap, transformMapEntry
//   - regex: regex.replace, regex.extract, regex.extractAll
//   - optional types: optional.of, optional.none, x.?field, m[?key],
//     orValue, hasValue, value
//
// Numbers of different types compare with each other (1 < 2.5, 1 == 1.0).
// Regular expressions (matches, regex.*) are RE2: matching takes time
// linear in the input, whatever the pattern.
//
// # Evaluation
//
// Env.Compile type-checks an expression and maps error positions through an
// Origin into the YAML file holding it; compiled programs are cached. Each
// Program.Eval has a cost limit (Config.CostLimit, default
// DefaultCostLimit = 1,000,000 units): exceeding it is an error wrapping
// ErrCostLimit. Cost is counted by celint, not by cel-go's cost tracker: a
// unit per variable read, literal and call, plus the length of what a call
// returns; calls whose work grows with their arguments (equality of lists
// and maps, membership, join, format, sort, the string functions, the
// library functions that walk values) are measured before they run, and
// refused when the measure alone passes the limit. The count does not
// depend on the machine or its load. A panic during evaluation becomes an
// error wrapping ErrPanic; a program with comprehensions under a limit
// above DefaultCostLimit also stops within 100 iterations of its context
// ending. Values may be bound lazily in the activation map as
// func() any or func() ref.Val; see Program.Eval.
//
// Most expressions are evaluated by a native evaluator (internal/celnative)
// that runs the checked AST directly and charges exactly what the meter
// would; at the first error, unknown value, cost-limit breach or panic it
// gives up and cel-go's interpreter evaluates the expression from the
// start, so every error and every cost-limit refusal is cel-go's.
// Config.VerifyNative (or the environment variable CELINT_VERIFY_NATIVE)
// runs both on every evaluation and reports any difference of value or
// cost.
//
// # Library
//
// The celint library (Library) adds these global functions; the doc
// comment of Library gives each one's full description and examples.
//
// The library is versioned (Config.Library, 0 for the newest,
// LatestLibrary = 4): an environment declares the functions of its version
// and earlier ones only, so with Library: 1 an expression using a
// version-2 function fails to compile ("undeclared reference" or "found no
// matching overload"), and matchesSchema and schemaErrors keep their
// version-1 behaviour (a schema that does not compile is an error).
//
// Version 1:
//
//	isURI(string s) -> bool
//	    Reports whether a string is an absolute URI by the RFC 3986 grammar:
//	    scheme ":" hier-part [ "?" query ] [ "#" fragment ]. Every character must
//	    be allowed in its component, percent-encodings must be "%" and two hex
//	    digits, an IP literal must be a bracketed IPv6 address (no zone) or
//	    IPvFuture, and a port must be digits. Non-ASCII characters and spaces are
//	    not allowed (IRIs are not URIs).
//	    isURI('https://auth.example.com/authorize') == true
//	    isURI('urn:isbn:0451450523') == true
//	    isURI('example:///account') == true
//	    isURI('http://[::1]:8080/') == true
//	    isURI('not a valid URI') == false
//	    isURI('/relative/path') == false
//	    isURI('http://example.com/a b') == false
//	    isURI('http://example.com/%zz') == false
//
//	isURIReference(string s) -> bool
//	    Reports whether a string is a URI or a relative reference (RFC 3986
//	    section 4.1). Every string accepted by isURI is accepted.
//	    isURIReference('../a/b?x=1#top') == true
//	    isURIReference('#/components') == true
//	    isURIReference('') == true
//	    isURIReference('a:b:c') == true   (scheme "a")
//	    isURIReference('1a:b') == false   (a relative path's first segment may not hold ":")
//	    isURIReference('a b') == false
//
//	jsonPointer(dyn value, string pointer) -> optional_type(dyn)
//	    Looks an RFC 6901 JSON Pointer up in a value. The pointer may also be in
//	    URI fragment form ("#/a/b"), which is percent-decoded first. "" and "#"
//	    address the value itself. "~0" stands for "~" and "~1" for "/". Array
//	    indexes are decimal without leading zeros; "-", "01", "+1" or an index
//	    past the end address nothing. A missing member or index gives
//	    optional.none(); a malformed pointer (not starting with "/", or a "~" not
//	    followed by "0" or "1", or a bad percent-encoding) is an error.
//	    jsonPointer({'a': [10, 20]}, '/a/1') == optional.of(20)
//	    jsonPointer({'a/b': {'~': 1}}, '/a~1b/~0') == optional.of(1)
//	    jsonPointer({'a b': 1}, '#/a%20b') == optional.of(1)
//	    jsonPointer({'a': 1}, '/x') == optional.none()
//	    jsonPointer({'a': 1}, '/x').orValue(0) == 0
//	    jsonPointer({'a': [1]}, '/a/01').hasValue() == false
//
//	jsonPointerTokens(string pointer) -> list(string)
//	    Splits a JSON Pointer (or "#/..." fragment) into its unescaped reference
//	    tokens. Malformed pointers are errors, as for jsonPointer.
//	    jsonPointerTokens('/paths/~1pets/get') == ['paths', '/pets', 'get']
//	    jsonPointerTokens('') == []
//	    jsonPointerTokens('/') == ['']
//
//	jsonPointerEscape(string token) -> string
//	    Escapes a string for use as one JSON Pointer reference token ("~" becomes
//	    "~0", "/" becomes "~1"), e.g. to build a child's pointer from path:
//	    path + '/' + jsonPointerEscape(name).
//	    jsonPointerEscape('/pets') == '~1pets'
//	    '/paths' + '/' + jsonPointerEscape('a~b') == '/paths/a~0b'
//
//	isReference(dyn value) -> bool
//	    Reports whether a value is a reference object: a map with a member named
//	    by the configured reference key (Config.ReferenceKey, e.g. "$ref") whose
//	    value is a string. Other members may sit beside it. Always false when no
//	    reference key is configured.
//	    isReference({'$ref': '#/a'}) == true
//	    isReference({'$ref': '#/a', 'description': 'x'}) == true
//	    isReference({'$ref': {'type': 'string'}}) == false
//	    isReference('#/a') == false
//
//	resolve(dyn root, dyn value) -> dyn
//	    Follows a reference object's local reference ("#/..." JSON Pointer
//	    fragment) in root, and keeps following while the target is itself a
//	    reference, returning the first value that is not a reference. A value
//	    that is not a reference is returned unchanged. Errors: a target that does
//	    not exist, a cycle, a non-local reference (nothing is ever fetched), a
//	    reference that is not a JSON Pointer fragment, or a chain longer than 64.
//
//	resolveAll(dyn root, dyn value) -> dyn
//	    Returns a copy of a value in which every reference object, at any depth,
//	    is replaced by its resolved target, itself with every reference inside
//	    it replaced, and so on. A reference that leads back into a reference
//	    being expanded is a cycle and an error, as are the errors of resolve.
//	    The expansion visits at most 1,000,000 nodes; more is an error.
//
//	matchesSchema(dyn value, dyn schema) -> bool
//	    Reports whether a value is valid against a JSON Schema given as a value
//	    (draft 2020-12 unless the schema's "$schema" names another draft known to
//	    github.com/santhosh-tekuri/jsonschema/v6: 4, 6, 7, 2019-09). "format" is
//	    asserted (a lint wants "format": "uri" checked), unlike the 2020-12
//	    default, which makes it an annotation only. A "$ref" may only point
//	    inside the schema itself: anything else (https:, file:, a relative file
//	    name) is refused, never fetched or read, and makes the schema invalid.
//	    A schema that does not compile gives false (schemaError says why); in
//	    version 1 it is an error saying why. A schema written as a constant
//	    that does not compile is a compile error at the schema. Compiled schemas
//	    are cached.
//
//	    With options (version 3), the schema is compiled under them, as for
//	    schemaErrors(value, schema, options).
//	    matchesSchema(3, {'type': 'integer', 'minimum': 1}) == true
//	    matchesSchema('x', {'type': 'integer'}) == false
//	    matchesSchema(['a', 1], {'items': [{'type': 'string'}]}, {'dialect': 'draft-07'}) == true
//	    matchesSchema(1, {'$ref': 'https://example.com/s.json'}, {'externalRefs': 'ignore'}) == true
//
//	schemaErrors(dyn value, dyn schema) -> list(map(string, dyn))
//	    Validates like matchesSchema and lists the most specific causes of
//	    failure (the leaves of the validation error tree), sorted by pointer,
//	    keyword and message; [] when the value is valid. Each entry has
//	    "pointer": the JSON Pointer of the failing value within the validated
//	    value ("" for the value itself), "message": the validator's English
//	    message, and "keyword": the JSON Pointer of the failing keyword within
//	    the schema (through any "$ref", e.g. "/properties/a/$ref/type"). A
//	    schema that does not compile gives one entry, with an empty "pointer"
//	    and "keyword" and the "message" "schema " + schemaError(schema); in
//	    version 1 it is an error, as for matchesSchema.
//
//	    With options (version 3), each entry is placed as a rule's own schema
//	    fragment places it: a missing required member at /<member>, an unknown
//	    member at itself, anything else at the failing value, and "keyword" is
//	    the failing keyword's name. The options are "dialect", the draft for a
//	    schema without "$schema": "2020-12" (the default), "2019-09",
//	    "draft-07", "draft-06" or "draft-04"; and "externalRefs": "refuse" (the
//	    default: a reference that leaves the schema makes it not compile) or
//	    "ignore" (such a reference is taken as satisfied, so validation is
//	    partial; nothing is ever fetched). An unknown option or value is an
//	    error. A schema that does not compile gives one entry, pointer "",
//	    message "schema does not compile: <why>". Each distinct schema and
//	    options is compiled once and cached.
//	    schemaErrors({'a': 'x'}, {'properties': {'a': {'type': 'integer'}}}) == [{'pointer': '/a', 'keyword': '/properties/a/type', 'message': 'got string, want integer'}]
//	    schemaErrors(1, {'type': 'integer'}) == []
//	    schemaErrors(1, dyn({'$ref': '#/$defs/x'})) == [{'pointer': '', 'keyword': '', 'message': 'schema does not compile: at /$ref: $ref "#/$defs/x" points to nothing in the schema'}]
//	    schemaErrors({'n': 'x'}, {'properties': {'n': {'type': 'integer'}}}, {}) == [{'pointer': '/n', 'keyword': 'type', 'message': 'got string, want integer'}]
//
//	duplicates(list(<T>) list) -> list(<T>)
//	    Returns the elements of a list that occur more than once, each reported
//	    once (its first occurrence), in the order in which their first repeat
//	    appears. Equality is CEL equality (the == operator): 1, 1u and 1.0 are
//	    equal, as JSON Schema's uniqueItems also has it; NaN equals nothing;
//	    lists and maps compare element-wise. One exception keeps equality
//	    transitive: an integer that a double cannot represent exactly (beyond
//	    ±2^53) equals only the same integer, never a double. The work is about
//	    linear in the size of the list (values are bucketed by a canonical key).
//	    duplicates([1, 2, 1, 3, 2, 1]) == [1, 2]
//	    duplicates(['a', 'b']) == []
//	    duplicates([1, 1.0]) == [1]
//	    duplicates([{'a': 1}, {'a': 1}]) == [{'a': 1}]
//
//	duplicateIndexes(list(<T>) list) -> list(int)
//	    Returns the indexes of every occurrence of a value after its first, in
//	    ascending order, with the equality of duplicates.
//	    duplicateIndexes([1, 2, 1, 3, 2, 1]) == [2, 4, 5]
//	    duplicateIndexes([]) == []
//
//	jsonType(dyn value) -> string
//	    Names the JSON type of a value: "null", "boolean", "number" (int, uint
//	    and double), "string", "array" (list) or "object" (map). Other CEL values
//	    (bytes, timestamps, durations, types, optionals) are an error.
//	    jsonType(null) == 'null'
//	    jsonType(1) == 'number'
//	    jsonType(1.5) == 'number'
//	    jsonType([]) == 'array'
//	    jsonType({'a': 1}) == 'object'
//
//	isInteger(dyn value) -> bool
//	    Reports whether a value is an integer number: an int, a uint, or a finite
//	    double without a fractional part (JSON Schema's "integer"). Anything else,
//	    numbers or not, gives false.
//	    isInteger(3) == true
//	    isInteger(3.0) == true
//	    isInteger(3.5) == false
//	    isInteger('3') == false
//
// Version 2 adds:
//
//	asList(dyn value) -> list(dyn)
//	    A total accessor: returns its argument when it is a list, else [], and
//	    never fails. An optional argument stands for its value, so a member that
//	    may be absent reads as asList(self.?required); optional.none() gives [].
//	    The argument is returned as it is, without a copy. asMap, asString and
//	    asInt are the same for maps, strings and integers.
//
//	    The argument is dyn, which also admits an optional: cel-go cannot declare
//	    an optional_type(dyn) overload beside a dyn one (it refuses the pair as
//	    an "overload signature collision", dyn being assignable from every
//	    type), so the implementation unwraps it.
//	    asList(optional.of([1])) == [1]
//
//	asMap(dyn value) -> map(string, dyn)
//	    Returns its argument when it is a map, whatever its key type, else {};
//	    optionals as for asList.
//	    asMap('x') == {}
//
//	asString(dyn value) -> string
//	    Returns its argument when it is a string, else ""; optionals as for asList.
//	    asString(optional.of('a')) == 'a'
//
//	asInt(dyn value) -> int
//	    Returns its argument as an int when it is an integral number: an int, a
//	    uint or an integral double within int range (1u and 2.0 give 1 and 2;
//	    2.5, 1e300 and NaN give 0); else 0. Optionals as for asList.
//	    asInt(2.5) == 0
//	    asInt(1u) == 1
//
//	descendants(dyn value) -> list(map(string, dyn))
//	    Lists every value nested inside a value, at any depth (not the value
//	    itself), depth first and in pre-order: a member or element comes before
//	    the values inside it. Map members come in sorted key order (CEL maps
//	    keep no document order), list elements in order. Each entry is a map
//	    {'path': p, 'key': k, 'value': v}: p is the RFC 6901 JSON Pointer of v
//	    relative to the argument ("/a/0"; tokens escaped, "~0" and "~1"), k is
//	    the member name (the key as it is: a string in documents) or the element
//	    index (an int). Scalars have no descendants. The walk visits at most
//	    1,000,000 nodes (fewer when the cost limit is lower); more is an error.
//	    It costs one unit per node.
//	    descendants({'b': 1, 'a': [true]}) == [{'path': '/a', 'key': 'a', 'value': [true]}, {'path': '/a/0', 'key': 0, 'value': true}, {'path': '/b', 'key': 'b', 'value': 1}]
//	    descendants({'a/b': 1})[0].path == '/a~1b'
//	    descendants('x') == []
//
//	indexesBy(list(dyn) list, string field) -> map(dyn, list(int))
//	    Groups the indexes of a list's elements by the value of one member:
//	    every element that is a map with that member, whose value is a string
//	    or an integer number, puts its index under that value; other elements
//	    are skipped. Integer numbers group as CEL equality has it (1, 1u and 1.0
//	    are the key 1). Index lists are in ascending order. The work is linear
//	    in the length of the list.
//	    indexesBy([{'n': 'a'}, {'n': 'b'}, {'n': 'a'}], 'n') == {'a': [0, 2], 'b': [1]}
//	    indexesBy([{'n': 1}, {'n': 1.0}, {'n': 1.5}, 'x', {}], 'n') == {1: [0, 1]}
//
//	indexOf(list(dyn) list, dyn value) -> int
//	    The index of the first element of a list equal to a value (CEL
//	    equality: 1 == 1.0), or -1. This global function sits beside the strings
//	    extension's member function string.indexOf(string), which is unchanged.
//	    indexOf(['a', 'b', 'a'], 'a') == 0
//	    indexOf([1, 2], 2.0) == 1
//	    indexOf([], 1) == -1
//	    'banana'.indexOf('n') == 2   (the strings extension)
//
//	tryBase64Decode(string s) -> optional_type(bytes)
//	    Decodes standard base64 (RFC 4648 section 4, padded or not) to bytes,
//	    accepting what base64.decode accepts; text that is not base64 gives
//	    optional.none() instead of an error.
//	    tryBase64Decode('aGk=') == optional.of(b'hi')
//	    tryBase64Decode('aGk') == optional.of(b'hi')
//	    tryBase64Decode('not base64!') == optional.none()
//
//	quote(dyn value) -> string
//	    Writes a value as celint's message templates write one (see Quote): a
//	    string double-quoted with Go escapes, anything else as compact JSON with
//	    sorted map keys. '%s'.format([quote(x)]) is what the template {x} gives.
//	    A value without a JSON form (NaN, infinities, a type) is an error, as it
//	    is in a template.
//	    quote('a"b') == '"a\\"b"'
//	    quote([1, 'x']) == '[1,"x"]'
//	    quote({'b': 1, 'a': 2}) == '{"a":2,"b":1}'
//	    quote(null) == 'null'
//
//	schemaError(dyn schema) -> string
//	    Says why a value is not a JSON Schema that compiles, with the compiler
//	    of matchesSchema (nothing is fetched): "" when it compiles, else "does
//	    not compile: " and the reason. With options (version 3), the schema is
//	    compiled under them, as for schemaErrors(value, schema, options).
//	    schemaError({'type': 'string'}) == ''
//	    schemaError(dyn({'$schema': 'https://example.com/meta'})) == 'does not compile: at /$schema: unknown $schema "https://example.com/meta": use a JSON Schema draft (2020-12, 2019-09, 7, 6 or 4); nothing is fetched'
//	    schemaError(dyn({'$ref': 'https://example.com/s.json'})) == 'does not compile: at /$ref: $ref "https://example.com/s.json" leaves the schema: references must point inside it; nothing is fetched'
//	    schemaError({'$ref': 'https://example.com/s.json'}, {'externalRefs': 'ignore'}) == ''
//
// Version 3 adds:
//
//	matchesSchema(dyn value, dyn schema, map(string, dyn) options) -> bool
//	    as matchesSchema(value, schema), under the options of schemaErrors(value, schema, options)
//
//	schemaErrors(dyn value, dyn schema, map(string, dyn) options) -> list(map(string, dyn))
//	    value's violations of a schema from the document, {"pointer", "keyword", "message"} each, placed as a rule's own schema fragment places them (a missing member at /<member>); options {"dialect": "draft-07"} (the draft for a schema without $schema: 2020-12 by default, 2019-09, draft-07, draft-06, draft-04) and {"externalRefs": "ignore"} (a $ref leaving the schema is taken as satisfied, instead of making the schema not compile); a schema that does not compile gives one entry with pointer ""
//
//	schemaError(dyn schema, map(string, dyn) options) -> string
//	    as schemaError(schema), under the options of schemaErrors(value, schema, options)
//
//	schemaExternalRefs(dyn schema) -> list(string)
//	    The JSON Pointers, within a schema, of each $ref, $dynamicRef and
//	    $recursiveRef whose target is outside the schema value (not the schema
//	    itself, nor a resource it declares with $id), in walk order; references
//	    in data ("const", "enum", ...) are not references.
//	    schemaExternalRefs({'properties': {'a': {'$ref': 'other.json'}}}) == ['/properties/a/$ref']
//	    schemaExternalRefs({'$defs': {'a': {}}, '$ref': '#/$defs/a'}) == []
//
//	isURITemplate(string s) -> bool
//	    Reports whether a string is an RFC 6570 URI template (levels 1 to 4).
//	    isURITemplate('file:///{+path}{?q}') == true
//	    isURITemplate('file:///{path') == false
//
//	uriTemplateVariables(string template) -> list(string)
//	    The variable names of an RFC 6570 URI template, once each, in order of
//	    first appearance; [] when it is not a valid template.
//	    uriTemplateVariables('db://{schema}/{table}{?schema}') == ['schema', 'table']
//	    uriTemplateVariables('db://{schema') == []
//
//	uriTemplateMatches(string template, string uri) -> bool
//	    Reports whether a URI is an expansion of an RFC 6570 template (some
//	    values of its variables expand to it); false when the template is not
//	    valid.
//	    uriTemplateMatches('db://{schema}/{table}', 'db://public/users') == true
//	    uriTemplateMatches('db://{table}', 'db://a/b') == false
//
//	isMediaType(string s) -> bool
//	    Reports whether a string is a media type, type/subtype with optional
//	    parameters (RFC 2045 and RFC 6838 syntax).
//	    isMediaType('text/plain; charset=utf-8') == true
//	    isMediaType('text') == false
//
//	mediaTypeEssence(string s) -> string
//	    The lower-case type/subtype of a media type, without parameters; ""
//	    when the string is not a media type.
//	    mediaTypeEssence('Text/HTML; charset=UTF-8') == 'text/html'
//	    mediaTypeEssence('text') == ''
//
//	isCanonicalBase64(string s) -> bool
//	    Reports whether a string is padded standard base64 that decodes and
//	    re-encodes to itself (no line breaks, no URL alphabet, zero pad bits).
//	    isCanonicalBase64('aGk=') == true
//	    isCanonicalBase64('aGk') == false
//	    isCanonicalBase64('aGl=') == false   (pad bits not zero)
//
// Version 4 adds:
//
//	hasNestedKey(dyn value, string key) -> bool
//	    Reports whether a value, or a map nested anywhere inside it, has a
//	    member named key: a cheap test of whether a rule has anything to look
//	    at, before it builds lists of what it looks at. A document's value is
//	    walked in place, in document order. At most 1,000,000 nodes; more is an
//	    error.
//	    hasNestedKey({'a': [{'x-b': 1}]}, 'x-b') == true
//	    hasNestedKey({'a': 'x-b'}, 'x-b') == false
package cel
