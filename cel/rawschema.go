package cel

import (
	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/celint/celint/internal/schemafast"
)

// A document usually embeds many small schemas (a tool's input and output
// schemas, a form's fields), each validated against a value or two. For
// such a schema, compiling it with the library costs far more than the
// validations. So a 2020-12 schema of a plain subset, with no reference
// and valid against the metaschema, is not compiled when it is asked for:
// such a schema is known to compile, and a value is first checked against
// the schema's own value (schemafast.RawValid), which answers only "valid"
// or "not sure". The library compiles the schema when a value is not
// surely valid, or when its compiled form is needed, so that every finding
// is still the library's (TestRawSchemaAgrees, FuzzRawSchema).

// rawSchema is doc as a Schema compiled only when needed, when it is a
// 2020-12 schema of the plain subset that is valid against the metaschema;
// nil otherwise. doc is a native value or a Tree, which the Schema keeps
// and reads in place: a document's schema is not copied.
func rawSchema(doc any, draft *jsonschema.Draft) *Schema {
	if draft != jsonschema.Draft2020 {
		return nil
	}
	if !schemafast.PlainValid(doc, MaxSchemaExpansion) {
		native := copyOf(doc)
		if !plainSchema(native) || !schemafast.MetaValid(native) {
			return nil
		}
	}
	return &Schema{raw: doc}
}

// plainSchema reports whether doc, a 2020-12 schema that
// schemafast.MetaValid passes, may be read by schemafast.RawValid and
// compiled only when needed: a schema of the plain subset, with no
// reference and no more values than MaxSchemaExpansion, which the library
// compiles without error.
func plainSchema(doc any) bool {
	if !schemafast.RawSubset(doc) {
		return false
	}
	refs, nodes := schemaShape(doc)
	return !refs && nodes < MaxSchemaExpansion
}
