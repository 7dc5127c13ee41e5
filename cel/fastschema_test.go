package cel

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/celint/celint/internal/celtree"
	"github.com/celint/celint/internal/schemafast"
	"github.com/santhosh-tekuri/jsonschema/v6"
	"go.yaml.in/yaml/v4"
)

// agree fails the test when a fast path (the compiled schema's, or the
// raw schema's of rawschema.go) is sure that v is valid and the library
// finds it invalid (the one answer that would lose a finding), or sure
// that it is invalid and the library finds it valid (which would cost only
// time, but says the fast path is wrong). It reports whether either fast
// path was sure.
func agree(t *testing.T, label string, s *Schema, v any) (sure bool) {
	t.Helper()
	lib, fast, err := s.compiled()
	if err != nil {
		t.Errorf("%s: %v", label, err)
		return false
	}
	libOK := lib.Validate(v) == nil
	check := func(path string, ok, sure bool) bool {
		if sure && ok != libOK {
			vj, _ := json.Marshal(v)
			t.Errorf("%s: the %s fast path says valid=%v, the library %v, for %s", label, path, ok, libOK, vj)
		}
		return sure
	}
	// The fast paths read a Tree as the value itself. (Which of an
	// object's failing members is seen first, and so whether a failure
	// is sure, follows the order of a map: only "surely valid" must agree.)
	same := func(path string, ok, sure, treeOK, treeSure bool) {
		if ok && sure != (treeOK && treeSure) {
			vj, _ := json.Marshal(v)
			t.Errorf("%s: the %s fast path says %v, %v for %s, and %v, %v for it as a celtree.Tree", label, path, ok, sure, vj, treeOK, treeSure)
		}
	}
	if s.raw != nil {
		ok, sure := schemafast.RawValid(s.raw, v)
		treeOK, treeSure := schemafast.RawValid(s.raw, celtree.TreeOf(v))
		same("raw", ok, sure, treeOK, treeSure)
		sure = check("raw", ok, sure)
		if fast == nil {
			return sure
		}
		ok, compiledSure := fast.Valid(v)
		treeOK, treeSure = fast.Valid(celtree.TreeOf(v))
		same("compiled", ok, compiledSure, treeOK, treeSure)
		return check("compiled", ok, compiledSure) || sure
	}
	if fast == nil {
		return false
	}
	ok, sure := fast.Valid(v)
	treeOK, treeSure := fast.Valid(celtree.TreeOf(v))
	same("compiled", ok, sure, treeOK, treeSure)
	return check("compiled", ok, sure)
}

