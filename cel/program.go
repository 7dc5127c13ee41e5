package cel

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/celint/celint/internal/celnative"
	"github.com/celint/celint/internal/librarypaths"
	gocel "github.com/google/cel-go/cel"
	celast "github.com/google/cel-go/common/ast"
	"github.com/google/cel-go/common/functions"
	"github.com/google/cel-go/common/types"
	"github.com/google/cel-go/common/types/ref"
	"github.com/google/cel-go/interpreter"
)

var (
	// ErrCostLimit is wrapped by the error Eval returns when an evaluation
	// exceeds its cost limit.
	ErrCostLimit = errors.New("CEL cost limit exceeded")
	// ErrPanic is wrapped by the error Eval returns when something panicked
	// during an evaluation (for example a Go function bound into the
	// environment). The process keeps running.
	ErrPanic = errors.New("panic during CEL evaluation")
)

// costLimitError reports the limit that was exceeded and matches
// ErrCostLimit under errors.Is.
type costLimitError struct{ limit uint64 }

func (e *costLimitError) Error() string {
	return fmt.Sprintf("CEL cost limit of %d exceeded", e.limit)
}

func (e *costLimitError) Is(target error) bool { return target == ErrCostLimit }

// Program is a compiled, type-checked expression. It is safe for concurrent
// use.
type Program struct {
	// cel-go's program, made on first use (interpreted): the native
	// evaluator runs most evaluations without it, and making it was a
	// fifth of what compiling the embedded rules costs.
	interp *interpreted
	out    *gocel.Type
	limit  uint64
	// loops reports whether the expression has a comprehension: only those,
	// under a limit above DefaultCostLimit, can run long enough to need the
	// context checked while they run.
	loops bool
	free  []string // the variables the expression reads, sorted
	// nat holds the expression's plan for the native evaluator
	// (internal/celnative), made on the first evaluation; nil: none.
	nat *nativeSlot
	// verify, when not nil, is called with a description of every
	// evaluation whose native and cel-go results differ (Config.VerifyNative).
	verify func(string)
	text   string // the expression, for verify's reports
	// direct: evalIn may run the native plan at once (no verify, and no
	// need to watch the context while it runs).
	direct bool
}

// Plan makes cel-go's program for the expression, which evaluations make
// when they first need it, and returns the error making it gave.
func (p *Program) Plan() error {
	_, err := p.interp.program()
	return err
}

// FreeVariables returns the names of the variables the expression reads
// (not those its comprehensions bind), sorted: a value computed from only
// some variables can be reused wherever those have the same values.
func (p *Program) FreeVariables() []string { return p.free }

// OutputType is the type the checker inferred for the expression (dyn when
// it depends on document values).
func (p *Program) OutputType() *gocel.Type { return p.out }

// Eval evaluates the program. activation is either a map[string]any from
// variable names to values, or a cel-go interpreter.Activation (alias
// gocel.Activation); nil means no variables.
//
// Values are JSON-compatible Go values (nil, bool, int64, float64, string,
// []any, map[string]any), any value cel-go's default adapter accepts, or
// ref.Val. In a map[string]any a value can be supplied lazily as a
// `func() any` or a `func() ref.Val` (exactly those types: a func returning
// anything else, such as func() map[string]any, is not recognised): it is
// called the first time the expression reads the variable, at most once per
// evaluation, and its result is remembered in a per-evaluation table, so the
// caller's map is never modified and may be shared between goroutines.
//
// Eval returns the result, the actual cost of the evaluation (at least the
// limit when the limit was exceeded) and an error:
// an error wrapping ErrCostLimit when the cost limit was exceeded, one
// wrapping ErrPanic when something panicked during evaluation, one wrapping
// the context's error when ctx was cancelled (checked before evaluation and
// every 100 iterations of a comprehension), and otherwise the CEL runtime
// error (for example "no such key").
func (p *Program) Eval(ctx context.Context, activation any) (out ref.Val, cost uint64, err error) {
	if in, ok := activation.(*celnative.Input); ok {
		// The engine's evaluations, which bring the state their native
		// evaluation reuses.
		return p.evalIn(ctx, in.Scratch, in.Activation)
	}
	return p.eval(ctx, activation)
}

