package cel

import (
	"encoding/json"
	"errors"
	"reflect"
	"strings"
	"testing"

	"github.com/celint/celint/internal/jsonpointer"
)

// decode parses JSON text for a test, failing it on bad JSON.
func decode(t testing.TB, text string) any {
	t.Helper()
	var v any
	if err := json.Unmarshal([]byte(text), &v); err != nil {
		t.Fatalf("bad JSON %s: %v", text, err)
	}
	return v
}

func mustCompileSchema(t testing.TB, schema string, opts SchemaOptions) *Schema {
	t.Helper()
	s, err := CompileSchemaWith(decode(t, schema), opts)
	if err != nil {
		t.Fatalf("CompileSchemaWith(%s): %v", schema, err)
	}
	return s
}

// found is a violation without its keyword location.
type found struct{ Pointer, Keyword, Message string }

func foundOf(vs []SchemaViolation) []found {
	var out []found
	for _, v := range vs {
		out = append(out, found{v.Pointer, v.Keyword, v.Message})
	}
	return out
}

func TestSchemaValidatePlacement(t *testing.T) {
	cases := []struct {
		name     string
		schema   string
		instance string
		want     []found
	}{
		{
			name:     "valid",
			schema:   `{"required": ["a"], "additionalProperties": false, "properties": {"a": {"type": "string"}}}`,
			instance: `{"a": "x"}`,
		},
		{
			name:     "required at the member",
			schema:   `{"required": ["name", "inputSchema"]}`,
			instance: `{"name": "x"}`,
			want:     []found{{"/inputSchema", "required", `missing required member "inputSchema"`}},
		},
		{
			name:     "several missing members, one violation each",
			schema:   `{"required": ["c", "a", "b"]}`,
			instance: `{}`,
			want: []found{
				{"/a", "required", `missing required member "a"`},
				{"/b", "required", `missing required member "b"`},
				{"/c", "required", `missing required member "c"`},
			},
		},
		{
			name:     "required in an array of objects",
			schema:   `{"properties": {"tools": {"items": {"required": ["name", "inputSchema"]}}}}`,
			instance: `{"tools": [{"name": "a", "inputSchema": {}}, {"name": "b"}, {}]}`,
			want: []found{
				{"/tools/1/inputSchema", "required", `missing required member "inputSchema"`},
				{"/tools/2/inputSchema", "required", `missing required member "inputSchema"`},
				{"/tools/2/name", "required", `missing required member "name"`},
			},
		},
		{
			name:     "required in nested objects",
			schema:   `{"properties": {"a": {"properties": {"b": {"required": ["c"]}}}}}`,
			instance: `{"a": {"b": {}}}`,
			want:     []found{{"/a/b/c", "required", `missing required member "c"`}},
		},
		{
			name:     "members needing escaping",
			schema:   `{"properties": {"x/y": {"required": ["a/b", "~x", "~1"]}}}`,
			instance: `{"x/y": {}}`,
			want: []found{
				{"/x~1y/a~1b", "required", `missing required member "a/b"`},
				{"/x~1y/~01", "required", `missing required member "~1"`},
				{"/x~1y/~0x", "required", `missing required member "~x"`},
			},
		},
		{
			name:     "required member that is the empty string",
			schema:   `{"required": [""]}`,
			instance: `{}`,
			want:     []found{{"/", "required", `missing required member ""`}},
		},
		{
			name:     "required through a reference",
			schema:   `{"$defs": {"tool": {"required": ["name"]}}, "items": {"$ref": "#/$defs/tool"}}`,
			instance: `[{"name": "a"}, {}]`,
			want:     []found{{"/1/name", "required", `missing required member "name"`}},
		},
		{
			name:     "the same finding twice is reported once",
			schema:   `{"allOf": [{"required": ["a"]}, {"required": ["a"]}]}`,
			instance: `{}`,
			want:     []found{{"/a", "required", `missing required member "a"`}},
		},
		{
			name:     "additionalProperties false, one violation per extra member",
			schema:   `{"properties": {"name": {}}, "additionalProperties": false}`,
			instance: `{"name": "x", "colour": 1, "a/b": 2, "~x": 3}`,
			want: []found{
				{"/a~1b", "additionalProperties", `unknown member "a/b"`},
				{"/colour", "additionalProperties", `unknown member "colour"`},
				{"/~0x", "additionalProperties", `unknown member "~x"`},
			},
		},
		{
			name:     "additionalProperties false with patternProperties",
			schema:   `{"patternProperties": {"^x-": {}}, "additionalProperties": false}`,
			instance: `{"x-ok": 1, "nope": 2}`,
			want:     []found{{"/nope", "additionalProperties", `unknown member "nope"`}},
		},
		{
			name:     "additionalProperties false in an array of objects",
			schema:   `{"items": {"properties": {"a": {}}, "additionalProperties": false}}`,
			instance: `[{"a": 1}, {"a": 1, "b": 2}, {"c": 3}]`,
			want: []found{
				{"/1/b", "additionalProperties", `unknown member "b"`},
				{"/2/c", "additionalProperties", `unknown member "c"`},
			},
		},
		{
			name:     "additionalProperties schema keeps the nested leaves",
			schema:   `{"additionalProperties": {"type": "object", "properties": {"n": {"type": "integer"}}}}`,
			instance: `{"a": 1, "b": {"n": "x"}, "c": {"n": 2}}`,
			want: []found{
				{"/a", "type", "got number, want object"},
				{"/b/n", "type", "got string, want integer"},
			},
		},
		{
			name:     "additionalProperties referring to a false schema",
			schema:   `{"$defs": {"never": false}, "additionalProperties": {"$ref": "#/$defs/never"}}`,
			instance: `{"colour": 1}`,
			want:     []found{{"/colour", "additionalProperties", `unknown member "colour"`}},
		},
		{
			name:     "unevaluatedProperties false",
			schema:   `{"allOf": [{"properties": {"a": {}}}], "unevaluatedProperties": false}`,
			instance: `{"a": 1, "z": 2, "y/": 3}`,
			want: []found{
				{"/y~1", "unevaluatedProperties", `unknown member "y/"`},
				{"/z", "unevaluatedProperties", `unknown member "z"`},
			},
		},
		{
			name:     "unevaluatedProperties schema keeps the nested leaves",
			schema:   `{"properties": {"a": {}}, "unevaluatedProperties": {"type": "string"}}`,
			instance: `{"a": 1, "b": 2, "c": "x"}`,
			want:     []found{{"/b", "type", "got number, want string"}},
		},
		{
			name:     "a property whose name is a keyword is not mistaken for one",
			schema:   `{"properties": {"additionalProperties": false}}`,
			instance: `{"additionalProperties": 1}`,
			want:     []found{{"/additionalProperties", "false", "not allowed (the schema is false)"}},
		},
		{
			name:     "propertyNames, one violation per offending key",
			schema:   `{"propertyNames": {"pattern": "^[a-z]+$", "maxLength": 3}}`,
			instance: `{"ok": 1, "Bad": 2, "TooLong": 3, "a/b": 4}`,
			want: []found{
				{"/Bad", "propertyNames", `invalid member name "Bad": does not match pattern '^[a-z]+$'`},
				{"/TooLong", "propertyNames", `invalid member name "TooLong": does not match pattern '^[a-z]+$'; longer than 3 characters`},
				{"/a~1b", "propertyNames", `invalid member name "a/b": does not match pattern '^[a-z]+$'`},
			},
		},
		{
			name:     "propertyNames in a nested object",
			schema:   `{"properties": {"env": {"propertyNames": {"minLength": 2}}}}`,
			instance: `{"env": {"A": 1, "AB": 2}}`,
			want:     []found{{"/env/A", "propertyNames", `invalid member name "A": shorter than 2 characters`}},
		},
		{
			name:     "propertyNames false",
			schema:   `{"propertyNames": false}`,
			instance: `{"x": 1}`,
			want:     []found{{"/x", "propertyNames", `invalid member name "x": no member is allowed`}},
		},
		{
			name:     "dependentRequired, one violation per missing member",
			schema:   `{"dependentRequired": {"a": ["b", "c"]}}`,
			instance: `{"a": 1, "c": 2, "x": {"a": 1}}`,
			want:     []found{{"/b", "dependentRequired", `missing member "b", required when "a" is present`}},
		},
		{
			name:     "dependencies in draft 7",
			schema:   `{"$schema": "http://json-schema.org/draft-07/schema#", "dependencies": {"a": ["b", "c"]}}`,
			instance: `{"a": 1}`,
			want: []found{
				{"/b", "dependencies", `missing member "b", required when "a" is present`},
				{"/c", "dependencies", `missing member "c", required when "a" is present`},
			},
		},
		{
			name:     "other keywords at the failing value",
			schema:   `{"properties": {"n": {"type": "integer"}, "s": {"minLength": 2}, "e": {"enum": ["a", "b"]}, "l": {"items": {"maximum": 3}}}}`,
			instance: `{"n": "x", "s": "a", "e": "c", "l": [1, 5, 2, 9]}`,
			want: []found{
				{"/e", "enum", "value must be one of 'a', 'b'"},
				{"/l/1", "maximum", "maximum: got 5, want 3"},
				{"/l/3", "maximum", "maximum: got 9, want 3"},
				{"/n", "type", "got string, want integer"},
				{"/s", "minLength", "minLength: got 1, want 2"},
			},
		},
		{
			name:     "object keywords that are not about one member stay at the object",
			schema:   `{"properties": {"o": {"minProperties": 2}}}`,
			instance: `{"o": {"a": 1}}`,
			want:     []found{{"/o", "minProperties", "minProperties: got 1, want 2"}},
		},
		{
			name:     "members and values together",
			schema:   `{"required": ["a"], "properties": {"b": {"type": "string"}}, "additionalProperties": false}`,
			instance: `{"b": 1, "c": 2}`,
			want: []found{
				{"/a", "required", `missing required member "a"`},
				{"/b", "type", "got number, want string"},
				{"/c", "additionalProperties", `unknown member "c"`},
			},
		},
		{
			name:     "false schema",
			schema:   `false`,
			instance: `1`,
			want:     []found{{"", "false", "not allowed (the schema is false)"}},
		},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			s := mustCompileSchema(t, tc.schema, SchemaOptions{})
			vs, err := s.Validate(decode(t, tc.instance))
			if err != nil {
				t.Fatal(err)
			}
			if got := foundOf(vs); !reflect.DeepEqual(got, tc.want) {
				t.Fatalf("Validate(%s) against %s =\n%#v\nwant\n%#v", tc.instance, tc.schema, got, tc.want)
			}
			if len(tc.want) == 0 && vs != nil {
				t.Fatalf("valid value: got %#v, want nil", vs)
			}
			for _, v := range vs {
				if _, err := jsonpointer.Parse(v.Pointer); err != nil {
					t.Errorf("bad pointer %q: %v", v.Pointer, err)
				}
				if _, err := jsonpointer.Parse(v.KeywordLocation); err != nil {
					t.Errorf("bad keyword location %q: %v", v.KeywordLocation, err)
				}
			}
		})
	}
}

