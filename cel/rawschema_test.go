package cel

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/celint/celint/internal/celtree"
	"github.com/celint/celint/internal/schemafast"
	"github.com/santhosh-tekuri/jsonschema/v6"
)

// rawCases are schemas of the plain subset, and values around each
// keyword's edge.
var rawCases = []struct {
	schema string
	values []string
}{
	{`{"type": "object", "properties": {"a": {"type": "integer", "minimum": 1}, "b": {"type": "string"}}, "required": ["a"], "additionalProperties": false, "title": "T"}`,
		[]string{`{"a": 1}`, `{"a": 1.0}`, `{"a": 0}`, `{"a": 1.5}`, `{"a": 1, "b": "x"}`, `{"a": 1, "c": 1}`, `{"b": "x"}`, `[]`, `null`}},
	{`{"properties": {"a": true}, "additionalProperties": {"type": "boolean"}}`, []string{`{"a": 1, "b": true}`, `{"b": 1}`, `{}`, `1`}},
	{`{"minimum": 1, "maximum": 2.5, "exclusiveMinimum": 0.5, "exclusiveMaximum": 3}`,
		[]string{`1`, `1.0`, `0.99999`, `2.5`, `2.5000001`, `9007199254740993`, `-9007199254740993`, `"1"`}},
	{`{"minimum": 9007199254740993}`, []string{`9007199254740993`, `9007199254740992`, `9007199254740992.0`, `9007199254740994.0`, `1e300`}},
	{`{"exclusiveMaximum": 9007199254740992.0}`, []string{`9007199254740991`, `9007199254740992`, `9007199254740993`}},
	{`{"minLength": 2.0, "maxLength": 3, "minItems": 1, "maxItems": 2, "minProperties": 1, "maxProperties": 1}`,
		[]string{`"ab"`, `"a"`, `"éé"`, `"abcd"`, `[1]`, `[]`, `[1, 2, 3]`, `{"a": 1}`, `{}`, `{"a": 1, "b": 2}`, `true`}},
	{`{"type": ["integer", "null"], "enum": [1, 2.0, null, "x"]}`, []string{`1`, `1.0`, `2`, `null`, `"x"`, `3`}},
	{`{"const": [1, {"a": null}], "description": "d", "default": 1, "examples": [1], "deprecated": true, "readOnly": false, "writeOnly": false, "$comment": "c"}`,
		[]string{`[1, {"a": null}]`, `[1.0, {"a": null}]`, `[1]`, `{}`}},
	{`{"items": {"anyOf": [{"type": "string"}, {"type": "integer", "maximum": 0}]}, "uniqueItems": true}`,
		[]string{`["a", 0]`, `["a", "a"]`, `[1]`, `[-1, -1.0]`, `[]`, `{}`}},
	{`{"allOf": [{"minimum": 0}, {"maximum": 10}], "oneOf": [{"type": "integer"}, {"minimum": 5}], "not": {"const": 3}}`,
		[]string{`1`, `3`, `5`, `5.5`, `7`, `-1`, `11`, `"s"`}},
	{`{"$schema": "https://json-schema.org/draft/2020-12/schema", "$defs": {"unused": {"type": "string"}}, "type": "object"}`, []string{`{}`, `1`}},
	{`{"properties": {"a": {"properties": {"b": {"properties": {"c": false}}}}}}`, []string{`{"a": {"b": {"c": 1}}}`, `{"a": {"b": {}}}`, `{"a": 1}`}},
	{`false`, []string{`1`, `{}`}},
	{`true`, []string{`1`}},
}

