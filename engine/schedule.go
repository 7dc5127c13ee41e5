package engine

import (
	"errors"
	"fmt"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"github.com/celint/celint/internal/celnative"
	"github.com/celint/celint/loader"
	"github.com/google/cel-go/common/types/ref"
)

// The scheduler: how Lint runs a document's rules when it is large or has
// workers. Rules that select the same paths lint the same nodes in the
// same order, so they are grouped and lint them together, a few nodes at a
// time (interleaved), with memoised selections and scopes; rules that test
// the same thing are linted once for all (share.go); groups are spread
// over workers by their expected work. None of this changes a verdict:
// every rule still lints its nodes one by one as eval.go does (lintNode),
// and the diagnostics are the same in any order and with any number of
// workers.

// ruleSched is what the scheduler knows of a rule.
type ruleSched struct {
	// weight is a rough cost of linting one node: 1 + the rule's checks
	// and variables.
	weight int
	// logic is what the rule's verdicts depend on (logicKey); "" when it
	// is never linted once for several rules. sharable is set once the
	// compiled rule is known to allow it.
	logic    string
	sharable bool
}

// prepare computes, before rules run at once, the document-wide state
// that rules would otherwise compute on first use: the scope holders and
// the resolved values of the nodes the resolving rules select, in the
// order one rule after the other would resolve them. The resolver's bound
// on the values it builds then gives the same result with any number of
// workers, and the rules only read what is shared.
//
// What may be computed in any order, the resolver and the resolving rules'
// selections, is computed first by the workers at once; only the
// resolution itself runs in rule order. With more than one worker, every
// rule's selection is computed then too, so that schedule knows how much
// work each group of rules has.
func (l *linter) prepare(rules []*Rule, workers int) {
	// The scope holders are found while the others run: nothing else
	// here asks for a scope before the resolution.
	tasks := []func(){func() { l.scopeOf(l.doc.Root) }}
	if l.rs.refs != nil {
		tasks = append(tasks, func() { l.resolver() })
	}
	// Each path is a task of its own, and a selection of several paths,
	// made of theirs, comes after every path: one task for all the paths
	// of a rule was left to run alone at the end.
	var combined []func()
	paths, keys := map[string]bool{}, map[string]bool{}
	for _, r := range rules {
		if !(r.resolve && l.rs.refs != nil || workers > 1) {
			continue
		}
		for _, sel := range r.given {
			if !paths[sel.text] {
				paths[sel.text] = true
				tasks = append(tasks, func() { l.selection(sel) })
			}
		}
		if k := r.givenKey(); len(r.given) > 1 && !keys[k] {
			keys[k] = true
			combined = append(combined, func() { _, _ = l.selected(r) })
		}
	}
	parallelTasks(append(tasks, combined...), workers)
	if l.rs.refs == nil {
		return
	}
	refs := l.resolver()
	if refs.none {
		return // the document never mentions the reference key: nothing to resolve
	}
	for _, r := range rules {
		if !r.resolve {
			continue
		}
		nodes, err := l.selected(r)
		if err != nil {
			continue
		}
		var scopes []int32
		if r.scopeValues != nil {
			scopes = l.scopesOf(r)
		}
		for i, n := range nodes {
			if scopes != nil && !intersects(l.scopeVals[scopes[i]], r.scopeValues) {
				continue
			}
			if refs.mayHold(n) {
				_, _ = refs.value(n)
			}
		}
	}
}

