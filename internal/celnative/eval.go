// Package celnative is celint's native CEL evaluator. It runs a checked expression directly on its AST,
// without cel-go's interpreter: no execution frames, no attribute and
// qualifier objects, no activation per comprehension step and no meter
// lookups. It computes what cel-go's plan computes, with the same values
// and the same cost as the cel package's guard charges, by mirroring the
// planner: which nodes become attributes (a unit for each wrapper the guard
// puts on them), which calls are guarded or metered, and the order in which
// operands are evaluated.
//
// It covers the successful evaluations only. Whenever a step would yield
// an error or an unknown, exceed the cost limit, or meet a value it does
// not handle, the native evaluation gives up, and the program is evaluated
// again by cel-go from the start (package cel does): so every error, with its message, comes
// from cel-go. Giving up repeats nothing that counts: what the native run
// read from the activation (lazy variables included) is read again, in the
// same order, and its cost is discarded.
//
// An expression the evaluator does not cover (a struct literal, an
// optional list or map entry, a two-variable comprehension, a select on a
// conditional, ...) has no native form and is always evaluated by cel-go.
// cel.Config.VerifyNative (or CELINT_VERIFY_NATIVE) runs both on every
// evaluation and reports any difference of value or cost.
//
// The evaluator knows the environment's functions only through Env, which
// package cel builds from its guard: the implementations of the overloads,
// the calls measured before they run and their measures, and the library
// functions that unwrap an optional argument. The cost model's measures
// are package celcost's, which the guard charges as well.
package celnative

import (
	"strings"

	"github.com/celint/celint/internal/celcost"
	"github.com/celint/celint/internal/celtree"
	celast "github.com/google/cel-go/common/ast"
	"github.com/google/cel-go/common/functions"
	"github.com/google/cel-go/common/overloads"
	"github.com/google/cel-go/common/types"
	"github.com/google/cel-go/common/types/ref"
	"github.com/google/cel-go/common/types/traits"
	"github.com/google/cel-go/interpreter"
)

// Program is an expression compiled for the native evaluator.
type Program struct {
	root    nnode
	slots   int // local variables: comprehension variables
	folds   int // nesting depth of comprehensions
	adapter types.Adapter
}

// State is the state of one native evaluation. Its buffers are kept
// from one evaluation to the next (it lives in a pooled activation, or in
// a Scratch). The zero value is ready to use.
type State struct {
	act     interpreter.Activation
	n       uint64 // cost so far
	limit   uint64
	slots   []ref.Val // comprehension variables and accumulators
	folds   []foldState
	stack   []ref.Val // the arguments of the calls under way
	high    int       // the most of stack used since the state was last released
	used    int       // the most of slots used since then
	adapter types.Adapter
}

// foldState is the accumulator state of a running comprehension.
type foldState struct {
	initialized, mutable bool
	// emptyList: the accumulator is still the empty list it started as,
	// standing for the mutable list cel-go makes at once, which is made
	// only when the loop first adds to it (most lists stay empty).
	emptyList bool
}

// add charges c; false when the total passes the limit.
func (s *State) add(c uint64) bool {
	if c > s.limit || s.n > s.limit-c {
		return false
	}
	s.n += c
	return true
}

// Run evaluates p on act with s, a state whose buffers are reused from
// evaluation to evaluation; ok is false when the evaluation gave up. A
// panic gives up too: cel-go then runs the program and reports the panic
// its own way.
func (p *Program) Run(s *State, act interpreter.Activation, limit uint64) (v ref.Val, cost uint64, ok bool) {
	defer giveUp() // a panic returns nil, 0, false: what the results are until the end
	s.act, s.n, s.limit, s.adapter = act, 0, limit, p.adapter
	s.slots = grow(s.slots, p.slots)
	s.used = max(s.used, p.slots)
	if cap(s.folds) < p.folds {
		s.folds = make([]foldState, p.folds)
	}
	s.folds = s.folds[:p.folds]
	s.stack = s.stack[:0]
	v = p.root.exec(s)
	s.act = nil // (after a panic, release drops it)
	if v == nil {
		return nil, 0, false
	}
	return v, s.n, true
}

// giveUp, deferred, stops a panic.
func giveUp() { _ = recover() }

// Release drops the values the state's buffers still hold, so that they
// do not keep them alive: evaluations leave them there, each overwriting
// what it uses, and the state is released when its Scratch is.
func (s *State) Release() {
	s.act = nil
	clear(s.slots[:min(s.used, len(s.slots))])
	clear(s.stack[:min(s.high, cap(s.stack))])
	s.used, s.high = 0, 0
}

// grow returns b with length n, reusing its array when it is large enough.
func grow(b []ref.Val, n int) []ref.Val {
	if cap(b) < n {
		return make([]ref.Val, n)
	}
	return b[:n]
}

// nnode is a node of a native plan. exec returns nil when the evaluation
// gives up.
type nnode interface {
	exec(s *State) ref.Val
}

// nattr is a node cel-go plans as an attribute: resolve evaluates it
// without the units its wrappers charge, as cel-go does where it resolves
// an attribute instead of executing it (a conditional's branch, an index).
type nattr interface {
	nnode
	resolve(s *State) ref.Val
}

// bad reports whether v ends a native evaluation.
func bad(v ref.Val) bool { return v == nil || types.IsUnknownOrError(v) }

type nconst struct{ v ref.Val }

func (c *nconst) exec(*State) ref.Val { return c.v }

// nfolded is a call of a pure function on constants, made once when the
// program is compiled; it charges what the call would.
type nfolded struct {
	v    ref.Val
	cost uint64
}

func (f *nfolded) exec(s *State) ref.Val {
	if !s.add(f.cost) {
		return nil
	}
	return f.v
}

// foldable reports whether fn's calls on constants are made once, when
// the program is compiled: a pure function whose results are cheap to
// keep.
func foldable(fn string) bool {
	switch fn {
	case "optional.of", "optional.ofNonZeroValue", "optional.none":
		return true
	}
	return false
}