// TestRawSchemaAgrees: a schema of the plain subset is not compiled until
// it is needed, it then compiles, and the raw fast path never contradicts
// the library; a schema outside the subset is compiled as before.
func TestRawSchemaAgrees(t *testing.T) {
	skipOnLibraryPaths(t)
	sure := 0
	for _, tc := range rawCases {
		s, err := compileSchemaDraft(mustDecode(t, tc.schema), jsonschema.Draft2020)
		if err != nil {
			t.Fatalf("%s: %v", tc.schema, err)
		}
		if s.raw == nil || s.s != nil {
			t.Errorf("%s: compiled at once, not raw", tc.schema)
			continue
		}
		for _, v := range tc.values {
			if ok, isSure := schemafast.RawValid(s.raw, mustDecode(t, v)); isSure {
				sure++
				if lib, _, err := s.compiled(); err != nil || (lib.Validate(mustDecode(t, v)) == nil) != ok {
					t.Errorf("%s on %s: raw says valid=%v; the library disagrees (%v)", tc.schema, v, ok, err)
				}
			}
		}
	}
	if sure < 70 {
		t.Errorf("the raw path was sure of only %d values", sure)
	}
	// Outside the subset, with a reference, or not a valid 2020-12 schema:
	// compiled at once, as before.
	for _, text := range []string{`{"pattern": "^a"}`, `{"format": "email"}`, `{"x-mcp-header": "h"}`, `{"$ref": "#/$defs/a", "$defs": {"a": {}}}`,
		`{"$schema": "http://json-schema.org/draft-07/schema#"}`, `{"$id": "https://example.com/s"}`, `{"properties": {"a": {"patternProperties": {"x": {}}}}}`,
		`{"items": {"prefixItems": [{}]}}`, `{"multipleOf": 2}`, `{"propertyNames": {}}`, `{"if": {}, "then": {}}`, `{"definitions": {}}`} {
		s, err := compileSchemaDraft(mustDecode(t, text), jsonschema.Draft2020)
		if err != nil {
			t.Fatalf("%s: %v", text, err)
		}
		if s.raw != nil || s.s == nil {
			t.Errorf("%s: raw, want compiled at once", text)
		}
	}
	for _, text := range []string{`{"type": 1}`, `{"minLength": -1}`, `{"required": [1]}`, `{"properties": {"a": 1}}`} {
		if _, err := compileSchemaDraft(mustDecode(t, text), jsonschema.Draft2020); err == nil {
			t.Errorf("%s: compiles, want the library's error", text)
		}
	}

	// Every value of the rulesets' examples and of the upstream fixtures,
	// taken as a schema: those of the plain subset must compile, and
	// agree with the library on a sample of values.
	_, values := rulesetSchemasAndValues(t)
	values = append(values, fixtureValues(t)...)
	sample := values[:min(len(values), 300)]
	raw, rawSure := 0, 0
	for _, doc := range values {
		if _, ok := doc.(map[string]any); !ok {
			continue
		}
		s, err := compileSchemaDraft(doc, jsonschema.Draft2020)
		if err != nil || s.raw == nil {
			continue
		}
		raw++
		if _, _, err := s.compiled(); err != nil {
			t.Fatalf("%s: %v", toJSON(doc), err)
		}
		for _, v := range sample {
			// The schema read as a Tree, in place, gives the same sure
			// verdicts (which failing keyword is seen first follows a
			// map's order, so only "surely valid" must agree).
			ok, isSure := schemafast.RawValid(s.raw, v)
			if treeOK, treeSure := schemafast.RawValid(celtree.TreeOf(s.raw), celtree.TreeOf(v)); (ok && isSure) != (treeOK && treeSure) {
				t.Errorf("%s on %s: raw says %v, %v, and %v, %v with both as Trees", toJSON(doc), toJSON(v), ok, isSure, treeOK, treeSure)
			}
			if isSure {
				rawSure++
				if lib, _, _ := s.compiled(); (lib.Validate(v) == nil) != ok {
					t.Errorf("%s on %s: raw says valid=%v, the library does not", toJSON(doc), toJSON(v), ok)
				}
			}
		}
	}
	t.Logf("%d plain schemas among %d values; the raw path was sure %d times", raw, len(values), rawSure)
	if raw < 100 || rawSure < 10000 {
		t.Errorf("only %d plain schemas, and %d sure verdicts", raw, rawSure)
	}
}

// fixtureValues is every value of the upstream fixture corpus (nil when
// ../shared is not beside the repository).
func fixtureValues(t *testing.T) []any {
	t.Helper()
	files, _ := filepath.Glob("../../shared/upstream/mcpdesc-specification/spec/*/fixtures/expected-*/*.json")
	var out []any
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		if v, _, ok := decodeJSON(data); ok {
			out = appendSubtrees(out, v)
		}
	}
	return out
}

// FuzzRawSchema: for any schema of the plain subset and any value, the
// raw path never contradicts the library when it is sure.
func FuzzRawSchema(f *testing.F) {
	for _, tc := range rawCases {
		for _, v := range tc.values {
			f.Add([]byte(tc.schema), []byte(v))
		}
	}
	f.Fuzz(func(t *testing.T, schema, value []byte) {
		sv, _, ok := decodeJSON(schema)
		if !ok {
			return
		}
		v, _, ok := decodeJSON(value)
		if !ok {
			return
		}
		s, err := compileSchemaDraft(sv, jsonschema.Draft2020)
		if err != nil || s.raw == nil {
			return
		}
		agree(t, string(schema), s, v)
	})
}

// TestRawSchemaHot: a raw schema that serves many values is compiled once
// and answers by its compiled fast path, with the same verdicts and the
// same violations as before.
func TestRawSchemaHot(t *testing.T) {
	skipOnLibraryPaths(t)
	for _, tc := range rawCases {
		s, err := compileSchemaDraft(mustDecode(t, tc.schema), jsonschema.Draft2020)
		if err != nil || s.raw == nil {
			t.Fatalf("%s: not raw (%v)", tc.schema, err)
		}
		want := map[string]string{}
		for _, v := range tc.values {
			vs, err := s.Validate(mustDecode(t, v))
			want[v] = fmt.Sprint(vs, err)
		}
		for range rawUses {
			_ = s.validate(mustDecode(t, tc.values[0]))
		}
		if s.s == nil {
			t.Errorf("%s: not compiled after %d values", tc.schema, rawUses+len(tc.values))
		}
		for _, v := range tc.values {
			vs, err := s.Validate(mustDecode(t, v))
			if got := fmt.Sprint(vs, err); got != want[v] {
				t.Errorf("%s on %s: hot %s, raw %s", tc.schema, v, got, want[v])
			}
		}
	}
}
