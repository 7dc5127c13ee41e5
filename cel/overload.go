package cel

import (
	"errors"
	"fmt"
	"strings"

	gocel "github.com/google/cel-go/cel"
	"github.com/google/cel-go/common/ast"
	"github.com/google/cel-go/common/types"
	"github.com/google/cel-go/interpreter"
)

// overloadOperands says, for an evaluation that failed with cel-go's "no
// such overload", which function was called and what its operands were:
// "no such overload: string + int". It evaluates the expression again with
// cel-go's state tracking, on the same activation and under the same
// meter, to read the operands' values; it returns err unchanged when that
// cannot tell them.
func (p *Program) overloadOperands(err error, act interpreter.Activation) error {
	var celErr *types.Err
	if !errors.As(err, &celErr) || !strings.HasPrefix(celErr.Error(), "no such overload") || p.interp == nil {
		return err
	}
	prg, perr := p.interp.env.env.Program(p.interp.ast,
		gocel.EvalOptions(gocel.OptTrackState),
		gocel.CustomDecoratorV2(p.interp.env.guard.decorate))
	if perr != nil {
		return err
	}
	_, det, _ := prg.Eval(act)
	if det == nil || det.State() == nil {
		return err
	}
	state := det.State()
	// The call that failed: one whose value is the error while its
	// operands have values (the calls around it fail with it, but one of
	// their operands is an error).
	var call ast.CallExpr
	var names []string
	ast.PreOrderVisit(p.interp.ast.NativeRep().Expr(), ast.NewExprVisitor(func(e ast.Expr) {
		if e.Kind() != ast.CallKind || (call != nil && e.ID() != celErr.NodeID()) {
			return
		}
		v, ok := state.Value(e.ID())
		if ve, isErr := v.(*types.Err); !ok || !isErr || !strings.HasPrefix(ve.Error(), "no such overload") {
			return
		}
		c := e.AsCall()
		var operands []ast.Expr
		if c.IsMemberFunction() {
			operands = append(operands, c.Target())
		}
		operands = append(operands, c.Args()...)
		opTypes := make([]string, len(operands))
		for i, o := range operands {
			ov, ok := state.Value(o.ID())
			if !ok || ov == nil || ov.Type() == nil {
				return
			}
			if _, isErr := ov.(*types.Err); isErr {
				return
			}
			opTypes[i] = ov.Type().TypeName()
		}
		call, names = c, opTypes
	}))
	if call == nil {
		return err
	}
	fn := call.FunctionName()
	desc := fmt.Sprintf("%s(%s)", fn, strings.Join(names, ", "))
	if op, ok := operatorSymbol(fn); ok && len(names) == 2 {
		desc = names[0] + " " + op + " " + names[1]
	} else if ok && len(names) == 1 {
		desc = op + names[0]
	}
	return &overloadError{err: err, desc: desc}
}

// overloadError is "no such overload", with the call that has none.
type overloadError struct {
	err  error
	desc string
}

func (e *overloadError) Error() string { return "no such overload: " + e.desc }
func (e *overloadError) Unwrap() error { return e.err }

// operatorSymbol is the symbol of a CEL operator's function name ("_+_"
// is "+", "!_" is "!").
func operatorSymbol(fn string) (string, bool) {
	switch {
	case fn == "_[_]":
		return "[]", true
	case strings.HasPrefix(fn, "_") && strings.HasSuffix(fn, "_") && len(fn) > 2:
		return strings.Trim(fn, "_"), true
	case strings.HasSuffix(fn, "_") && len(fn) > 1:
		return strings.TrimSuffix(fn, "_"), true
	}
	return "", false
}