// constants reports whether every node is a constant.
func constants(nodes []nnode) bool {
	for _, n := range nodes {
		if _, ok := n.(*nconst); !ok {
			return false
		}
	}
	return true
}

// fold returns the call, whose arguments are constants, made once; the
// call itself when it does not succeed.
func fold(c *ncall) nnode {
	s := &State{limit: ^uint64(0)}
	v := c.exec(s)
	if v == nil {
		return c
	}
	return &nfolded{v: v, cost: s.n}
}

// An nchain is a variable or an operand, with the field and index
// selections that follow it: an attribute.
type nchain struct {
	name     string  // a variable of the activation; "" when local, accu or operand is set
	local    int     // a comprehension variable's slot; -1 otherwise
	accu     *nfold  // the accumulator of this comprehension
	operand  nnode   // a relative attribute's operand, executed
	steps    []nstep // selections, in order
	wrappers uint64  // units charged when executed
	testOnly bool    // has(): the last step tests presence
	plain    bool    // every step selects a constant name, none optional, and not testOnly (see setPlain)
	optional bool    // a step is optional (see setPlain)
	adapter  types.Adapter
}

// nstep is one selection: a constant key, or a key computed by an
// attribute (resolved) or an expression (executed).
type nstep struct {
	key      ref.Val
	name     string // key, when it is a constant string
	keyAttr  nattr
	keyExpr  nnode
	optional bool
	// set by setPlain: presence, that a missing key is found absent (an
	// optional step so far, or the last of a presence test), and test,
	// that this last step is the presence test
	presence, test bool
	// hint is where name was last found, for a PositionedMapper.
	hint celtree.Hint
}

func (c *nchain) exec(s *State) ref.Val {
	if !s.add(c.wrappers) {
		return nil
	}
	switch {
	case c.accu != nil && len(c.steps) == 0:
		// a comprehension's accumulator, read at every step of the loop
		return c.accu.accuValue(s)
	case len(c.steps) == 0 || c.plain:
		// most chains: what resolve gives them, without its optionals
		obj := c.start(s)
		if bad(obj) {
			return nil
		}
		if len(c.steps) == 0 {
			return obj
		}
		if _, isOpt := obj.(*types.Optional); isOpt {
			return nil
		}
		return c.walkPlain(obj)
	case c.testOnly && len(c.steps) == 1 && c.steps[0].name != "" && !c.optional:
		// has(x.name): walk's one step, a presence test of a constant name
		obj := c.start(s)
		if bad(obj) {
			return nil
		}
		if _, isOpt := obj.(*types.Optional); isOpt {
			return nil
		}
		st := &c.steps[0]
		if pm, isPM := obj.(celtree.PositionedMapper); isPM {
			_, found := pm.FindAt(st.name, &st.hint)
			return types.Bool(found)
		}
		_, found, ok := qualify(obj, st.key, true)
		if !ok {
			return nil
		}
		return types.Bool(found)
	}
	return c.resolve(s)
}

func (c *nchain) resolve(s *State) ref.Val {
	v, r := c.walk(s)
	switch r {
	case walkAbsent:
		return types.OptionalNone
	case walkPresent:
		return types.OptionalOf(v)
	}
	return v
}

// unwrapped is exec without the optional an optional selection would
// build around what it found: present reports that v is that value. An
// optional selection that found nothing gives optional.none(), as exec.
func (c *nchain) unwrapped(s *State) (v ref.Val, present bool) {
	if !s.add(c.wrappers) {
		return nil, false
	}
	v, r := c.walk(s)
	switch r {
	case walkAbsent:
		return types.OptionalNone, false
	case walkPresent:
		return v, true
	}
	return v, false
}

// execUnwrapped is exec for a function that unwraps an optional argument
// (Env.UnwrapsOptional): a value found by an optional selection is given as it
// is, unless it is an optional itself.
func (c *nchain) execUnwrapped(s *State) ref.Val {
	v, present := c.unwrapped(s)
	if _, isOpt := v.(*types.Optional); present && isOpt {
		return types.OptionalOf(v)
	}
	return v
}

// nof is optional.of: a bool's optional is one of two built once, and an
// empty list's is one built once (the fused when and test of a check wrap
// a bool, or a list of violations, most often empty).
type nof struct {
	arg   nnode
	unary functions.UnaryOp
}

// The optionals of true, false and an empty list, which nothing changes.
var (
	optTrue      = types.OptionalOf(types.True)
	optFalse     = types.OptionalOf(types.False)
	optEmptyList = types.OptionalOf(types.NewRefValList(types.DefaultTypeAdapter, []ref.Val{}))
)

func (o *nof) exec(s *State) ref.Val {
	v := o.arg.exec(s)
	if bad(v) {
		return nil
	}
	var out ref.Val
	switch t := v.(type) {
	case types.Bool:
		if !s.add(1) { // (an optional has no size: shallow gives 0)
			return nil
		}
		if t {
			return optTrue
		}
		return optFalse
	case traits.Lister:
		if t.Size() == types.IntZero {
			out = optEmptyList
		} else {
			out = o.unary(v)
		}
	default:
		out = o.unary(v)
	}
	if bad(out) || !s.add(1+celcost.Shallow(out)) {
		return nil
	}
	return out
}

// nnsf is @not_strictly_false, the loop condition of the all and exists
// macros, read at every step: a bool is its own answer, as cel-go's
// function gives it, without the call's stack; it costs what the call
// costs (a unit, its result being a bool).
type nnsf struct {
	arg   nnode
	unary functions.UnaryOp
}

func (n *nnsf) exec(s *State) ref.Val {
	v := n.arg.exec(s)
	if bad(v) {
		return nil
	}
	if _, isBool := v.(types.Bool); isBool {
		if !s.add(1) { // (shallow of a bool: 0)
			return nil
		}
		return v
	}
	out := n.unary(v)
	if bad(out) || !s.add(1+celcost.Shallow(out)) {
		return nil
	}
	return out
}