// schedule returns the groups the workers take, as new bounds over order,
// and the order in which they take them. Each rule's work is estimated
// roughly, as far as what is already known tells: the nodes it selects,
// for the selections prepare made, times its checks and variables (0 for
// the others). A group that would hold more than its share (half of a
// worker's) is split into one group per rule, so that its rules can run
// on different workers; then the heaviest go first, the others in rule
// order after them, so that a heavy group is not left to run alone at the
// end. The order changes nothing but the time: what a rule finds and
// spends is the same in any order.
func (l *linter) schedule(rules []*Rule, order, bounds []int, workers int) (groups []int, next []int) {
	work := make([]int, len(order)) // by position in order
	total := 0
	for k, i := range order {
		work[k] = l.selectedSoFar(rules[i]) * rules[i].sched.weight
		total += work[k]
	}
	sum := func(lo, hi int) (n int) {
		for _, w := range work[lo:hi] {
			n += w
		}
		return n
	}
	groups = []int{0}
	for c := range len(bounds) - 1 {
		lo, hi := bounds[c], bounds[c+1]
		if hi-lo > 1 && sum(lo, hi) > total/(2*workers) {
			for i := lo + 1; i < hi; i++ {
				groups = append(groups, i)
			}
		}
		groups = append(groups, hi)
	}
	est := make([]int, len(groups)-1)
	next = make([]int, len(est))
	for c := range est {
		est[c], next[c] = sum(groups[c], groups[c+1]), c
	}
	slices.SortStableFunc(next, func(a, b int) int { return est[b] - est[a] })
	return groups, next
}

// parallelTasks runs the tasks on up to workers goroutines and returns
// when all are done; with one worker, on the caller's, in order. A task's
// panic is raised again on the caller's goroutine, as if it had run there.
func parallelTasks(tasks []func(), workers int) {
	workers = min(workers, len(tasks))
	if workers <= 1 {
		for _, t := range tasks {
			t()
		}
		return
	}
	next := make(chan func())
	var (
		wg       sync.WaitGroup
		panicked sync.Once
		failure  any
	)
	for range workers {
		wg.Go(func() {
			defer func() {
				if p := recover(); p != nil {
					panicked.Do(func() { failure = p })
					for range next { // let the sender finish
					}
				}
			}()
			for t := range next {
				t()
			}
		})
	}
	for _, t := range tasks {
		next <- t
	}
	close(next)
	wg.Wait()
	if failure != nil {
		panic(failure)
	}
}

// overlapping returns an empty set to note the nodes kept in when some
// node is in two of the selections, which hold total nodes; nil when none
// is. Nodes start at distinct offsets, so it sorts their offsets and looks
// for two equal ones: no set is built for paths that do not overlap.
func overlapping(parts []pathNodes, total int) map[*loader.Node]bool {
	offsets := make([]int32, 0, total)
	for _, sc := range parts {
		for _, n := range sc.nodes {
			offsets = append(offsets, n.Offset)
		}
	}
	slices.Sort(offsets)
	for i := 1; i < len(offsets); i++ {
		if offsets[i] == offsets[i-1] {
			return make(map[*loader.Node]bool, total)
		}
	}
	return nil
}

// selectedSoFar is how many nodes the rule's paths select, if that is
// known already; 0 if it is not computed yet.
func (l *linter) selectedSoFar(r *Rule) int {
	l.selMu.Lock()
	e := l.selections[r.givenKey()]
	l.selMu.Unlock()
	if e == nil || !e.done.Load() {
		return 0
	}
	return len(e.c.nodes)
}

// memo returns the selection named key, computing it with f the first
// time it is asked for. Different selections are computed at once by the
// rules that ask for them; one is computed once, the others asking for it
// waiting for it.
func (l *linter) memo(key string, f func() pathNodes) pathNodes {
	l.selMu.Lock()
	e, ok := l.selections[key]
	if !ok {
		if l.selections == nil {
			l.selections = map[string]*selectionEntry{}
		}
		e = &selectionEntry{}
		l.selections[key] = e
	}
	l.selMu.Unlock()
	e.once.Do(func() {
		e.c = f()
		e.done.Store(true)
	})
	return e.c
}

// selectionEntry is a selection, computed once.
type selectionEntry struct {
	once sync.Once
	c    pathNodes
	done atomic.Bool // c is computed
}

