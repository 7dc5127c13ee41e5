package cel

import (
	"github.com/celint/celint/internal/celnative"
	"github.com/google/cel-go/common/types/ref"
	"github.com/google/cel-go/interpreter"
)

// A meter counts the cost of one evaluation against its limit. Every
// program is decorated (see guard) to charge its meter, which it finds in
// its activation under meterName: a name no CEL expression can write, so
// no variable can hide or replace it. Counting this way costs a variable
// lookup per charge, where cel-go's own cost tracker kept a stack of every
// value and allocated for each call; and it charges the measured calls
// before they run.
type meter struct {
	n, limit uint64
}

// meterName is the activation name of an evaluation's meter.
const meterName = "@celint.meter"

// add charges c, ending the evaluation with cel-go's cost-limit
// cancellation once the total passes the limit.
func (m *meter) add(c uint64) {
	if m == nil {
		return
	}
	if c > m.limit || m.n > m.limit-c {
		m.n = m.limit + 1
		panic(interpreter.EvalCancelledError{Cause: interpreter.CostLimitExceeded, Message: "operation cancelled: actual cost limit exceeded"})
	}
	m.n += c
}

// meterOf finds the meter of the evaluation f belongs to; nil outside
// Program.Eval (a program is always evaluated through it).
func meterOf(f *interpreter.ExecutionFrame) *meter {
	if a, ok := f.Activation.(*meteredActivation); ok {
		return &a.m // outside comprehensions: no lookup
	}
	v, _ := f.ResolveName(meterName)
	m, _ := v.(*meter)
	return m
}

// meteredActivation puts a meter in front of the caller's activation.
type meteredActivation struct {
	m     meter
	inner interpreter.Activation
	ns    celnative.State // the native evaluation's state, its buffers reused
}

// ResolveName implements interpreter.Activation.
func (a *meteredActivation) ResolveName(name string) (any, bool) {
	if name == meterName {
		return &a.m, true
	}
	return a.inner.ResolveName(name)
}

// Parent implements interpreter.Activation.
func (a *meteredActivation) Parent() interpreter.Activation { return nil }

// mapActivation resolves names from a map, calling a lazily supplied value
// (func() any or func() ref.Val) at most once per evaluation and never
// writing to the map.
type mapActivation struct {
	vars map[string]any
	memo map[string]any
}

// ResolveName implements interpreter.Activation.
func (a *mapActivation) ResolveName(name string) (any, bool) {
	v, ok := a.vars[name]
	if !ok {
		return nil, false
	}
	switch fn := v.(type) {
	case func() any:
		return a.lazy(name, func() any { return fn() }), true
	case func() ref.Val:
		return a.lazy(name, func() any { return fn() }), true
	}
	return v, true
}

func (a *mapActivation) lazy(name string, get func() any) any {
	if v, ok := a.memo[name]; ok {
		return v
	}
	if a.memo == nil {
		a.memo = map[string]any{}
	}
	v := get()
	a.memo[name] = v
	return v
}

// Parent implements interpreter.Activation.
func (a *mapActivation) Parent() interpreter.Activation { return nil }