// What a chain's walk found.
const (
	walkValue   = iota // v is the value (nil: the evaluation gives up)
	walkAbsent         // an optional selection found nothing
	walkPresent        // an optional selection found v (not wrapped)
)

// walk resolves the chain without its wrappers' units. An optional
// chain's result is returned unwrapped, so that orValue and or need not
// build the optional.
func (c *nchain) walk(s *State) (ref.Val, int) {
	obj := c.start(s)
	if bad(obj) {
		return nil, walkValue
	}
	if len(c.steps) == 0 {
		return obj, walkValue
	}
	if _, isOpt := obj.(*types.Optional); isOpt {
		return nil, walkValue // cel-go unwraps it; rare enough to leave to it
	}
	if c.plain {
		return c.walkPlain(obj), walkValue
	}
	for i := range c.steps {
		st := &c.steps[i]
		var v ref.Val
		var found, ok bool
		if st.name != "" { // a constant string key
			if pm, isPM := obj.(celtree.PositionedMapper); isPM {
				// A document object finds a constant key at once where
				// the last object read had it.
				v, found = pm.FindAt(st.name, &st.hint)
				ok = found || st.presence
			} else {
				v, found, ok = qualify(obj, st.key, st.presence)
			}
		} else {
			key := st.key
			switch {
			case st.keyAttr != nil:
				key = st.keyAttr.resolve(s)
			case st.keyExpr != nil:
				key = st.keyExpr.exec(s)
			}
			switch key.(type) {
			case types.String, types.Int:
			default: // (nil included)
				return nil, walkValue
			}
			v, found, ok = qualify(obj, key, st.presence)
		}
		if !ok {
			return nil, walkValue
		}
		if st.test {
			if c.optional {
				return nil, walkValue
			}
			return types.Bool(found), walkValue
		}
		if !found {
			return nil, walkAbsent
		}
		obj = v
	}
	if c.optional {
		return obj, walkPresent
	}
	return obj, walkValue
}

// start returns the value the chain's steps start from; nil when the
// evaluation gives up.
func (c *nchain) start(s *State) ref.Val {
	switch {
	case c.local >= 0:
		return s.slots[c.local]
	case c.operand != nil:
		return c.operand.exec(s)
	case c.accu != nil:
		return c.accu.accuValue(s)
	}
	raw, found := s.act.ResolveName(c.name)
	if !found {
		return nil
	}
	switch v := raw.(type) {
	case *types.Err:
		return nil
	case ref.Val:
		return v // what NativeToValue returns for a CEL value
	}
	return c.adapter.NativeToValue(raw)
}

// setPlain records whether the chain is plain: its steps all select a
// constant name, none optionally, and it is not a presence test. walk
// takes a shorter path for those, the most common.
func (c *nchain) setPlain() {
	c.plain = !c.testOnly && len(c.steps) > 0
	c.optional = false
	for i := range c.steps {
		st := &c.steps[i]
		if st.name == "" || st.optional || st.keyAttr != nil || st.keyExpr != nil {
			c.plain = false
		}
		c.optional = c.optional || st.optional
		st.test = c.testOnly && i == len(c.steps)-1
		st.presence = c.optional || st.test
	}
}

// walkPlain is walk's loop over the steps of a plain chain: each selects
// its name, and a missing one gives up, as cel-go then reports it.
func (c *nchain) walkPlain(obj ref.Val) ref.Val {
	for i := range c.steps {
		st := &c.steps[i]
		if pm, isPM := obj.(celtree.PositionedMapper); isPM {
			v, found := pm.FindAt(st.name, &st.hint)
			if !found {
				return nil
			}
			obj = v
			continue
		}
		// Without a presence test, qualify finds the key or gives up.
		v, found, ok := qualify(obj, st.key, false)
		if !ok || !found {
			return nil
		}
		obj = v
	}
	return obj
}

// qualify selects key of obj as cel-go's qualifiers do on a CEL value. A
// missing key is found false when presence is true, and gives up
// otherwise (cel-go reports it). ok is false when the selection gives up.
func qualify(obj, key ref.Val, presence bool) (v ref.Val, found, ok bool) {
	switch o := obj.(type) {
	case traits.Mapper:
		val, found := o.Find(key)
		if found {
			if bad(val) {
				return nil, false, false
			}
			return val, true, true
		}
		if val != nil && types.IsError(val) {
			return nil, false, false
		}
		return nil, false, presence
	case traits.Lister:
		i, ok := key.(types.Int)
		if !ok {
			return nil, false, false
		}
		if i >= 0 && i < o.Size().(types.Int) {
			val := o.Get(i)
			if bad(val) {
				return nil, false, false
			}
			return val, true, true
		}
		return nil, false, presence
	case traits.Indexer:
		return nil, false, false
	case *types.Err, *types.Unknown:
		return nil, false, false
	}
	// cel-go finds nothing in another value when it tests presence
	// (EnableErrorOnBadPresenceTest is off), and reports a missing key
	// otherwise.
	return nil, false, presence
}

// ncond is c ? t : f, which cel-go plans as a conditional attribute.
type ncond struct {
	cond, t, f   nnode
	tAttr, fAttr nattr // t and f, when they are attributes (resolved, not executed)
}

func (c *ncond) exec(s *State) ref.Val {
	if !s.add(1) {
		return nil
	}
	return c.resolve(s)
}

// newCond is c ? t : f, with its branches' attribute forms found once.
func newCond(c, t, f nnode) *ncond {
	n := &ncond{cond: c, t: t, f: f}
	n.tAttr, _ = t.(nattr)
	n.fAttr, _ = f.(nattr)
	return n
}

