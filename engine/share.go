package engine

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/celint/celint/loader"
	"github.com/google/cel-go/common/types"
)

// Rules that test the same thing in the same way, and differ only in what
// they say (their ids, levels, messages and locations), are linted once:
// on a large document the first of them, the leader, evaluates each node
// and records what it found, and the others, its followers, report the
// same findings with their own messages. Each follower is charged the
// cost the leader's evaluation had, as if it had evaluated the node
// itself, so budgets, the costs --stats prints and the diagnostics are
// what they would be without sharing. Wherever a follower could not tell
// that its own evaluation would end the same way (the leader met an
// error, came near its budget, or stopped), the follower lints the node
// itself.

// reuse is where a variable's value may be reused beyond the frame that
// computed it.
type reuse struct {
	// share, for a rule's document variable that reads only root and the
	// ruleset's document variables, names its value: rules whose variables
	// have the same share key compute it once per document (see
	// sharedVars). Zero for any other variable.
	share shareKey
	// perScope: the variable reads nothing but scope, root and variables
	// that are themselves the same for every node of a document or of a
	// scope; a rule's run evaluates it once per distinct scope.
	perScope bool
}

// logicKey returns what a rule's evaluation on a node depends on, as
// written: its selection, preconditions, variables and checks' tests, but
// not its id, level, messages or locations. Rules of one ruleset with the
// same non-empty key give the same verdicts on every node; their schema
// fragments, which no check reads and nothing charges, may differ (each
// follower validates its own). It is "" for a rule whose findings depend
// on more than its checks (resolved references), or that has a
// precondition on the node's shape: those are never shared.
func logicKey(spec *loader.RuleSpec, env any) string {
	if spec.Resolve || len(spec.DocVariables) > maxSharedDocVars ||
		spec.Assume != nil && spec.Assume.Expr == nil || len(spec.Checks) == 0 {
		return ""
	}
	var b strings.Builder
	field := func(s string) {
		// Length-prefixed, so that no text can look like two.
		b.WriteString(strconv.Itoa(len(s)))
		b.WriteByte(':')
		b.WriteString(s)
	}
	expr := func(e *loader.Expr) {
		if e == nil {
			field("-")
			return
		}
		field("+" + e.Text)
	}
	scope := func(s loader.Scope) {
		field(s.Key)
		field(strconv.FormatBool(s.Independent))
		field(strconv.Itoa(len(s.Values)))
		for _, v := range s.Values {
			field(v)
		}
		field(s.From)
		field(s.Until)
	}
	assume := func(a *loader.Assume) {
		if a == nil {
			expr(nil)
			return
		}
		expr(a.Expr) // (an expression: shapes are not shared)
	}
	vars := func(vs loader.Vars) {
		field(strconv.Itoa(len(vs)))
		for _, v := range vs {
			field(v.Name)
			expr(&v.Expr)
		}
	}
	fmt.Fprintf(&b, "%p;", env)
	field(strconv.Itoa(len(spec.Given)))
	for _, g := range spec.Given {
		field(g.Value)
	}
	assume(spec.Assume)
	expr(spec.When)
	scope(spec.Doc.Scope)
	vars(spec.DocVariables)
	vars(spec.Variables)
	field(strconv.Itoa(len(spec.Checks)))
	for i := range spec.Checks {
		c := &spec.Checks[i]
		if c.Assume != nil && c.Assume.Expr == nil {
			return ""
		}
		scope(c.Scope)
		assume(c.Assume)
		expr(c.Each)
		expr(c.When)
		expr(c.Assert)
		expr(c.Forbid)
	}
	return b.String()
}

// maxSharedDocVars is the most document variables a rule linted once
// for several may have (shareRec.docDone has a bit for each).
const maxSharedDocVars = 64

