package engine

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/google/cel-go/common/types"
	"github.com/google/cel-go/common/types/ref"
	"github.com/google/cel-go/common/types/traits"

	"github.com/celint/celint/cel"
	"github.com/celint/celint/internal/celnative"
	"github.com/celint/celint/internal/celtree"
	"github.com/celint/celint/internal/jsonpointer"
	"github.com/celint/celint/loader"
)

// DefaultBudget bounds the total CEL cost one rule may spend on one document.
const DefaultBudget = 50_000_000

// DocumentCostLimit is the per-evaluation cost limit of document
// variables (a ruleset's `variables`, a rule's `documentVariables`): they
// are evaluated once per document, and their work grows with it, so they
// may spend up to the default budget in one evaluation where a node's
// expressions may spend the environment's limit.
const DocumentCostLimit = DefaultBudget

// DefaultRuleTimeout is the wall-clock safety net behind a rule's cost
// budget on one document. What a rule may do is bounded by its budget, in
// units that do not depend on the machine or its load, so that the same
// inputs give the same diagnostics however many files run at once; the
// time limit sits far above what any rule within its budget takes, and
// only stops one that escapes the budget (a Go function an embedding
// program added without a cost, say).
const DefaultRuleTimeout = 10 * time.Minute

// maxRuleErrors is how many rule errors one rule reports on one document
// before it gives up on that document.
const maxRuleErrors = 10

// LintOptions tune one evaluation.
type LintOptions struct {
	// Filter keeps the rules it returns true for; nil keeps all.
	Filter func(*Rule) bool
	// Budget bounds the CEL cost one rule may spend on one document; 0 means
	// DefaultBudget.
	Budget uint64
	// RuleTimeout bounds the time one rule may spend on one document,
	// counted from when the rules linting the document with it start (on a
	// large document, rules that select the same nodes lint them together,
	// a few nodes at a time); 0 means DefaultRuleTimeout.
	RuleTimeout time.Duration
	// Workers is how many goroutines lint the document, each taking
	// groups of its rules in turn; 0 or 1 lints on the caller's. The diagnostics
	// are the same whatever the number.
	Workers int
	// Stats, when not nil, is called once per rule that ran, after the
	// document's rules have all run, in the order of the rules.
	Stats func(RuleStats)
	// MaxDiagnostics, when positive, bounds the findings Lint keeps: the
	// first MaxDiagnostics in the order of SortDiagnostics, the same
	// whatever the number of workers. The others are only counted (see
	// Omitted), so that what a lint holds stays bounded however many
	// findings its rules report. Rule errors are always kept, beyond the
	// bound. 0 keeps every finding.
	MaxDiagnostics int
	// Omitted, when not nil, is called once after the lint, when
	// MaxDiagnostics left findings out, with their counts by severity.
	Omitted func(Counts)
	// Adjust, when not nil, is called with each finding before
	// MaxDiagnostics applies: it may change the finding (its severity,
	// say), and returns false to drop it, which is then neither kept nor
	// counted. It sees each finding once: a repetition of one (the same
	// rule, place and message, reached again through another reference)
	// is merged into the first, or dropped with it. It is not called with
	// rule errors. Calls come one at a time, and each rule's findings in
	// the order the rule reports them.
	Adjust func(*Diagnostic) bool

	// oneByOne lints one rule after the other whatever the document's
	// size: what the interleaved lint must give (the tests compare them).
	oneByOne bool
}

// RuleStats is what one rule spent on one document: the nodes it was
// asked about, the CEL cost it was charged (the same on every machine),
// the wall-clock time it took (not), and of that time what compiling the
// rule took, for a rule loaded lazily that compiled on this document.
type RuleStats struct {
	Rule     *Rule
	Nodes    int
	Cost     uint64
	Duration time.Duration
	Compile  time.Duration
	// Shared is how many of the nodes the rule did not evaluate itself:
	// another rule that tests the same thing did, and the rule reported
	// its findings (see LintOptions).
	Shared int
}

var (
	// ErrBudget is the cause of a rule error for a rule that spent its
	// LintOptions.Budget on a document.
	ErrBudget = errors.New("budget exhausted")
	// ErrRuleTimeout is the cause of a rule error for a rule that ran
	// longer than LintOptions.RuleTimeout on a document.
	ErrRuleTimeout = errors.New("rule time limit reached")
)

// stopped explains why the rule's context ended, when its document's
// context did not: the rule ran out of time.
func (rr *ruleRun) stopped() error {
	return &loader.Error{File: rr.rule.File, Pos: rr.rule.Pos, Err: ErrRuleTimeout,
		Msg: fmt.Sprintf("rule %s ran longer than %v on this document and was stopped by the wall-clock safety net behind its cost budget; unlike the budget, this limit depends on the machine and its load", rr.rule.ID, rr.opts.RuleTimeout)}
}

// forget drops what the library's caches keep for doc's values: they
// keep a document's schemas by their nodes, which would keep the document
// alive after its lint.
func (rs *Ruleset) forget(doc *loader.Document) {
	if rs.caches == nil {
		return
	}
	rs.caches.ForgetOwner(doc.Root)
}

