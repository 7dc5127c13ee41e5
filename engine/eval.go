package engine

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/google/cel-go/common/types"
	"github.com/google/cel-go/common/types/ref"
	"github.com/google/cel-go/common/types/traits"
	"github.com/google/cel-go/interpreter"

	"github.com/celint/celint/cel"
	"github.com/celint/celint/internal/jsonpointer"
	"github.com/celint/celint/loader"
)

// DefaultBudget bounds the total CEL cost one rule may spend on one document.
const DefaultBudget = 50_000_000

// DefaultRuleTimeout bounds the time one rule may spend on one document. It
// is a safety net behind the cost limits: cel-go's cost tracking can make a
// comprehension that runs up to its cost limit take time that grows faster
// than its cost.
const DefaultRuleTimeout = 10 * time.Second

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
	// RuleTimeout bounds the time one rule may spend on one document; 0
	// means DefaultRuleTimeout.
	RuleTimeout time.Duration
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
		Msg: fmt.Sprintf("rule %s ran longer than %v on this document; it was stopped", rr.rule.ID, rr.opts.RuleTimeout)}
}

// Lint evaluates the ruleset's rules on doc and returns the diagnostics,
// sorted. A failing rule yields a diagnostic marked RuleError and does not
// stop the other rules. When ctx ends, Lint stops and returns ctx.Err().
func (rs *Ruleset) Lint(ctx context.Context, doc *loader.Document, opts LintOptions) ([]Diagnostic, error) {
	if opts.Budget == 0 {
		opts.Budget = DefaultBudget
	}
	if opts.RuleTimeout == 0 {
		opts.RuleTimeout = DefaultRuleTimeout
	}
	l := &linter{ctx: ctx, rs: rs, doc: doc, opts: opts, shared: spend{budget: opts.Budget}}
	l.docFrame = &frame{names: []string{"root"}, vals: []any{doc.Root.Value}}
	l.docFrame.addLazy(ctx, rs.docVars, &l.shared)
	for _, r := range rs.Rules {
		if opts.Filter != nil && !opts.Filter(r) {
			continue
		}
		l.lintRule(r)
		if err := ctx.Err(); err != nil {
			return nil, err
		}
	}
	return compact(l.out), nil
}

// compact sorts diagnostics and reports each finding once: a value
// referenced from several places is checked at each of them, and its
// findings then carry every use site as a related position.
func compact(ds []Diagnostic) []Diagnostic {
	SortDiagnostics(ds)
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
	out      []Diagnostic
}

// spend counts CEL cost against a budget.
type spend struct {
	cost   uint64
	budget uint64
	over   error // set once the budget is exhausted
}

// ruleRun is the evaluation of one rule on one document.
type ruleRun struct {
	*linter
	ctx    context.Context // the document's context, with the rule's time limit
	rule   *Rule
	spend  spend
	errors int
}