func (c *ncond) resolve(s *State) ref.Val {
	b, isBool := c.cond.exec(s).(types.Bool)
	if !isBool {
		return nil
	}
	br, attr := c.f, c.fAttr
	if b {
		br, attr = c.t, c.tAttr
	}
	var out ref.Val
	if attr != nil {
		out = attr.resolve(s)
	} else {
		out = br.exec(s)
	}
	if bad(out) {
		return nil
	}
	return out
}

// nlogic is && (stop is false) or || (stop is true): the terms in order,
// until one is stop, which is the result; the other value when none is.
// A term that is not a bool gives up (cel-go goes on to look for stop).
type nlogic struct {
	l, r nnode // the two terms of the call
	stop types.Bool
}

func (a *nlogic) exec(s *State) ref.Val {
	b, ok := a.l.exec(s).(types.Bool)
	if !ok {
		return nil
	}
	if b == a.stop {
		return a.stop
	}
	if b, ok = a.r.exec(s).(types.Bool); !ok {
		return nil
	}
	return b
}

// nequal is a guarded == or != (guardedEquality).
type nequal struct {
	l, r   nnode
	negate bool
	lchain *nchain // l, when it is a chain: read without building its optional
}

func (e *nequal) exec(s *State) ref.Val {
	var l ref.Val
	present := false // l is the value of the optional e.l would give
	if e.lchain != nil {
		l, present = e.lchain.unwrapped(s)
	} else {
		l = e.l.exec(s)
	}
	if bad(l) {
		return nil
	}
	r := e.r.exec(s)
	if bad(r) {
		return nil
	}
	if present {
		// An optional is a scalar, compared as types.Equal compares
		// optional.of(l) with r.
		if !s.add(1) {
			return nil
		}
		eq := types.False
		if o, ok := r.(*types.Optional); ok && o.HasValue() {
			eq, ok = l.Equal(o.GetValue()).(types.Bool)
			if !ok {
				return nil
			}
		}
		if e.negate {
			return !eq
		}
		return eq
	}
	c := uint64(1)
	if !celcost.Scalar(l) && !celcost.Scalar(r) {
		c = celcost.Equality([]ref.Val{l, r}, s.limit)
	}
	if !s.add(c) {
		return nil
	}
	eq := types.Equal(l, r)
	if e.negate {
		return types.Bool(eq != types.True)
	}
	return eq
}

// nopt is or and orValue on optionals, which cel-go's optional library
// plans itself: they cost nothing beyond their operands.
type nopt struct {
	l, r    nnode
	orValue bool
}

func (o *nopt) exec(s *State) ref.Val {
	var v ref.Val
	r := walkValue
	if ch, ok := o.l.(*nchain); ok && !ch.testOnly {
		// ch.exec without building the optional it would return
		if !s.add(ch.wrappers) {
			return nil
		}
		v, r = ch.walk(s)
	} else {
		v = o.l.exec(s)
	}
	switch r {
	case walkPresent:
		if o.orValue {
			return v
		}
		return types.OptionalOf(v)
	case walkValue:
		opt, ok := v.(*types.Optional)
		if !ok {
			return nil
		}
		if opt.HasValue() {
			if o.orValue {
				return opt.GetValue()
			}
			return opt
		}
	}
	rv := o.r.exec(s)
	if bad(rv) {
		return nil
	}
	return rv
}

// ncall is a call: guarded (charged what its cost measures before it runs)
// or metered (a unit plus its result's length, after).
type ncall struct {
	args []nnode
	// unwrapFirst is args[0], an optional chain read without building its
	// optional, for a function that unwraps it (Env.UnwrapsOptional).
	unwrapFirst *nchain
	guarded     func(args []ref.Val, limit uint64) uint64
	exec1       func([]ref.Val) ref.Val // a guarded call's implementation
	unary       functions.UnaryOp
	binary      functions.BinaryOp
	varargs     functions.FunctionOp
	trait       int
	fn          string // the function's name
}

func (c *ncall) exec(s *State) ref.Val {
	if c.guarded == nil && c.unwrapFirst == nil {
		// A function of one or two arguments that no guard measures is
		// called with them at once, as finish would.
		switch {
		case c.unary != nil:
			v := c.args[0].exec(s)
			if bad(v) || c.trait != 0 && !v.Type().HasTrait(c.trait) {
				return nil
			}
			return charged(s, c.unary(v))
		case c.binary != nil:
			l := c.args[0].exec(s)
			if bad(l) {
				return nil
			}
			r := c.args[1].exec(s)
			if bad(r) || c.trait != 0 && !l.Type().HasTrait(c.trait) {
				return nil
			}
			return charged(s, c.binary(l, r))
		}
	}
	// The arguments are pushed on the stack, and popped however the call
	// ends (a panic ends the whole evaluation, whose next run starts with
	// an empty stack).
	base := len(s.stack)
	out := c.call(s, base)
	s.stack = s.stack[:base]
	return out
}

// nin is x in m, the guarded call, read directly when m is a map: the
// commonest membership test of rules (a name among an object's members)
// costs one unit, as the guard measures it, and is the map's Contains,
// which cel-go's in calls.
type nin struct{ *ncall }

func (n *nin) exec(s *State) ref.Val {
	l := n.args[0].exec(s)
	if bad(l) {
		return nil
	}
	r := n.args[1].exec(s)
	if bad(r) {
		return nil
	}
	if _, list := r.(traits.Lister); !list {
		if m, ok := r.(traits.Mapper); ok {
			if !s.add(1) {
				return nil
			}
			out := m.Contains(l)
			if bad(out) {
				return nil
			}
			return out
		}
	}
	base := len(s.stack)
	s.stack = append(s.stack, l, r)
	s.high = max(s.high, len(s.stack))
	out := n.finish(s, s.stack[base:])
	s.stack = s.stack[:base]
	return out
}