// Lint evaluates the ruleset's rules on doc and returns the diagnostics,
// sorted. A failing rule yields a diagnostic marked RuleError and does not
// stop the other rules. When ctx ends, Lint stops and returns ctx.Err().
//
// On a large document, rules that test the same thing (the same
// selection, preconditions, variables and checks, whatever their ids,
// levels and messages) are evaluated once per node: each reports the
// findings with its own messages and is charged the evaluation's cost, so
// what each finds and spends is what it would alone (RuleStats.Shared
// counts the nodes).
func (rs *Ruleset) Lint(ctx context.Context, doc *loader.Document, opts LintOptions) ([]Diagnostic, error) {
	if opts.Budget == 0 {
		opts.Budget = DefaultBudget
	}
	if opts.RuleTimeout == 0 {
		opts.RuleTimeout = DefaultRuleTimeout
	}
	l := &linter{ctx: ctx, rs: rs, doc: doc, opts: opts, shared: spend{budget: opts.Budget}, found: newCollector(opts)}
	l.found.path = rs.pathsOf(doc)
	defer rs.forget(doc)
	l.docFrame = &frame{names: docNames, vals: []any{celValue(doc.Root)}}
	l.docFrame.addLazy(ctx, rs.docVars, &l.shared)
	// The ruleset's document variables are evaluated first, in the order
	// they are declared, whatever the rules read: what they cost against
	// their shared budget then does not depend on which rule reads first.
	for i := range l.docFrame.lazy {
		l.docFrame.get(&l.docFrame.lazy[i])
	}
	var rules []*Rule
	for _, r := range rs.Rules {
		if opts.Filter == nil || opts.Filter(r) {
			rules = append(rules, r)
		}
	}
	if opts.Stats != nil {
		l.stats = make([]RuleStats, len(rules))
	}
	// Each rule lints the nodes it selects one after the other
	// (lintNode). How the rules take turns, and on which workers, is the
	// scheduler's (schedule.go): it changes nothing they find or spend.
	l.lintAll(rules)
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	for _, st := range l.stats {
		if st.Rule != nil {
			opts.Stats(st)
		}
	}
	ds, omitted := l.found.result()
	if opts.Omitted != nil && omitted != (Counts{}) {
		opts.Omitted(omitted)
	}
	return ds, nil
}

// selected returns the nodes the rule's paths select, each once, in the
// order of its paths. What a path, or a rule's paths together, select is
// computed once per document, whichever rules select by them. The slices
// are shared: read only.
func (l *linter) selected(r *Rule) ([]*loader.Node, error) {
	if len(r.given) == 1 {
		c := l.selection(r.given[0])
		return c.nodes, c.err
	}
	c := l.memo(r.givenKey(), func() (c pathNodes) {
		parts := make([]pathNodes, len(r.given))
		total := 0
		for i, sel := range r.given {
			parts[i] = l.selection(sel)
			if parts[i].err != nil {
				return pathNodes{err: parts[i].err}
			}
			total += len(parts[i].nodes)
		}
		c.nodes = make([]*loader.Node, 0, total)
		// A node two paths select is kept where the first selects it.
		// Paths rarely overlap: the set of nodes seen is built only when
		// some node is selected twice.
		seen := overlapping(parts, total)
		for _, sc := range parts {
			for _, n := range sc.nodes {
				if seen != nil {
					if seen[n] {
						continue
					}
					seen[n] = true
				}
				c.nodes = append(c.nodes, n)
			}
		}
		return c
	})
	return c.nodes, c.err
}

// compact reports each finding of sorted diagnostics once: a value
// referenced from several places is checked at each of them, and its
// findings then carry every use site as a related position. The
// collector merges the repeated findings as they come; what is left here
// are the repeated rule errors.
func compact(ds []Diagnostic) []Diagnostic {
	out := ds[:0]
	for _, d := range ds {
		if n := len(out); n > 0 && sameFinding(out[n-1], d) {
			for _, rel := range d.Related {
				if !slices.Contains(out[n-1].Related, rel) {
					out[n-1].Related = append(out[n-1].Related, rel)
				}
			}
			continue
		}
		out = append(out, d)
	}
	return out
}

type linter struct {
	ctx      context.Context
	rs       *Ruleset
	doc      *loader.Document
	opts     LintOptions
	docFrame *frame
	shared   spend // cost of the ruleset's document variables

	refs      *resolver // nil when the ruleset has no references; built on first use
	scopeOnce sync.Once
	plainOnce sync.Once
	plain     []map[string]string    // plainScalars
	declared  map[*loader.Node]int32 // the holders that declare a scope, by their scope's place in scopeVals
	scopeVals []any                  // the default scope (that of a node none of whose ancestors declares one), then the declared ones

	selMu      sync.Mutex
	selections map[string]*selectionEntry // by path text, or a rule's paths' (Rule.givenKey)

	sharedVars sharedVars // the rules' shareable document variables

	found *collector // the diagnostics the rules reported so far

	stats []RuleStats // by rule, when LintOptions.Stats is set; each written by its rule's goroutine
}

// spend counts CEL cost against a budget.
type spend struct {
	cost     uint64
	budget   uint64
	over     error     // set once the budget is exhausted
	deadline time.Time // the rule's wall-clock safety net; zero: none
	// in, when not nil, brings evaluations charged here the Scratch they
	// reuse, with their frame: a rule's run is one goroutine's
	// (lintRules); the document variables' spend, which rules share, has
	// none.
	in *celnative.Input
}

// deadlineStride is how many nodes a rule's run lints between two reads
// of the clock for its deadline.
const deadlineStride = 16