// unshareable reports whether a compiled rule must lint every node itself:
// when a check's message, location or pointer reads one of the rule's
// variables, or a variable is computed once per scope. A follower would
// then compute a variable where the leader had it already, and be charged
// differently.
func unshareable(r *Rule) bool {
	names := make([]string, 0, len(r.vars)+len(r.docVars))
	for _, v := range slices.Concat(r.docVars, r.vars) {
		names = append(names, v.name)
	}
	reads := func(p *program) bool {
		if p == nil {
			return false
		}
		for _, name := range p.FreeVariables() {
			if slices.Contains(names, name) {
				return true
			}
		}
		return false
	}
	for _, c := range r.checks {
		if reads(c.pointer) || reads(c.msgExpr) {
			return true
		}
		for _, t := range []template{c.at, c.message} {
			for _, p := range t {
				if reads(p.expr) {
					return true
				}
			}
		}
	}
	// A fix, and a schema finding's messageExpression, is computed where
	// its finding is reported, in the frames the rule's own evaluation has.
	if r.Fixable || r.schemaMsgs != nil {
		return true
	}
	return slices.ContainsFunc(r.vars, func(v *variable) bool { return v.perScope })
}

// shareState is what a rule linted once for several keeps: a leader's
// followers and what it found on its last node; a follower's leader while
// it follows it, and how many nodes it took over from it.
type shareState struct {
	followers []*ruleRun
	rec       shareRec
	leader    *ruleRun
	replayed  int
}

// leads reports whether the run has followers.
func (rr *ruleRun) leads() bool { return rr.share != nil && rr.share.followers != nil }

// taken is how many nodes the run took over from its leader; 0 for a run
// without a share.
func (sh *shareState) taken() int {
	if sh == nil {
		return 0
	}
	return sh.replayed
}

// shareRec is what a leader found on the node it linted last, for its
// followers.
type shareRec struct {
	index int          // the node's place in the selection; -1: none yet
	node  *loader.Node // the node
	// ok: the leader's evaluation ended without error and never took a
	// path that depends on how much of its budget was left (fail).
	ok, fail bool
	// passed: the node passed the rule's preconditions, so that its
	// schema and checks were evaluated.
	passed bool
	start  uint64 // the leader's cost before the node
	// docDone has a bit for each of the rule's document variables that the
	// leader had computed before the node: what a follower that lints the
	// node itself would have computed by then too.
	docDone uint64
	render  uint64 // what the leader spent making its own findings' texts
	total   uint64 // what the evaluation cost, without render
	events  []shareEvent
}

// shareEvent is one finding of the leader's: the check, what its
// evaluation had cost before it, and the item it was about.
type shareEvent struct {
	check   int
	cost    uint64
	each    bool   // found on an item of the check's 'each'
	vals    [3]any // the item's frame values: item, index, key
	at, msg string // a violation list's own location and message
}

// record notes the finding of check c in frame fr, before the leader
// makes its texts, when the run is recording for its followers; done,
// called after, counts what making them cost.
func (rr *ruleRun) record(c *check, fr *frame, at, msg string) (done func()) {
	if !rr.recording {
		return nothing
	}
	rec := &rr.share.rec
	k := slices.Index(rr.rule.checks, c)
	if k < 0 {
		rec.fail = true
		return nothing
	}
	ev := shareEvent{check: k, cost: rr.spend.cost - rec.start - rec.render, at: at, msg: msg}
	if fr.node.rr == nil {
		ev.each = true
		copy(ev.vals[:], fr.vals)
	}
	rec.events = append(rec.events, ev)
	before := rr.spend.cost
	return func() { rec.render += rr.spend.cost - before }
}

// nothing is what record returns when there is nothing to count.
func nothing() {}

// recordPassed notes, when the run is recording for its followers, that
// the node passed the rule's preconditions (followers validate their own
// schemas).
func (rr *ruleRun) recordPassed() {
	if rr.recording {
		rr.share.rec.passed = true
	}
}

// recordRender notes, when the run is recording for its followers, what
// its own schema's validation cost: a follower charges its own (replay).
func (rr *ruleRun) recordRender(work uint64) {
	if rr.recording {
		rr.share.rec.render += work
	}
}

// recordFail notes, when the run is recording for its followers, that the
// evaluation took a path that depends on how much of its budget was left:
// followers lint the node themselves.
func (rr *ruleRun) recordFail() {
	if rr.recording {
		rr.share.rec.fail = true
	}
}

