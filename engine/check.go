package engine

import (
	"fmt"
	"strings"

	gocel "github.com/google/cel-go/cel"

	"github.com/celint/celint/cel"
	"github.com/celint/celint/loader"
)

// check is one compiled check of a rule.
type check struct {
	code     string   // "" for the rule's own finding
	severity Severity // of the check's findings
	// inheritsLevel: the check sets no level of its own, so a levels entry
	// for its rule applies to it
	inheritsLevel bool
	// optIn: the check's findings are marked OptIn, until a levels entry
	// for its code gives it a level
	optIn       bool
	aliases     []string
	scopeValues []string // nil: wherever the rule applies
	assume      *assumption
	each        *program
	eachText    string // each's text: checks of a rule with the same text share its value on a node (see ruleRun.evalEach)
	when        *program
	test        *program
	// fused is when and test in one program, "when ? optional.of(test) :
	// optional.none()": one evaluation instead of two for each item. Any
	// error it meets is found again by evaluating when and test apart, so
	// that it is reported where it is.
	fused   *program
	forbid  bool // test reports when true
	at      template
	pointer *program // a computed relative pointer, used as it is
	message template
	msgExpr *program
	fix     *fix       // the edit that mends the finding; nil: none
	file    string     // the rule file, for rule errors
	pos     loader.Pos // where the check starts
}

// errorf returns a rule error located at the check.
func (c *check) errorf(format string, args ...any) error {
	return &loader.Error{File: c.file, Pos: c.pos, Msg: fmt.Sprintf(format, args...)}
}

// template is a text with {expr} placeholders, each a CEL expression; "{{"
// and "}}" stand for literal braces.
type template []templatePart

type templatePart struct {
	text string
	expr *program
}

// compileCheck compiles a check in env, which declares the rule's variables.
// Checks with 'each' also see item, index and key. The problems of all its
// expressions and templates are reported together.
func compileCheck(env *cel.Env, file string, spec *loader.CheckSpec) (*check, error) {
	c := &check{file: file, pos: spec.Pos, forbid: spec.Forbid != nil}
	var issues loader.Issues
	var err error
	if spec.Each != nil {
		c.each, err = compileExpr(env, file, *spec.Each)
		issues.Append(err)
		c.eachText = spec.Each.Text
	}
	if env, err = withEachVars(env); err != nil {
		return nil, &loader.Error{File: file, Pos: spec.Pos, Msg: err.Error()}
	}
	if spec.When != nil {
		c.when, err = compileExpr(env, file, *spec.When)
		issues.Append(err)
	}
	test := spec.Assert
	if c.forbid {
		test = spec.Forbid
	}
	if test != nil {
		c.test, err = compileExpr(env, file, *test)
		issues.Append(err)
		if err == nil && c.when != nil {
			// Line feeds end any // comment in either text.
			text := "(\n" + spec.When.Text + "\n) ? optional.of(\n" + test.Text + "\n) : optional.none()"
			if fused, err := compileAt(env, text, cel.Origin{File: file, Line: int(test.Pos.Line), Col: int(test.Pos.Col)}); err == nil {
				c.fused = fused
			}
		}
	}
	if spec.At.Value != "" {
		c.at, err = compileTemplate(env, file, spec.At)
		issues.Append(err)
	}
	if spec.Pointer != nil {
		c.pointer, err = compileExpr(env, file, *spec.Pointer)
		issues.Append(err)
	}
	if spec.MessageExpression != nil {
		c.msgExpr, err = compileExpr(env, file, *spec.MessageExpression)
		issues.Append(err)
	} else if spec.Message.Value != "" {
		c.message, err = compileTemplate(env, file, spec.Message)
		issues.Append(err)
	}
	if spec.Fix != nil {
		c.fix, err = compileFix(env, file, spec.Fix)
		issues.Append(err)
	}
	if err := issues.Err(); err != nil {
		return nil, err
	}
	return c, nil
}

// withEachVars is env with the variables an 'each' binds for every item:
// item, index and key.
func withEachVars(env *cel.Env) (*cel.Env, error) {
	return env.Extend(
		cel.Var{Name: "item", Type: gocel.DynType},
		cel.Var{Name: "index", Type: gocel.IntType},
		cel.Var{Name: "key", Type: gocel.DynType},
	)
}

// compileSchemaFixes compiles a rule's schemaFixes in env, which declares
// the rule's variables: each sees, as item, the object or array holding
// its finding's location and, as key, the location's member name or index
// there. A keyword's fixes keep their order.
func compileSchemaFixes(env *cel.Env, file string, specs []loader.NamedFix) (map[string][]*fix, error) {
	if len(specs) == 0 {
		return nil, nil
	}
	env, err := withEachVars(env)
	if err != nil {
		return nil, &loader.Error{File: file, Pos: specs[0].Fix.Pos, Msg: err.Error()}
	}
	var issues loader.Issues
	out := make(map[string][]*fix, len(specs))
	for _, s := range specs {
		f, err := compileFix(env, file, s.Fix)
		if err != nil {
			issues.Append(err)
			continue
		}
		out[s.Name] = append(out[s.Name], f)
	}
	return out, issues.Err()
}