// expired reports whether the rule ran past its deadline.
func (s *spend) expired() bool { return !s.deadline.IsZero() && time.Now().After(s.deadline) }

// ruleRun is the evaluation of one rule on one document.
type ruleRun struct {
	*linter
	ctx   context.Context // the document's context, with the rule's time limit
	rule  *Rule
	spend spend
	// errors, findings, nodes, index and collected are 4 bytes each, so
	// that a run takes 360 bytes: the runs of the embedded ruleset's 91
	// rules, made for every document, fit in 32 KiB.
	errors   int32
	findings int32
	nodes    int32 // selected nodes asked about
	index    int32 // the rule's place among the document's rules
	// collected counts the diagnostics of out handed to the collector.
	collected int32
	// A leader is recording while it lints a node for its followers.
	recording bool
	compile   time.Duration // spent in Rule.ready, for stats
	elapsed   time.Duration // spent in the rule's steps, for stats
	// A rule linted once for several (see share.go) has share.
	share *shareState

	// The rule's nodes, the next to lint, and the frame of its document
	// variables (begin); the nodes' scopes, once one is read (nodeScope).
	sel       []*loader.Node
	scopes    []int32 // places in linter.scopeVals
	next      int
	ruleFrame *frame
	memo      map[memoKey]ref.Val // per-scope variables' values, by scope
	out       []Diagnostic        // this rule's diagnostics on the document not yet collected

	// Frames and scratch space reused from node to node: nothing keeps a
	// frame once the node's evaluation returns.
	nodeFrame, eachFrame *frame
	// nodeSeq numbers the rule's node frames, and each is the last value
	// of a check's 'each' (evalEach).
	nodeSeq     uint64
	each        eachMemo
	eachKeys    []eachKey
	eachMembers []*loader.Node
}

// collect hands the collector the diagnostics rr reported since the last
// time. It is called between steps: within one, a follower may take back
// what it reported (replay).
func (l *linter) collect(rr *ruleRun) {
	if len(rr.out) == 0 {
		return
	}
	l.found.add(rr.out, rr.index, &rr.collected)
	clear(rr.out)
	rr.out = rr.out[:0]
}

// budgetError reports a rule that exceeded its budget, at the expression
// (a check, or the variable it read) whose evaluation exceeded it.
func budgetError(r *Rule, budget uint64, err error) error {
	e := &loader.Error{File: r.File, Pos: r.Pos, Err: err,
		Msg: fmt.Sprintf("rule %s exceeded its CEL budget of %d on this document; it was stopped", r.ID, budget)}
	var at *loader.Error
	if errors.As(err, &at) && at.File != "" {
		e.File, e.Pos = at.File, at.Pos
		for _, v := range slices.Concat(r.docVars, r.vars) {
			if v.prg.file == at.File && v.prg.pos == at.Pos {
				e.Msg += " (in variable " + v.name + ")"
			}
		}
	}
	return e
}

// docNames are the names a document's frame binds.
var docNames = []string{"root"}

// nodeNames are the names a node's frame binds as values; the engine's
// other node variables are nodeVars, computed when first read.
var nodeNames = []string{"self", "scope"}

// memberKey is the key of an 'each' item that is a member of a document
// object: its name, made a CEL string only when an expression reads it
// (most read only the item).
type memberKey struct{ n *loader.Node }

// eachNames are the names an 'each' check binds for every item.
var eachNames = []string{"item", "index", "key"}

// lintNode evaluates the rule on n.
func (rr *ruleRun) lintNode(parent *frame, n *loader.Node) error {
	fr := rr.nodeFrame
	if fr == nil {
		fr = new(frame)
	}
	rr.nodeFrame = nil // a nested use gets a frame of its own
	err := rr.lintNodeIn(fr, parent, n)
	rr.nodeFrame = fr // (not after a panic, which ends the rule's run)
	return err
}

// lintNodeIn is lintNode with fr, the node's frame.
func (rr *ruleRun) lintNodeIn(fr *frame, parent *frame, n *loader.Node) error {
	r := rr.rule
	rr.nodeSeq++
	// The frame is set field by field, not zeroed whole (it is 288 bytes,
	// set for every node of every rule): what is not set here is either
	// set before use (addLazy) or read only when a done bit says so.
	rr.initNodeFrame(fr, parent, n)
	if r.scopeValues != nil && !intersects(fr.scope(), r.scopeValues) {
		return nil
	}
	if r.resolve && rr.rs.refs != nil {
		refs := rr.resolver()
		if refs.mayHold(n) {
			v, err := refs.value(n)
			if err != nil {
				// A reference that does not resolve is the document's
				// problem. When the ruleset names a rule for it, that rule
				// reports it, once, at the reference; others skip the node.
				if refs.cfg.rule == "" {
					rr.report(n, "", "cannot resolve references: "+err.Error(), nil)
				}
				return nil
			}
			fr.vals[0], fr.self = v, v
		}
	}
	if ok, err := rr.assumed(r.assume, fr); err != nil || !ok {
		return err
	}
	fr.addLazy(rr.ctx, r.vars, &rr.spend)
	if r.when != nil {
		ok, err := rr.evalBool(r.when, fr)
		if err != nil || !ok {
			return err
		}
	}
	rr.recordPassed()
	if r.schema != nil {
		vs, err := rr.validateSchema(fr.self)
		if err != nil {
			return err
		}
		for _, v := range vs {
			if err := rr.schemaViolation(n, fr, v); err != nil {
				return err
			}
		}
	}
	for _, c := range r.checks {
		if c.scopeValues != nil && !intersects(fr.scope(), c.scopeValues) {
			continue
		}
		if ok, err := rr.assumed(c.assume, fr); err != nil {
			return err
		} else if !ok {
			continue
		}
		if err := rr.runCheck(c, n, fr); err != nil {
			return err
		}
	}
	return nil
}