// call pushes the arguments on the stack above base and calls the
// function.
func (c *ncall) call(s *State, base int) ref.Val {
	for i, a := range c.args {
		var v ref.Val
		if i == 0 && c.unwrapFirst != nil {
			v = c.unwrapFirst.execUnwrapped(s)
		} else {
			v = a.exec(s)
		}
		if bad(v) {
			s.high = max(s.high, len(s.stack)) // (cleared when the state is released)
			return nil
		}
		s.stack = append(s.stack, v)
	}
	s.high = max(s.high, len(s.stack))
	return c.finish(s, s.stack[base:])
}

// finish calls the function on its arguments' values, vals, which are on
// the stack.
func (c *ncall) finish(s *State, vals []ref.Val) ref.Val {
	if c.guarded != nil {
		cost := c.guarded(vals, s.limit)
		if cost > s.limit || !s.add(cost) {
			return nil
		}
		if len(vals) > 2 {
			// A function of three or more arguments gets a slice of its
			// own, as cel-go gives it: it may keep it.
			vals = append([]ref.Val(nil), vals...)
		}
		out := c.exec1(vals)
		if bad(out) {
			return nil
		}
		return out
	}
	if c.trait != 0 && len(vals) > 0 && !vals[0].Type().HasTrait(c.trait) {
		return nil
	}
	var out ref.Val
	switch {
	case c.unary != nil:
		out = c.unary(vals[0])
	case c.binary != nil:
		out = c.binary(vals[0], vals[1])
	default:
		out = c.varargs(append([]ref.Val(nil), vals...)...)
	}
	if bad(out) || !s.add(1+celcost.Shallow(out)) {
		return nil
	}
	return out
}

// charged is out, what an unguarded function gave, charged as finish
// charges it; nil when the evaluation gives up.
func charged(s *State, out ref.Val) ref.Val {
	switch out.(type) {
	case types.Bool, types.Int, types.Double, types.Null:
		// (most results: one unit, shallow's 0 told by the type alone)
		if !s.add(1) {
			return nil
		}
		return out
	case nil, *types.Err, *types.Unknown:
		return nil
	}
	if !s.add(1 + celcost.Shallow(out)) {
		return nil
	}
	return out
}

// nlist and nmap are list and map literals with a value computed at run
// time: a unit, plus one per element (each key and value of a map).
type nlist struct {
	elems   []nnode
	adapter types.Adapter
}

func (l *nlist) exec(s *State) ref.Val {
	if !s.add(1 + uint64(len(l.elems))) {
		return nil
	}
	vals := make([]ref.Val, len(l.elems))
	for i, e := range l.elems {
		v := e.exec(s)
		if bad(v) {
			return nil
		}
		vals[i] = v
	}
	return types.NewRefValList(l.adapter, vals)
}

type nmap struct {
	keys, vals []nnode
	adapter    types.Adapter
}

func (m *nmap) exec(s *State) ref.Val {
	if !s.add(1 + 2*uint64(len(m.keys))) {
		return nil
	}
	entries := make(map[ref.Val]ref.Val, len(m.keys))
	for i, k := range m.keys {
		kv := k.exec(s)
		if bad(kv) {
			return nil
		}
		vv := m.vals[i].exec(s)
		if bad(vv) {
			return nil
		}
		entries[kv] = vv
	}
	return types.NewRefValMap(m.adapter, entries)
}

// nfold is a one-variable comprehension, as cel-go's evalFold runs it:
// the accumulator is initialised when first read, an empty list or map
// one as a mutable value, and the loop stops once its condition is false.
type nfold struct {
	depth          int // index in State.folds
	accuSlot, iter int
	accuInit       nnode
	rng            nnode
	cond, step     nnode
	result         nnode
	adapter        types.Adapter
}

func (f *nfold) accuValue(s *State) ref.Val {
	st := &s.folds[f.depth]
	if !st.initialized {
		st.initialized = true
		v := f.accuInit.exec(s)
		if bad(v) {
			return nil
		}
		if l, ok := v.(traits.Lister); ok && l.Size() == types.IntZero {
			st.mutable, st.emptyList = true, true
		}
		if m, ok := v.(traits.Mapper); ok && m.Size() == types.IntZero {
			v = types.NewMutableMap(f.adapter, map[ref.Val]ref.Val{})
			st.mutable = true
		}
		s.slots[f.accuSlot] = v
	}
	return s.slots[f.accuSlot]
}

// iterate runs one step of the loop on v: more is false when the loop
// condition ended it, ok false when the evaluation gives up.
func (f *nfold) iterate(s *State, st *foldState, v ref.Val) (more, ok bool) {
	if bad(v) {
		return false, false
	}
	s.slots[f.iter] = v
	c, isBool := f.cond.exec(s).(types.Bool)
	if !isBool {
		return false, false
	}
	if !c {
		return false, true
	}
	a := f.step.exec(s)
	if bad(a) {
		return false, false
	}
	if st.emptyList {
		// The step added to the empty list: what it gave (the same
		// elements, of the same size, as cel-go's mutable list holds by
		// then) becomes the mutable list later steps add to.
		if l, ok := a.(traits.Lister); ok && l.Size() != types.IntZero {
			m := types.NewMutableList(f.adapter)
			m.Add(a)
			a, st.emptyList = m, false
		}
	}
	s.slots[f.accuSlot] = a
	st.initialized = true
	return true, true
}

// exec runs the comprehension with the state of its depth saved, and
// restored after it: the accumulator's initial value, computed when first
// read, may run another comprehension of the same depth. A panic ends the
// evaluation (run), which then needs nothing restored.
func (f *nfold) exec(s *State) ref.Val {
	st := &s.folds[f.depth]
	saved := *st
	savedAccu, savedIter := s.slots[f.accuSlot], s.slots[f.iter]
	*st = foldState{}
	res := f.loop(s, st)
	*st = saved
	s.slots[f.accuSlot], s.slots[f.iter] = savedAccu, savedIter
	return res
}

