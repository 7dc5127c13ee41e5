package cel

import (
	"fmt"

	"github.com/celint/celint/internal/celcost"
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
// bytes' length (member names included), counting a value reachable along
// several paths once per path (the work a walk over it does). It stops
// counting past limit, so measuring costs at most limit steps, and then
// returns limit+1: where the walk stopped depends on the order it met a
// map's members in (a Go map's order, which changes from run to run), and
// the weight does not. A program that converts or prints what an
// expression returned (ToNative) bounds the work with it: a value built by
// sharing ([a, a] nested forty levels) costs a few units to build and has
// a weight past any limit.
func Weight(v ref.Val, limit uint64) uint64 { return celcost.Weight(v, limit) }

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
		c += celcost.Weight(a, limit-min(c, limit))
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

// scanCost charges a call that reads its string arguments through: one
// unit, plus a tenth of each string's or bytes' length.
func scanCost(args []ref.Val, _ uint64) uint64 {
	c := uint64(1)
	for _, a := range args {
		switch t := a.(type) {
		case types.String:
			c += uint64(len(t)) / 10
		case types.Bytes:
			c += uint64(len(t)) / 10
		}
	}
	return c
}

// builtinCosts are the calls of the standard and extension functions
// measured before they run, by function name, with what each costs; the
// library's functions have their cost rules in their records (see
// libFunction.cost), which the guard reads by name as well. Equality,
// membership and the conversions walk their operands; the list and string
// functions build results as large as the walk, or read their strings
// through.
var builtinCosts = map[string]callCost{
	"_==_": celcost.Equality,
	"_!=_": celcost.Equality,
	"@in": func(args []ref.Val, limit uint64) uint64 {
		n := listSize(args[1])
		if n == 0 {
			return 1
		}
		return n * max(1, celcost.Weight(args[0], limit/n+1))
	},
	"join":    sumOfWeights,
	"format":  sumOfWeights,
	"flatten": sumOfWeights,
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
	"matches": func(args []ref.Val, _ uint64) uint64 {
		if len(args) < 2 {
			return 1
		}
		s, _ := args[0].(types.String)
		re, _ := args[1].(types.String)
		return (1 + uint64(len(s))/10) * (1 + uint64(len(re))/4)
	},
	"contains":        scanCost,
	"startsWith":      scanCost,
	"endsWith":        scanCost,
	"lastIndexOf":     scanCost,
	"lowerAscii":      scanCost,
	"upperAscii":      scanCost,
	"split":           scanCost,
	"substring":       scanCost,
	"trim":            scanCost,
	"charAt":          scanCost,
	"reverse":         func(args []ref.Val, limit uint64) uint64 { return scanCost(args, limit) + listSize(args[0]) },
	"base64.encode":   scanCost,
	"base64.decode":   scanCost,
	"sets.contains":   setCost,
	"sets.equivalent": setCost,
	"sets.intersects": setCost,
}

// indexOfCost charges the library's indexOf(list, value), the walk of its
// arguments, and the strings extension's member string.indexOf(string),
// which the guard knows by the same name: a scan of its strings.
func indexOfCost(args []ref.Val, limit uint64) uint64 {
	return scanCost(args, limit) + sumOfWeights(args, limit)
}

// uriTemplateMatchCost charges uriTemplateMatches(template, uri): matching
// may try each split of the URI at each point of the template.
func uriTemplateMatchCost(args []ref.Val, _ uint64) uint64 {
	if len(args) < 2 {
		return 1
	}
	t, _ := args[0].(types.String)
	u, _ := args[1].(types.String)
	return 1 + uint64(len(t)+1)*uint64(len(u)+1)/100
}

// measureOf returns what a call of fn costs, measured before it runs: the
// cost rule of the library function of that name, else builtinCosts'; ok
// is false for a call charged after it returns.
func (g *guard) measureOf(fn string) (callCost, bool) {
	if f := libraryFunction(fn); f != nil {
		return f.costFor(g.lib)
	}
	cost, ok := builtinCosts[fn]
	return cost, ok
}

func setCost(args []ref.Val, limit uint64) uint64 {
	return listSize(args[0])*listSize(args[1]) + sumOfWeights(args, limit)
}

// guard is the decorator that meters a program: every attribute read,
// constructed list or map and call costs a unit (a call also the length of
// the list, map or string it returns), and the guarded calls cost what
// they measure, before they run. impls are the environment's function
// bindings by overload id and by function name: what cel-go's dispatcher
// holds, which the native evaluator calls directly.
type guard struct {
	limit uint64
	impls map[string]*functions.Overload
	lib   *library // the library of the cost rules measured by it (costRule.byLibrary)
}

func newGuard(env *gocel.Env, lib *library, limit uint64) (*guard, error) {
	g := &guard{limit: limit, impls: map[string]*functions.Overload{}, lib: lib}
	for _, fn := range env.Functions() {
		bindings, err := fastBindings(fn)
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
	switch n := i.(type) {
	case interpreter.InterpretableConst:
		return i, nil
	case interpreter.InterpretableAttribute:
		return &meteredAttr{InterpretableAttribute: n}, nil
	case interpreter.InterpretableConstructor:
		if constant(n.InitVals()) {
			// A literal of constants is one constant, built once (what
			// cel-go's OptOptimize would do, had it seen the literal).
			return interpreter.NewConstValue(n.ID(), n.Eval(interpreter.EmptyActivation())), nil
		}
		return &meteredConstructor{InterpretableConstructor: n, cost: 1 + uint64(len(n.InitVals()))}, nil
	case interpreter.InterpretableCall:
		if gc := g.guarded(n); gc != nil {
			return gc, nil
		}
		return &meteredCall{InterpretableCall: n, args: n.Args()}, nil
	}
	return i, nil
}

// guarded returns the guarded form of a call, or nil when it is not
// measured before it runs (see measureOf), or is dispatched by its
// receiver's type, and so is left as planned.
func (g *guard) guarded(call interpreter.InterpretableCall) interpreter.InterpretableV2 {
	args := call.Args()
	switch call.Function() {
	case "_==_", "_!=_":
		gc := &guardedCall{InterpretableCall: call, args: args, cost: celcost.Equality, limit: g.limit}
		return &guardedEquality{guardedCall: gc, negate: call.Function() == "_!=_"}
	}
	var pattern ref.Val
	if len(args) == 2 {
		if c, ok := args[1].(interpreter.InterpretableConst); ok {
			pattern = c.Value()
		}
	}
	cost, exec, ok := g.plan(call.Function(), call.OverloadID(), len(args), pattern)
	if !ok {
		return nil
	}
	return &guardedCall{InterpretableCall: call, args: args, cost: cost, limit: g.limit, exec: exec}
}

// plan returns what a guarded call of fn with nargs arguments costs and
// what runs it; ok is false when the call is not guarded (not measured
// before it runs, see measureOf; == and != aside), or is dispatched by its
// receiver's type. pattern is the second argument when it is a constant (matches
// compiles a constant pattern once), nil otherwise. The planner and the
// native evaluator share it, so that both charge the same.
func (g *guard) plan(fn, overload string, nargs int, pattern ref.Val) (callCost, func([]ref.Val) ref.Val, bool) {
	cost, ok := g.measureOf(fn)
	if !ok {
		return nil, nil, false
	}
	if fn == "matches" {
		if nargs != 2 {
			return nil, nil, false
		}
		return cost, matcher(pattern), true
	}
	o := g.impls[overload]
	if o == nil {
		o = g.impls[fn]
	}
	if o == nil || o.NonStrict || o.OperandTrait != 0 {
		return nil, nil, false
	}
	switch {
	case nargs == 1 && o.Unary != nil:
		return cost, func(a []ref.Val) ref.Val { return o.Unary(a[0]) }, true
	case nargs == 2 && o.Binary != nil:
		return cost, func(a []ref.Val) ref.Val { return o.Binary(a[0], a[1]) }, true
	case o.Function != nil:
		return cost, func(a []ref.Val) ref.Val { return o.Function(a...) }, true
	}
	return nil, nil, false
}

// constant reports whether every value is a constant.
func constant(vals []interpreter.InterpretableV2) bool {
	for _, v := range vals {
		if _, ok := v.(interpreter.InterpretableConst); !ok {
			return false
		}
	}
	return true
}

// matcher runs matches(string, pattern): RE2, as cel-go's own; a constant
// pattern (a string; nil when it is not constant) is compiled once, when
// the program is planned.
func matcher(pattern ref.Val) func([]ref.Val) ref.Val {
	if p, ok := pattern.(types.String); ok {
		re, err := compileRegexp(string(p))
		return func(a []ref.Val) ref.Val {
			s, ok := a[0].(types.String)
			switch {
			case !ok:
				return types.MaybeNoSuchOverloadErr(a[0])
			case err != nil:
				return types.WrapErr(err)
			}
			return types.Bool(re.MatchString(string(s)))
		}
	}
	return func(a []ref.Val) ref.Val {
		s, ok := a[0].(types.String)
		if !ok {
			return types.MaybeNoSuchOverloadErr(a[0])
		}
		return s.Match(a[1])
	}
}

// guardedCall evaluates its arguments, measures them, charges the measure
// and only then runs the call.
type guardedCall struct {
	interpreter.InterpretableCall
	args  []interpreter.InterpretableV2
	cost  callCost
	limit uint64
	exec  func([]ref.Val) ref.Val
}

// Args implements interpreter.InterpretableCall without allocating.
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
	c := g.cost(vals, g.limit)
	if c > g.limit {
		panic(g.refusal())
	}
	meterOf(f).add(c)
	return g.exec(vals)
}

// Eval implements interpreter.Interpretable.
func (g *guardedCall) Eval(act interpreter.Activation) ref.Val {
	return g.Exec(interpreter.AsFrame(act))
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
	c := uint64(1)
	if !celcost.Scalar(l) && !celcost.Scalar(r) {
		if c = celcost.Equality([]ref.Val{l, r}, g.limit); c > g.limit {
			panic(g.refusal())
		}
	}
	meterOf(f).add(c)
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

// meteredCall is any other call: a unit, plus its result's length.
type meteredCall struct {
	interpreter.InterpretableCall
	args []interpreter.InterpretableV2
}

// Args implements interpreter.InterpretableCall without allocating.
func (c *meteredCall) Args() []interpreter.InterpretableV2 { return c.args }

// Exec implements interpreter.InterpretableV2.
func (c *meteredCall) Exec(f *interpreter.ExecutionFrame) ref.Val {
	v := c.InterpretableCall.Exec(f)
	meterOf(f).add(1 + celcost.Shallow(v))
	return v
}

// Eval implements interpreter.Interpretable.
func (c *meteredCall) Eval(act interpreter.Activation) ref.Val {
	return c.Exec(interpreter.AsFrame(act))
}

// meteredAttr is a variable read with its field and index selections: a
// unit each time. It is an attribute by proxy, so that planning can still
// add qualifiers to it.
type meteredAttr struct {
	interpreter.InterpretableAttribute
}

// Exec implements interpreter.InterpretableV2.
func (a *meteredAttr) Exec(f *interpreter.ExecutionFrame) ref.Val {
	meterOf(f).add(1)
	return a.InterpretableAttribute.Exec(f)
}

// Eval implements interpreter.Interpretable.
func (a *meteredAttr) Eval(act interpreter.Activation) ref.Val {
	return a.Exec(interpreter.AsFrame(act))
}

// meteredConstructor is a list, map or message literal: a unit, plus one
// per element.
type meteredConstructor struct {
	interpreter.InterpretableConstructor
	cost uint64
}

// Exec implements interpreter.InterpretableV2.
func (c *meteredConstructor) Exec(f *interpreter.ExecutionFrame) ref.Val {
	meterOf(f).add(c.cost)
	return c.InterpretableConstructor.Exec(f)
}

// Eval implements interpreter.Interpretable.
func (c *meteredConstructor) Eval(act interpreter.Activation) ref.Val {
	return c.Exec(interpreter.AsFrame(act))
}
