package cel

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"
)

// countFormat is the format countingSchema adds to every subschema: the
// library calls it each time it applies the subschema to a value (when
// the subschema's type assertion, if any, passed), which counts its work.
const countFormat = "celint-visit"

// countingSchema compiles doc, with a counting format added to each of its
// subschemas, as the library validates documents' schemas; *visits grows
// by one at each subschema the library applies.
func countingSchema(t testing.TB, doc any) (*Schema, *int) {
	t.Helper()
	visits := new(int)
	c := newSchemaCompiler()
	c.RegisterFormat(&jsonschema.Format{Name: countFormat, Validate: func(any) error { *visits++; return nil }})
	if err := c.AddResource(schemaLocation, markVisits(doc)); err != nil {
		t.Skipf("does not load: %v", err)
	}
	s, err := c.Compile(schemaLocation)
	if err != nil {
		return nil, nil
	}
	return &Schema{s: s}, visits
}

// markVisits adds the counting format to every subschema of doc.
func markVisits(doc any) any {
	m, ok := doc.(map[string]any)
	if !ok {
		return doc
	}
	out := map[string]any{}
	for k, v := range m {
		switch k {
		case "properties", "patternProperties", "$defs", "dependentSchemas":
			sub, ok := v.(map[string]any)
			if !ok {
				out[k] = v
				continue
			}
			marked := map[string]any{}
			for name, s := range sub {
				marked[name] = markVisits(s)
			}
			out[k] = marked
		case "allOf", "anyOf", "oneOf", "prefixItems":
			list, ok := v.([]any)
			if !ok {
				out[k] = v
				continue
			}
			marked := make([]any, len(list))
			for i, s := range list {
				marked[i] = markVisits(s)
			}
			out[k] = marked
		case "not", "if", "then", "else", "items", "additionalProperties", "contains",
			"propertyNames", "unevaluatedProperties", "unevaluatedItems":
			out[k] = markVisits(v)
		default:
			out[k] = v
		}
	}
	out["format"] = countFormat
	return out
}

func mustJSON(t testing.TB, text string) any {
	t.Helper()
	var v any
	if err := json.Unmarshal([]byte(text), &v); err != nil {
		t.Fatalf("bad JSON %s: %v", text, err)
	}
	return v
}

// nestedValue is {"a": {"a": … {}}} n levels deep, or, with array, [[…[]]].
func nestedValue(n int, array bool) any {
	var v any = map[string]any{}
	if array {
		v = []any{}
	}
	for range n {
		if array {
			v = []any{v}
		} else {
			v = map[string]any{"a": v}
		}
	}
	return v
}

// The hostile shapes: schemas that apply themselves twice or more to the
// same member or item. Their work doubles with each level of the value.
var amplifyingSchemas = map[string]string{
	"allOf":      `{"type": "object", "allOf": [{"properties": {"a": {"$ref": "#"}}}, {"properties": {"a": {"$ref": "#"}}}]}`,
	"anyOf":      `{"anyOf": [{"properties": {"a": {"$ref": "#"}}, "required": ["zz"]}, {"properties": {"a": {"$ref": "#"}}}]}`,
	"oneOf":      `{"oneOf": [{"properties": {"a": {"$ref": "#"}}}, {"properties": {"a": {"$ref": "#"}}, "required": ["zz"]}]}`,
	"pattern":    `{"properties": {"a": {"$ref": "#"}}, "patternProperties": {"^a$": {"$ref": "#"}}}`,
	"dynamicRef": `{"$dynamicAnchor": "m", "allOf": [{"properties": {"a": {"$dynamicRef": "#m"}}}, {"properties": {"a": {"$dynamicRef": "#m"}}}]}`,
	"items":      `{"prefixItems": [{"$ref": "#"}], "contains": {"$ref": "#"}}`,
	"if":         `{"if": {"properties": {"a": {"$ref": "#"}}}, "then": {"properties": {"a": {"$ref": "#"}}}}`,
	"defs":       `{"$defs": {"x": {"allOf": [{"$ref": "#"}, {"not": {"$ref": "#/$defs/y"}}]}, "y": {"properties": {"a": {"$ref": "#/$defs/x"}}}}, "properties": {"a": {"$ref": "#/$defs/x"}}}`,
}