// fastSchemaCases are schemas with the keywords the fast path implements,
// and values around each keyword's edge.
var fastSchemaCases = []struct {
	schema string
	values []string
}{
	{`{"type": "integer"}`, []string{`1`, `1.0`, `1.5`, `"1"`, `null`, `1e300`, `-0.0`}},
	{`{"type": ["string", "null"], "minLength": 2, "maxLength": 3}`, []string{`"ab"`, `"a"`, `"abcd"`, `"éé"`, `"€"`, `null`, `2`}},
	{`{"enum": [1, "a", null, [1, 2], {"k": 1}]}`, []string{`1`, `1.0`, `"a"`, `null`, `[1, 2]`, `[1.0, 2]`, `{"k": 1.0}`, `{"k": 2}`, `2`, `true`}},
	{`{"const": {"a": [1, {"b": null}]}}`, []string{`{"a": [1, {"b": null}]}`, `{"a": [1, {"b": 0}]}`, `{"a": [1]}`, `{}`}},
	{`{"const": 9007199254740993}`, []string{`9007199254740993`, `9007199254740992`, `9007199254740992.0`}},
	{`{"properties": {"a": {"type": "string"}}, "patternProperties": {"^x-": {"type": "integer"}}, "additionalProperties": false, "required": ["a"]}`,
		[]string{`{"a": "s"}`, `{"a": "s", "x-1": 1}`, `{"a": "s", "x-1": "1"}`, `{"a": "s", "b": 1}`, `{}`, `{"a": 1}`, `[]`}},
	{`{"additionalProperties": {"type": "boolean"}, "propertyNames": {"pattern": "^[a-z]+$"}, "minProperties": 1, "maxProperties": 2}`,
		[]string{`{"a": true}`, `{"a": 1}`, `{"A": true}`, `{}`, `{"a": true, "b": false, "c": true}`}},
	{`{"items": {"type": "number", "minimum": 0, "exclusiveMaximum": 10}, "minItems": 1, "maxItems": 3, "uniqueItems": true}`,
		[]string{`[0]`, `[-1]`, `[10]`, `[9.99]`, `[]`, `[1, 2, 3, 4]`, `[1, 1.0]`, `[1, 2]`, `["a"]`}},
	{`{"uniqueItems": true}`, []string{`[{"a": 1}, {"a": 1.0}]`, `[[1], [2]]`, `[null, null]`, `[true, 1]`}},
	{`{"minimum": 0.1, "maximum": 0.3}`, []string{`0.1`, `0.30000000000000004`, `0.3`, `0.09999999999999999`, `"x"`}},
	{`{"not": {"type": "string"}, "allOf": [{"type": ["integer", "string"]}], "anyOf": [{"minimum": 5}, {"maximum": 1}]}`,
		[]string{`0`, `3`, `7`, `"s"`, `7.5`}},
	{`{"oneOf": [{"type": "integer"}, {"minimum": 2}]}`, []string{`1`, `3`, `2.5`, `"a"`}},
	{`{"if": {"properties": {"mode": {"const": "url"}}}, "then": {"required": ["url"]}, "else": {"required": ["form"]}}`,
		[]string{`{"mode": "url", "url": 1}`, `{"mode": "url"}`, `{"form": 1}`, `{}`, `1`}},
	{`{"$defs": {"node": {"type": "object", "properties": {"next": {"$ref": "#/$defs/node"}}, "additionalProperties": false}}, "$ref": "#/$defs/node"}`,
		[]string{`{}`, `{"next": {"next": {}}}`, `{"next": {"other": 1}}`, `{"next": 1}`}},
	{`{"$ref": "#/$defs/s", "maxLength": 2, "$defs": {"s": {"type": "string"}}}`, []string{`"ab"`, `"abc"`, `1`}},
	{`{"$schema": "http://json-schema.org/draft-07/schema#", "definitions": {"s": {"type": "string"}}, "$ref": "#/definitions/s", "maxLength": 2}`, []string{`"ab"`, `"abc"`, `1`}},
	{`{"format": "email"}`, []string{`"a@example.com"`, `"nope"`, `1`}},
	{`{"format": "date-time"}`, []string{`"2026-12-02T03:00:00Z"`, `"yesterday"`}},
	{`{"properties": {"a": false, "b": true}}`, []string{`{"a": 1}`, `{"b": 1}`, `{}`}},
	{`false`, []string{`1`, `{}`}},
	{`true`, []string{`1`, `{}`}},
}

func mustDecode(t *testing.T, text string) any {
	t.Helper()
	v, _, ok := decodeJSON([]byte(text))
	if !ok {
		t.Fatalf("bad JSON in test: %s", text)
	}
	return v
}