// validateSchema validates v against the rule's schema fragment, charging
// the rule's budget the validation's work (cel.Schema.Work) before it
// runs. Validating one node may cost at most what one evaluation of the
// rule's environment may; past that, or past the budget, it is refused
// with the budget's error at the fragment, and nothing is validated.
func (rr *ruleRun) validateSchema(v any) ([]cel.SchemaViolation, error) {
	r, s := rr.rule, &rr.spend
	if s.over != nil {
		return nil, s.over
	}
	limit := rr.linter.rs.env.CostLimit()
	if s.budget > 0 {
		limit = min(limit, s.budget-min(s.cost, s.budget))
	}
	work := r.schema.Work(v, limit)
	if work > limit {
		at := &loader.Error{File: r.File, Pos: r.schemaPos, Err: cel.ErrCostLimit,
			Msg: fmt.Sprintf("validating this node against the rule's schema would cost more than the limit of %d", limit)}
		if s.budget > 0 && s.cost+work > s.budget {
			at.Err = ErrBudget
			s.over = at
		}
		return nil, at
	}
	s.cost += work
	rr.recordRender(work)
	return r.schema.Validate(v)
}

// initNodeFrame sets fr up as the frame of n, the node the rule lints,
// below parent, with none of the rule's variables yet.
func (rr *ruleRun) initNodeFrame(fr *frame, parent *frame, n *loader.Node) {
	fr.parent, fr.names, fr.self, fr.lazy, fr.shared = parent, nodeNames, docTree{n}, fr.lazy[:0], nil
	fr.node.rr, fr.node.n, fr.node.seq, fr.node.done = rr, n, rr.nodeSeq, 0
	// The node's scope (vals[1]) is looked up when first read (scope).
	fr.buf[0], fr.buf[1] = celValue(n), nil
	fr.vals = fr.buf[:2]
}

// newNodeFrame returns a new frame of n, with the rule's variables, for
// what reports a finding on n outside of lintNode (replay).
func (rr *ruleRun) newNodeFrame(parent *frame, n *loader.Node) *frame {
	fr := new(frame)
	rr.initNodeFrame(fr, parent, n)
	fr.addLazy(rr.ctx, rr.rule.vars, &rr.spend)
	return fr
}

// assumed reports whether the node in fr has the shape a precondition
// asks for; true when there is none.
func (rr *ruleRun) assumed(a *assumption, fr *frame) (bool, error) {
	switch {
	case a == nil:
		return true, nil
	case a.shape != nil:
		return a.shape.holds(celtree.TreeOf(fr.self)), nil
	}
	return rr.evalBool(a.expr, fr)
}

// selfKey is the member name or element index of n; nil for the root.
func selfKey(n *loader.Node) any {
	switch {
	case n.Parent == nil:
		return nil
	case n.Parent.Kind == loader.Array:
		return int64(n.Index())
	}
	return n.Key()
}

// parentValue is the value of n's parent; nil for the root.
func parentValue(n *loader.Node) any {
	if n.Parent == nil {
		return nil
	}
	return celValue(n.Parent)
}

// memberNames are an object's member names in document order; empty for
// any other value.
func memberNames(n *loader.Node) []string {
	out := make([]string, 0, n.Len())
	if n.Kind == loader.Object {
		for _, c := range n.Children() {
			out = append(out, c.Key())
		}
	}
	return out
}

// resolver returns the document's reference resolver.
func (l *linter) resolver() *resolver {
	if l.refs == nil {
		l.refs = newResolver(l.doc, l.rs.refs)
	}
	return l.refs
}

// resolveError says why n, a reference object, does not resolve; "" when
// it does, or is not one.
func (rr *ruleRun) resolveError(n *loader.Node) string {
	if rr.rs.refs == nil {
		return ""
	}
	return rr.resolver().errorOf(n)
}

// scopeOf returns the node's effective scope: the value of its own scope
// member, else its nearest ancestor's (counting only the objects where the
// ruleset says the member is a scope), else the default: every declared
// value, or null when the ruleset lists none. Nil when the ruleset has no
// scope.
func (l *linter) scopeOf(n *loader.Node) any {
	if l.rs.scope == nil {
		return nil
	}
	return l.scopeVals[l.scopePlace(n)]
}

// scopePlace is the place of n's scope in scopeVals: that of the nearest
// holder, n or an ancestor, that declares one; 0, the default, when none
// does. The ruleset has a scope.
func (l *linter) scopePlace(n *loader.Node) int32 {
	l.scopeOnce.Do(l.findScopes)
	// A walk up to the nearest holder that declares a scope: there are
	// few of those, and nothing is remembered for the nodes passed (a map
	// of every node asked about was most of what scopes cost).
	if len(l.declared) > 0 {
		for a := n; a != nil; a = a.Parent {
			if i, ok := l.declared[a]; ok {
				return i
			}
		}
	}
	return 0
}

