package celnative

import (
	"github.com/google/cel-go/common/functions"
	"github.com/google/cel-go/common/types"
	"github.com/google/cel-go/common/types/ref"
)

// Env is what the evaluator knows of the CEL environment an expression
// was checked in: package cel builds it from the environment and its
// guard, so that both evaluators call the same implementations and charge
// the same measures.
type Env struct {
	Adapter  types.Adapter
	Provider types.Provider
	// Overload returns the implementation bound to an overload id, or to
	// a function name; nil when there is none.
	Overload func(id string) *functions.Overload
	// Guarded returns, for a call of fn (resolved to overload, "" when
	// the checker left several) with nargs arguments, the measure the
	// guard charges before the call runs and what runs it; ok is false
	// for a call charged after it returns (a unit, plus the length of its
	// result). pattern is the second argument when it is a constant, nil
	// otherwise.
	Guarded func(fn, overload string, nargs int, pattern ref.Val) (cost func(args []ref.Val, limit uint64) uint64, call func(args []ref.Val) ref.Val, ok bool)
	// UnwrapsOptional reports whether an overload treats an optional
	// first argument as its value (or as null when it has none), so that
	// the value found by an optional selection may be passed as it is;
	// nil: none does.
	UnwrapsOptional func(overload string) bool
}