func (f *nfold) loop(s *State, st *foldState) ref.Val {
	r := f.rng.exec(s)
	if bad(r) {
		return nil
	}
	if !forEach(r, func(v ref.Val) (more, ok bool) { return f.iterate(s, st, v) }) {
		return nil
	}
	s.slots[f.iter] = nil
	res := f.result.exec(s)
	if bad(res) {
		return nil
	}
	if st.mutable {
		if l, ok := res.(traits.MutableLister); ok {
			res = l.ToImmutableList()
		}
		if m, ok := res.(traits.MutableMapper); ok {
			res = m.ToImmutableMap()
		}
	}
	return res
}

// forEach calls step with each element of a comprehension's range r, as
// cel-go's fold gives them, until step says there is no more; false when
// the evaluation gives up (r is not iterable, or step gave up). A list is
// read by index and a map that lists its keys by position by position:
// the elements their iterators would give, in the same order, without
// allocating the iterator.
func forEach(r ref.Val, step func(ref.Val) (more, ok bool)) bool {
	switch c := r.(type) {
	case traits.Lister:
		n, ok := c.Size().(types.Int)
		if !ok {
			return false
		}
		for i := types.Int(0); i < n; i++ {
			if more, ok := step(c.Get(i)); !ok || !more {
				return ok
			}
		}
		return true
	case celtree.KeyLister:
		n, ok := c.Size().(types.Int)
		if !ok {
			return false
		}
		for i := 0; i < int(n); i++ {
			if more, ok := step(c.KeyAt(i)); !ok || !more {
				return ok
			}
		}
		return true
	}
	if !r.Type().HasTrait(traits.IterableType) {
		return false
	}
	for it := r.(traits.Iterable).Iterator(); it.HasNext() == types.True; {
		if more, ok := step(it.Next()); !ok || !more {
			return ok
		}
	}
	return true
}

// nativeCompiler builds a native plan from a checked AST, mirroring
// cel-go's planner and the guard's decorations.
type nativeCompiler struct {
	ast      *celast.AST
	env      Env
	adapter  types.Adapter
	provider types.Provider
	scopes   []nlocal
	slots    int
	depth    int
	folds    int
}

// nlocal is a comprehension variable in scope.
type nlocal struct {
	name string
	slot int
	accu *nfold // set for an accumulator
}

// Compile returns the native plan of a checked AST of env, or nil when the
// expression has a construct the evaluator does not cover.
func Compile(a *celast.AST, env Env) *Program {
	c := &nativeCompiler{ast: a, env: env, adapter: env.Adapter, provider: env.Provider}
	root, ok := c.compile(a.Expr())
	if !ok {
		return nil
	}
	return &Program{root: root, slots: c.slots, folds: c.folds, adapter: c.adapter}
}

func (c *nativeCompiler) lookup(name string) (nlocal, bool) {
	for i := len(c.scopes) - 1; i >= 0; i-- {
		if c.scopes[i].name == name {
			return c.scopes[i], true
		}
	}
	return nlocal{}, false
}

func (c *nativeCompiler) compile(e celast.Expr) (nnode, bool) {
	switch e.Kind() {
	case celast.LiteralKind:
		return &nconst{e.AsLiteral()}, true
	case celast.IdentKind:
		return c.ident(e, e.AsIdent())
	case celast.SelectKind:
		return c.selection(e)
	case celast.CallKind:
		return c.call(e)
	case celast.ListKind:
		return c.list(e)
	case celast.MapKind:
		return c.mapLiteral(e)
	case celast.ComprehensionKind:
		return c.comprehension(e)
	}
	return nil, false
}

func (c *nativeCompiler) ident(e celast.Expr, name string) (nnode, bool) {
	if ref, found := c.ast.ReferenceMap()[e.ID()]; found {
		if ref.Value != nil {
			return &nconst{ref.Value}, true
		}
		if t := c.ast.TypeMap()[e.ID()]; t != nil && t.Kind() == types.TypeKind {
			v, found := c.provider.FindIdent(ref.Name)
			if !found {
				return nil, false
			}
			return &nconst{v}, true
		}
		name = ref.Name
	} else if e.Kind() != celast.IdentKind {
		return nil, false
	}
	if strings.HasPrefix(name, ".") {
		return nil, false
	}
	ch := &nchain{local: -1, wrappers: 1, adapter: c.adapter}
	if l, ok := c.lookup(name); ok {
		if l.accu != nil {
			ch.accu = l.accu
		} else {
			ch.local = l.slot
		}
	} else {
		if _, found := c.ast.ReferenceMap()[e.ID()]; !found {
			return nil, false // an unchecked name: a maybe-attribute in cel-go
		}
		ch.name = name
	}
	return ch, true
}

// base returns the chain a selection of op extends: op's own when op is a
// plain attribute, a relative attribute over op otherwise; false for a
// conditional or a presence test, which this evaluator does not extend.
func (c *nativeCompiler) base(op nnode) (*nchain, bool) {
	switch o := op.(type) {
	case *nchain:
		if o.testOnly {
			return nil, false
		}
		cp := *o
		cp.steps = append([]nstep(nil), o.steps...)
		return &cp, true
	case *ncond:
		return nil, false
	}
	// cel-go's planner decorates the relative attribute it builds over
	// the operand: one wrapper, before the one of the selection itself.
	return &nchain{local: -1, operand: op, wrappers: 1, adapter: c.adapter}, true
}

func (c *nativeCompiler) selection(e celast.Expr) (nnode, bool) {
	if _, found := c.ast.ReferenceMap()[e.ID()]; found {
		return c.ident(e, "")
	}
	sel := e.AsSelect()
	op, ok := c.compile(sel.Operand())
	if !ok {
		return nil, false
	}
	ch, ok := c.base(op)
	if !ok {
		return nil, false
	}
	ch.steps = append(ch.steps, nstep{key: types.String(sel.FieldName()), name: sel.FieldName()})
	if sel.IsTestOnly() {
		// has(): cel-go's presence test resolves its operand's attribute
		// without executing its wrappers, and is itself wrapped once.
		ch.testOnly = true
		ch.wrappers = 1
	} else {
		ch.wrappers++
	}
	ch.setPlain()
	return ch, true
}

