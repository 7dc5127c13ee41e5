package cel

import (
	"strings"
	"testing"

	"github.com/celint/celint/internal/schemafast"
	"github.com/santhosh-tekuri/jsonschema/v6"
)

// TestSchemaBoundsBeyondInt: a count bound of 2^63 or more is read by its
// value on every path (the raw one, the compiled fast path, the library),
// and the answer never depends on how often the schema was used.
func TestSchemaBoundsBeyondInt(t *testing.T) {
	cases := []struct {
		schema string
		values map[string]bool // value: valid
	}{
		{`{"maxLength": 1e308}`, map[string]bool{`"ab"`: true, `""`: true, `1`: true}},
		{`{"maxLength": 9223372036854775808}`, map[string]bool{`"ab"`: true}},
		{`{"maxLength": 18446744073709551616}`, map[string]bool{`"ab"`: true}},
		{`{"maxLength": 9223372036854775807}`, map[string]bool{`"ab"`: true}},
		{`{"minLength": 1e19}`, map[string]bool{`"ab"`: false, `""`: false, `1`: true}},
		{`{"minLength": 9223372036854775808}`, map[string]bool{`"ab"`: false}},
		{`{"minLength": 18446744073709551617}`, map[string]bool{`"ab"`: false}},
		{`{"minLength": 1e308, "pattern": "a"}`, map[string]bool{`"ab"`: false}},
		{`{"maxLength": 1e308, "pattern": "a"}`, map[string]bool{`"ab"`: true, `"b"`: false}},
		{`{"maxItems": 1e300}`, map[string]bool{`[1, 2]`: true}},
		{`{"minItems": 1e300}`, map[string]bool{`[1, 2]`: false, `[]`: false}},
		{`{"maxProperties": 1e20}`, map[string]bool{`{"a": 1}`: true}},
		{`{"minProperties": 1e20}`, map[string]bool{`{"a": 1}`: false}},
		{`{"contains": {"type": "integer"}, "maxContains": 1e20}`, map[string]bool{`[1, 2]`: true}},
		{`{"contains": {"type": "integer"}, "minContains": 1e20}`, map[string]bool{`[1, 2]`: false}},
		{`{"properties": {"a": {"maxLength": 1e308}}, "const": {"maxLength": 1e308}}`, map[string]bool{`{"maxLength": 1e308}`: true, `{"maxLength": 1}`: false}},
	}
	for _, tc := range cases {
		for _, draft := range []*jsonschema.Draft{jsonschema.Draft2020, jsonschema.Draft7} {
			if draft == jsonschema.Draft7 && strings.Contains(tc.schema, "Contains") {
				continue // no minContains, maxContains in draft 7
			}
			s, err := compileSchemaDraft(mustDecode(t, tc.schema), draft)
			if err != nil {
				t.Fatalf("%s: %v", tc.schema, err)
			}
			for i := 0; i < 2*rawUses+10; i++ {
				for text, want := range tc.values {
					if got := s.validate(mustDecode(t, text)) == nil; got != want {
						t.Fatalf("%s (%v) on %s, use %d: valid=%v, want %v", tc.schema, draft, text, i+1, got, want)
					}
				}
			}
			// Every path by itself: the library's compiled schema, and the
			// fast paths, which may only be unsure.
			lib, fast, err := s.compiled()
			if err != nil {
				t.Fatal(err)
			}
			for text, want := range tc.values {
				v := mustDecode(t, text)
				if got := lib.Validate(v) == nil; got != want {
					t.Errorf("%s: the library says %s valid=%v, want %v", tc.schema, text, got, want)
				}
				if fast != nil {
					if ok, sure := fast.Valid(v); sure && ok != want {
						t.Errorf("%s: the compiled fast path says %s valid=%v, want %v", tc.schema, text, ok, want)
					}
				}
				if s.raw != nil {
					if ok, sure := schemafast.RawValid(s.raw, v); sure && ok != want {
						t.Errorf("%s: the raw path says %s valid=%v, want %v", tc.schema, text, ok, want)
					}
				}
			}
		}
	}
}