// givenKey names what the rule's paths select: rules with the same key
// select the same nodes.
func (r *Rule) givenKey() string {
	if len(r.given) == 1 {
		return r.given[0].text
	}
	key := ""
	for _, sel := range r.given {
		key += sel.text + "\x00"
	}
	return key
}

// selection is what one path selects: distinct nodes, in document order
// for each step (see selector.match).
func (l *linter) selection(sel *selector) pathNodes {
	return l.memo(sel.text, func() (c pathNodes) {
		if l.doc.Values < interleaveMin {
			// A small document: steps are cheap, and remembering every
			// prefix would cost more than it saves.
			c.err = sel.match(l.doc, func(n *loader.Node) { c.nodes = append(c.nodes, n) })
		} else if c.nodes, c.err = l.prefixNodes(sel, len(sel.parts)); c.err != nil {
			c.err = fmt.Errorf("selection path %q: %w", sel.text, c.err)
		}
		return c
	})
}

// prefixNodes is what the first k components of the path select. What a
// prefix selects is computed once per document and shared by every path
// that starts with it ("tools.#.examples.*" by all the paths below it),
// so that each step is taken once. The slice is shared: read only.
func (l *linter) prefixNodes(sel *selector, k int) ([]*loader.Node, error) {
	if k == 0 {
		return []*loader.Node{l.doc.Root}, nil
	}
	if k == len(sel.parts) && k == 1 {
		// A one-component path: its prefix is the path itself, whose
		// entry is the caller's.
		return sel.step(l.doc, 0, []*loader.Node{l.doc.Root})
	}
	c := l.memo(sel.prefixKeys[k-1], func() (c pathNodes) {
		if sel.afterDeep(k - 1) {
			// "a.**.b": b is taken during the walk of a's subtrees,
			// and what "a.**" selects is neither listed nor kept.
			cur, err := l.prefixNodes(sel, k-2)
			if err != nil || len(cur) == 0 {
				return pathNodes{err: err}
			}
			c.nodes, c.err = sel.stepAfterDeep(l.doc, k-1, cur)
			return c
		}
		cur, err := l.prefixNodes(sel, k-1)
		if err != nil || len(cur) == 0 {
			return pathNodes{err: err}
		}
		c.nodes, c.err = sel.step(l.doc, k-1, cur)
		return c
	})
	return c.nodes, c.err
}

// pathNodes is a selection on the document, or why it failed; or the
// scopes of a selection's nodes (see scopesOf).
type pathNodes struct {
	nodes  []*loader.Node
	scopes []int32 // places in linter.scopeVals
	err    error
}

// scopesOf returns the scopes of the nodes the rule selects, in the order
// of selected(r); nil when the ruleset declares no scope. They are looked
// up once per document for each set of paths, when a rule first reads a
// node's scope (most never do), and shared by the rules that select by
// the same paths.
func (l *linter) scopesOf(r *Rule) []int32 {
	if l.rs.scope == nil {
		return nil
	}
	return l.memo("\x00scopes\x00"+r.givenKey(), func() (c pathNodes) {
		nodes, _ := l.selected(r)
		c.scopes = make([]int32, len(nodes))
		var cur scopeCursor
		for i, n := range nodes {
			c.scopes[i] = l.scopeIn(n, &cur)
		}
		return c
	}).scopes
}

// scopeCursor is the last parent whose scope scopeIn looked up: a
// selection's nodes come in document order, so that siblings follow one
// another.
type scopeCursor struct {
	parent *loader.Node
	place  int32
}

// scopeIn is scopePlace(n) for the nodes of a selection, in turn: a node's
// scope is its own, or else its parent's, which is looked up once for a
// run of siblings.
func (l *linter) scopeIn(n *loader.Node, cur *scopeCursor) int32 {
	if n.Parent == nil {
		return l.scopePlace(n)
	}
	if cur.parent != n.Parent {
		cur.parent, cur.place = n.Parent, l.scopePlace(n.Parent)
	}
	if i, ok := l.declared[n]; ok {
		return i
	}
	return cur.place
}

