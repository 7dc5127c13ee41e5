package cel

import (
	"fmt"

	gocel "github.com/google/cel-go/cel"
	"github.com/google/cel-go/common/functions"
	"github.com/google/cel-go/common/types"
	"github.com/google/cel-go/common/types/ref"
	"github.com/google/cel-go/common/types/traits"
	"github.com/google/cel-go/interpreter"
)

// Calls whose work grows with the size of their arguments are charged
// before they run, not after they return.
//
// cel-go's cost tracker charges a call once it has returned. That is sound
// for calls whose work is proportional to what was already paid for, but
// not for the others: a list built by sharing ([a, a] nested forty levels,
// or a + a doubled) costs a few units, yet comparing it, joining it,
// converting it or sorting it walks every element of its expanded tree.
// Such a call would run for hours, or exhaust memory, before its cost could
// be counted. A guarded call first measures its arguments, in the same
// units as the cost limit, and when the call alone would exceed the
// per-evaluation limit, the evaluation stops there with a cost-limit error:
// the same outcome as running it and charging it, without the run.
//
// The measure is Weight: deterministic, whatever the machine or its load.

// Weight is the size of a CEL value in cost units, as the guarded calls
// measure their arguments: one per value, plus a tenth of each string's or
// bytes' length, counting a value reachable along several paths once per
// path (the work a walk over it does). It stops counting past limit, so
// measuring costs at most limit steps.
func Weight(v ref.Val, limit uint64) uint64 {
	w := weigher{limit: limit}
	w.walk(v)
	return w.n
}

type weigher struct {
	n, limit uint64
}

func (w *weigher) walk(v ref.Val) {
	if w.n > w.limit {
		return
	}
	w.n++
	switch t := v.(type) {
	case types.String:
		w.n += uint64(len(t)) / 10
	case types.Bytes:
		w.n += uint64(len(t)) / 10
	case traits.Mapper:
		for it := t.Iterator(); it.HasNext() == types.True && w.n <= w.limit; {
			k := it.Next()
			w.walk(k)
			w.walk(t.Get(k))
		}
	case traits.Lister:
		for it := t.Iterator(); it.HasNext() == types.True && w.n <= w.limit; {
			w.walk(it.Next())
		}
	}
}

// listSize is the number of elements of a list; 0 for any other value.
func listSize(v ref.Val) uint64 {
	if l, ok := v.(traits.Lister); ok {
		if n, ok := l.Size().(types.Int); ok && n > 0 {
			return uint64(n)
		}
	}
	return 0
}

// callCost is the cost a guarded call would have, measured on its
// arguments (the receiver first), each measure stopping past limit.
type callCost func(args []ref.Val, limit uint64) uint64

// sumOfWeights charges the walk of every argument.
func sumOfWeights(args []ref.Val, limit uint64) uint64 {
	var c uint64
	for _, a := range args {
		if c > limit {
			break
		}
		c += Weight(a, limit-min(c, limit))
	}
	return c
}

// selfCompare charges a worst-case comparison of every element with every
// other, as cel-go's own trackers charge sort and distinct afterwards.
func selfCompare(args []ref.Val, _ uint64) uint64 {
	n := listSize(args[0])
	if n > 1<<31 {
		return 1 << 63
	}
	return 2 * n * n
}

// guardedFunctions are the calls measured before they run, by function
// name, with what each would cost. Equality, membership and the
// conversions walk their operands; the list and string functions build
// results as large as the walk.
var guardedFunctions = map[string]callCost{
	"_==_": equalityCost,
	"_!=_": equalityCost,
	"@in": func(args []ref.Val, limit uint64) uint64 {
		n := listSize(args[1])
		if n == 0 {
			return 1
		}
		return n * max(1, Weight(args[0], limit/n+1))
	},
	"join":    sumOfWeights,
	"format":  sumOfWeights,
	"flatten": sumOfWeights,
	"quote":   sumOfWeights,
	"distinct": func(args []ref.Val, limit uint64) uint64 {
		return max(selfCompare(args, limit), sumOfWeights(args, limit))
	},
	"sort":   selfCompare,
	"sortBy": selfCompare,
	"replace": func(args []ref.Val, _ uint64) uint64 {
		if len(args) < 3 {
			return 1
		}
		s, _ := args[0].(types.String)
		r, _ := args[2].(types.String)
		return 1 + uint64(len(s))*(uint64(len(r))+1)/10
	},
	"lists.range": func(args []ref.Val, _ uint64) uint64 {
		if n, ok := args[0].(types.Int); ok && n > 0 {
			return uint64(n)
		}
		return 1
	},
	"sets.contains":      setCost,
	"sets.equivalent":    setCost,
	"sets.intersects":    setCost,
	"duplicates":         sumOfWeights,
	"duplicateIndexes":   sumOfWeights,
	"descendants":        sumOfWeights,
	"indexOf":            sumOfWeights,
	"indexesBy":          sumOfWeights,
	"resolveAll":         sumOfWeights,
	"schemaErrors":       sumOfWeights,
	"matchesSchema":      sumOfWeights,
	"schemaError":        sumOfWeights,
	"schemaExternalRefs": sumOfWeights,
}

