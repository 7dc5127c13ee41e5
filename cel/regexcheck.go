package cel

import (
	"errors"
	"fmt"
	"regexp"
	"regexp/syntax"

	"github.com/google/cel-go/common/types"
	"github.com/google/cel-go/common/types/ref"
)

// regexChecks are the constant-argument checks (see constArgCheck) of the
// standard and extension functions that take a regular expression: a
// pattern written as a constant string (self.name.matches('[a-z'),
// regex.replace(s, '(', ”)) that does not compile is a compile error at
// the string, with the reason, instead of a rule error on every document.
var regexChecks = map[string][]constArgCheck{
	"matches":          {{arg: 1, check: regexCompiles}},
	"regex.replace":    {{arg: 1, check: regexCompiles}},
	"regex.extract":    {{arg: 1, check: regexCompiles}},
	"regex.extractAll": {{arg: 1, check: regexCompiles}},
}

// regexCompiles checks a constant pattern.
func regexCompiles(_ *library, v ref.Val, _ []ref.Val) string {
	s, ok := v.(types.String)
	if !ok {
		return ""
	}
	if _, err := regexp.Compile(string(s)); err != nil {
		return fmt.Sprintf("regular expression %q does not compile: %s", string(s), trimRegexpError(err))
	}
	return ""
}

// trimRegexpError drops the "error parsing regexp: " prefix.
func trimRegexpError(err error) string {
	var e *syntax.Error
	if errors.As(err, &e) {
		return e.Code.String()
	}
	return err.Error()
}