// TestFastSchemaAgrees compares the fast path's verdicts with the
// library's: on the cases above, and on every schema fragment of the
// embedded rulesets against every value in their rules' examples.
func TestFastSchemaAgrees(t *testing.T) {
	skipOnLibraryPaths(t)
	sureCount := 0
	for _, tc := range fastSchemaCases {
		s, err := compileSchemaDraft(mustDecode(t, tc.schema), jsonschema.Draft2020)
		if err != nil {
			t.Fatalf("%s: %v", tc.schema, err)
		}
		if _, fast, _ := s.compiled(); fast == nil {
			t.Errorf("%s: no fast path", tc.schema)
			continue
		}
		for _, v := range tc.values {
			if agree(t, tc.schema, s, mustDecode(t, v)) {
				sureCount++
			}
		}
	}
	if sureCount < 80 {
		t.Errorf("the fast path was sure of only %d values", sureCount)
	}
	// Keywords it does not implement leave the schema to the library.
	for _, text := range []string{`{"prefixItems": [{}]}`, `{"contains": {}}`, `{"unevaluatedProperties": false}`, `{"multipleOf": 2}`,
		`{"dependentRequired": {"a": ["b"]}}`, `{"$defs": {"x": {"$dynamicAnchor": "x"}}, "properties": {"a": {"$dynamicRef": "#x"}}}`, `{"format": "regex"}`} {
		s, err := compileSchemaDraft(mustDecode(t, text), jsonschema.Draft2020)
		if err != nil {
			t.Fatalf("%s: %v", text, err)
		}
		if _, fast, _ := s.compiled(); fast != nil || s.raw != nil {
			t.Errorf("%s: has a fast path", text)
		}
	}

	schemas, values := rulesetSchemasAndValues(t)
	if len(schemas) < 20 || len(values) < 500 {
		t.Fatalf("found %d schemas and %d values in the rulesets", len(schemas), len(values))
	}
	fast, sure := 0, 0
	for i, sch := range schemas {
		s, err := CompileSchema(sch)
		if err != nil {
			t.Fatalf("ruleset schema %d: %v", i, err)
		}
		if _, f, _ := s.compiled(); f != nil {
			fast++
		}
		for _, v := range values {
			if agree(t, "ruleset schema", s, v) {
				sure++
			}
		}
	}
	if fast*2 < len(schemas) {
		t.Errorf("only %d of the rulesets' %d schema fragments have a fast path", fast, len(schemas))
	}
	t.Logf("%d of %d ruleset schemas have a fast path; it was sure %d times in %d", fast, len(schemas), sure, len(schemas)*len(values))
}

// rulesetSchemasAndValues reads the schema fragments of the embedded rule
// files and every value inside their examples' documents.
func rulesetSchemasAndValues(t *testing.T) (schemas, values []any) {
	t.Helper()
	files, _ := filepath.Glob("../rulesets/*/*/*.yaml")
	paramSets := []map[string]any{nil}
	for _, f := range files {
		if filepath.Base(f) != "ruleset.yaml" {
			continue
		}
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		var h struct {
			Params map[string]any `yaml:"params"`
		}
		if err := yaml.Unmarshal(data, &h); err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		if h.Params != nil {
			paramSets = append(paramSets, jsonish(h.Params).(map[string]any))
		}
	}
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		var file struct {
			Rules []struct {
				Schema   any `yaml:"schema"`
				Examples struct {
					Valid, Invalid []struct {
						Document any `yaml:"document"`
					}
				} `yaml:"examples"`
			} `yaml:"rules"`
		}
		if err := yaml.Unmarshal(data, &file); err != nil {
			continue // the header, or a file the loader's own tests cover
		}
		for _, r := range file.Rules {
			if r.Schema != nil {
				// A schema that names header params is taken with each
				// header's values.
				for _, ps := range paramSets {
					if sch, ok := withParams(jsonish(r.Schema), ps); ok {
						schemas = append(schemas, sch)
					}
				}
			}
			for _, ex := range append(r.Examples.Valid, r.Examples.Invalid...) {
				if ex.Document != nil {
					values = appendSubtrees(values, jsonish(ex.Document))
				}
			}
		}
	}
	return schemas, values
}

// withParams replaces each {"$param": name} mapping of v with params[name];
// false when v names a param that params lacks.
func withParams(v any, params map[string]any) (any, bool) {
	switch x := v.(type) {
	case map[string]any:
		if name, ok := x["$param"].(string); ok && len(x) == 1 {
			p, found := params[name]
			return p, found
		}
		out := map[string]any{}
		for k, e := range x {
			var ok bool
			if out[k], ok = withParams(e, params); !ok {
				return nil, false
			}
		}
		return out, true
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			var ok bool
			if out[i], ok = withParams(e, params); !ok {
				return nil, false
			}
		}
		return out, true
	}
	return v, true
}