// eachKey is a member of the map an 'each' check iterates, with its name
// as text for the sort.
type eachKey struct {
	key  ref.Val
	text string
}

// interleaveMin is the number of values from which rules that select the
// same nodes lint them together (lintRules); a smaller document stays in
// the caches anyway.
const interleaveMin = 4096

// maxGroup is the largest number of rules that lint a document together.
const maxGroup = 16

// lintRules lints rules that select the same nodes together, a few nodes
// at a time (stepNodes): those nodes are linted by each rule in turn, in
// rule order, while they are still in the processor's caches, where one
// rule after the other would walk the document again each time. Each rule
// still lints its nodes in their order, and nothing a rule computes
// depends on what the others did before (prepare), so the diagnostics,
// costs and budgets are those of one rule after the other. A rule that
// follows another (share.go) lints, or takes over, each node right after
// its leader. idx are the indexes of the rules to lint among rules, and
// followers, by rule, the rules that follow each (nil: none does); their
// runs are kept in runs, the ones under way in active (empty, with room
// for the rules of idx). Each rule's diagnostics go to the collector
// after each of its steps (timed).
func (l *linter) lintRules(rules []*Rule, idx []int, followers [][]int, runs []ruleRun, active []*ruleRun) {
	// The rules run here, one step at a time, on this goroutine: their
	// evaluations share one Scratch, taken from those earlier lints left
	// (a lint of a small document would otherwise grow every rule's
	// buffers anew).
	in := scratches.Get().(*celnative.Input)
	defer func() {
		for _, i := range idx {
			runs[i].spend.in = nil // nothing evaluates after this, but none may use it once it is put back
		}
		in.Activation = nil
		in.Scratch.Release()
		scratches.Put(in)
	}()
	leaders := idx // without their followers
	if followers != nil {
		var all []int
		for _, i := range idx {
			all = append(append(all, i), followers[i]...)
		}
		idx = all
		active = make([]*ruleRun, 0, len(idx))
	}
	begin := func(i int) *ruleRun {
		// The wall-clock safety net is a deadline checked between nodes,
		// and a context only for the rare evaluation that watches one (see
		// spend.run): a timer per rule and document was a few per cent
		// of a many-file run.
		rr := &runs[i]
		*rr = ruleRun{linter: l, ctx: l.ctx, rule: rules[i], index: int32(i),
			spend: spend{budget: l.opts.Budget, deadline: time.Now().Add(l.opts.RuleTimeout), in: in}}
		if !l.timed(rr, rr.begin) {
			return nil
		}
		return rr
	}
	for _, i := range leaders {
		lead := begin(i)
		if lead != nil {
			active = append(active, lead)
		}
		if followers == nil {
			continue
		}
		for _, f := range followers[i] {
			rr := begin(f)
			switch {
			case rr == nil:
			case lead != nil && rr.mayFollow(lead):
				// A follower whose leader runs, and both compiled as rules
				// that may be linted once, goes with its leader.
				rr.share = &shareState{leader: lead}
				if lead.share == nil {
					lead.share = &shareState{}
				}
				lead.share.followers = append(lead.share.followers, rr)
			default:
				active = append(active, rr)
			}
		}
	}
	for len(active) > 0 && l.ctx.Err() == nil { // else Lint returns the context's error
		// more reuses active's array: it never holds more runs than the
		// loop has read. Followers whose leader stopped join after it.
		more, alone := active[:0], []*ruleRun(nil)
		for _, rr := range active {
			on := l.timed(rr, rr.steps)
			if on {
				more = append(more, rr)
			}
			sh := rr.share
			if sh == nil || sh.followers == nil {
				continue
			}
			fs := sh.followers[:0]
			for _, f := range sh.followers {
				if !l.timed(f, f.followStep) {
					continue
				}
				if on {
					fs = append(fs, f)
				} else {
					f.share.leader = nil // the leader stopped: the follower goes on alone
					alone = append(alone, f)
				}
			}
			clear(sh.followers[len(fs):])
			sh.followers = fs
			if len(fs) == 0 {
				sh.followers = nil
			}
		}
		active = append(more, alone...)
	}
	for _, i := range idx {
		rr := &runs[i]
		l.collect(rr)
		if l.stats != nil {
			l.stats[i] = RuleStats{Rule: rr.rule, Nodes: int(rr.nodes), Cost: rr.spend.cost, Duration: rr.elapsed, Compile: rr.compile, Shared: rr.share.taken()}
		}
	}
}

