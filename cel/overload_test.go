package cel

import (
	"context"
	"strings"
	"testing"
)

// TestNoSuchOverloadNamesOperands: an evaluation that calls a function
// with operands it has no overload for says which function and which
// operand types.
func TestNoSuchOverloadNamesOperands(t *testing.T) {
	env, err := NewEnv(Config{})
	if err != nil {
		t.Fatal(err)
	}
	act := map[string]any{"self": map[string]any{"a": "x", "b": int64(1), "l": []any{int64(1)}}}
	for _, tc := range []struct{ expr, want string }{
		{`self.a + self.b`, "no such overload: string + int"},
		{`self.b < self.a`, "no such overload: int < string"},
		{`size(self.b)`, "no such overload: size(int)"},
		{`-self.a`, "no such overload: -string"},
		{`self.a.startsWith(self.b)`, "no such overload: startsWith(string, int)"},
		{`self.l.all(x, x + "s" == "t")`, "no such overload: int + string"},
	} {
		p, err := env.Compile(tc.expr, Origin{})
		if err != nil {
			t.Fatalf("%s: %v", tc.expr, err)
		}
		for i := 0; i < 2; i++ { // the native evaluator, once planned, and cel-go
			_, _, err = p.Eval(context.Background(), act)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("%s: %v, want %q", tc.expr, err, tc.want)
			}
		}
	}
}