// jsonish turns what yaml/v4 decodes into the document form: maps with
// string keys, int64 and float64 numbers.
func jsonish(v any) any {
	switch x := v.(type) {
	case map[string]any:
		for k, e := range x {
			x[k] = jsonish(e)
		}
		return x
	case map[any]any:
		m := make(map[string]any, len(x))
		for k, e := range x {
			ks, _ := k.(string)
			if ks == "" {
				ks = strings.TrimSpace(strings.Trim(strings.ReplaceAll(toJSON(k), `"`, ""), " "))
			}
			m[ks] = jsonish(e)
		}
		return m
	case []any:
		for i, e := range x {
			x[i] = jsonish(e)
		}
		return x
	case int:
		return int64(x)
	}
	return v
}

func toJSON(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}

func appendSubtrees(out []any, v any) []any {
	out = append(out, v)
	switch x := v.(type) {
	case map[string]any:
		for _, e := range x {
			out = appendSubtrees(out, e)
		}
	case []any:
		for _, e := range x {
			out = appendSubtrees(out, e)
		}
	}
	return out
}

// FuzzFastSchema: for any schema that compiles and any value, the fast
// path never contradicts the library when it is sure.
func FuzzFastSchema(f *testing.F) {
	for _, tc := range fastSchemaCases {
		for _, v := range tc.values {
			f.Add([]byte(v), []byte(tc.schema))
		}
	}
	f.Fuzz(func(t *testing.T, value, schema []byte) {
		v, _, ok := decodeJSON(value)
		if !ok {
			return
		}
		sv, _, ok := decodeJSON(schema)
		if !ok {
			return
		}
		s, err := compileSchemaDraft(sv, jsonschema.Draft2020)
		if err != nil {
			return
		}
		agree(t, string(schema), s, v)
	})
}

// metaCases are schemas around the metaschema's edges: the fast path may
// pass only those the library finds valid against it.
var metaCases = []string{
	`{}`, `true`, `false`, `{"type": "string"}`, `{"type": 1}`, `{"type": ["string", "string"]}`, `{"type": []}`,
	`{"type": "strin"}`, `{"minLength": -1}`, `{"minLength": 1.0}`, `{"minLength": 1.5}`, `{"pattern": "("}`,
	`{"pattern": "^a+$"}`, `{"properties": {"a": {"type": "integer"}}, "required": ["a", "a"]}`, `{"required": "a"}`,
	`{"$ref": "#/$defs/a", "$defs": {"a": {"type": "string"}}}`, `{"$ref": "#/$defs/missing"}`, `{"$ref": 1}`,
	`{"$ref": "#a b"}`, `{"$defs": {"a": 1}}`, `{"items": [{}]}`, `{"prefixItems": []}`, `{"enum": "a"}`, `{"enum": []}`,
	`{"$schema": "https://json-schema.org/draft/2020-12/schema", "type": "object"}`, `{"$schema": "http://json-schema.org/draft-07/schema#"}`,
	`{"$id": "https://example.com/s"}`, `{"additionalProperties": 1}`, `{"propertyNames": {"pattern": "["}}`,
	`{"patternProperties": {"(": {}}}`, `{"definitions": {"a": 1}}`, `{"dependencies": {"a": 1}}`, `{"format": 1}`,
	`{"allOf": []}`, `{"anyOf": [1]}`, `{"not": "x"}`, `{"if": {}, "then": 1}`, `{"contentSchema": 1}`, `{"title": 1}`,
	`{"deprecated": "yes"}`, `{"examples": 1}`, `{"$comment": 1}`, `{"$anchor": "1x"}`, `{"x-mcp-header": 1}`,
	`{"properties": {"a": {"properties": {"b": {"minimum": "0"}}}}}`, `{"maxItems": 9007199254740993}`,
}