func (c *nativeCompiler) call(e celast.Expr) (nnode, bool) {
	call := e.AsCall()
	fn := call.FunctionName()
	r, found := c.ast.ReferenceMap()[e.ID()]
	if !found || strings.HasPrefix(fn, "cel.@") {
		return nil, false
	}
	overload := ""
	if len(r.OverloadIDs) == 1 {
		overload = r.OverloadIDs[0]
	}
	var argExprs []celast.Expr
	if call.IsMemberFunction() {
		argExprs = append(argExprs, call.Target())
	}
	argExprs = append(argExprs, call.Args()...)
	args := make([]nnode, len(argExprs))
	for i, a := range argExprs {
		n, ok := c.compile(a)
		if !ok {
			return nil, false
		}
		args[i] = n
	}
	switch fn {
	case "_&&_":
		if len(args) != 2 {
			return nil, false
		}
		return &nlogic{l: args[0], r: args[1], stop: types.False}, true
	case "_||_":
		if len(args) != 2 {
			return nil, false
		}
		return &nlogic{l: args[0], r: args[1], stop: types.True}, true
	case "_?_:_":
		return newCond(args[0], args[1], args[2]), true
	case "_==_", "_!=_":
		eq := &nequal{l: args[0], r: args[1], negate: fn == "_!=_"}
		if ch, ok := args[0].(*nchain); ok && !ch.testOnly {
			eq.lchain = ch
		}
		return eq, true
	case "_[_]":
		return c.index(args, false)
	case "_[?_]", "_?._":
		return c.index(args, true)
	case "or", "orValue":
		if len(args) == 2 && (overload == "" || overload == "optional_or_optional" && fn == "or" || overload == "optional_orValue_value" && fn == "orValue") {
			return &nopt{l: args[0], r: args[1], orValue: fn == "orValue"}, true
		}
	}
	var pattern ref.Val
	if len(args) == 2 {
		if k, ok := args[1].(*nconst); ok {
			pattern = k.v
		}
	}
	if cost, exec, ok := c.env.Guarded(fn, overload, len(args), pattern); ok {
		call := &ncall{args: args, guarded: cost, exec1: exec}
		if fn == "@in" && len(args) == 2 && (overload == "" || overload == overloads.InMap) {
			return &nin{call}, true
		}
		return call, true
	}
	var impl *functions.Overload
	if overload != "" {
		impl = c.env.Overload(overload)
	}
	if impl == nil {
		impl = c.env.Overload(fn)
	}
	if impl == nil || impl.Async != nil {
		return nil, false
	}
	nc := &ncall{args: args, trait: impl.OperandTrait, fn: fn}
	if c.env.UnwrapsOptional != nil && c.env.UnwrapsOptional(overload) {
		if ch, ok := args[0].(*nchain); ok && !ch.testOnly {
			nc.unwrapFirst = ch
		}
	}
	switch n := len(args); {
	case n == 0:
		if impl.Function == nil {
			return nil, false
		}
		nc.varargs = impl.Function
	case n == 1 && !(impl.Unary == nil && impl.Function != nil):
		if impl.Unary == nil {
			return nil, false
		}
		nc.unary = impl.Unary
	case n == 2 && !(impl.Binary == nil && impl.Function != nil):
		if impl.Binary == nil {
			return nil, false
		}
		nc.binary = impl.Binary
	default:
		if impl.Function == nil {
			return nil, false
		}
		nc.varargs = impl.Function
	}
	switch {
	case foldable(fn) && constants(args):
		return fold(nc), true
	case overload == "optional_of" && nc.unary != nil && nc.trait == 0:
		return &nof{arg: args[0], unary: nc.unary}, true
	case fn == "@not_strictly_false" && nc.unary != nil && nc.trait == 0 && nc.unwrapFirst == nil:
		return &nnsf{arg: args[0], unary: nc.unary}, true
	}
	return nc, true
}

// index is op[i], op[?i] and op.?f, which extend op's attribute.
func (c *nativeCompiler) index(args []nnode, optional bool) (nnode, bool) {
	ch, ok := c.base(args[0])
	if !ok {
		return nil, false
	}
	st := nstep{optional: optional}
	switch k := args[1].(type) {
	case *nconst:
		switch k.v.(type) {
		case types.String, types.Int:
			st.key = k.v
			if name, ok := k.v.(types.String); ok {
				st.name = string(name)
			}
		default:
			return nil, false
		}
	case *nchain:
		if k.testOnly {
			return nil, false
		}
		st.keyAttr = k
	case *ncond:
		st.keyAttr = k
	default:
		st.keyExpr = k
	}
	ch.steps = append(ch.steps, st)
	ch.setPlain()
	ch.wrappers++
	return ch, true
}

func (c *nativeCompiler) list(e celast.Expr) (nnode, bool) {
	l := e.AsList()
	if len(l.OptionalIndices()) > 0 {
		return nil, false
	}
	elems := make([]nnode, len(l.Elements()))
	allConst := true
	for i, x := range l.Elements() {
		n, ok := c.compile(x)
		if !ok {
			return nil, false
		}
		_, isConst := n.(*nconst)
		allConst = allConst && isConst
		elems[i] = n
	}
	if allConst {
		vals := make([]ref.Val, len(elems))
		for i, n := range elems {
			vals[i] = n.(*nconst).v
		}
		return &nconst{types.NewRefValList(c.adapter, vals)}, true
	}
	return &nlist{elems: elems, adapter: c.adapter}, true
}