// findScopes finds the holders that declare a scope, once per document:
// the objects the ruleset's scope selections select (every object when it
// has none) that have the scope member. Each declared scope is read once,
// so that a holder's scope is the same value whoever asks (scopeIdentity).
func (l *linter) findScopes() {
	sc := l.rs.scope
	var def any // the default scope
	if sc.values != nil {
		all := make([]any, len(sc.values))
		for i, v := range sc.values {
			all[i] = v
		}
		def = all
	}
	l.scopeVals = []any{def}
	add := func(n *loader.Node) {
		if n.Kind != loader.Object {
			return
		}
		if _, seen := l.declared[n]; seen {
			return
		}
		if m := n.Member(sc.member); m != nil {
			if l.declared == nil {
				l.declared = map[*loader.Node]int32{}
			}
			l.declared[n] = int32(len(l.scopeVals))
			l.scopeVals = append(l.scopeVals, m.Value())
		}
	}
	if sc.at == nil {
		walkDeep([]*loader.Node{l.doc.Root}, false, func(n *loader.Node) bool { add(n); return true })
		return
	}
	for _, sel := range sc.at {
		_ = sel.match(l.doc, add)
	}
}

// nodeScope returns the scope of n, the node the rule is linting: from
// the scopes of the rule's selection, looked up with the first.
func (rr *ruleRun) nodeScope(n *loader.Node) any {
	l := rr.linter
	if l.rs.scope == nil {
		return nil
	}
	if rr.scopes == nil {
		rr.scopes = l.scopesOf(rr.rule)
	}
	if i := rr.next - 1; i >= 0 && i < len(rr.scopes) && rr.sel[i] == n {
		return l.scopeVals[rr.scopes[i]]
	}
	return l.scopeOf(n)
}

// intersects reports whether a node's scope shares a value with values. A
// node without a scope (the ruleset lists no values and the document
// declares none) is in every one.
func intersects(scope any, values []string) bool {
	list, ok := scope.([]any)
	if !ok {
		return scope == nil
	}
	for _, v := range list {
		if s, ok := v.(string); ok && slices.Contains(values, s) {
			return true
		}
	}
	return false
}

func (rr *ruleRun) runCheck(c *check, n *loader.Node, parent *frame) error {
	if c.each == nil {
		return rr.runOne(c, n, parent)
	}
	return rr.runEach(c, n, parent)
}

// runEach runs a check with 'each' on every item. It and the functions it
// calls each have few returns and defers, so that their defers are
// compiled inline: a function with more runs the runtime's deferreturn at
// every return, which cost 2% of a lint when runCheck had them all.
func (rr *ruleRun) runEach(c *check, n *loader.Node, parent *frame) error {
	coll, err := rr.evalEach(c, parent)
	if err != nil {
		return err
	}
	// One frame serves every item: nothing keeps it once runOne returns.
	fr := rr.eachFrame
	if fr == nil {
		fr = new(frame)
	}
	rr.eachFrame = nil
	defer func() { rr.eachFrame = fr }()
	*fr = frame{parent: parent, names: eachNames}
	fr.vals = fr.buf[:3]
	switch t := coll.(type) {
	case traits.Lister:
		size := int(t.Size().(types.Int))
		for i := 0; i < size; i++ {
			fr.vals[0], fr.vals[1], fr.vals[2] = t.Get(types.Int(i)), int64(i), int64(i)
			if err := rr.runOne(c, n, fr); err != nil {
				return err
			}
		}
		return nil
	case nodeMap:
		return rr.eachMember(c, n, fr, t.n)
	case traits.Mapper:
		return rr.eachEntry(c, n, fr, t)
	}
	if coll == nil || types.IsUnknownOrError(coll) || coll.Type() != types.NullType {
		return c.errorf("'each' must yield a list or a map, got %s", typeName(coll))
	}
	return nil
}

// eachMember runs c on the members of a document object, sorted by name
// and read from the node, as eachEntry reads them through the map.
func (rr *ruleRun) eachMember(c *check, n *loader.Node, fr *frame, obj *loader.Node) error {
	members := append(rr.eachMembers[:0], obj.Children()...)
	rr.eachMembers = nil
	defer func() { clear(members); rr.eachMembers = members[:0] }()
	slices.SortFunc(members, func(a, b *loader.Node) int { return strings.Compare(a.Key(), b.Key()) })
	for i, m := range members {
		fr.vals[0], fr.vals[1], fr.vals[2] = celValue(m), int64(i), memberKey{m}
		if err := rr.runOne(c, n, fr); err != nil {
			return err
		}
	}
	return nil
}

// eachEntry runs c on the entries of a map, sorted by their keys' text.
func (rr *ruleRun) eachEntry(c *check, n *loader.Node, fr *frame, t traits.Mapper) error {
	keys := rr.eachKeys[:0]
	rr.eachKeys = nil
	defer func() { clear(keys); rr.eachKeys = keys[:0] }()
	for it := t.Iterator(); it.HasNext() == types.True; {
		k := it.Next()
		text, ok := k.Value().(string)
		if !ok {
			text = fmt.Sprint(k.Value())
		}
		keys = append(keys, eachKey{k, text})
	}
	slices.SortFunc(keys, func(a, b eachKey) int { return strings.Compare(a.text, b.text) })
	for i, k := range keys {
		fr.vals[0], fr.vals[1], fr.vals[2] = t.Get(k.key), int64(i), k.key
		if err := rr.runOne(c, n, fr); err != nil {
			return err
		}
	}
	return nil
}

