package cel

import (
	"testing"

	"github.com/celint/celint/internal/celtree"
	"github.com/celint/celint/internal/schemafast"
	"github.com/santhosh-tekuri/jsonschema/v6"
)

// plainCases are schemas plainValid must accept (the fast path is taken
// for them) or refuse (left to plainSchema and metaValid, which may still
// accept some).
var plainCases = []struct {
	schema string
	want   bool
}{
	{`{}`, true},
	{`true`, true},
	{`{"type": "object", "properties": {"a": {"type": ["string", "null"], "minLength": 1.0}}, "required": ["a"], "additionalProperties": false}`, true},
	{`{"$schema": "https://json-schema.org/draft/2020-12/schema", "title": "t", "description": "d", "$comment": "c", "deprecated": true, "examples": [1, {"a": [2]}]}`, true},
	{`{"allOf": [{"minimum": -1.5}, {"maximum": 3}], "anyOf": [true], "oneOf": [false, {}], "not": {"const": {"x": null}}}`, true},
	{`{"$defs": {"a": {"enum": [1, "x", null]}}, "items": {"uniqueItems": true, "minItems": 0, "maxItems": 9}, "default": {}}`, true},
	{`{"minProperties": 1, "maxProperties": 2, "maxLength": 3, "exclusiveMinimum": 0, "exclusiveMaximum": 1e3, "readOnly": false, "writeOnly": true}`, true},
	// Not plain, or not valid against the metaschema, or not location-free.
	{`1`, false},
	{`{"type": "text"}`, false},
	{`{"type": []}`, false},
	{`{"type": ["string", "string"]}`, false},
	{`{"required": ["a", "a"]}`, false},
	{`{"required": [1]}`, false},
	{`{"minLength": -1}`, false},
	{`{"minLength": 1.5}`, false},
	{`{"minimum": "1"}`, false},
	{`{"allOf": []}`, false},
	{`{"properties": []}`, false},
	{`{"enum": 1}`, false},
	{`{"title": 1}`, false},
	{`{"items": {"$schema": "https://json-schema.org/draft/2020-12/schema"}}`, false},
	{`{"$schema": "http://json-schema.org/draft-07/schema#"}`, false},
	{`{"$ref": "#"}`, false},
	{`{"const": {"$ref": "#"}}`, false},
	{`{"pattern": "a"}`, false},
	{`{"$id": "https://example.com/s"}`, false},
}

func TestPlainValid(t *testing.T) {
	for _, tc := range plainCases {
		doc := mustDecode(t, tc.schema)
		if got := schemafast.PlainValid(doc, MaxSchemaExpansion); got != tc.want {
			t.Errorf("schemafast.PlainValid(%s, MaxSchemaExpansion) = %v, want %v", tc.schema, got, tc.want)
		}
		// A document's schema is read in place, as a Tree.
		if got := schemafast.PlainValid(celtree.TreeOf(doc), MaxSchemaExpansion); got != tc.want {
			t.Errorf("schemafast.PlainValid(%s as a celtree.Tree, MaxSchemaExpansion) = %v, want %v", tc.schema, got, tc.want)
		}
		if schemafast.PlainValid(doc, MaxSchemaExpansion) && !(plainSchema(doc) && schemafast.MetaValid(doc)) {
			t.Errorf("plainValid accepts %s, which plainSchema and metaValid refuse", tc.schema)
		}
	}
}

// FuzzPlainValid: what plainValid accepts, the slower checks it stands in
// for accept too, and the library compiles.
func FuzzPlainValid(f *testing.F) {
	for _, tc := range plainCases {
		f.Add([]byte(tc.schema))
	}
	for _, tc := range rawCases {
		f.Add([]byte(tc.schema))
	}
	f.Fuzz(func(t *testing.T, schema []byte) {
		doc, _, ok := decodeJSON(schema)
		if !ok {
			return
		}
		if schemafast.PlainValid(doc, MaxSchemaExpansion) != schemafast.PlainValid(celtree.TreeOf(doc), MaxSchemaExpansion) {
			t.Fatalf("schemafast.PlainValid(%s, MaxSchemaExpansion) = %v, and %v as a celtree.Tree", schema, schemafast.PlainValid(doc, MaxSchemaExpansion), !schemafast.PlainValid(doc, MaxSchemaExpansion))
		}
		if !schemafast.PlainValid(doc, MaxSchemaExpansion) {
			return
		}
		if !plainSchema(doc) || !schemafast.MetaValid(doc) {
			t.Fatalf("plainValid accepts %s, which plainSchema and metaValid refuse", schema)
		}
		if _, err := compileSchemaAt(doc, jsonschema.Draft2020, schemaLocation); err != nil {
			t.Fatalf("plainValid accepts %s, which does not compile: %v", schema, err)
		}
	})
}