// TestMetaValidAgrees: a schema the fast path finds valid against the
// metaschema is one the library does, and compiling it without the
// library's second validation gives the same schema: the same violations,
// at the same places, for every value.
func TestMetaValidAgrees(t *testing.T) {
	if !schemafast.MetaValid(map[string]any{"type": "string"}) {
		t.Fatal("no fast path for the 2020-12 metaschema")
	}
	schemas, values := rulesetSchemasAndValues(t)
	var docs []any
	for _, text := range metaCases {
		docs = append(docs, mustDecode(t, text))
	}
	for _, tc := range fastSchemaCases {
		docs = append(docs, mustDecode(t, tc.schema))
		for _, v := range tc.values {
			values = append(values, mustDecode(t, v))
		}
	}
	docs = append(docs, schemas...)
	for _, v := range values[:min(len(values), 3000)] { // document values taken as schemas: most are not
		docs = append(docs, v)
	}
	passed := 0
	sample := values[:min(len(values), 400)]
	for _, doc := range docs {
		if checkMetaValid(t, doc, sample) {
			passed++
		}
	}
	t.Logf("the fast path passed %d of %d schemas", passed, len(docs))
	if passed < len(schemas) {
		t.Errorf("the fast path passed %d of %d schemas, fewer than the rulesets' %d fragments", passed, len(docs), len(schemas))
	}
	for _, text := range []string{`{"type": 1}`, `{"minLength": -1}`, `{"pattern": "("}`, `{"$ref": 1}`, `{"$id": "https://example.com/s"}`} {
		if schemafast.MetaValid(mustDecode(t, text)) {
			t.Errorf("%s passed the fast path", text)
		}
	}
	if libraryMetaschema(t).Validate(mustDecode(t, `{"type": 1}`)) == nil {
		t.Error("the library's metaschema accepts {\"type\": 1}: checkMetaValid could not tell")
	}
}

// checkMetaValid checks one schema; it reports whether the fast path
// passed it.
func checkMetaValid(t *testing.T, doc any, values []any) bool {
	t.Helper()
	if !schemafast.MetaValid(doc) {
		return false
	}
	label := toJSON(doc)
	// The library's own verdict: its 2020-12 metaschema, compiled as it
	// compiles the metaschemas it validates schemas against.
	if err := libraryMetaschema(t).Validate(doc); err != nil {
		t.Errorf("%s: the fast path passed a schema the library's metaschema rejects: %v", label, err)
	}
	usual, err := compileSchemaAt(doc, jsonschema.Draft2020, schemaLocation)
	if err != nil {
		if _, err2 := compileSchemaDraft(doc, jsonschema.Draft2020); err2 == nil || err2.Error() != err.Error() {
			t.Errorf("%s: compiling without the second validation: %v, want the library's %v", label, err2, err)
		}
		return true
	}
	trusted, err := compileSchemaAt(doc, jsonschema.Draft2020, trustedLocation)
	if err != nil {
		t.Errorf("%s: compiles as usual, not at the trusted location: %v", label, err)
		return true
	}
	for _, v := range values {
		a, errA := usual.Validate(v)
		b, errB := trusted.Validate(v)
		if toJSON(a) != toJSON(b) || (errA == nil) != (errB == nil) {
			t.Errorf("%s on %s: %s (%v) as usual, %s (%v) at the trusted location", label, toJSON(v), toJSON(a), errA, toJSON(b), errB)
			return true
		}
	}
	return true
}

// libraryMetaschema is the 2020-12 metaschema compiled by the library,
// formats asserted.
var libraryMetaschema = func() func(t *testing.T) *jsonschema.Schema {
	var once sync.Once
	var meta *jsonschema.Schema
	var err error
	return func(t *testing.T) *jsonschema.Schema {
		t.Helper()
		once.Do(func() {
			c := jsonschema.NewCompiler()
			c.AssertFormat()
			meta, err = c.Compile(jsonschema.Draft2020.String())
		})
		if err != nil {
			t.Fatal(err)
		}
		return meta
	}
}()

// FuzzMetaValid: for any schema, the fast path passes only what the
// library finds valid against the metaschema, and a schema it passes
// compiles to the same validations.
func FuzzMetaValid(f *testing.F) {
	for _, text := range metaCases {
		f.Add([]byte(text), []byte(`{"a": 1}`))
	}
	for _, tc := range fastSchemaCases {
		f.Add([]byte(tc.schema), []byte(tc.values[0]))
	}
	f.Fuzz(func(t *testing.T, schema, value []byte) {
		doc, _, ok := decodeJSON(schema)
		if !ok {
			return
		}
		v, _, ok := decodeJSON(value)
		if !ok {
			return
		}
		checkMetaValid(t, doc, []any{v, doc})
	})
}