// jsonschema reports the object of a propertyNames error at a location that
// later validation may overwrite; the violations must still be at the right
// members, every time.
func TestSchemaPropertyNamesPlacement(t *testing.T) {
	short := `{"maxLength": 1}`
	cases := []struct {
		name, schema, instance string
		want                   []string // pointers
	}{
		{
			name:     "nested, with later siblings",
			schema:   `{"properties": {"p": {"propertyNames": ` + short + `}}}`,
			instance: `{"a": 1, "b": 2, "p": {"xy": 1, "z": 2}, "q": 3, "r": 4, "s": 5, "t": 6}`,
			want:     []string{"/p/xy"},
		},
		{
			name:     "deeply nested",
			schema:   `{"properties": {"a": {"properties": {"b": {"items": {"propertyNames": ` + short + `}}}}}}`,
			instance: `{"a": {"b": [{"ok": 1}, {"o": 1}, {"no": 1, "n": 2}], "c": 1, "d": 2}, "e": 3, "f": 4}`,
			want:     []string{"/a/b/0/ok", "/a/b/2/no"},
		},
		{
			name:     "an array of objects, the same name in several",
			schema:   `{"items": {"propertyNames": {"pattern": "^[a-z]+$"}}}`,
			instance: `[{"A": 1}, {"b": 1}, {"A": 1, "C": 2}, {"A": 3}]`,
			want:     []string{"/0/A", "/2/A", "/2/C", "/3/A"},
		},
		{
			name:     "additionalProperties applies to the other members only",
			schema:   `{"properties": {"fixed": {}}, "additionalProperties": {"propertyNames": ` + short + `}}`,
			instance: `{"fixed": {"long": 1}, "x": {"long": 1}, "y": {"o": 1}, "z": {"long": 2}}`,
			want:     []string{"/x/long", "/z/long"},
		},
		{
			name:     "patternProperties",
			schema:   `{"patternProperties": {"^e": {"propertyNames": ` + short + `}}}`,
			instance: `{"env": {"ab": 1}, "other": {"ab": 1}, "ex": {"ab": 1}}`,
			want:     []string{"/env/ab", "/ex/ab"},
		},
		{
			name:     "recursive reference",
			schema:   `{"$defs": {"node": {"propertyNames": {"pattern": "^[a-z]+$"}, "additionalProperties": {"$ref": "#/$defs/node"}}}, "$ref": "#/$defs/node"}`,
			instance: `{"a": {"B": {}, "c": {"D": {}, "e": {}}}, "f": {"g": {}}}`,
			want:     []string{"/a/B", "/a/c/D"},
		},
		{
			name:     "prefixItems",
			schema:   `{"prefixItems": [{}, {"propertyNames": ` + short + `}]}`,
			instance: `[{"ab": 1}, {"ab": 1}, {"ab": 1}]`,
			want:     []string{"/1/ab"},
		},
		{
			name:     "dependentSchemas",
			schema:   `{"properties": {"o": {"dependentSchemas": {"kk": {"propertyNames": ` + short + `}}}}}`,
			instance: `{"o": {"kk": 1}, "p": {"kk": 1}}`,
			want:     []string{"/o/kk"},
		},
		{
			name:     "then",
			schema:   `{"items": {"if": {"required": ["t"]}, "then": {"propertyNames": {"enum": ["t", "u"]}}}}`,
			instance: `[{"t": 1, "x": 2}, {"x": 1}]`,
			want:     []string{"/0/x"},
		},
		{
			name:     "anyOf",
			schema:   `{"properties": {"o": {"anyOf": [{"type": "array"}, {"propertyNames": ` + short + `}]}}}`,
			instance: `{"o": {"ab": 1}, "p": {"ab": 1}}`,
			want:     []string{"/o/ab"},
		},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			s := mustCompileSchema(t, tc.schema, SchemaOptions{})
			inst := decode(t, tc.instance)
			for run := 0; run < 30; run++ {
				vs, err := s.Validate(inst)
				if err != nil {
					t.Fatal(err)
				}
				var got []string
				for _, v := range vs {
					if v.Keyword == "propertyNames" {
						got = append(got, v.Pointer)
					}
				}
				if !reflect.DeepEqual(got, tc.want) {
					t.Fatalf("run %d: propertyNames at %q, want %q (all: %v)", run, got, tc.want, vs)
				}
			}
		})
	}
}

