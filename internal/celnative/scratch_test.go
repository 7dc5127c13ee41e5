package celnative

import (
	"fmt"
	"testing"

	gocel "github.com/google/cel-go/cel"
	"github.com/google/cel-go/common/functions"
	"github.com/google/cel-go/common/types"
	"github.com/google/cel-go/common/types/ref"
	"github.com/google/cel-go/interpreter"
)

// compile checks expr in a cel-go environment declaring x and y, and
// returns its native plan, with the environment's bindings and no guarded
// call.
func compile(t *testing.T, expr string) *Program {
	t.Helper()
	env, err := gocel.NewEnv(gocel.Variable("x", gocel.DynType), gocel.Variable("y", gocel.DynType))
	if err != nil {
		t.Fatal(err)
	}
	ast, iss := env.Compile(expr)
	if iss.Err() != nil {
		t.Fatal(iss.Err())
	}
	impls := map[string]*functions.Overload{}
	for _, fn := range env.Functions() {
		bindings, err := fn.Bindings()
		if err != nil {
			t.Fatal(err)
		}
		for _, o := range bindings {
			impls[o.Operator] = o
		}
	}
	p := Compile(ast.NativeRep(), Env{
		Adapter:  env.CELTypeAdapter(),
		Provider: env.CELTypeProvider(),
		Overload: func(id string) *functions.Overload { return impls[id] },
		Guarded: func(string, string, int, ref.Val) (func([]ref.Val, uint64) uint64, func([]ref.Val) ref.Val, bool) {
			return nil, nil, false
		},
	})
	if p == nil {
		t.Fatalf("%s has no native plan", expr)
	}
	return p
}

// vars is an activation of fixed values.
type vars map[string]any

func (v vars) ResolveName(name string) (any, bool) { x, ok := v[name]; return x, ok }
func (v vars) Parent() interpreter.Activation      { return nil }

// nested computes x, while an evaluation runs, by running inner with the
// same Scratch.
type nested struct {
	inner   *Program
	scratch *Scratch
	t       *testing.T
}

func (a *nested) ResolveName(name string) (any, bool) {
	switch name {
	case "x":
		v, _, ok := a.scratch.Run(a.inner, a, 1000)
		if !ok {
			a.t.Error("the inner evaluation gave up")
		}
		return v, true
	case "y":
		return types.Int(21), true
	}
	return nil, false
}

func (a *nested) Parent() interpreter.Activation { return nil }

// TestScratchNested runs, with one Scratch, a plan whose variable is
// computed by another run with the same Scratch while the first runs:
// each gets a state of its own, and the Scratch is back at depth 0 after.
func TestScratchNested(t *testing.T) {
	outer := compile(t, `[1, 2, 3].map(i, i + x).filter(v, v > 43)`)
	inner := compile(t, `[y, y].map(v, v)[0] + y`)
	var s Scratch
	act := &nested{inner: inner, scratch: &s, t: t}
	for range 3 {
		v, _, ok := s.Run(outer, act, 1000)
		if !ok {
			t.Fatal("the outer evaluation gave up")
		}
		if got := fmt.Sprint(v); got != "[44, 45]" {
			t.Fatalf("got %s, want [44, 45]", got)
		}
	}
	if len(s.states) != 2 || s.depth != 0 {
		t.Errorf("the scratch keeps %d states at depth %d, want 2 (one per nesting level) at 0", len(s.states), s.depth)
	}
}

// Evaluations leave their values in the Scratch's buffers, overwriting
// them as they go; Release drops them, so that a Scratch in a pool keeps
// nothing alive.
func TestScratchRelease(t *testing.T) {
	p := compile(t, `[1, 2, 3].map(i, [i + x, "s"]).filter(v, v[0] > 2).size() + size(string(x))`)
	var s Scratch
	act := vars{"x": types.Int(1)}
	if v, _, ok := s.Run(p, act, 1000); !ok || v != types.Int(3) {
		t.Fatalf("got %v, %v; want 3", v, ok)
	}
	held := func() int {
		n := 0
		for _, st := range s.states {
			for _, v := range st.slots[:cap(st.slots)] {
				if v != nil {
					n++
				}
			}
			for _, v := range st.stack[:cap(st.stack)] {
				if v != nil {
					n++
				}
			}
		}
		return n
	}
	if held() == 0 {
		t.Fatal("the evaluation left nothing in the buffers: the test tests nothing")
	}
	s.Release()
	if n := held(); n != 0 {
		t.Errorf("%d values still held after Release", n)
	}
	if v, _, ok := s.Run(p, act, 1000); !ok || v != types.Int(3) {
		t.Errorf("after Release: %v, %v; want 3", v, ok)
	}
}

// TestScratchDue: Due is true at every CheckEvery-th evaluation.
func TestScratchDue(t *testing.T) {
	var s Scratch
	for i := 1; i <= 3*CheckEvery; i++ {
		if got, want := s.Due(), i%CheckEvery == 0; got != want {
			t.Fatalf("evaluation %d: Due = %v, want %v", i, got, want)
		}
	}
}
