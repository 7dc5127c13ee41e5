// Package schemafast answers one question about a value quickly: is it
// valid against a JSON Schema? It answers "valid", "invalid" or "not
// sure", for the schemas and values it knows, and is never sure of the
// rest. Package cel asks it first, and has the JSON Schema library
// (santhosh-tekuri/jsonschema), the reference, validate any value it is
// not sure is valid: every violation reported is the library's, and the
// fast paths only skip the library's work, and its allocations, for a
// value the library would find valid. The differential tests of package
// cel (TestFastSchemaAgrees, TestRawSchemaAgrees, TestMetaValidAgrees,
// FuzzPlainValid ...) compare the verdicts.
//
// There are three paths:
//
//   - Schema (New, Valid): the fast path of a schema the library
//     compiled, for the keywords most schemas use.
//   - MetaValid: whether a 2020-12 schema is surely valid against the
//     metaschema, so that the library may compile it without validating
//     it again.
//   - RawValid, with RawSubset and PlainValid: a schema of a plain subset,
//     read as it is, so that the many small schemas of a document are
//     compiled only when a value is not surely valid against them.
//
// Values and schemas are native values (nil, bool, int64, float64,
// string, []any, map[string]any) or celtree.Trees, read in place.
package schemafast