func TestSchemaViolationKeywordLocation(t *testing.T) {
	cases := []struct{ schema, instance, want string }{
		{`{"properties": {"a": {"required": ["b"]}}}`, `{"a": {}}`, "/properties/a/required"},
		{`{"$defs": {"t": {"required": ["b"]}}, "$ref": "#/$defs/t"}`, `{}`, "/$ref/required"},
		{`{"additionalProperties": false}`, `{"x": 1}`, "/additionalProperties"},
		{`{"additionalProperties": {"$ref": "#/$defs/f"}, "$defs": {"f": false}}`, `{"x": 1}`, "/additionalProperties/$ref"},
		{`{"unevaluatedProperties": false}`, `{"x": 1}`, "/unevaluatedProperties"},
		{`{"propertyNames": {"maxLength": 1}}`, `{"xy": 1}`, "/propertyNames"},
		{`{"dependentRequired": {"a": ["b"]}}`, `{"a": 1}`, "/dependentRequired/a"},
		{`{"$schema": "http://json-schema.org/draft-07/schema#", "dependencies": {"a": ["b"]}}`, `{"a": 1}`, "/dependencies/a"},
		{`{"items": {"type": "string"}}`, `[1]`, "/items/type"},
	}
	for _, tc := range cases {
		vs, err := mustCompileSchema(t, tc.schema, SchemaOptions{}).Validate(decode(t, tc.instance))
		if err != nil {
			t.Fatal(err)
		}
		if len(vs) != 1 || vs[0].KeywordLocation != tc.want {
			t.Errorf("%s on %s: %#v, want one violation with keyword location %q", tc.schema, tc.instance, vs, tc.want)
		}
	}
}