// runOne evaluates check c in fr, its when and then its test, and reports
// what it finds. A check with a when is evaluated in one program where it
// can (runFused), with the same result.
func (rr *ruleRun) runOne(c *check, n *loader.Node, fr *frame) error {
	v, done, err := rr.runFused(c, fr)
	if !done {
		if c.when != nil {
			ok, err := rr.evalBool(c.when, fr)
			if err != nil || !ok {
				return err
			}
		}
		v, err = rr.eval(c.test, fr)
	}
	if err != nil || v == nil {
		return err
	}
	switch t := v.(type) {
	case types.Bool:
		if bool(t) != c.forbid {
			return nil
		}
		return rr.violation(c, n, fr, "", "")
	case traits.Lister:
		size := int(t.Size().(types.Int))
		for i := 0; i < size; i++ {
			at, msg, err := violationOf(t.Get(types.Int(i)))
			if err != nil {
				return c.errorf("%v", err)
			}
			if err := rr.violation(c, n, fr, at, msg); err != nil {
				return err
			}
		}
		return nil
	}
	return c.errorf("a check must yield a bool or a list of violations, got %s", typeName(v))
}

// maxValueWeight bounds the size (cel.Weight) of a value a check's result
// or a template turns into text: a value built by sharing can be far larger
// than what building it cost.
const maxValueWeight = 1_000_000

// maxFindings bounds the findings one rule reports on one document.
const maxFindings = 100_000

// native converts a value a rule produced, refusing one too large to
// convert.
func native(v ref.Val) (any, error) {
	if w := cel.Weight(v, maxValueWeight); w > maxValueWeight {
		return nil, fmt.Errorf("the value is too large to report: its size passes %d", maxValueWeight)
	}
	return cel.ToNative(v)
}

// violationOf reads one entry of a list of violations: a relative pointer
// string, or a map with optional "at" and "message".
func violationOf(v ref.Val) (at, msg string, err error) {
	nv, err := native(v)
	if err != nil {
		return "", "", err
	}
	switch t := nv.(type) {
	case string:
		return t, "", nil
	case map[string]any:
		for k, e := range t {
			s, ok := e.(string)
			switch {
			case k == "at" && ok:
				at = s
			case k == "message" && ok:
				msg = s
			default:
				return "", "", fmt.Errorf("a violation map takes string members 'at' and 'message', found %q", k)
			}
		}
		return at, msg, nil
	}
	return "", "", fmt.Errorf("a violation is a relative pointer string or a map {at, message}, got %T", nv)
}

func (rr *ruleRun) violation(c *check, n *loader.Node, fr *frame, at, msg string) error {
	defer rr.record(c, fr, at, msg)()
	switch {
	case at != "":
	case c.at != nil:
		var err error
		if at, err = rr.render(c.at, fr, true); err != nil {
			return err
		}
	case c.pointer != nil:
		v, err := rr.eval(c.pointer, fr)
		if err != nil {
			return err
		}
		s, ok := v.(types.String)
		if !ok {
			return c.errorf("pointer must yield a string (a JSON Pointer relative to the node), got %s", typeName(v))
		}
		at = string(s)
	}
	if msg == "" {
		switch {
		case c.msgExpr != nil:
			v, err := rr.eval(c.msgExpr, fr)
			if err != nil {
				return err
			}
			s, ok := v.(types.String)
			if !ok {
				return c.errorf("messageExpression must yield a string, got %s", typeName(v))
			}
			msg = string(s)
		case c.message != nil:
			var err error
			if msg, err = rr.render(c.message, fr, false); err != nil {
				return err
			}
		default:
			msg = rr.rule.Doc.Title
		}
	}
	var edits []loader.Edit
	if c.fix != nil && !rr.rule.resolve {
		var err error
		if edits, err = rr.fixEdits(c.fix, n, fr); err != nil {
			return err
		}
	}
	before := len(rr.out)
	rr.report(n, at, msg, c)
	if edits != nil && len(rr.out) > before {
		rr.out[len(rr.out)-1].Fix = edits
	}
	return nil
}

// schemaViolation reports v, a finding of the rule's schema fragment on n,
// with the message its keyword's messageExpression gives, if it has one,
// and the edits of the first of the rule's schemaFixes for its keyword
// whose when holds, if any. A fix is evaluated with item bound to the
// object or array that holds the finding's location (for a finding about a
// member, the object) and key to the location's last token there (the
// member's name, or the item's index); its pointers are relative to item.
func (rr *ruleRun) schemaViolation(n *loader.Node, fr *frame, v cel.SchemaViolation) error {
	msg := v.Message
	if me := rr.rule.schemaMsgs[v.Keyword]; me != nil {
		var err error
		if msg, err = rr.schemaMessage(me, n, fr, v); err != nil {
			return err
		}
	}
	fixes := rr.rule.schemaFixes[v.Keyword]
	var edits []loader.Edit
	if len(fixes) > 0 && !rr.rule.resolve {
		holder, key := schemaFixPlace(n, v.Pointer)
		if holder != nil {
			efr := &frame{parent: fr, names: eachNames}
			efr.vals = efr.buf[:3]
			efr.vals[0], efr.vals[1], efr.vals[2] = celValue(holder), int64(0), key
			if i, ok := key.(int64); ok {
				efr.vals[1] = i
			}
			for _, f := range fixes {
				var err error
				if edits, err = rr.fixEdits(f, holder, efr); err != nil {
					return err
				}
				if edits != nil {
					break
				}
			}
		}
	}
	before := len(rr.out)
	rr.report(n, v.Pointer, msg, nil)
	if edits != nil && len(rr.out) > before {
		rr.out[len(rr.out)-1].Fix = edits
	}
	return nil
}

