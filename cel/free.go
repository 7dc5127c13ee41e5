package cel

import (
	"slices"

	celast "github.com/google/cel-go/common/ast"
)

// freeVariables returns the identifiers e reads that none of its
// comprehensions binds, sorted. It may name more than e needs (a
// comprehension's result is taken to see only its accumulator), never
// fewer.
func freeVariables(e celast.Expr) []string {
	free := map[string]bool{}
	bound := map[string]int{}
	var walk func(e celast.Expr)
	bind := func(names []string, d int) {
		for _, n := range names {
			if n != "" {
				bound[n] += d
			}
		}
	}
	walk = func(e celast.Expr) {
		if e == nil {
			return
		}
		switch e.Kind() {
		case celast.IdentKind:
			if n := e.AsIdent(); bound[n] == 0 {
				free[n] = true
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
			for _, en := range e.AsMap().Entries() {
				me := en.AsMapEntry()
				walk(me.Key())
				walk(me.Value())
			}
		case celast.StructKind:
			for _, f := range e.AsStruct().Fields() {
				walk(f.AsStructField().Value())
			}
		case celast.ComprehensionKind:
			c := e.AsComprehension()
			walk(c.IterRange())
			walk(c.AccuInit())
			loop := []string{c.IterVar(), c.IterVar2(), c.AccuVar()}
			bind(loop, 1)
			walk(c.LoopCondition())
			walk(c.LoopStep())
			bind(loop, -1)
			bind([]string{c.AccuVar()}, 1)
			walk(c.Result())
			bind([]string{c.AccuVar()}, -1)
		}
	}
	walk(e)
	out := make([]string, 0, len(free))
	for n := range free {
		out = append(out, n)
	}
	slices.Sort(out)
	return out
}
