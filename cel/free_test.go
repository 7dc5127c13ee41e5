package cel

import (
	"reflect"
	"testing"

	gocel "github.com/google/cel-go/cel"
)

// TestFreeVariables: the variables an expression reads, not those its
// comprehensions (and cel.bind) bind, including one bound in one place and
// read freely in another.
func TestFreeVariables(t *testing.T) {
	e := newEnv(t, Config{Variables: []Var{{Name: "scope", Type: gocel.DynType}, {Name: "x", Type: gocel.DynType}}})
	for _, tc := range []struct {
		expr string
		want []string
	}{
		{`1 + 2`, []string{}},
		{`self.a`, []string{"self"}},
		{`has(self.a) && root.b == 1`, []string{"root", "self"}},
		{`scope.filter(v, v == "a")`, []string{"scope"}},
		{`cel.bind(r, self.a, r + 1)`, []string{"self"}},
		{`[1].map(self, self) + [self]`, []string{"self"}},
		{`x.all(k, v, k == v) || [x].exists(e, e == path)`, []string{"path", "x"}},
		{`{"a": scope, "b": [root]}`, []string{"root", "scope"}},
		{`type(x) == string && type(scope) != map`, []string{"scope", "x"}}, // type names are no variables
	} {
		p, err := e.Compile(tc.expr, Origin{})
		if err != nil {
			t.Fatalf("%s: %v", tc.expr, err)
		}
		if got := p.FreeVariables(); !reflect.DeepEqual(got, tc.want) {
			t.Errorf("%s: %v, want %v", tc.expr, got, tc.want)
		}
	}
}
