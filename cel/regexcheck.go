package cel

import (
	"errors"
	"regexp"
	"regexp/syntax"

	gocel "github.com/google/cel-go/cel"
	"github.com/google/cel-go/common/ast"
	"github.com/google/cel-go/common/types"
)

// regexLiterals is a compile-time check: a regular expression written as a
// constant string (self.name.matches('[a-z'), regex.replace(s, '(', ”))
// that does not compile is a compile error at the string, with the reason,
// instead of a rule error on every document.
type regexLiterals struct{}

// Name implements cel-go's ASTValidator.
func (regexLiterals) Name() string { return "celint.validator.regex-literals" }

// regexArgs gives, for each function taking a pattern, the position of the
// pattern among a global call's arguments (a member call's target comes
// first, as it does in a global call).
var regexArgs = map[string]int{
	"matches":          1,
	"regex.replace":    1,
	"regex.extract":    1,
	"regex.extractAll": 1,
}

// Validate implements cel-go's ASTValidator.
func (regexLiterals) Validate(_ *gocel.Env, _ gocel.ValidatorConfig, a *ast.AST, iss *gocel.Issues) {
	calls := ast.MatchDescendants(ast.NavigateAST(a), ast.KindMatcher(ast.CallKind))
	for _, c := range calls {
		call := c.AsCall()
		at, ok := regexArgs[call.FunctionName()]
		if !ok {
			continue
		}
		args := call.Args()
		if call.IsMemberFunction() {
			at-- // the target is the string, not counted among Args
		}
		if at < 0 || at >= len(args) || args[at].Kind() != ast.LiteralKind {
			continue
		}
		s, ok := args[at].AsLiteral().(types.String)
		if !ok {
			continue
		}
		if _, err := regexp.Compile(string(s)); err != nil {
			iss.ReportErrorAtID(args[at].ID(), "regular expression %q does not compile: %v", string(s), trimRegexpError(err))
		}
	}
}

// trimRegexpError drops the "error parsing regexp: " prefix.
func trimRegexpError(err error) string {
	var e *syntax.Error
	if errors.As(err, &e) {
		return e.Code.String()
	}
	return err.Error()
}
