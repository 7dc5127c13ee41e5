package cel

import (
	"context"
	"strings"
	"testing"
)

// TestEqualityCostDeterministic: the cost of == between maps is the same
// on every evaluation, in the native evaluator and in cel-go, although
// the weight walk, stopped at the smaller operand's weight, visits a Go
// map's members in an order of their own.
func TestEqualityCostDeterministic(t *testing.T) {
	long := strings.Repeat("x", 100)
	small := map[string]any{"a": int64(1)}
	big := map[string]any{"k": int64(1), long: int64(1), "c": int64(1), "d": long, "e": []any{int64(1), int64(2)}}
	for _, expr := range []string{
		`self.small == self.big`, `self.big == self.small`, `self.small != self.big`,
		`{'a': self.n} == self.big`, `self.big == {'a': self.n, 'b': self.n}`,
		`{'k': self.n, self.long: self.n, 'c': self.n} == {'a': self.n}`,
		`[self.small] == [self.big]`,
	} {
		for _, native := range []bool{true, false} {
			e := newEnv(t, Config{})
			p, err := e.Compile(expr, Origin{})
			if err != nil {
				t.Fatalf("%s: %v", expr, err)
			}
			if !native {
				p.nat = nil
			}
			var first uint64
			for i := 0; i < 200; i++ {
				_, cost, err := p.Eval(context.Background(), map[string]any{"self": map[string]any{
					"small": small, "big": big, "long": long, "n": int64(1)}, "root": nil, "path": ""})
				if err != nil {
					t.Fatalf("%s: %v", expr, err)
				}
				if i == 0 {
					first = cost
				} else if cost != first {
					t.Fatalf("%s (native %v): cost %d on evaluation %d, %d on the first", expr, native, cost, i+1, first)
				}
			}
		}
	}
}