// followStep lints the node its leader linted last: by taking over the
// leader's findings when it can, else by linting the node itself. False
// when the follower's run is over.
func (rr *ruleRun) followStep() bool {
	rec := &rr.share.leader.share.rec
	i, n := rec.index, rec.node
	if i != rr.next {
		return rr.next < len(rr.sel) // the leader stopped before this node
	}
	rr.next++
	if i%deadlineStride == 0 && rr.spend.expired() {
		rr.ruleError(n, rr.stopped())
		return false
	}
	if rec.ok && rr.replay(n, rec) {
		rr.share.replayed++
		return rr.next < len(rr.sel)
	}
	rr.takeDocVars(rec.docDone)
	return rr.settle(n, rr.lintNode(rr.ruleFrame, n))
}

// docVarsDone returns a bit for each of the rule's document variables
// computed so far; bad is true when one of them is an error.
func (rr *ruleRun) docVarsDone() (done uint64, bad bool) {
	for k := range rr.ruleFrame.lazy {
		if l := &rr.ruleFrame.lazy[k]; l.done {
			done |= 1 << k
			bad = bad || types.IsError(l.val)
		}
	}
	return done, bad
}

// takeDocVars gives a follower that is about to lint a node itself the
// document variables its leader had computed before the node, and it had
// been charged for with the nodes it took over: alone, it would have
// computed them on those nodes. None is an error: the leader's node on
// which one became an error is linted by each follower itself.
func (rr *ruleRun) takeDocVars(done uint64) {
	mine, theirs := rr.ruleFrame.lazy, rr.share.leader.ruleFrame.lazy
	for k := range mine {
		if done&(1<<k) != 0 && !mine[k].done {
			mine[k].done, mine[k].val = true, theirs[k].val
		}
	}
}

// replay reports the leader's findings on n as the follower's own, and
// charges the follower what the leader's evaluation cost. It changes
// nothing and returns false when that would not be what the follower's
// own evaluation gives: when the follower's budget would run out on the
// node, or making a finding's text fails.
func (rr *ruleRun) replay(n *loader.Node, rec *shareRec) bool {
	s := &rr.spend
	if s.over != nil {
		return false
	}
	base, outs, findings, errs := s.cost, len(rr.out), rr.findings, rr.errors
	undo := func() bool {
		s.cost, s.over = base, nil
		clear(rr.out[outs:])
		rr.out, rr.findings, rr.errors = rr.out[:outs], findings, errs
		return false
	}
	var extra uint64 // what the follower's own schema and texts cost
	if rec.passed && rr.rule.schema != nil {
		// Charged, as lintNode validates it (the leader's own validation
		// is not in its record).
		before := s.cost
		vs, err := rr.validateSchema(docTree{n})
		if err != nil {
			return undo()
		}
		extra = s.cost - before
		for _, v := range vs {
			rr.report(n, v.Pointer, v.Message, nil)
		}
	}
	if len(rec.events) > 0 {
		fr := rr.newNodeFrame(rr.ruleFrame, n)
		var item frame
		for _, ev := range rec.events {
			s.cost = base + ev.cost + extra
			if s.budget > 0 && s.cost > s.budget {
				return undo()
			}
			at := fr
			if ev.each {
				item = frame{parent: fr, names: eachNames}
				item.vals = item.buf[:3]
				copy(item.vals, ev.vals[:])
				at = &item
			}
			before := s.cost
			if err := rr.violation(rr.rule.checks[ev.check], n, at, ev.at, ev.msg); err != nil || s.over != nil {
				return undo()
			}
			extra += s.cost - before
		}
	}
	s.cost = base + rec.total + extra
	if s.budget > 0 && s.cost > s.budget {
		return undo()
	}
	return true
}

// mayFollow reports whether rr, which began, may follow lead, which began
// too and whose followers rr's rule is among: both compiled as rules that
// may be linted once, and they select the same nodes.
func (rr *ruleRun) mayFollow(lead *ruleRun) bool {
	return rr.rule.sched.sharable && lead.rule.sched.sharable && lead.next == 0 &&
		len(lead.sel) == len(rr.sel) && len(lead.sel) > 0 && &lead.sel[0] == &rr.sel[0]
}