// schemaMessage evaluates me, the messageExpression of v's keyword, for v,
// a finding of the rule's schema fragment on n: with item, index and key
// bound as for a schema fix (item and key null where the location has no
// holder in the document), and message to v's message.
func (rr *ruleRun) schemaMessage(me *schemaMsgExpr, n *loader.Node, fr *frame, v cel.SchemaViolation) (string, error) {
	mfr := &frame{parent: fr, names: schemaMessageNames, vals: []any{types.NullValue, int64(0), types.NullValue, types.String(v.Message)}}
	if holder, key := schemaFixPlace(n, v.Pointer); holder != nil {
		mfr.vals[0], mfr.vals[2] = celValue(holder), key
		if i, ok := key.(int64); ok {
			mfr.vals[1] = i
		}
	}
	out, err := rr.eval(me.prg, mfr)
	if err != nil {
		return "", err
	}
	s, ok := out.(types.String)
	if !ok {
		return "", &loader.Error{File: rr.rule.File, Pos: me.pos, Msg: fmt.Sprintf("messageExpression must yield a string, got %s", typeName(out))}
	}
	return string(s), nil
}

// schemaFixPlace returns the object or array holding the location rel (a
// pointer relative to n) and the location's token in it: a member name (a
// CEL string) or an index (int64). It returns nil when the location has no
// holder in the document.
func schemaFixPlace(n *loader.Node, rel string) (*loader.Node, any) {
	holder := n
	var last string
	if rel == "" {
		if holder = n.Parent; holder == nil {
			return nil, nil
		}
		last = loader.EscapeToken(n.Key())
		if holder.Kind == loader.Array {
			last = strconv.Itoa(n.Index())
		}
	} else {
		i := strings.LastIndexByte(rel, '/')
		if i > 0 {
			holder = nodeAt(n, rel[:i])
		}
		last = rel[i+1:]
	}
	if holder == nil {
		return nil, nil
	}
	switch holder.Kind {
	case loader.Object:
		name, _ := jsonpointer.Unescape(last)
		return holder, types.String(name)
	case loader.Array:
		i, err := strconv.Atoi(last)
		if err != nil {
			return nil, nil
		}
		return holder, int64(i)
	}
	return nil, nil
}

// fixEdits computes the edits of a fix for its finding on n: none when the
// fix's when is false. Pointers are made absolute from n.
func (rr *ruleRun) fixEdits(f *fix, n *loader.Node, fr *frame) ([]loader.Edit, error) {
	if f.when != nil {
		ok, err := rr.evalBool(f.when, fr)
		if err != nil || !ok {
			return nil, err
		}
	}
	base := n.Pointer()
	pointer := func(t template) (string, error) {
		ptr := base
		if t == nil {
			return ptr, nil
		}
		rel, err := rr.render(t, fr, true)
		if err != nil {
			return "", err
		}
		if rel = strings.TrimPrefix(rel, "/"); rel != "" {
			ptr += "/" + rel
		}
		return ptr, nil
	}
	out := make([]loader.Edit, 0, len(f.edits))
	for _, e := range f.edits {
		ptr, err := pointer(e.at)
		if err != nil {
			return nil, err
		}
		ed := loader.Edit{Op: e.op, Pointer: ptr}
		if e.op == loader.Move {
			if ed.From, err = pointer(e.from); err != nil {
				return nil, err
			}
		}
		if e.value != nil {
			v, err := rr.eval(e.value, fr)
			if err != nil {
				return nil, err
			}
			if ed.Value, err = cel.ToNative(v); err != nil {
				return nil, &loader.Error{File: rr.rule.File, Pos: rr.rule.Pos, Msg: "a fix's value is not JSON: " + err.Error()}
			}
		}
		out = append(out, ed)
	}
	return out, nil
}

// render evaluates a template. In pointers, values are written as escaped
// reference tokens; in messages, strings are quoted and other values are
// written as JSON.
func (rr *ruleRun) render(t template, fr *frame, pointer bool) (string, error) {
	var b strings.Builder
	for _, p := range t {
		if p.expr == nil {
			b.WriteString(p.text)
			continue
		}
		v, err := rr.eval(p.expr, fr)
		if err != nil {
			return "", err
		}
		nv, err := native(v)
		if err != nil {
			return "", err
		}
		if s, ok := nv.(string); ok && pointer {
			b.WriteString(loader.EscapeToken(s))
			continue
		}
		if _, err := json.Marshal(nv); err != nil {
			return "", err // a value with no JSON form (NaN) is the rule's error
		}
		b.WriteString(cel.Quote(nv)) // what CEL's quote() gives
	}
	return b.String(), nil
}