func TestSchemaMessages(t *testing.T) {
	schema := `{"required": ["inputSchema", "{keyword}"], "additionalProperties": false,
		"properties": {"n": {"type": "integer"}, "p": {"propertyNames": {"maxLength": 1}}, "d": {"dependentRequired": {"a": ["b"]}}}}`
	instance := `{"n": "x", "colour": 1, "p": {"xy": 1}, "d": {"a": 1}}`
	s := mustCompileSchema(t, schema, SchemaOptions{Messages: SchemaMessages{
		"required":             "{keyword}: {member} is needed",
		"additionalProperties": "drop {member} ({message})",
		"type":                 "[{keyword}] {message} {unknown}",
		"propertyNames":        "name {member}",
		"dependentRequired":    "", // empty: the default message
		"minLength":            "unused",
	}})
	vs, err := s.Validate(decode(t, instance))
	if err != nil {
		t.Fatal(err)
	}
	want := []found{
		{"/colour", "additionalProperties", `drop colour (unknown member "colour")`},
		{"/d/b", "dependentRequired", `missing member "b", required when "a" is present`},
		{"/inputSchema", "required", "required: inputSchema is needed"},
		{"/n", "type", "[type] got string, want integer {unknown}"},
		{"/p/xy", "propertyNames", "name xy"},
		{"/{keyword}", "required", "required: {keyword} is needed"}, // a member name is not expanded again
	}
	if got := foundOf(vs); !reflect.DeepEqual(got, want) {
		t.Fatalf("custom messages =\n%#v\nwant\n%#v", got, want)
	}

	// CompileSchema keeps the defaults, and the options are copied.
	msgs := SchemaMessages{"required": "R {member}"}
	s2 := mustCompileSchema(t, `{"required": ["a"]}`, SchemaOptions{Messages: msgs})
	msgs["required"] = "changed"
	if vs, _ := s2.Validate(map[string]any{}); len(vs) != 1 || vs[0].Message != "R a" {
		t.Fatalf("custom required = %#v", vs)
	}
	s3, err := CompileSchema(decode(t, `{"required": ["a"]}`))
	if err != nil {
		t.Fatal(err)
	}
	if vs, _ := s3.Validate(map[string]any{}); len(vs) != 1 || vs[0].Message != `missing required member "a"` {
		t.Fatalf("default required = %#v", vs)
	}
}