// eval is Eval for an activation without a Scratch.
func (p *Program) eval(ctx context.Context, activation any) (out ref.Val, cost uint64, err error) {
	defer func() {
		if r := recover(); r != nil {
			out, err = nil, fmt.Errorf("%w: %v", ErrPanic, r)
		}
	}()
	if ctx == nil {
		ctx = context.Background()
	}
	if err := ctx.Err(); err != nil {
		return nil, 0, fmt.Errorf("CEL evaluation not started: %w", context.Cause(ctx))
	}
	// The activation is reused: nothing an evaluation returns keeps it.
	act := activations.Get().(*meteredActivation)
	act.m, act.inner = meter{limit: p.limit}, nil
	defer func() {
		act.m, act.inner = meter{}, nil
		activations.Put(act)
	}()
	m := &act.m
	switch a := activation.(type) {
	case nil:
		act.inner = interpreter.EmptyActivation()
	case interpreter.Activation:
		act.inner = a
	case map[string]any:
		act.inner = &mapActivation{vars: a}
	default:
		return nil, 0, fmt.Errorf("celint: an activation is a map[string]any or an interpreter.Activation, got %T", activation)
	}
	if !p.Interruptible() {
		if nat := p.nativePlan(); nat != nil {
			v, c, ok := nat.Run(&act.ns, act.inner, p.limit)
			if ok {
				if p.verify == nil {
					return v, c, nil
				}
				defer func() { p.compare(v, c, out, cost, err) }()
			}
		}
	}
	prg, err := p.interp.program()
	if err != nil {
		return nil, 0, err
	}
	var val ref.Val
	var evalErr error
	if p.Interruptible() {
		// Only a long evaluation needs to notice cancellation while it
		// runs (each check of the context costs an allocation per
		// evaluation); the others end within their cost limit.
		val, _, evalErr = prg.ContextEval(ctx, act)
	} else {
		val, _, evalErr = prg.Eval(act)
	}
	cost = min(m.n, p.limit+1)
	if evalErr == nil {
		return val, cost, nil
	}
	err = p.classify(ctx, p.overloadOperands(evalErr, act))
	if errors.Is(err, ErrCostLimit) {
		cost = p.limit + 1
	}
	return nil, cost, err
}

// Interruptible reports whether an evaluation of p notices, while it runs,
// that its context ended: one with comprehensions and a cost limit above
// the default. Others end within their cost limit, and check the context
// only before they start.
func (p *Program) Interruptible() bool { return p.loops && p.limit > DefaultCostLimit }

// activations holds the meteredActivations of evaluations that ended.
var activations = sync.Pool{New: func() any { return new(meteredActivation) }}

// evalIn is Eval for an activation given with the Scratch its native
// evaluation takes its state from (a celnative.Input): the same result,
// cost and errors.
func (p *Program) evalIn(ctx context.Context, s *celnative.Scratch, act interpreter.Activation) (ref.Val, uint64, error) {
	if !p.direct || s == nil || act == nil || ctx == nil {
		return p.eval(ctx, act)
	}
	if s.Due() && ctx.Err() != nil {
		return p.eval(ctx, act) // which reports the interruption
	}
	nat := p.nativePlan()
	if nat == nil {
		return p.eval(ctx, act)
	}
	if v, cost, ok := s.Run(nat, act, p.limit); ok {
		return v, cost, nil
	}
	// What the native plan gives up is cel-go's, as in Eval.
	return p.eval(ctx, act)
}