func (c *nativeCompiler) mapLiteral(e celast.Expr) (nnode, bool) {
	m := e.AsMap()
	keys := make([]nnode, 0, len(m.Entries()))
	vals := make([]nnode, 0, len(m.Entries()))
	allConst := true
	for _, en := range m.Entries() {
		if en.Kind() != celast.MapEntryKind {
			return nil, false
		}
		me := en.AsMapEntry()
		if me.IsOptional() {
			return nil, false
		}
		k, ok := c.compile(me.Key())
		if !ok {
			return nil, false
		}
		v, ok := c.compile(me.Value())
		if !ok {
			return nil, false
		}
		_, kc := k.(*nconst)
		_, vc := v.(*nconst)
		allConst = allConst && kc && vc
		keys, vals = append(keys, k), append(vals, v)
	}
	if allConst {
		entries := make(map[ref.Val]ref.Val, len(keys))
		for i := range keys {
			entries[keys[i].(*nconst).v] = vals[i].(*nconst).v
		}
		return &nconst{types.NewRefValMap(c.adapter, entries)}, true
	}
	return &nmap{keys: keys, vals: vals, adapter: c.adapter}, true
}

func (c *nativeCompiler) comprehension(e celast.Expr) (nnode, bool) {
	comp := e.AsComprehension()
	if comp.IterVar2() != "" {
		return nil, false
	}
	f := &nfold{depth: c.depth, adapter: c.adapter}
	var ok bool
	if f.accuInit, ok = c.compile(comp.AccuInit()); !ok {
		return nil, false
	}
	if f.rng, ok = c.compile(comp.IterRange()); !ok {
		return nil, false
	}
	c.depth++
	c.folds = max(c.folds, c.depth)
	defer func() { c.depth-- }()
	f.accuSlot, f.iter = c.slots, c.slots+1
	c.slots += 2
	n := len(c.scopes)
	c.scopes = append(c.scopes, nlocal{name: comp.AccuVar(), slot: f.accuSlot, accu: f}, nlocal{name: comp.IterVar(), slot: f.iter})
	if f.cond, ok = c.compile(comp.LoopCondition()); !ok {
		return nil, false
	}
	if f.step, ok = c.compile(comp.LoopStep()); !ok {
		return nil, false
	}
	c.scopes = c.scopes[:n+1] // the result sees the accumulator only
	f.result, ok = c.compile(comp.Result())
	c.scopes = c.scopes[:n]
	if !ok {
		return nil, false
	}
	if q := quantifier(f); q != nil {
		return q, true
	}
	return f, true
}

// nquant is a comprehension of the all or exists macro (quantifier tells
// one by its compiled shape): the predicate's value is the accumulator's
// next value until it is stop. It runs the loop nfold runs, and charges
// what its condition, step and result would, without reading the
// accumulator: the condition costs condCost, the step stepCost before
// the predicate's own, and the result resultCost.
type nquant struct {
	f                              *nfold // its range and iteration variable
	pred                           nnode
	stop                           types.Bool // all: false; exists: true
	condCost, stepCost, resultCost uint64
}

// quantifier returns the nquant that runs f, when f is the expansion of
// all (accumulator true, condition @not_strictly_false(accu), step
// accu && pred, result accu) or exists (false, @not_strictly_false(!accu),
// accu || pred, accu); nil otherwise.
func quantifier(f *nfold) nnode {
	init, ok := f.accuInit.(*nconst)
	if !ok {
		return nil
	}
	start, ok := init.v.(types.Bool)
	if !ok {
		return nil
	}
	step, ok := f.step.(*nlogic)
	if !ok || step.stop == start {
		return nil
	}
	accu := func(n nnode) (uint64, bool) {
		ch, ok := n.(*nchain)
		if !ok || ch.accu != f || len(ch.steps) > 0 || ch.testOnly {
			return 0, false
		}
		return ch.wrappers, true
	}
	stepCost, ok1 := accu(step.l)
	resultCost, ok2 := accu(f.result)
	cond, ok3 := f.cond.(*nnsf)
	if !ok1 || !ok2 || !ok3 {
		return nil
	}
	var condCost uint64
	if start { // all: @not_strictly_false(accu), one unit for a bool
		w, ok := accu(cond.arg)
		if !ok {
			return nil
		}
		condCost = w + 1
	} else { // exists: @not_strictly_false(!accu), a unit for each call
		not, ok := cond.arg.(*ncall)
		if !ok || not.fn != "!_" || not.guarded != nil || not.unwrapFirst != nil || not.unary == nil || len(not.args) != 1 {
			return nil
		}
		w, ok := accu(not.args[0])
		if !ok {
			return nil
		}
		condCost = w + 2
	}
	return &nquant{f: f, pred: step.r, stop: step.stop, condCost: condCost, stepCost: stepCost, resultCost: resultCost}
}

// step runs the loop's condition and step on v; more is false once the
// accumulator is stop, ok false when the evaluation gives up.
func (q *nquant) step(s *State, acc *types.Bool, v ref.Val) (more, ok bool) {
	if bad(v) || !s.add(q.condCost) {
		return false, false
	}
	if *acc == q.stop {
		return false, true // the condition ends the loop
	}
	s.slots[q.f.iter] = v
	if !s.add(q.stepCost) {
		return false, false
	}
	b, isBool := q.pred.exec(s).(types.Bool)
	if !isBool {
		return false, false
	}
	*acc = b // (accu && pred, accu || pred: accu is not stop here)
	return true, true
}

func (q *nquant) exec(s *State) ref.Val {
	f := q.f
	saved := s.slots[f.iter]
	res := q.loop(s)
	s.slots[f.iter] = saved
	return res
}

func (q *nquant) loop(s *State) ref.Val {
	f := q.f
	r := f.rng.exec(s)
	if bad(r) {
		return nil
	}
	acc := !q.stop
	if !forEach(r, func(v ref.Val) (more, ok bool) { return q.step(s, &acc, v) }) {
		return nil
	}
	s.slots[f.iter] = nil
	if !s.add(q.resultCost) {
		return nil
	}
	return acc
}