// schemaMsgExpr is the compiled messageExpression of a schema keyword.
type schemaMsgExpr struct {
	prg *program
	pos loader.Pos // where it is written
}

// schemaMessageNames are the names a schema keyword's messageExpression
// binds for each finding: those a schema fix sees (item, index, key), and
// message, the finding's message without the expression.
var schemaMessageNames = []string{"item", "index", "key", "message"}

// compileSchemaMessageExprs compiles the messageExpressions of a rule's
// schemaMessages in env, which declares the rule's variables: each sees
// item, index and key as a schema fix does, and message, the message its
// keyword's template (or the schema's default) gives the finding.
func compileSchemaMessageExprs(env *cel.Env, file string, specs []loader.SchemaMessage) (map[string]*schemaMsgExpr, error) {
	var out map[string]*schemaMsgExpr
	var issues loader.Issues
	for _, s := range specs {
		if s.Expr == nil {
			continue
		}
		if out == nil {
			var err error
			if env, err = withEachVars(env); err == nil {
				env, err = env.Extend(cel.Var{Name: "message", Type: gocel.StringType})
			}
			if err != nil {
				return nil, &loader.Error{File: file, Pos: s.Expr.Pos, Msg: err.Error()}
			}
			out = map[string]*schemaMsgExpr{}
		}
		prg, err := compileExpr(env, file, *s.Expr)
		if err != nil {
			issues.Append(err)
			continue
		}
		out[s.Name] = &schemaMsgExpr{prg: prg, pos: s.Expr.Pos}
	}
	return out, issues.Err()
}

// fix is a check's compiled fix.
type fix struct {
	when  *program
	edits []fixEdit
}

type fixEdit struct {
	op    loader.EditOp
	at    template // relative to the node
	from  template // for move: relative to the node
	value *program
}

func compileFix(env *cel.Env, file string, spec *loader.FixSpec) (*fix, error) {
	f := &fix{}
	var err error
	if spec.When != nil {
		if f.when, err = compileExpr(env, file, *spec.When); err != nil {
			return nil, err
		}
	}
	for _, e := range spec.Edits {
		fe := fixEdit{op: map[string]loader.EditOp{"replace": loader.Replace, "remove": loader.Remove, "add": loader.Add, "move": loader.Move}[e.Op.Value]}
		if e.At.Value != "" {
			if fe.at, err = compileTemplate(env, file, e.At); err != nil {
				return nil, err
			}
		}
		if e.From.Value != "" {
			if fe.from, err = compileTemplate(env, file, e.From); err != nil {
				return nil, err
			}
		}
		if e.Value != nil {
			if fe.value, err = compileExpr(env, file, *e.Value); err != nil {
				return nil, err
			}
		}
		f.edits = append(f.edits, fe)
	}
	return f, nil
}

func compileTemplate(env *cel.Env, file string, s loader.Scalar) (template, error) {
	var t template
	text := s.Value
	var lit strings.Builder
	for i := 0; i < len(text); i++ {
		ch := text[i]
		switch {
		case ch == '{' && i+1 < len(text) && text[i+1] == '{':
			lit.WriteByte('{')
			i++
		case ch == '}' && i+1 < len(text) && text[i+1] == '}':
			lit.WriteByte('}')
			i++
		case ch == '{':
			end := closingBrace(text[i:])
			if end < 0 {
				return nil, &loader.Error{File: file, Pos: loader.Pos{Line: s.Pos.Line, Col: s.Pos.Col + int32(i)}, Msg: "unclosed '{' in template; write '{{' for a literal brace"}
			}
			expr := text[i+1 : i+end]
			prg, err := compileAt(env, expr, cel.Origin{File: file, Line: int(s.Pos.Line), Col: int(s.Pos.Col) + i + 1})
			if err != nil {
				return nil, err
			}
			if lit.Len() > 0 {
				t = append(t, templatePart{text: lit.String()})
				lit.Reset()
			}
			t = append(t, templatePart{expr: prg})
			i += end
		case ch == '}':
			return nil, &loader.Error{File: file, Pos: loader.Pos{Line: s.Pos.Line, Col: s.Pos.Col + int32(i)}, Msg: "unmatched '}' in template; write '}}' for a literal brace"}
		default:
			lit.WriteByte(ch)
		}
	}
	if lit.Len() > 0 {
		t = append(t, templatePart{text: lit.String()})
	}
	return t, nil
}

// closingBrace returns the offset in s (which starts with '{') of the '}'
// that closes it, skipping nested braces and quoted CEL strings; -1 if none.
func closingBrace(s string) int {
	depth := 0
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '"', '\'':
			q := s[i]
			for i++; i < len(s) && s[i] != q; i++ {
				if s[i] == '\\' {
					i++
				}
			}
		case '{':
			depth++
		case '}':
			depth--
			if depth == 0 {
				return i
			}
		}
	}
	return -1
}
