package engine

import "github.com/celint/celint/cel"

// OneByOne makes a lint run its rules one after the other, whatever the
// document's size: the order interleaved lints must agree with.
func OneByOne(o LintOptions) LintOptions {
	o.oneByOne = true
	return o
}

// Programs returns every compiled expression of r (which must be
// compiled: see Rule.ready), for tests that check them all.
func Programs(r *Rule) ([]*cel.Program, error) {
	if err := r.ready(); err != nil {
		return nil, err
	}
	var out []*cel.Program
	add := func(p *program) {
		if p != nil {
			out = append(out, p.Program)
		}
	}
	addAssume := func(a *assumption) {
		if a != nil {
			add(a.expr)
		}
	}
	add(r.when)
	addAssume(r.assume)
	for _, v := range append(append([]*variable(nil), r.docVars...), r.vars...) {
		add(v.prg)
	}
	for _, c := range r.checks {
		addAssume(c.assume)
		for _, p := range []*program{c.each, c.when, c.test, c.fused, c.pointer, c.msgExpr} {
			add(p)
		}
		for _, t := range []template{c.at, c.message} {
			for _, part := range t {
				add(part.expr)
			}
		}
	}
	return out, nil
}