func TestSchemaValidateDeterministic(t *testing.T) {
	// Many members, so that map iteration order would show.
	props, req, inst := map[string]any{}, []any{}, map[string]any{}
	for _, n := range strings.Fields("a b c d e f g h i j k l m n o p") {
		props[n] = map[string]any{"type": "integer"}
		req = append(req, "r"+n)
		inst[n] = "x"
		inst["x"+n] = 1
		inst[strings.ToUpper(n)] = 1
	}
	schema := map[string]any{
		"properties":           props,
		"required":             req,
		"additionalProperties": false,
		"propertyNames":        map[string]any{"pattern": "^[a-z]+$"},
		"anyOf":                []any{map[string]any{"required": []any{"z"}}, map[string]any{"required": []any{"z", "y"}}},
	}
	s, err := CompileSchema(schema)
	if err != nil {
		t.Fatal(err)
	}
	first, err := s.Validate(inst)
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 20; i++ {
		s, err := CompileSchema(schema)
		if err != nil {
			t.Fatal(err)
		}
		got, err := s.Validate(inst)
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(got, first) {
			t.Fatalf("run %d differs:\n%v\nfirst:\n%v", i, got, first)
		}
	}
	for i := 1; i < len(first); i++ {
		a, b := first[i-1], first[i]
		if a.Pointer > b.Pointer || a.Pointer == b.Pointer && (a.Keyword > b.Keyword || a.Keyword == b.Keyword && a.Message >= b.Message) {
			t.Fatalf("not sorted or duplicated at %d: %v then %v", i, a, b)
		}
	}
	// 16 type, 16 missing required, 32 unknown members (x*, upper case),
	// 16 upper-case names, and y and z missing (z once).
	if len(first) != 16+16+32+16+2 {
		t.Fatalf("got %d violations: %v", len(first), first)
	}
}

