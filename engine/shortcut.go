package engine

import (
	"context"
	"sync"

	"github.com/celint/celint/internal/celnative"
	"github.com/google/cel-go/common/types"
	"github.com/google/cel-go/common/types/ref"
)

// Shortcuts of a rule's evaluation of a node, which eval.go takes where
// they apply: each gives what the plain evaluation gives, value, error and
// cost, with less work.

// scratches are the evaluation states lints reuse (see lintRules), each
// with the Input that brings it to evaluations.
var scratches = sync.Pool{New: func() any { return &celnative.Input{Scratch: new(celnative.Scratch)} }}

// evalIn evaluates p in act, as Program.Eval does, with the Scratch of
// the spend's rule run when it has one (see lintRules).
func (s *spend) evalIn(ctx context.Context, p *program, act *frame) (ref.Val, uint64, error) {
	if s.in == nil {
		return p.Eval(ctx, act)
	}
	s.in.Activation = act // (Eval reads it at once: an evaluation nested in this one may set it again)
	return p.Eval(ctx, s.in)
}

// eachMemo is the value of an 'each' on one node's frame, and its cost.
type eachMemo struct {
	seq  uint64 // the frame's nodeVars.seq; 0: none
	text string
	coll ref.Val
	cost uint64
}

// evalEach evaluates c's 'each' in fr. The checks of a rule that iterate the
// same expression (most iterate, say, self.examples, each with its own
// test) get the value the first computed on the node, and are charged its
// cost again: budgets are spent as if each had evaluated it.
func (rr *ruleRun) evalEach(c *check, fr *frame) (ref.Val, error) {
	s := &rr.spend
	if s.over != nil {
		return nil, s.over
	}
	seq := fr.node.seq
	if m := &rr.each; seq != 0 && m.seq == seq && m.text == c.eachText {
		return s.charge(c.each, m.coll, m.cost, nil)
	}
	v, cost, err := s.run(rr.ctx, c.each, fr)
	coll, err := s.charge(c.each, v, cost, err)
	if err == nil && seq != 0 {
		rr.each = eachMemo{seq: seq, text: c.eachText, coll: coll, cost: cost}
	}
	return coll, err
}

// runFused evaluates a check's when and test in one program. done is false
// when the check has none, or when it met an error or a when that is not a
// bool: then when and test are evaluated apart, to report the error where
// it is. v is nil when when is false.
func (rr *ruleRun) runFused(c *check, fr *frame) (v ref.Val, done bool, err error) {
	if c.fused == nil || rr.spend.over != nil {
		return nil, false, nil
	}
	out, cost, err := rr.spend.run(rr.ctx, c.fused, fr)
	if err != nil || types.IsUnknownOrError(out) {
		return nil, false, nil
	}
	opt, ok := out.(*types.Optional)
	if !ok {
		return nil, false, nil
	}
	if rr.spend.budget > 0 && rr.spend.cost+cost > rr.spend.budget {
		rr.recordFail()        // what followers would do here depends on their budgets
		return nil, false, nil // the budget runs out: say where, apart
	}
	rr.spend.cost += cost
	if !opt.HasValue() {
		return nil, true, nil
	}
	return opt.GetValue(), true, nil
}