// Schemas whose work grows with the value, not faster.
var linearSchemas = map[string]string{
	"json value": `{"anyOf": [{"type": ["string", "number", "boolean", "null"]}, {"type": "array", "items": {"$ref": "#"}}, {"type": "object", "additionalProperties": {"$ref": "#"}}]}`,
	"tree":       `{"type": "object", "properties": {"a": {"$ref": "#"}, "b": {"$ref": "#"}}, "additionalProperties": {"$ref": "#"}}`,
	"split":      `{"allOf": [{"properties": {"a": {"$ref": "#"}}}, {"properties": {"b": {"$ref": "#"}}}]}`,
	"plain":      `{"type": "object", "properties": {"a": {"type": "object", "properties": {"a": {"type": "object"}}}}}`,
}

// TestSchemaWorkBounds: the hostile schemas' work passes the cost limit at
// a depth where the library would take seconds, and is refused before any
// validation; the linear ones are charged in proportion to the value.
func TestSchemaWorkBounds(t *testing.T) {
	for name, text := range amplifyingSchemas {
		t.Run(name, func(t *testing.T) {
			s, err := CompileSchema(mustJSON(t, text))
			if err != nil {
				t.Fatal(err)
			}
			array := name == "items"
			for _, depth := range []int{24, 40, 1000} {
				if w := s.Work(nestedValue(depth, array), DefaultCostLimit); w <= DefaultCostLimit {
					t.Errorf("depth %d: work %d, want more than %d", depth, w, DefaultCostLimit)
				}
			}
		})
	}
	for name, text := range linearSchemas {
		t.Run(name, func(t *testing.T) {
			s, err := CompileSchema(mustJSON(t, text))
			if err != nil {
				t.Fatal(err)
			}
			for _, depth := range []int{24, 200, 2000} {
				v := nestedValue(depth, false)
				if w := s.Work(v, DefaultCostLimit); w > uint64(8*(depth+1)) {
					t.Errorf("depth %d: work %d, want at most %d", depth, w, 8*(depth+1))
				}
			}
		})
	}
}

// TestSchemaWorkIsUpperBound: on every test schema and a range of values,
// the library applies no more subschemas than Work says.
func TestSchemaWorkIsUpperBound(t *testing.T) {
	values := []string{
		`{}`, `[]`, `1`, `"x"`, `{"a": 1}`, `{"a": {"a": {"a": {}}}}`, `{"a": {"b": {"a": [1, {"a": 2}]}}, "b": [[], {}]}`,
		`[[[[]]]]`, `[{"a": [{"a": {}}]}, 2, "x", [1, [2]]]`, `{"zz": 1, "a": {"zz": 2, "a": {"a": {}}}}`,
	}
	for depth := 1; depth <= 10; depth++ {
		b, _ := json.Marshal(nestedValue(depth, false))
		values = append(values, string(b))
		b, _ = json.Marshal(nestedValue(depth, true))
		values = append(values, string(b))
	}
	schemas := map[string]string{}
	for k, v := range amplifyingSchemas {
		schemas[k] = v
	}
	for k, v := range linearSchemas {
		schemas[k] = v
	}
	for name, text := range schemas {
		for _, vt := range values {
			checkWorkBound(t, name, mustJSON(t, text), mustJSON(t, vt))
		}
	}
}

// checkWorkBound validates v with the counting schema and fails when the
// library applied more subschemas than Work allows, with either graph: the
// compiled one, and the raw one where the schema is of the plain subset.
func checkWorkBound(t *testing.T, name string, doc, v any) {
	t.Helper()
	s, visits := countingSchema(t, doc)
	if s == nil {
		return
	}
	const limit = 1 << 20
	w := s.Work(v, limit)
	if w > 1<<16 {
		return // the validation itself would be slow
	}
	_ = s.s.Validate(v)
	if uint64(*visits) > w {
		b, _ := json.Marshal(v)
		t.Errorf("%s on %s: the library applied %d subschemas, Work says at most %d", name, b, *visits, w)
	}
	if raw := rawSchema(doc, jsonschema.Draft2020); raw != nil {
		if rw := raw.Work(v, limit); rw < uint64(*visits) {
			b, _ := json.Marshal(v)
			t.Errorf("%s on %s (raw): the library applied %d subschemas, Work says at most %d", name, b, *visits, rw)
		}
	}
}