func TestCompileSchemaErrors(t *testing.T) {
	cases := []struct {
		name, schema string
		pointer, msg string
	}{
		{
			name:    "unresolved local $ref",
			schema:  `{"$ref": "#/$defs/missing"}`,
			pointer: "/$ref",
			msg:     `$ref "#/$defs/missing" points to nothing in the schema`,
		},
		{
			name:    "unresolved local $ref, nested and escaped",
			schema:  `{"$defs": {"ok": {}}, "properties": {"a/b": {"items": {"$ref": "#/$defs/ok"}}, "c": {"$ref": "#/$defs/nope"}}}`,
			pointer: "/properties/c/$ref",
			msg:     `$ref "#/$defs/nope" points to nothing in the schema`,
		},
		{
			name:    "unresolved $ref under an escaped name",
			schema:  `{"properties": {"a/b~": {"$ref": "#/$defs/nope"}}}`,
			pointer: "/properties/a~1b~0/$ref",
			msg:     `$ref "#/$defs/nope" points to nothing in the schema`,
		},
		{
			name:    "unresolved local $ref under an $id",
			schema:  `{"$id": "https://x.test/root", "properties": {"a": {"$ref": "#/$defs/missing"}}}`,
			pointer: "/properties/a/$ref",
			msg:     `$ref "#/$defs/missing" points to nothing in the schema`,
		},
		{
			name:    "unknown anchor",
			schema:  `{"items": {"$ref": "#nope"}}`,
			pointer: "/items/$ref",
			msg:     `$ref "#nope" names no anchor in the schema`,
		},
		{
			name:    "unknown $schema",
			schema:  `{"$schema": "https://example.com/meta"}`,
			pointer: "/$schema",
			msg:     `unknown $schema "https://example.com/meta": use a JSON Schema draft (2020-12, 2019-09, 7, 6 or 4); nothing is fetched`,
		},
		{
			name:    "unknown draft in a nested resource",
			schema:  `{"$defs": {"x": {"$id": "https://x.test/x", "$schema": "http://json-schema.org/draft-99/schema#"}}}`,
			pointer: "/$defs/x/$schema",
			msg:     `unknown $schema "http://json-schema.org/draft-99/schema#": use a JSON Schema draft (2020-12, 2019-09, 7, 6 or 4); nothing is fetched`,
		},
		{
			name:    "remote $ref",
			schema:  `{"properties": {"a": {"$ref": "https://example.com/s.json"}}}`,
			pointer: "/properties/a/$ref",
			msg:     `$ref "https://example.com/s.json" leaves the schema: references must point inside it; nothing is fetched`,
		},
		{
			name:    "relative file $ref",
			schema:  `{"$ref": "other.json"}`,
			pointer: "/$ref",
			msg:     `$ref "other.json" leaves the schema: references must point inside it; nothing is fetched`,
		},
		{
			name:    "bad type",
			schema:  `{"type": 12}`,
			pointer: "/type",
			msg:     `"type" must be one of "array", "boolean", "integer", "null", "number", "object", "string"`,
		},
		{
			name:    "bad type in a list",
			schema:  `{"type": ["string", "text"]}`,
			pointer: "/type/1",
			msg:     `"type" item 1 must be one of "array", "boolean", "integer", "null", "number", "object", "string"`,
		},
		{
			name:    "negative minLength",
			schema:  `{"properties": {"a": {"minLength": -1}}}`,
			pointer: "/properties/a/minLength",
			msg:     `"minLength" must be >= 0 (got -1)`,
		},
		{
			name:    "wrong type of keyword value",
			schema:  `{"properties": {"a": {"required": "x"}}}`,
			pointer: "/properties/a/required",
			msg:     `"required" must be of type array (got string)`,
		},
		{
			name:    "bad regular expression",
			schema:  `{"properties": {"a": {"pattern": "("}}}`,
			pointer: "/properties/a/pattern",
			msg:     "\"pattern\" must be a valid regex: error parsing regexp: missing closing ): `(`",
		},
		{
			name:    "several problems: the first is described",
			schema:  `{"properties": {"a": {"format": 3}}, "minLength": "x", "maxItems": -2}`,
			pointer: "/maxItems",
			msg:     `"maxItems" must be >= 0 (got -2) (and 2 more problems)`,
		},
		{
			name:   "not a schema",
			schema: `5`,
			msg:    "the schema must be of type boolean or object (got number)",
		},
		{
			name:    "a $ref to itself",
			schema:  `{"$ref": "#/$defs/a", "$defs": {"a": {"$ref": "#/$defs/a"}}}`,
			pointer: "/$defs/a/$ref",
			msg:     "reference cycle that never descends into the value (/$defs/a → /$defs/a): validation would never end",
		},
		{
			name:    "the root refers to itself",
			schema:  `{"$ref": "#"}`,
			pointer: "/$ref",
			msg:     "reference cycle that never descends into the value (the root → the root): validation would never end",
		},
		{
			name:    "a cycle through allOf and two definitions, below a member",
			schema:  `{"properties": {"p": {"$ref": "#/$defs/b"}}, "$defs": {"a": {"allOf": [{"type": "object"}, {"$ref": "#/$defs/b"}]}, "b": {"anyOf": [{"$ref": "#/$defs/a"}]}}}`,
			pointer: "/$defs/a/allOf/1/$ref",
			msg:     "reference cycle that never descends into the value (/$defs/b → /$defs/b/anyOf/0 → /$defs/a → /$defs/a/allOf/1 → /$defs/b): validation would never end",
		},
		{
			name:    "a cycle through not, if and dependentSchemas",
			schema:  `{"items": {"$ref": "#/$defs/a"}, "$defs": {"a": {"not": {"if": {"dependentSchemas": {"x": {"$ref": "#/$defs/a"}}}}}}}`,
			pointer: "/$defs/a/not/if/dependentSchemas/x/$ref",
			msg:     "reference cycle that never descends into the value (/$defs/a → /$defs/a/not → /$defs/a/not/if → /$defs/a/not/if/dependentSchemas/x → /$defs/a): validation would never end",
		},
		{
			name:    "draft 7",
			schema:  `{"$schema": "http://json-schema.org/draft-07/schema#", "properties": {"p": {"$ref": "#/definitions/a"}}, "definitions": {"a": {"$ref": "#/definitions/a"}}}`,
			pointer: "/definitions/a/$ref",
			msg:     "reference cycle that never descends into the value (/definitions/a → /definitions/a): validation would never end",
		},
		{
			name:    "duplicate anchor",
			schema:  `{"$defs": {"a": {"$anchor": "x"}, "b": {"$anchor": "x"}}}`,
			pointer: "/$defs/b",
			msg:     `duplicate anchor "x" (also at /$defs/a)`,
		},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			s, err := CompileSchema(decode(t, tc.schema))
			if err == nil {
				t.Fatalf("CompileSchema(%s) = %v, want an error", tc.schema, s)
			}
			var ce *SchemaCompileError
			if !errors.As(err, &ce) {
				t.Fatalf("error %T %v is not a *SchemaCompileError", err, err)
			}
			if ce.Pointer != tc.pointer || ce.Msg != tc.msg {
				t.Fatalf("CompileSchema(%s) error = {Pointer: %q, Msg: %q}\nwant {Pointer: %q, Msg: %q}", tc.schema, ce.Pointer, ce.Msg, tc.pointer, tc.msg)
			}
			want := tc.msg
			if tc.pointer != "" {
				want = "at " + tc.pointer + ": " + tc.msg
			}
			if err.Error() != want {
				t.Fatalf("Error() = %q, want %q", err.Error(), want)
			}
			if tc.pointer != "" {
				if _, err := jsonpointer.Parse(tc.pointer); err != nil {
					t.Fatal(err)
				}
			}
		})
	}
}

