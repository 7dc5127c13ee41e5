package celnative

import (
	"github.com/google/cel-go/common/types/ref"
	"github.com/google/cel-go/interpreter"
)

// Scratch keeps the states of native evaluations for one goroutine to
// reuse: what an evaluation needs, without a pool's cost at every call.
// The zero value is ready to use. A Scratch must not be used by two
// goroutines at once; evaluations nested in one another (a variable the
// activation computes while the expression runs) may share it, each
// getting the state of its depth.
type Scratch struct {
	// states holds an evaluation state for each depth of nested
	// evaluations; those below depth are in use.
	states []*State
	depth  int
	evals  uint32 // evaluations counted by Due
}

// CheckEvery is how many evaluations with a Scratch run between two
// checks of their context (see Due): the check is a good part of a small
// evaluation's cost, and a native evaluation is bounded by its cost limit
// anyway.
const CheckEvery = 32

// Due counts an evaluation, and reports whether it is one whose context
// is to be checked: every CheckEvery-th.
func (s *Scratch) Due() bool {
	s.evals++
	return s.evals%CheckEvery == 0
}

// Run runs p on act as Program.Run does, with the state of the current
// nesting depth.
func (s *Scratch) Run(p *Program, act interpreter.Activation, limit uint64) (ref.Val, uint64, bool) {
	d := s.depth
	if d == len(s.states) {
		s.states = append(s.states, new(State))
	}
	s.depth = d + 1
	v, cost, ok := p.Run(s.states[d], act, limit) // Run recovers a panic: ok is false
	s.depth = d
	return v, cost, ok
}

// Release drops the values the Scratch's states still hold from earlier
// evaluations, so that it keeps none alive while it is not in use (in a
// pool, say). It is then ready for use again.
func (s *Scratch) Release() {
	for _, st := range s.states {
		st.Release()
	}
}

// Input is an activation with the Scratch its evaluation may take its
// state from: cel.Program.Eval, given an *Input, evaluates Activation
// with the same result, cost and errors as without, and a nil Scratch is
// no Scratch. Eval reads both fields before it evaluates anything, so
// that an evaluation nested in it may reuse the Input.
type Input struct {
	Scratch    *Scratch
	Activation interpreter.Activation
}
