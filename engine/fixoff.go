package engine

import (
	"regexp"
	"strconv"
	"strings"

	"github.com/celint/celint/loader"
)

// fixOff reports whether the ruleset's params rule a fix out whatever the
// document: one of the conditions its when joins with && (at the top, in
// an expression without || or ?: there) is a param compared with nothing
// or with a literal — params.name, !params.name, params.name > 0,
// params.name == "text" — and is false for the header's values. Such a fix
// is no fix of this ruleset: its rule is not fixable for it, and its pages
// do not list it. A rule shared by several versions so offers a fix only
// where the version allows it. The conditions are read from the text, not
// compiled, so that loading the rules stays cheap.
func (rs *Ruleset) fixOff(f *loader.FixSpec) bool {
	if f == nil || f.When == nil || len(rs.params) == 0 || !strings.Contains(f.When.Text, ParamsVariable+".") {
		return false
	}
	for _, c := range topConjuncts(f.When.Text) {
		if v, ok := rs.paramCondition(c); ok && !v {
			return true
		}
	}
	return false
}

// paramTest is a condition on a param: its name, and an optional
// comparison with a literal.
var paramTest = regexp.MustCompile(`^(!?)\s*params\.([A-Za-z_][A-Za-z0-9_]*)\s*(?:(==|!=|<=|>=|<|>)\s*(-?[0-9]+(?:\.[0-9]+)?|true|false|"[^"\\]*"|'[^'\\]*'))?$`)

// paramCondition evaluates c when it is a condition on a param of the
// header (see paramTest); ok is false for any other condition.
func (rs *Ruleset) paramCondition(c string) (value, ok bool) {
	m := paramTest.FindStringSubmatch(strings.TrimSpace(c))
	if m == nil {
		return false, false
	}
	n, found := rs.params[m[2]]
	if !found || n == nil {
		return false, false
	}
	v := n.Value()
	if m[3] == "" {
		b, isBool := v.(bool)
		return b != (m[1] == "!"), isBool
	}
	if m[1] == "!" {
		return false, false // !params.x == y: not a form read here
	}
	lit := m[4]
	switch {
	case lit == "true" || lit == "false":
		b, isBool := v.(bool)
		if !isBool || (m[3] != "==" && m[3] != "!=") {
			return false, false
		}
		return (b == (lit == "true")) == (m[3] == "=="), true
	case lit[0] == '"' || lit[0] == '\'':
		s, isString := v.(string)
		if !isString || (m[3] != "==" && m[3] != "!=") {
			return false, false
		}
		return (s == lit[1:len(lit)-1]) == (m[3] == "=="), true
	}
	x, err := strconv.ParseFloat(lit, 64)
	var y float64
	switch t := v.(type) {
	case int64:
		y = float64(t)
	case float64:
		y = t
	default:
		return false, false
	}
	if err != nil {
		return false, false
	}
	switch m[3] {
	case "==":
		return y == x, true
	case "!=":
		return y != x, true
	case "<":
		return y < x, true
	case "<=":
		return y <= x, true
	case ">":
		return y > x, true
	}
	return y >= x, true
}

// topConjuncts splits a CEL expression at the && that join its top level,
// outside brackets and string literals. An expression with || or ?: at
// its top level is not a conjunction there, and gives nothing.
func topConjuncts(text string) []string {
	var out []string
	depth, start := 0, 0
	for i := 0; i < len(text); i++ {
		switch ch := text[i]; ch {
		case '(', '[', '{':
			depth++
		case ')', ']', '}':
			depth--
		case '"', '\'':
			// a string literal; triple quotes and raw strings end at the
			// same quote character, so skipping to it is enough here
			for i++; i < len(text) && text[i] != ch; i++ {
				if text[i] == '\\' {
					i++
				}
			}
		case '|', '?':
			if depth == 0 {
				return nil
			}
		case '&':
			if depth == 0 && i+1 < len(text) && text[i+1] == '&' {
				out = append(out, text[start:i])
				start = i + 2
				i++
			}
		}
	}
	return append(out, text[start:])
}
