package cel

import (
	"fmt"

	gocel "github.com/google/cel-go/cel"
	"github.com/google/cel-go/common/ast"
	"github.com/google/cel-go/common/types"
	"github.com/google/cel-go/common/types/ref"
)

// constArgCheck checks an argument written as a constant (a literal, or a
// list or map literal of constants) when an expression compiles: what
// would fail, or silently give false, on every document is a compile
// error at the argument instead, with the reason.
type constArgCheck struct {
	// arg is the argument's position in the call, a member call's target
	// first (as it is in a global call).
	arg int
	// check says what is wrong with v, the argument's value; "" when
	// nothing is. call holds the values of the call's arguments, nil for
	// each that is not a constant.
	check func(l *library, v ref.Val, call []ref.Val) string
}

// constantArguments is the compile-time check of constant arguments: the
// constArgs of the library's records, and the checks of the regular
// expressions of the standard and extension functions (regexChecks).
type constantArguments struct {
	lib *library
}

// Name implements cel-go's ASTValidator.
func (constantArguments) Name() string { return "celint.validator.constant-arguments" }

// Validate implements cel-go's ASTValidator.
func (c constantArguments) Validate(_ *gocel.Env, _ gocel.ValidatorConfig, a *ast.AST, iss *gocel.Issues) {
	for _, e := range ast.MatchDescendants(ast.NavigateAST(a), ast.KindMatcher(ast.CallKind)) {
		call := e.AsCall()
		checks := regexChecks[call.FunctionName()]
		if f := libraryFunction(call.FunctionName()); f != nil {
			checks = f.constArgs
		}
		if len(checks) == 0 {
			continue
		}
		args := call.Args()
		if call.IsMemberFunction() {
			args = append([]ast.Expr{call.Target()}, args...)
		}
		vals := make([]ref.Val, len(args))
		for i, arg := range args {
			vals[i] = constantValue(arg)
		}
		for _, ck := range checks {
			if ck.arg >= len(args) || vals[ck.arg] == nil {
				continue
			}
			if problem := runCheck(ck, c.lib, vals); problem != "" {
				iss.ReportErrorAtID(args[ck.arg].ID(), "%s", problem)
			}
		}
	}
}

// runCheck runs a check; one that panics (inside a third-party compiler)
// finds nothing, and the call meets the problem when it runs.
func runCheck(ck constArgCheck, l *library, vals []ref.Val) (problem string) {
	defer func() {
		if recover() != nil {
			problem = ""
		}
	}()
	return ck.check(l, vals[ck.arg], vals)
}

// constantValue is the value of an expression written as a constant: a
// literal, or a list or map literal whose elements, keys and values are
// constants. nil for any other expression.
func constantValue(e ast.Expr) ref.Val {
	switch e.Kind() {
	case ast.LiteralKind:
		return e.AsLiteral()
	case ast.ListKind:
		l := e.AsList()
		if len(l.OptionalIndices()) > 0 {
			return nil
		}
		vals := make([]ref.Val, len(l.Elements()))
		for i, x := range l.Elements() {
			if vals[i] = constantValue(x); vals[i] == nil {
				return nil
			}
		}
		return types.NewRefValList(types.DefaultTypeAdapter, vals)
	case ast.MapKind:
		m := e.AsMap()
		vals := make(map[ref.Val]ref.Val, len(m.Entries()))
		for _, en := range m.Entries() {
			entry := en.AsMapEntry()
			if entry.IsOptional() {
				return nil
			}
			k, v := constantValue(entry.Key()), constantValue(entry.Value())
			if k == nil || v == nil {
				return nil
			}
			if _, dup := vals[k]; dup {
				return nil
			}
			vals[k] = v
		}
		return types.NewRefValMap(types.DefaultTypeAdapter, vals)
	}
	return nil
}

// schemaCompiles checks a constant JSON Schema argument: it must compile
// as the call would compile it, under the options at position options
// when the call has them (and they are constants). A schema that does not
// compile would make the call give false (or an entry saying why) on
// every document.
func schemaCompiles(options int) func(*library, ref.Val, []ref.Val) string {
	return func(l *library, schema ref.Val, call []ref.Val) string {
		if options >= len(call) {
			if problem := l.schemaProblem(schema); problem != "" {
				return "JSON Schema " + problem
			}
			return ""
		}
		if call[options] == nil {
			return "" // the options are known when the call runs
		}
		o, err := parseSchemaOptions(call[options])
		if err != nil {
			return "" // schemaOptionsParse reports it
		}
		if _, err := l.compiledSchemaWith(schema, o); err != nil {
			return "JSON Schema " + compileProblem(err)
		}
		return ""
	}
}

// schemaOptionsParse checks constant schema options: unknown options or
// values would make the call an error on every document.
func schemaOptionsParse(_ *library, options ref.Val, _ []ref.Val) string {
	if _, err := parseSchemaOptions(options); err != nil {
		return fmt.Sprint(err)
	}
	return ""
}
