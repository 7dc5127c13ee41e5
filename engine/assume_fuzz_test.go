package engine

import (
	"testing"

	"github.com/celint/celint/cel"
	"github.com/celint/celint/internal/celtree"
	"github.com/celint/celint/loader"
)

// assumeAgrees checks an assume schema and a value, both JSON text: when
// compileShape accepts the schema and the library compiles it, the shape
// holds exactly when the library finds the value valid. It returns "" or
// the difference.
func assumeAgrees(schemaText, valueText string) string {
	sdoc, err := loader.Parse("s.json", []byte(schemaText), loader.DefaultOptions())
	if err != nil {
		return ""
	}
	sh, err := compileShape("s.json", sdoc.Root)
	if err != nil {
		return ""
	}
	lib, err := cel.CompileSchema(sdoc.Root.Value())
	if err != nil {
		return ""
	}
	vdoc, err := loader.Parse("v.json", []byte(valueText), loader.DefaultOptions())
	if err != nil {
		return ""
	}
	violations, err := lib.Validate(docTree{vdoc.Root})
	if err != nil {
		return ""
	}
	if holds, valid := sh.holds(celtree.TreeOf(docTree{vdoc.Root})), len(violations) == 0; holds != valid {
		return "the shape holds: " + map[bool]string{true: "yes", false: "no"}[holds] + "; the library finds the value valid: " + map[bool]string{true: "yes", false: "no"}[valid]
	}
	return ""
}

// assumeSeeds are schemas and values around each keyword of the subset.
var assumeSeeds = [][2]string{
	{`{"type": "object", "required": ["a"], "properties": {"a": {"type": "string", "minLength": 2}}}`, `{"a": "é"}`},
	{`{"type": ["integer", "null"]}`, `1.0`},
	{`{"type": "integer"}`, `1e400`},
	{`{"items": {"enum": [1, "x", null]}, "minItems": 2}`, `[1.0, "x"]`},
	{`{"enum": []}`, `1`},
	{`{"enum": [[1], {"a": 1}]}`, `[1]`},
	{`{"const": {"a": [1]}}`, `{"a": [1.0]}`},
	{`{"const": 9007199254740993}`, `9007199254740992`},
	{`{"const": 9007199254740993}`, `9007199254740992.0`},
	{`{"enum": [1e400]}`, `1e400`},
	{`{"const": 18446744073709551616}`, `18446744073709551616`},
	{`{"type": "integer"}`, `18446744073709551616`},
	{`{"type": "number"}`, `1e400`},
	{`{"properties": {"a": false}}`, `{"a": null}`},
	{`{"required": []}`, `{}`},
	{`{"minLength": 1}`, `""`},
	{`{"minItems": 0, "items": true}`, `[]`},
	{`{"const": 9223372036854775807}`, `9.223372036854775807e18`},
	{`{"enum": [9007199254740993]}`, `9.007199254740992e15`},
	{`{"enum": [{"a": 1, "b": [true]}]}`, `{"b": [true], "a": 1.0}`},
}

// TestAssumeAgrees runs assumeAgrees on the seeds.
func TestAssumeAgrees(t *testing.T) {
	for _, c := range assumeSeeds {
		if d := assumeAgrees(c[0], c[1]); d != "" {
			t.Errorf("%s on %s: %s", c[0], c[1], d)
		}
	}
}

// FuzzAssumeAgrees: an assume schema (engine/assume.go, a hand-written
// subset of JSON Schema) and the library agree on every value.
func FuzzAssumeAgrees(f *testing.F) {
	for _, c := range assumeSeeds {
		f.Add(c[0], c[1])
	}
	f.Fuzz(func(t *testing.T, schema, value string) {
		if d := assumeAgrees(schema, value); d != "" {
			t.Fatalf("%s on %s: %s", schema, value, d)
		}
	})
}