func (l *linter) lintRule(r *Rule) {
	ctx, cancel := context.WithTimeoutCause(l.ctx, l.opts.RuleTimeout, ErrRuleTimeout)
	defer cancel()
	rr := &ruleRun{linter: l, ctx: ctx, rule: r, spend: spend{budget: l.opts.Budget}}
	defer func() {
		if p := recover(); p != nil {
			rr.ruleError(l.doc.Root, &loader.Error{File: r.File, Pos: r.Pos, Msg: fmt.Sprintf("internal error: %v", p)})
		}
	}()
	ruleFrame := &frame{parent: l.docFrame}
	ruleFrame.addLazy(ctx, r.docVars, &rr.spend)
	var nodes []*loader.Node
	seen := map[*loader.Node]bool{}
	for _, sel := range r.given {
		err := sel.match(l.doc, func(n *loader.Node) {
			if !seen[n] {
				seen[n] = true
				nodes = append(nodes, n)
			}
		})
		if err != nil {
			rr.ruleError(l.doc.Root, err)
			return
		}
	}
	for _, n := range nodes {
		if l.ctx.Err() != nil {
			return // the caller's context ended: Lint returns its error
		}
		if ctx.Err() != nil {
			rr.ruleError(n, rr.stopped())
			return
		}
		err := rr.lintNode(ruleFrame, n)
		if err == nil {
			continue
		}
		switch {
		case l.ctx.Err() != nil:
			return
		case ctx.Err() != nil:
			rr.ruleError(n, rr.stopped())
			return
		case errors.Is(err, ErrBudget):
			rr.ruleError(n, budgetError(r, rr.spend.budget, err))
			return
		}
		rr.ruleError(n, err)
		if rr.errors >= maxRuleErrors {
			rr.ruleError(l.doc.Root, &loader.Error{File: r.File, Pos: r.Pos, Msg: fmt.Sprintf("rule %s failed %d times on this document; it was stopped", r.ID, rr.errors)})
			return
		}
	}
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

func (rr *ruleRun) lintNode(parent *frame, n *loader.Node) error {
	r := rr.rule
	var scope any
	if m := rr.scopeOf(n); m != nil {
		scope = m.Value
	}
	if r.scopeValues != nil && !intersects(scope, r.scopeValues) {
		return nil
	}
	fr := &frame{parent: parent, names: []string{"self", "path", "scope"}, vals: []any{n.Value, n.Pointer(), scope}}
	if r.resolve && rr.rs.resolver != nil && rr.mayHoldReference(n) {
		v, err := rr.eval(rr.rs.resolver, fr)
		if err != nil {
			if errors.Is(err, ErrBudget) || rr.ctx.Err() != nil {
				return err
			}
			// A reference that does not resolve is the document's problem:
			// report it at the node, without the ruleset's position.
			msg := err.Error()
			var located *loader.Error
			if errors.As(err, &located) {
				msg = located.Msg
			}
			rr.report(n, "", "cannot resolve references: "+msg)
			return nil
		}
		self, err := cel.ToNative(v)
		if err != nil {
			return err
		}
		fr.vals[0] = self
	}
	fr.addLazy(rr.ctx, r.vars, &rr.spend)
	if r.when != nil {
		ok, err := rr.evalBool(r.when, fr)
		if err != nil || !ok {
			return err
		}
	}
	if r.schema != nil {
		vs, err := r.schema.Validate(fr.vals[0])
		if err != nil {
			return err
		}
		for _, v := range vs {
			rr.report(n, v.Pointer, v.Message)
		}
	}
	for _, c := range r.checks {
		if err := rr.runCheck(c, n, fr); err != nil {
			return err
		}
	}
	return nil
}

// mayHoldReference reports whether the node's JSON mentions the reference
// key at all: most nodes do not, and need no resolving.
func (rr *ruleRun) mayHoldReference(n *loader.Node) bool {
	return bytes.Contains(rr.doc.JSON[n.Offset:n.End], rr.rs.refNeedle)
}

// scopeOf returns the node's effective scope member: its own, else its
// nearest ancestor's; nil when the ruleset declares no scope or none is found.
func (rr *ruleRun) scopeOf(n *loader.Node) *loader.Node {
	member := rr.rs.scopeMember
	if member == "" {
		return nil
	}
	for ; n != nil; n = n.Parent {
		if n.Kind == loader.Object {
			if m := n.Member(member); m != nil {
				return m
			}
		}
	}
	return nil
}

func intersects(scope any, values []string) bool {
	list, ok := scope.([]any)
	if !ok {
		return scope == nil // no declared scope: the rule applies
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
	coll, err := rr.eval(c.each, parent)
	if err != nil {
		return err
	}
	switch t := coll.(type) {
	case traits.Lister:
		size := int(t.Size().(types.Int))
		for i := 0; i < size; i++ {
			fr := &frame{parent: parent, names: []string{"item", "index", "key"}, vals: []any{t.Get(types.Int(i)), int64(i), int64(i)}}
			if err := rr.runOne(c, n, fr); err != nil {
				return err
			}
		}
	case traits.Mapper:
		var keys []ref.Val
		for it := t.Iterator(); it.HasNext() == types.True; {
			keys = append(keys, it.Next())
		}
		slices.SortFunc(keys, func(a, b ref.Val) int { return strings.Compare(fmt.Sprint(a.Value()), fmt.Sprint(b.Value())) })
		for i, k := range keys {
			fr := &frame{parent: parent, names: []string{"item", "index", "key"}, vals: []any{t.Get(k), int64(i), k}}
			if err := rr.runOne(c, n, fr); err != nil {
				return err
			}
		}
	default:
		if coll == nil || types.IsUnknownOrError(coll) || coll.Type() != types.NullType {
			return c.errorf("'each' must yield a list or a map, got %s", typeName(coll))
		}
	}
	return nil
}

func (rr *ruleRun) runOne(c *check, n *loader.Node, fr *frame) error {
	if c.when != nil {
		ok, err := rr.evalBool(c.when, fr)
		if err != nil || !ok {
			return err
		}
	}
	v, err := rr.eval(c.test, fr)
	if err != nil {
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

// violationOf reads one entry of a list of violations: a relative pointer
// string, or a map with optional "at" and "message".
func violationOf(v ref.Val) (at, msg string, err error) {
	nv, err := cel.ToNative(v)
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
	if at == "" && c.at != nil {
		var err error
		if at, err = rr.render(c.at, fr, true); err != nil {
			return err
		}
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
	rr.report(n, at, msg)
	return nil
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
		nv, err := cel.ToNative(v)
		if err != nil {
			return "", err
		}
		switch s := nv.(type) {
		case string:
			if pointer {
				b.WriteString(loader.EscapeToken(s))
			} else {
				b.WriteString(strconv.Quote(s))
			}
		default:
			j, err := json.Marshal(nv)
			if err != nil {
				return "", err
			}
			b.Write(j)
		}
	}
	return b.String(), nil
}

// report adds a diagnostic at rel, a pointer relative to n ("" for n itself).
//
// When the rule resolves references, the location is followed through the
// reference objects on its way, so that a finding inside a referenced value
// is reported where that value is written, with the references it was
// reached through as related positions.
func (rr *ruleRun) report(n *loader.Node, rel, msg string) {
	rel = strings.TrimPrefix(rel, "/")
	if rr.rule.resolve && rr.rs.refKey != "" {
		ptr, uses := rr.follow(n, rel)
		d := rr.diag(ptr, msg)
		for _, u := range uses {
			start, _ := rr.doc.Span(u)
			d.Related = append(d.Related, Related{Message: "referenced here", Pointer: u, Line: start.Line, Column: start.Col})
		}
		rr.out = append(rr.out, d)
		return
	}
	ptr := n.Pointer()
	if rel != "" {
		ptr += "/" + rel
	}
	rr.out = append(rr.out, rr.diag(ptr, msg))
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
	for i, tok := range tokens {
		if target := rr.deref(cur); target != cur {
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

// deref follows reference objects from n to the value they point at; a
// reference that does not resolve leaves n as it is.
func (rr *ruleRun) deref(n *loader.Node) *loader.Node {
	for i := 0; i < maxFollow && n.Kind == loader.Object; i++ {
		m := n.Member(rr.rs.refKey)
		if m == nil {
			break
		}
		ref, ok := m.Value.(string)
		if !ok {
			break
		}
		ptr, err := jsonpointer.Target(ref)
		if err != nil {
			break
		}
		target, ok := rr.doc.Lookup(ptr)
		if !ok {
			break
		}
		n = target
	}
	return n
}

func (rr *ruleRun) diag(ptr, msg string) Diagnostic {
	start, end := rr.doc.Span(ptr)
	return Diagnostic{
		File: rr.doc.Name, RuleID: rr.rule.ID, Severity: rr.rule.Severity,
		Message: msg, Pointer: ptr, Line: start.Line, Column: start.Col,
		EndLine: end.Line, EndColumn: end.Col,
	}
}

// ruleError reports a failure of the rule itself at node n of the document.
func (rr *ruleRun) ruleError(n *loader.Node, err error) {
	rr.errors++
	d := rr.diag(n.Pointer(), err.Error())
	d.Severity = Error
	d.RuleError = true
	d.Cause = err
	rr.out = append(rr.out, d)
}

func (rr *ruleRun) eval(p *program, fr *frame) (ref.Val, error) {
	return rr.spend.eval(rr.ctx, p, fr)
}

func (s *spend) eval(ctx context.Context, p *program, act interpreter.Activation) (ref.Val, error) {
	if s.over != nil {
		return nil, s.over
	}
	v, cost, err := p.Eval(ctx, act)
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

// frame is an activation: a few named values, lazily evaluated variables,
// and a parent. Lazy variables are evaluated at most once per frame.
type frame struct {
	parent *frame
	names  []string
	vals   []any
	lazy   []*lazyVar
}

type lazyVar struct {
	ctx   context.Context
	v     *variable
	fr    *frame
	spend *spend
	done  bool
	val   ref.Val
}

func (f *frame) addLazy(ctx context.Context, vars []*variable, s *spend) {
	for _, v := range vars {
		f.lazy = append(f.lazy, &lazyVar{ctx: ctx, v: v, fr: f, spend: s})
	}
}

// ResolveName implements interpreter.Activation.
func (f *frame) ResolveName(name string) (any, bool) {
	for fr := f; fr != nil; fr = fr.parent {
		for i, n := range fr.names {
			if n == name {
				return fr.vals[i], true
			}
		}
		for _, l := range fr.lazy {
			if l.v.name == name {
				return l.get(), true
			}
		}
	}
	return nil, false
}

// Parent implements interpreter.Activation; frames chain themselves.
func (f *frame) Parent() interpreter.Activation { return nil }

func (l *lazyVar) get() ref.Val {
	if !l.done {
		l.done = true
		v, err := l.spend.eval(l.ctx, l.v.prg, l.fr)
		if err != nil {
			// WrapErr keeps the cause (budget, cost limit, timeout) and
			// its location at the variable for whoever reads it.
			var le *loader.Error
			if errors.As(err, &le) && le.File == l.v.prg.file && le.Pos == l.v.prg.pos {
				named := *le
				named.Msg = "variable " + l.v.name + ": " + le.Msg
				err = &named
			}
			l.val = types.WrapErr(err)
		} else {
			l.val = v
		}
	}
	return l.val
}