// TestSchemaWorkRefusedInCEL: a rule's schemaErrors call on a hostile
// schema stops at the cost limit, as every other costly call does, in the
// native evaluator and in cel-go's alike.
func TestSchemaWorkRefusedInCEL(t *testing.T) {
	env, err := NewEnv(Config{Library: LatestLibrary})
	if err != nil {
		t.Fatal(err)
	}
	for _, expr := range []string{
		`schemaErrors(self.value, self.schema)`,
		`matchesSchema(self.value, self.schema)`,
		`schemaErrors(self.value, self.schema, {})`,
		`matchesSchema(self.value, self.schema, {})`,
	} {
		p, err := env.Compile(expr, Origin{})
		if err != nil {
			t.Fatal(err)
		}
		self := map[string]any{"schema": mustJSON(t, amplifyingSchemas["allOf"]), "value": nestedValue(40, false)}
		_, _, err = p.Eval(t.Context(), map[string]any{"self": self, "root": self, "path": ""})
		if err == nil || !strings.Contains(err.Error(), "cost limit") {
			t.Errorf("%s: got %v, want the cost limit's error", expr, err)
		}
		self["value"] = nestedValue(12, false)
		if _, cost, err := p.Eval(t.Context(), map[string]any{"self": self, "root": self, "path": ""}); err != nil || cost < 1<<12 {
			t.Errorf("%s at depth 12: cost %d, error %v; want the work (over %d) charged", expr, cost, err, 1<<12)
		}
	}
}

// FuzzSchemaWork: for schemas and values built from the input, the
// library never applies more subschemas than Work says.
func FuzzSchemaWork(f *testing.F) {
	f.Add([]byte{0, 1, 2, 3}, []byte{1, 1, 1, 1, 0})
	f.Add([]byte{4, 4, 5, 6, 7, 8, 9, 10}, []byte{2, 1, 2, 1, 2})
	f.Add([]byte{11, 3, 12, 2, 13, 1}, []byte{1, 2, 1, 2, 1, 2, 3})
	f.Fuzz(func(t *testing.T, schemaBytes, valueBytes []byte) {
		if len(schemaBytes) > 64 || len(valueBytes) > 64 {
			return
		}
		sb, vb := schemaBytes, valueBytes
		doc := fuzzSchema(&sb, 0)
		if m, ok := doc.(map[string]any); ok {
			m["$dynamicAnchor"] = "m"
		}
		v := fuzzValue(&vb, 0)
		checkWorkBound(t, "fuzzed", doc, v)
	})
}

// fuzzSchema builds a schema from the bytes: each byte picks a keyword.
func fuzzSchema(b *[]byte, depth int) any {
	next := func() byte {
		if len(*b) == 0 {
			return 255
		}
		c := (*b)[0]
		*b = (*b)[1:]
		return c
	}
	s := map[string]any{}
	if depth > 4 {
		return s
	}
	for n := 0; n < 3; n++ {
		switch next() % 16 {
		case 0:
			s["$ref"] = "#"
		case 1:
			s["properties"] = map[string]any{"a": fuzzSchema(b, depth+1)}
		case 2:
			s["allOf"] = []any{fuzzSchema(b, depth+1), fuzzSchema(b, depth+1)}
		case 3:
			s["anyOf"] = []any{fuzzSchema(b, depth+1), fuzzSchema(b, depth+1)}
		case 4:
			s["oneOf"] = []any{fuzzSchema(b, depth+1), fuzzSchema(b, depth+1)}
		case 5:
			s["additionalProperties"] = fuzzSchema(b, depth+1)
		case 6:
			s["items"] = fuzzSchema(b, depth+1)
		case 7:
			s["prefixItems"] = []any{fuzzSchema(b, depth+1)}
		case 8:
			s["contains"] = fuzzSchema(b, depth+1)
		case 9:
			s["patternProperties"] = map[string]any{"^a": fuzzSchema(b, depth+1)}
		case 10:
			s["not"] = fuzzSchema(b, depth+1)
		case 11:
			s["if"], s["then"], s["else"] = fuzzSchema(b, depth+1), fuzzSchema(b, depth+1), fuzzSchema(b, depth+1)
		case 12:
			s["$dynamicRef"] = "#m"
		case 13:
			s["required"] = []any{"zz"}
		case 14:
			s["unevaluatedProperties"] = fuzzSchema(b, depth+1)
		case 15:
			s["propertyNames"] = fuzzSchema(b, depth+1)
		default:
			return s
		}
	}
	return s
}

// fuzzValue builds a value from the bytes.
func fuzzValue(b *[]byte, depth int) any {
	if len(*b) == 0 || depth > 12 {
		return nil
	}
	c := (*b)[0]
	*b = (*b)[1:]
	switch c % 4 {
	case 1:
		return map[string]any{"a": fuzzValue(b, depth+1)}
	case 2:
		return []any{fuzzValue(b, depth+1), fuzzValue(b, depth+1)}
	case 3:
		return map[string]any{"a": fuzzValue(b, depth+1), "b": fuzzValue(b, depth+1), "zz": 1}
	}
	return "x"
}
