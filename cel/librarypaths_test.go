package cel

import (
	"context"
	"fmt"
	"testing"

	"github.com/celint/celint/internal/librarypaths"
	"github.com/santhosh-tekuri/jsonschema/v6"
)

// TestLibraryPathsSwitch: under CELINT_LIBRARY_PATHS no program has a
// native plan, and no schema a raw or compiled fast path; the answers
// are the same.
func TestLibraryPathsSwitch(t *testing.T) {
	e := newEnv(t, Config{})
	schema := `{"type": "object", "properties": {"a": {"type": "string", "maxLength": 3}}}`
	run := func() (string, uint64, *Schema) {
		p, err := e.Compile(`self.a.matches('^a') && self.a.size() < 5`, Origin{})
		if err != nil {
			t.Fatal(err)
		}
		v, cost, err := p.Eval(context.Background(), map[string]any{"self": map[string]any{"a": "abc"}, "root": nil, "path": ""})
		if err != nil {
			t.Fatal(err)
		}
		if librarypaths.On != (p.nativePlan() == nil) {
			t.Errorf("library paths %v: native plan %v", librarypaths.On, p.nativePlan() != nil)
		}
		s, err := compileSchemaDraft(mustDecode(t, schema), jsonschema.Draft2020)
		if err != nil {
			t.Fatal(err)
		}
		if err := s.validate(mustDecode(t, `{"a": "abcd"}`)); err == nil {
			t.Error("a string too long is valid")
		}
		return fmt.Sprint(v.Value()), cost, s
	}
	saved := librarypaths.On
	defer func() { librarypaths.On = saved }()
	librarypaths.On = false
	v1, c1, s1 := run()
	librarypaths.On = true
	v2, c2, s2 := run()
	if v1 != v2 || c1 != c2 {
		t.Errorf("with the fast paths %s (cost %d), without %s (cost %d)", v1, c1, v2, c2)
	}
	if s1.fast == nil && s1.raw == nil {
		t.Error("the schema has no fast path by default")
	}
	if s2.fast != nil || s2.raw != nil {
		t.Error("the schema has a fast path under CELINT_LIBRARY_PATHS")
	}
}