// classify turns cel-go's evaluation errors into celint's.
func (p *Program) classify(ctx context.Context, err error) error {
	var cancelled interpreter.EvalCancelledError
	if errors.As(err, &cancelled) {
		if cancelled.Cause == interpreter.CostLimitExceeded {
			return &costLimitError{limit: p.limit}
		}
		if ctx.Err() != nil {
			return fmt.Errorf("CEL evaluation interrupted: %w", context.Cause(ctx))
		}
		return err
	}
	if ctx.Err() != nil && errors.Is(err, interpreter.InterruptError{}) {
		return fmt.Errorf("CEL evaluation interrupted: %w", context.Cause(ctx))
	}
	var celErr *types.Err
	if !errors.As(err, &celErr) {
		// cel-go recovers panics raised during evaluation and reports them
		// as fmt.Errorf("internal error: %v", r).
		if msg, ok := strings.CutPrefix(err.Error(), "internal error: "); ok {
			return fmt.Errorf("%w: %s", ErrPanic, msg)
		}
	}
	return err
}

// compare reports to p.verify how a native evaluation's result and cost
// differ from cel-go's, if they do.
func (p *Program) compare(nv ref.Val, nc uint64, out ref.Val, cost uint64, err error) {
	var diff string
	switch {
	case err != nil:
		diff = fmt.Sprintf("native gave %v (cost %d), cel-go the error %v (cost %d)", nv, nc, err, cost)
	case nc != cost:
		diff = fmt.Sprintf("native cost %d, cel-go %d (value %v)", nc, cost, out)
	case !sameValue(nv, out):
		diff = fmt.Sprintf("native gave %v (%T), cel-go %v (%T)", nv, nv, out, out)
	default:
		return
	}
	p.verify(fmt.Sprintf("%s: %s", p.text, diff))
}

// sameValue reports whether two results are the same CEL value of the
// same type.
func sameValue(a, b ref.Val) bool {
	if a == nil || b == nil {
		return a == b
	}
	if a.Type() != b.Type() {
		return false
	}
	if types.Equal(a, b) == types.True {
		return true
	}
	return fmt.Sprint(a) == fmt.Sprint(b) // NaN
}

// nativeSlot is a program's native plan, made when first asked for: a
// rule file's programs are compiled when it loads, and most of them never
// run on a given document.
type nativeSlot struct {
	ready atomic.Pointer[celnative.Program] // prog, once made (when there is one)
	once  sync.Once
	ast   *celast.AST // until the plan is made
	env   *Env
	prog  *celnative.Program // nil when the expression has no native form
}

// nativePlan returns p's native plan, making it first if need be; nil when
// p has none.
func (p *Program) nativePlan() *celnative.Program {
	if librarypaths.On {
		return nil // cel-go evaluates everything
	}
	if s := p.nat; s != nil {
		if np := s.ready.Load(); np != nil {
			return np
		}
		return s.plan()
	}
	return nil
}

// plan makes the program's plan on the first call, and returns it.
func (s *nativeSlot) plan() *celnative.Program {
	s.once.Do(func() {
		if s.ast != nil {
			s.prog = celnative.Compile(s.ast, s.env.nativeEnv())
			s.ast, s.env = nil, nil
			s.ready.Store(s.prog)
		}
	})
	return s.prog
}

// nativeEnv is what the native evaluator knows of e: its functions' bindings
// and the guard's measures, which it charges as cel-go's program is charged.
func (e *Env) nativeEnv() celnative.Env {
	g := e.guard
	return celnative.Env{
		Adapter:  e.env.CELTypeAdapter(),
		Provider: e.env.CELTypeProvider(),
		Overload: func(id string) *functions.Overload { return g.impls[id] },
		Guarded: func(fn, overload string, nargs int, pattern ref.Val) (func([]ref.Val, uint64) uint64, func([]ref.Val) ref.Val, bool) {
			return g.plan(fn, overload, nargs, pattern)
		},
		UnwrapsOptional: unwrapsOptional,
	}
}