// timed runs f, one step of rr, adding its time to rr's for the
// statistics; a panic is rr's rule error, and ends its run (false). The
// diagnostics of the step are collected after it.
func (l *linter) timed(rr *ruleRun, f func() bool) (more bool) {
	defer l.collect(rr)
	if l.stats != nil {
		start := time.Now()
		defer func() { rr.elapsed += time.Since(start) }()
	}
	defer func() {
		if p := recover(); p != nil {
			rr.ruleError(l.doc.Root, &loader.Error{File: rr.rule.File, Pos: rr.rule.Pos, Msg: fmt.Sprintf("internal error: %v", p)})
			more = false
		}
	}()
	return f()
}

// begin prepares the rule's run on the document: its nodes, its compiled
// form and its frame. False when there is nothing to lint.
func (rr *ruleRun) begin() bool {
	l, r := rr.linter, rr.rule
	nodes, err := l.selected(r)
	if err != nil {
		rr.ruleError(l.doc.Root, err)
		return false
	}
	rr.nodes = int32(len(nodes))
	if len(nodes) == 0 {
		return false
	}
	// A rule loaded lazily compiles now, on the first document it applies
	// to; one that does not compile fails here, at its rule file.
	if r.pending != nil && l.stats != nil {
		start := time.Now()
		err = r.ready()
		rr.compile = time.Since(start) // ~0 once compiled
	} else {
		err = r.ready()
	}
	if err != nil {
		rr.ruleError(l.doc.Root, err)
		return false
	}
	rr.sel = nodes
	rr.ruleFrame = &frame{parent: l.docFrame, shared: &l.sharedVars}
	rr.ruleFrame.addLazy(rr.ctx, r.docVars, &rr.spend)
	return true
}

// stepNodes is how many nodes a rule lints in turn before the next rule
// of its group: few enough that the next rule finds them in the caches,
// and enough that the turn's set-up (the recover that makes a panic the
// rule's error) is not paid for every node.
const stepNodes = 4

// steps lints the rule's next stepNodes nodes, or its next node when it
// has followers, which follow it node by node; false when the run is over.
func (rr *ruleRun) steps() bool {
	if rr.leads() {
		return rr.step()
	}
	for range stepNodes - 1 {
		if !rr.step() {
			return false
		}
	}
	return rr.step()
}

// step lints the rule's next node; false when the run is over.
func (rr *ruleRun) step() bool {
	i := rr.next
	n := rr.sel[i]
	rr.next++
	// The clock is read every few nodes: the deadline is a safety net, not
	// a bound to the node.
	leads := rr.leads()
	if leads {
		rr.share.rec.index = -1
	}
	if i%deadlineStride == 0 && rr.spend.expired() {
		rr.ruleError(n, rr.stopped())
		return false
	}
	if !leads {
		return rr.settle(n, rr.lintNode(rr.ruleFrame, n))
	}
	rec := &rr.share.rec
	clear(rec.events)
	*rec = shareRec{index: i, node: n, start: rr.spend.cost, events: rec.events[:0]}
	rec.docDone, _ = rr.docVarsDone()
	rr.recording = true
	err := rr.lintNode(rr.ruleFrame, n)
	rr.recording = false
	rec.total = rr.spend.cost - rec.start - rec.render
	// A document variable that became an error here would have its
	// leader's location in a follower's: each computes its own.
	_, bad := rr.docVarsDone()
	rec.ok = err == nil && !rec.fail && !bad
	return rr.settle(n, err)
}