// equalityCost is the walk of the smaller operand, where a comparison of
// two trees stops at the latest.
func equalityCost(args []ref.Val, limit uint64) uint64 {
	a := Weight(args[0], limit)
	return Weight(args[1], a)
}

func setCost(args []ref.Val, limit uint64) uint64 {
	return listSize(args[0])*listSize(args[1]) + sumOfWeights(args, limit)
}

// guard is the decorator that puts the guarded calls of a program behind
// their measure. impls are the environment's function bindings by
// overload id and by function name.
type guard struct {
	limit uint64
	impls map[string]*functions.Overload
}

func newGuard(env *gocel.Env, limit uint64) (*guard, error) {
	g := &guard{limit: limit, impls: map[string]*functions.Overload{}}
	for name, fn := range env.Functions() {
		if _, ok := guardedFunctions[name]; !ok {
			continue
		}
		bindings, err := fn.Bindings()
		if err != nil {
			return nil, err
		}
		for _, o := range bindings {
			g.impls[o.Operator] = o
		}
	}
	return g, nil
}

// decorate implements interpreter.InterpretableDecoratorV2.
func (g *guard) decorate(i interpreter.InterpretableV2) (interpreter.InterpretableV2, error) {
	call, ok := i.(interpreter.InterpretableCall)
	if !ok {
		return i, nil
	}
	cost, ok := guardedFunctions[call.Function()]
	if !ok {
		return i, nil
	}
	gc := &guardedCall{InterpretableCall: call, args: call.Args(), cost: cost, limit: g.limit}
	switch call.Function() {
	case "_==_", "_!=_":
		return &guardedEquality{guardedCall: gc, negate: call.Function() == "_!=_"}, nil
	default:
		o := g.impls[call.OverloadID()]
		if o == nil {
			o = g.impls[call.Function()]
		}
		if o == nil || o.NonStrict || o.OperandTrait != 0 {
			return i, nil // dispatched by the receiver's trait: left as planned
		}
		switch n := len(gc.args); {
		case n == 1 && o.Unary != nil:
			gc.exec = func(a []ref.Val) ref.Val { return o.Unary(a[0]) }
		case n == 2 && o.Binary != nil:
			gc.exec = func(a []ref.Val) ref.Val { return o.Binary(a[0], a[1]) }
		case o.Function != nil:
			gc.exec = func(a []ref.Val) ref.Val { return o.Function(a...) }
		default:
			return i, nil
		}
	}
	return gc, nil
}

// guardedCall evaluates its arguments, measures them, and only then runs
// the call. It is an InterpretableCall, so that cost tracking still charges
// it afterwards as cel-go would.
type guardedCall struct {
	interpreter.InterpretableCall
	args  []interpreter.InterpretableV2
	cost  callCost
	limit uint64
	exec  func([]ref.Val) ref.Val
}

// Args implements interpreter.InterpretableCall without allocating (the
// cost tracker asks for them on every evaluation of the call).
func (g *guardedCall) Args() []interpreter.InterpretableV2 { return g.args }

// Exec implements interpreter.InterpretableV2.
func (g *guardedCall) Exec(f *interpreter.ExecutionFrame) ref.Val {
	vals := make([]ref.Val, 0, len(g.args))
	for _, a := range g.args {
		v := a.Exec(f)
		if types.IsUnknownOrError(v) {
			return v
		}
		vals = append(vals, v)
	}
	if c := g.cost(vals, g.limit); c > g.limit {
		panic(g.refusal())
	}
	return g.exec(vals)
}

func (g *guardedCall) refusal() interpreter.EvalCancelledError {
	return interpreter.EvalCancelledError{Cause: interpreter.CostLimitExceeded,
		Message: fmt.Sprintf("operation cancelled: %s would cost more than the limit of %d", g.Function(), g.limit)}
}

// guardedEquality is a guarded == or !=: the commonest guarded call, with
// a path for scalar operands that measures nothing.
type guardedEquality struct {
	*guardedCall
	negate bool
}

// Exec implements interpreter.InterpretableV2.
func (g *guardedEquality) Exec(f *interpreter.ExecutionFrame) ref.Val {
	l := g.args[0].Exec(f)
	if types.IsUnknownOrError(l) {
		return l
	}
	r := g.args[1].Exec(f)
	if types.IsUnknownOrError(r) {
		return r
	}
	if !scalar(l) && !scalar(r) && equalityCost([]ref.Val{l, r}, g.limit) > g.limit {
		panic(g.refusal())
	}
	eq := types.Equal(l, r)
	if g.negate {
		return types.Bool(eq != types.True)
	}
	return eq
}

// Eval implements interpreter.Interpretable.
func (g *guardedEquality) Eval(act interpreter.Activation) ref.Val {
	return g.Exec(interpreter.AsFrame(act))
}

// scalar reports whether comparing v walks nothing: it is not a list, a
// map or a long string.
func scalar(v ref.Val) bool {
	switch t := v.(type) {
	case types.String:
		return len(t) < 1024
	case traits.Lister, traits.Mapper:
		return false
	}
	return true
}

// Eval implements interpreter.Interpretable.
func (g *guardedCall) Eval(act interpreter.Activation) ref.Val {
	return g.Exec(interpreter.AsFrame(act))
}