// TestCompileSchemaRecursionAccepted checks that the reference-cycle check
// refuses only cycles that stay on one value: recursion that descends into
// the value, and a cycle that is never used, compile.
func TestCompileSchemaRecursionAccepted(t *testing.T) {
	for _, schema := range []string{
		`{"properties": {"next": {"$ref": "#"}}}`,
		`{"items": {"$ref": "#"}, "anyOf": [{"type": "array"}, {"type": "null"}]}`,
		`{"propertyNames": {"$ref": "#"}}`,
		`{"$defs": {"list": {"oneOf": [{"type": "null"}, {"properties": {"tail": {"$ref": "#/$defs/list"}}}]}}, "$ref": "#/$defs/list"}`,
		`{"type": "string", "$defs": {"unused": {"$ref": "#/$defs/unused"}}}`,
		`{"$ref": "https://json-schema.org/draft/2020-12/schema"}`,
		`{"$dynamicAnchor": "node", "properties": {"children": {"items": {"$dynamicRef": "#node"}}}}`,
		`{"$ref": "#/$defs/a", "$defs": {"a": {"$ref": "#/$defs/b"}, "b": {"$ref": "#/$defs/c"}, "c": {"type": "string"}}}`,
	} {
		if _, err := CompileSchema(decode(t, schema)); err != nil {
			t.Errorf("CompileSchema(%s): %v", schema, err)
		}
	}
}

// The CEL functions keep their own placement: schemaErrors lists the
// validator's leaves (required at the object, additional properties in one
// entry) with "keyword" the keyword location.
func TestSchemaErrorsUnchanged(t *testing.T) {
	e := newEnv(t, Config{})
	runCases(t, e, []evalCase{
		{name: "required at the object", expr: `schemaErrors({}, {'required': ['a', 'b']})`,
			want: []any{map[string]any{"pointer": "", "keyword": "/required", "message": "missing properties 'a', 'b'"}}},
		{name: "additional properties in one entry", expr: `schemaErrors({'x': 1, 'y': 2}, {'additionalProperties': false})[0].keyword`,
			want: "/additionalProperties"},
		{name: "additional properties count", expr: `size(schemaErrors({'x': 1, 'y': 2}, {'additionalProperties': false}))`,
			want: int64(1)},
	})
}