// settle handles the error, if any, of the rule's evaluation of n, and
// reports whether the run goes on.
func (rr *ruleRun) settle(n *loader.Node, err error) bool {
	l, r := rr.linter, rr.rule
	if err != nil {
		switch {
		case l.ctx.Err() != nil:
			return false
		case rr.spend.expired():
			rr.ruleError(n, rr.stopped())
			return false
		case errors.Is(err, ErrBudget):
			rr.ruleError(n, budgetError(r, rr.spend.budget, err))
			return false
		}
		rr.ruleError(n, err)
		if rr.errors >= maxRuleErrors {
			rr.ruleError(l.doc.Root, &loader.Error{File: r.File, Pos: r.Pos, Msg: fmt.Sprintf("rule %s failed %d times on this document; it was stopped", r.ID, rr.errors)})
			return false
		}
	}
	return rr.next < len(rr.sel)
}

// lintAll lints the rules on the document: one after the other on a small
// document, and otherwise in groups, interleaved, on the workers.
func (l *linter) lintAll(rules []*Rule) {
	// Rules that select by the same paths lint the same nodes in the same
	// order: on a large document they lint them together (lintRules), up
	// to maxGroup rules at a time. These groups are the workers' units.
	order := make([]int, 0, len(rules))
	bounds := []int{0}
	var followers [][]int // by rule: the rules that follow it; nil: none does
	if l.doc.Values < interleaveMin || l.opts.oneByOne {
		for i := range rules {
			order = append(order, i)
			bounds = append(bounds, len(order))
		}
	} else {
		var groups [][]int
		byPaths := map[string]int{}
		leaders := map[string]int{}
		for i, r := range rules {
			// A rule that tests what an earlier one tests follows it
			// (share.go): it runs with it, in its group.
			if r.sched.logic != "" {
				if j, ok := leaders[r.sched.logic]; ok {
					if followers == nil {
						followers = make([][]int, len(rules))
					}
					followers[j] = append(followers[j], i)
					continue
				}
				leaders[r.sched.logic] = i
			}
			k := r.givenKey()
			g, ok := byPaths[k]
			if !ok || len(groups[g]) == maxGroup {
				g = len(groups)
				groups = append(groups, nil)
				byPaths[k] = g
			}
			groups[g] = append(groups[g], i)
		}
		for _, g := range groups {
			order = append(order, g...)
			bounds = append(bounds, len(order))
		}
	}
	nGroups := len(bounds) - 1
	// Shared state that rules would build on first use is built first, in
	// rule order, whenever the rules do not run one after the other, so
	// that the order they run in changes nothing (prepare).
	if nGroups < len(rules) || min(l.opts.Workers, nGroups) > 1 {
		l.prepare(rules, l.opts.Workers)
	}
	runs := make([]ruleRun, len(rules))
	active := make([]*ruleRun, len(rules))
	lintGroup := func(c int) {
		lo, hi := bounds[c], bounds[c+1]
		l.lintRules(rules, order[lo:hi], followers, runs, active[lo:lo:hi])
	}
	if workers := min(l.opts.Workers, nGroups); workers > 1 {
		var seq []int
		bounds, seq = l.schedule(rules, order, bounds, workers)
		next := make(chan int)
		var wg sync.WaitGroup
		for range workers {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for c := range next {
					lintGroup(c)
				}
			}()
		}
		for _, c := range seq {
			if l.ctx.Err() != nil {
				break
			}
			next <- c
		}
		close(next)
		wg.Wait()
	} else {
		for c := range nGroups {
			lintGroup(c)
			if l.ctx.Err() != nil {
				break
			}
		}
	}
}