// report adds a diagnostic at rel, a pointer relative to n ("" for n itself).
//
// When the rule resolves references, the location is followed through the
// reference objects on its way, so that a finding inside a referenced value
// is reported where that value is written, with the references it was
// reached through as related positions.
func (rr *ruleRun) report(n *loader.Node, rel, msg string, c *check) {
	if rr.findings++; rr.findings > maxFindings {
		if rr.findings == maxFindings+1 {
			rr.ruleError(n, &loader.Error{File: rr.rule.File, Pos: rr.rule.Pos,
				Msg: fmt.Sprintf("rule %s reported more than %d findings on this document; the rest are not reported", rr.rule.ID, maxFindings)})
		}
		return
	}
	rel = strings.TrimPrefix(rel, "/")
	if rr.rule.resolve && rr.rs.refs != nil {
		ptr, uses := rr.follow(n, rel)
		d := rr.diag(ptr, msg, c)
		for _, u := range uses {
			start, _ := rr.doc.Span(u)
			d.Related = append(d.Related, Related{Message: "referenced here", Pointer: u, Line: int(start.Line), Column: int(start.Col)})
		}
		rr.out = append(rr.out, d)
		return
	}
	ptr := n.Pointer()
	if rel != "" {
		ptr += "/" + rel
	}
	rr.out = append(rr.out, rr.diag(ptr, msg, c))
}

// maxFollow bounds the reference hops followed for one location.
const maxFollow = 64

// follow returns the pointer of the node that rel, a pointer relative to n,
// names once every reference object on the way is replaced by its target,
// and the pointers of the reference objects it went through. Where the path
// leaves the document, the rest of rel is kept as written.
func (rr *ruleRun) follow(n *loader.Node, rel string) (string, []string) {
	var tokens []string
	if rel != "" {
		tokens = strings.Split(rel, "/")
	}
	var uses []string
	cur := n
	refs := rr.resolver()
	for i, tok := range tokens {
		if target := refs.deref(cur); target != cur {
			uses = append(uses, cur.Pointer())
			cur = target
		}
		next := cur.Child(tok)
		if next == nil {
			return cur.Pointer() + "/" + strings.Join(tokens[i:], "/"), uses
		}
		cur = next
	}
	return cur.Pointer(), uses
}

// diag makes a diagnostic of the rule at ptr: of check c's code, or of the
// rule's own when c is nil or names no code.
func (rr *ruleRun) diag(ptr, msg string, c *check) Diagnostic {
	start, end := rr.doc.Span(ptr)
	d := Diagnostic{
		File: rr.doc.Name, RuleID: rr.rule.ID, Severity: rr.rule.Severity, Aliases: rr.rule.Codes[0].Aliases,
		Message: msg, Pointer: ptr, Line: int(start.Line), Column: int(start.Col),
		EndLine: int(end.Line), EndColumn: int(end.Col),
	}
	if c != nil {
		d.Code, d.Severity, d.Aliases, d.OptIn = c.code, c.severity, c.aliases, c.optIn
	}
	return d
}

// ruleError reports a failure of the rule itself at node n of the document.
func (rr *ruleRun) ruleError(n *loader.Node, err error) {
	rr.errors++
	d := rr.diag(n.Pointer(), err.Error(), nil)
	d.Severity, d.Aliases = Error, nil
	d.RuleError = true
	d.Cause = err
	rr.out = append(rr.out, d)
}

func (rr *ruleRun) eval(p *program, fr *frame) (ref.Val, error) {
	return rr.spend.eval(rr.ctx, p, fr)
}

func (s *spend) eval(ctx context.Context, p *program, act *frame) (ref.Val, error) {
	if s.over != nil {
		return nil, s.over
	}
	v, cost, err := s.run(ctx, p, act)
	return s.charge(p, v, cost, err)
}

// run evaluates p. Only a program that watches its context while it runs
// (cel.Program.Interruptible) gets the spend's deadline in its context;
// the others end within their cost limit.
func (s *spend) run(ctx context.Context, p *program, act *frame) (ref.Val, uint64, error) {
	if s.deadline.IsZero() || !p.Interruptible() {
		return s.evalIn(ctx, p, act)
	}
	ctx, cancel := context.WithDeadlineCause(ctx, s.deadline, ErrRuleTimeout)
	defer cancel()
	return p.Eval(ctx, act)
}

// charge counts an evaluation of p that cost cost and gave v or err, and
// returns what eval returns for it.
func (s *spend) charge(p *program, v ref.Val, cost uint64, err error) (ref.Val, error) {
	s.cost += cost
	if s.budget > 0 && s.cost > s.budget {
		// Remembered, so that what reads this value reports where the
		// budget ran out.
		if s.over == nil {
			s.over = &loader.Error{File: p.file, Pos: p.pos, Msg: ErrBudget.Error(), Err: ErrBudget}
		}
		return nil, s.over
	}
	if err == nil && types.IsError(v) {
		err = v.(*types.Err)
	}
	if err != nil {
		var located *loader.Error
		if errors.As(err, &located) {
			return nil, err
		}
		return nil, &loader.Error{File: p.file, Pos: p.pos, Msg: err.Error(), Err: err}
	}
	return v, nil
}

func (rr *ruleRun) evalBool(p *program, fr *frame) (bool, error) {
	v, err := rr.eval(p, fr)
	if err != nil {
		return false, err
	}
	b, ok := v.(types.Bool)
	if !ok {
		return false, &loader.Error{File: p.file, Pos: p.pos, Msg: "a 'when' condition must yield a bool, got " + typeName(v)}
	}
	return bool(b), nil
}

func typeName(v ref.Val) string {
	if v == nil {
		return "nothing"
	}
	return v.Type().TypeName()
}
