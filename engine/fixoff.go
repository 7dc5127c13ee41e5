package engine

import (
	"context"

	"github.com/google/cel-go/common"
	celast "github.com/google/cel-go/common/ast"
	"github.com/google/cel-go/common/operators"
	"github.com/google/cel-go/common/types"
	"github.com/google/cel-go/parser"

	"github.com/celint/celint/cel"
	"github.com/celint/celint/loader"
)

// fixOff reports whether the ruleset's params rule a fix out whatever the
// document: one of the conditions its when joins with && reads nothing
// but params (params.objectExtensions, params.collectionMinItems > 0) and
// is false for the header's values. Such a fix is no fix of this ruleset:
// its rule is not fixable for it, and its pages do not list it. A rule
// shared by several versions so offers a fix only where the version
// allows it.
func (rs *Ruleset) fixOff(f *loader.FixSpec) bool {
	if f == nil || f.When == nil || len(rs.params) == 0 {
		return false
	}
	p, err := parser.NewParser()
	if err != nil {
		return false
	}
	tree, errs := p.Parse(common.NewTextSource(f.When.Text))
	if len(errs.GetErrors()) > 0 {
		return false // compiling it reports the problem
	}
	var off func(e celast.Expr) bool
	off = func(e celast.Expr) bool {
		if e.Kind() == celast.CallKind && e.AsCall().FunctionName() == operators.LogicalAnd && len(e.AsCall().Args()) == 2 {
			return off(e.AsCall().Args()[0]) || off(e.AsCall().Args()[1])
		}
		if !readsOnlyParams(e) {
			return false
		}
		text, err := parser.Unparse(e, tree.SourceInfo())
		if err != nil {
			return false
		}
		prg, err := compileAt(rs.env, text, cel.Origin{})
		if err != nil {
			return false
		}
		v, _, err := prg.Eval(context.Background(), map[string]any{ParamsVariable: rs.Params()})
		return err == nil && v == types.False
	}
	return off(tree.Expr())
}

// readsOnlyParams reports whether the only variable e reads is params
// (and it reads it): no comprehension, no other name.
func readsOnlyParams(e celast.Expr) bool {
	reads := false
	ok := true
	var walk func(e celast.Expr)
	walk = func(e celast.Expr) {
		if !ok {
			return
		}
		switch e.Kind() {
		case celast.IdentKind:
			if e.AsIdent() == ParamsVariable {
				reads = true
			} else {
				ok = false
			}
		case celast.SelectKind:
			walk(e.AsSelect().Operand())
		case celast.CallKind:
			c := e.AsCall()
			if c.IsMemberFunction() {
				walk(c.Target())
			}
			for _, a := range c.Args() {
				walk(a)
			}
		case celast.ListKind:
			for _, x := range e.AsList().Elements() {
				walk(x)
			}
		case celast.MapKind:
			for _, x := range e.AsMap().Entries() {
				walk(x.AsMapEntry().Key())
				walk(x.AsMapEntry().Value())
			}
		case celast.LiteralKind:
		default: // comprehensions, structs
			ok = false
		}
	}
	walk(e)
	return ok && reads
}
