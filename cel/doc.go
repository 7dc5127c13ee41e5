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
// Most expressions are evaluated by a native evaluator (nativeeval.go)
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
//	isURI(string) -> bool
//	    the string is an absolute URI by the RFC 3986 grammar
//	    isURI('https://auth.example.com/authorize') == true
//	    isURI('not a valid URI') == false
//
//	isURIReference(string) -> bool
//	    the string is a URI or a relative reference (RFC 3986)
//	    isURIReference('../a#b') == true
//
//	jsonPointer(dyn, string) -> optional(dyn)
//	    RFC 6901 lookup; also "#/a%20b" fragments; none when absent,
//	    error when the pointer is malformed
//	    jsonPointer({'a': [1, 2]}, '/a/1') == optional.of(2)
//
//	jsonPointerTokens(string) -> list(string)
//	    the unescaped tokens of a pointer
//	    jsonPointerTokens('/paths/~1pets') == ['paths', '/pets']
//
//	jsonPointerEscape(string) -> string
//	    escape one token ("~" -> "~0", "/" -> "~1")
//	    jsonPointerEscape('/pets') == '~1pets'
//
//	isReference(dyn) -> bool
//	    the value is a map whose Config.ReferenceKey member is a string
//	    isReference({'$ref': '#/a'}) == true   (with key "$ref")
//
//	resolve(dyn root, dyn value) -> dyn
//	    follow a reference (and chains of them) to its local target;
//	    errors for missing targets, cycles, non-local references (never
//	    fetched) and chains longer than 64
//	    resolve(root, {'$ref': '#/components/schemas/Pet'})
//
//	resolveAll(dyn root, dyn value) -> dyn
//	    the value with every reference inside it replaced by its
//	    (recursively resolved) target; cycles are errors; at most
//	    1,000,000 nodes
//
//	matchesSchema(dyn value, dyn schema) -> bool
//	    JSON Schema validation (draft 2020-12 by default); $ref only
//	    within the schema value, nothing is ever fetched or read; a schema
//	    that does not compile gives false (version 1: an error)
//	    matchesSchema(3, {'type': 'integer'}) == true
//
//	schemaErrors(dyn value, dyn schema) -> list(map(string, dyn))
//	    the most specific validation failures as
//	    {'pointer': ..., 'message': ..., 'keyword': ...}; a schema that
//	    does not compile gives one entry whose message is
//	    'schema ' + schemaError(schema) (version 1: an error)
//	    schemaErrors({'a': 'x'}, {'properties': {'a': {'type': 'integer'}}})
//	        == [{'pointer': '/a', 'keyword': '/properties/a/type',
//	             'message': 'got string, want integer'}]
//
//	duplicates(list(T)) -> list(T)
//	    values occurring more than once (CEL equality: 1 == 1.0)
//	    duplicates([1, 2, 1, 3, 2]) == [1, 2]
//
//	duplicateIndexes(list(T)) -> list(int)
//	    indexes of every repeat occurrence
//	    duplicateIndexes([1, 2, 1, 3, 2]) == [2, 4]
//
//	jsonType(dyn) -> string
//	    "null", "boolean", "number", "string", "array" or "object"
//	    jsonType(1.5) == 'number'
//
//	isInteger(dyn) -> bool
//	    an int, a uint or an integral finite double
//	    isInteger(2.0) == true
//
// Version 2 adds:
//
//	asList(dyn) -> list(dyn)
//	    the value if it is a list, else []; an optional stands for its
//	    value (none gives [])
//	    asList(optional.of([1])) == [1]
//	    asList({'a': 1}.?required) == []
//
//	asMap(dyn) -> map(string, dyn)
//	    the value if it is a map, else {}; optionals as for asList
//	    asMap('x') == {}
//
//	asString(dyn) -> string
//	    the value if it is a string, else ""; optionals as for asList
//	    asString(optional.of('a')) == 'a'
//
//	asInt(dyn) -> int
//	    the value if it is an integral number (int, uint or integral
//	    double, within int range) as an int, else 0; optionals as for asList
//	    asInt(2.0) == 2
//	    asInt(2.5) == 0
//
//	descendants(dyn) -> list(map(string, dyn))
//	    every value nested inside the argument, depth first, pre-order,
//	    map members in sorted key order, as {'path': <JSON Pointer
//	    relative to the argument>, 'key': <member name or index>,
//	    'value': ...}; at most 1,000,000 nodes
//	    descendants({'a': [5]}) == [{'path': '/a', 'key': 'a', 'value': [5]}, {'path': '/a/0', 'key': 0, 'value': 5}]
//
//	indexesBy(list(dyn), string field) -> map(dyn, list(int))
//	    the indexes of the elements that are maps whose member field is a
//	    string or an integer, grouped by that value; linear time
//	    indexesBy([{'n': 'a'}, {'n': 'b'}, {'n': 'a'}], 'n') == {'a': [0, 2], 'b': [1]}
//
//	indexOf(list(dyn), dyn) -> int
//	    index of the first element equal to the value (CEL equality), or
//	    -1; string.indexOf(string) of the strings extension is unchanged
//	    indexOf(['a', 'b'], 'b') == 1
//
//	tryBase64Decode(string) -> optional(bytes)
//	    standard base64 (padded or not) decoded, or none when the text is
//	    not base64; never an error (unlike base64.decode)
//	    tryBase64Decode('aGk=') == optional.of(b'hi')
//	    tryBase64Decode('%%%') == optional.none()
//
//	quote(dyn) -> string
//	    the value as a message template writes it (Quote): strings
//	    double-quoted with Go escapes, other values as compact JSON, so
//	    '%s'.format([quote(x)]) gives what a template {x} gives
//	    quote('a"b') == '"a\\"b"'
//	    quote([1, 'x']) == '[1,"x"]'
//
//	schemaError(dyn schema) -> string
//	    "" when the value is a JSON Schema that compiles (as for
//	    matchesSchema), else "does not compile: <why>"
//	    schemaError({'type': 'string'}) == ''
//	    schemaError(dyn({'$ref': '#/$defs/x'})) == 'does not compile: at /$ref: $ref "#/$defs/x" points to nothing in the schema'
//
// Version 3:
//
//	schemaErrors(dyn value, dyn schema, map(string, dyn) options) -> list(map(string, dyn))
//	    the value's violations of the schema, each {'pointer': <relative
//	    to the value>, 'keyword': <the failing keyword's name>, 'message':
//	    ...}, placed as a rule's own schema fragment places them: a
//	    missing required member at /<member>, an unknown member at itself,
//	    anything else at the failing value; [] when the value is valid.
//	    Options: 'dialect' is the draft for a schema without $schema:
//	    '2020-12' (the default), '2019-09', 'draft-07', 'draft-06' or
//	    'draft-04'; 'externalRefs' is 'refuse' (the default: a reference
//	    that leaves the schema makes it not compile) or 'ignore' (such a
//	    reference is taken as satisfied, so validation is partial; nothing
//	    is ever fetched). An unknown option or value is an error. A schema
//	    that does not compile gives one entry, pointer '', message
//	    'schema does not compile: <why>'. Each distinct schema and options
//	    is compiled once and cached.
//	    schemaErrors({'n': 'x'}, {'properties': {'n': {'type': 'integer'}}}, {}) == [{'pointer': '/n', 'keyword': 'type', 'message': 'got string, want integer'}]
//
//	matchesSchema(dyn value, dyn schema, map(string, dyn) options) -> bool
//	    the value is valid against the schema under the options; false
//	    when the schema does not compile
//	    matchesSchema(['a', 1], {'items': [{'type': 'string'}]}, {'dialect': 'draft-07'}) == true
//
//	schemaError(dyn schema, map(string, dyn) options) -> string
//	    as schemaError(schema), under the options
//	    schemaError({'$ref': 'https://example.com/s.json'}, {'externalRefs': 'ignore'}) == ''
//
//	schemaExternalRefs(dyn schema) -> list(string)
//	    the JSON Pointers, within the schema, of each $ref, $dynamicRef
//	    and $recursiveRef whose target is outside the schema value (not
//	    the schema itself, nor a resource it declares with $id), in walk
//	    order; references in data ("const", "enum", ...) are not references
//	    schemaExternalRefs({'properties': {'a': {'$ref': 'other.json'}}}) == ['/properties/a/$ref']
//
//	isURITemplate(string) -> bool
//	    the string is an RFC 6570 URI template (levels 1 to 4)
//	    isURITemplate('file:///{+path}{?q}') == true
//	    isURITemplate('file:///{path') == false
//
//	uriTemplateVariables(string) -> list(string)
//	    the template's variable names, once each, in order of first
//	    appearance; [] when it is not a valid template
//	    uriTemplateVariables('db://{schema}/{table}{?schema}') == ['schema', 'table']
//
//	uriTemplateMatches(string template, string uri) -> bool
//	    the URI is an expansion of the template (some values of its
//	    variables expand to it); false when the template is not valid
//	    uriTemplateMatches('db://{schema}/{table}', 'db://public/users') == true
//	    uriTemplateMatches('db://{table}', 'db://a/b') == false
//
//	isMediaType(string) -> bool
//	    the string is a media type, type/subtype with optional
//	    parameters (RFC 2045 and RFC 6838 syntax)
//	    isMediaType('text/plain; charset=utf-8') == true
//	    isMediaType('text') == false
//
//	mediaTypeEssence(string) -> string
//	    the media type's lower-case type/subtype, without parameters; ''
//	    when the string is not a media type
//	    mediaTypeEssence('Text/HTML; charset=UTF-8') == 'text/html'
//
//	isCanonicalBase64(string) -> bool
//	    the string is padded standard base64 that decodes and re-encodes
//	    to itself (no line breaks, no URL alphabet, zero pad bits)
//	    isCanonicalBase64('aGk=') == true
//	    isCanonicalBase64('aGk') == false
//
// Version 4:
//
//	hasNestedKey(dyn, string key) -> bool
//	    the value, or a map nested anywhere inside it, has a member named
//	    key: a cheap guard before a rule builds lists of what it checks;
//	    at most 1,000,000 nodes
//	    hasNestedKey({'a': [{'x-b': 1}]}, 'x-b') == true
//	    hasNestedKey({'a': 'x-b'}, 'x-b') == false
package cel
