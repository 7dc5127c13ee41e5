package engine

import (
	"context"
	"errors"
	"sync"
	"unsafe"

	"github.com/celint/celint/internal/celtree"
	"github.com/celint/celint/loader"
	"github.com/google/cel-go/common/types"
	"github.com/google/cel-go/common/types/ref"
	"github.com/google/cel-go/interpreter"
)

// Frames are the CEL activations of a lint: the document's frame (root and
// the ruleset's document variables), each node's frame (self, scope, the
// rule's variables), and the frames of 'each' items, each resolving names
// through its parent. Variables are evaluated lazily, at most once per
// frame, and the document variables once per document.
// frame is an activation: a few named values, lazily evaluated variables,
// and a parent. Lazy variables are evaluated at most once per frame.
type frame struct {
	parent *frame
	names  []string
	vals   []any
	buf    [3]any   // vals' storage for a node's or an item's frame, allocated with it
	self   any      // a selected node's frame: its node as a celtree.Tree, or its resolved native value when the rule resolves references
	node   nodeVars // a selected node's other variables; zero in other frames
	lazy   []lazyVar

	lazyCtx   context.Context // what lazy variables are evaluated under
	lazySpend *spend          // and charged to
	shared    *sharedVars     // where lazy variables with a share key are computed once; nil: none is
}

// sharedVars are the values of the rules' shareable document variables
// (see markShared) on one document, each computed by the first rule that
// reads it. Every rule that reads one is charged its cost, as if it had
// computed it: budgets, and so diagnostics, are the same as without
// sharing. An evaluation that fails is not shared: each rule then
// evaluates the variable itself, and reports its own error.
type sharedVars struct {
	mu   sync.Mutex
	vals map[shareKey]*sharedVar
}

type sharedVar struct {
	mu   sync.Mutex // held while the value is computed
	done bool
	val  ref.Val
	cost uint64
}

// eval returns the value of v, a variable with a share key, charged to s.
func (m *sharedVars) eval(v *variable, s *spend, ctx context.Context, act *frame) (ref.Val, error) {
	if s.over != nil {
		return nil, s.over
	}
	m.mu.Lock()
	e := m.vals[v.share]
	if e == nil {
		if m.vals == nil {
			m.vals = map[shareKey]*sharedVar{}
		}
		e = &sharedVar{}
		m.vals[v.share] = e
	}
	m.mu.Unlock()
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.done {
		return s.charge(v.prg, e.val, e.cost, nil)
	}
	val, cost, err := s.run(ctx, v.prg, act)
	if err == nil && !types.IsError(val) {
		e.done, e.val, e.cost = true, val, cost
	}
	return s.charge(v.prg, val, cost, err)
}

type lazyVar struct {
	v    *variable
	done bool
	val  ref.Val
}

// addLazy adds vars to the frame, each evaluated in it when first read,
// under ctx and charged to s: one context and one spend for all of a
// frame's lazy variables.
func (f *frame) addLazy(ctx context.Context, vars []*variable, s *spend) {
	if len(vars) == 0 {
		return
	}
	if len(f.lazy) > 0 && (f.lazyCtx != ctx || f.lazySpend != s) {
		panic("engine: a frame's lazy variables share one context and one spend")
	}
	f.lazyCtx, f.lazySpend = ctx, s
	for _, v := range vars {
		f.lazy = append(f.lazy, lazyVar{v: v})
	}
}

// plainScalars returns the document's strings written as plain YAML
// scalars that other YAML readers take as another type (see
// loader.OtherReading): a map of path, value and reading for each, in
// document order; none in JSON. It is found once per document, when an
// expression first reads it.
func (l *linter) plainScalars() []map[string]string {
	l.plainOnce.Do(func() {
		if l.doc.Format != "yaml" {
			return
		}
		var walk func(n *loader.Node)
		walk = func(n *loader.Node) {
			switch n.Kind {
			case loader.Object, loader.Array:
				for _, c := range n.Children() {
					walk(c)
				}
			case loader.String:
				if n.Style != loader.Plain {
					return
				}
				s, _ := n.Value().(string)
				if r := loader.OtherReading(s); r != "" {
					l.plain = append(l.plain, map[string]string{"path": n.Pointer(), "value": s, "reading": r})
				}
			}
		}
		walk(l.doc.Root)
	})
	return l.plain
}

// styleName is the name of how n is written, for selfStyle; in JSON,
// collections are flow ones.
func styleName(n *loader.Node, json bool) string {
	switch n.Style {
	case loader.SingleQuoted:
		return "single"
	case loader.DoubleQuoted:
		return "double"
	case loader.Literal:
		return "literal"
	case loader.Folded:
		return "folded"
	case loader.Flow:
		return "flow"
	}
	if n.Kind == loader.Object || n.Kind == loader.Array {
		if json {
			return "flow"
		}
		return "block"
	}
	return "plain"
}

// nodeVars are the variables of a selected node that most expressions do
// not read — path, parentScope, selfKey, selfKeys, parent, resolveError,
// selfStyle —
// computed when first read, without allocating for those never read.
type nodeVars struct {
	rr  *ruleRun // nil in frames that are not a node's
	n   *loader.Node
	seq uint64 // the node frame's number in the rule's run (ruleRun.nodeSeq)

	done        uint8 // which of the cached values below are computed
	path        string
	parentScope any
	selfKeys    []string
	resolveErr  string
}

// The values of nodeVars.done: which cached values are computed.
const (
	donePath uint8 = 1 << iota
	doneParentScope
	doneSelfKeys
	doneResolveErr
	doneScope
)

// scope returns a node's frame's scope, vals[1], looking it up on first
// use: most rules never read it.
func (f *frame) scope() any {
	if f.node.done&doneScope == 0 {
		f.node.done |= doneScope
		f.vals[1] = f.node.rr.nodeScope(f.node.n)
	}
	return f.vals[1]
}

// get returns the variable name, if it is one of a node's.
func (v *nodeVars) get(name string) (any, bool) {
	if v.rr == nil {
		return nil, false
	}
	switch name {
	case "path":
		if v.done&donePath == 0 {
			v.done |= donePath
			v.path = v.n.Pointer()
		}
		return v.path, true
	case "selfKey":
		return selfKey(v.n), true
	case "parent":
		return parentValue(v.n), true
	case "parentScope":
		if v.done&doneParentScope == 0 {
			v.done |= doneParentScope
			v.parentScope = v.rr.scopeOf(v.n.Parent)
		}
		return v.parentScope, true
	case "selfKeys":
		if v.done&doneSelfKeys == 0 {
			v.done |= doneSelfKeys
			v.selfKeys = memberNames(v.n)
		}
		return v.selfKeys, true
	case "selfStyle":
		return styleName(v.n, v.rr.doc.Format == "json"), true
	case "plainScalars":
		return v.rr.plainScalars(), true
	case "resolveError":
		if v.done&doneResolveErr == 0 {
			v.done |= doneResolveErr
			v.resolveErr = v.rr.resolveError(v.n)
		}
		return v.resolveErr, true
	}
	return nil, false
}

// ResolveName implements interpreter.Activation.
func (f *frame) ResolveName(name string) (any, bool) {
	for fr := f; fr != nil; fr = fr.parent {
		for i, n := range fr.names {
			if n == name {
				switch {
				case i == 0: // self or item, most reads: never a memberKey
					return fr.vals[0], true
				case i == 1 && fr.node.rr != nil:
					return fr.scope(), true
				}
				if k, ok := fr.vals[i].(memberKey); ok {
					return celtree.StringAt(k.n.KeyRef()), true
				}
				return fr.vals[i], true
			}
		}
		if v, ok := fr.node.get(name); ok {
			return v, true
		}
		for i := range fr.lazy {
			if l := &fr.lazy[i]; l.v.name == name {
				return fr.get(l), true
			}
		}
	}
	return nil, false
}

// Parent implements interpreter.Activation; frames chain themselves.
func (f *frame) Parent() interpreter.Activation { return nil }

// get returns the value of a lazy variable of f, evaluating it first. A
// variable that is the same for every node of a scope is evaluated once
// per scope in a rule's run on a document (variable.perScope).
func (f *frame) get(l *lazyVar) ref.Val {
	if !l.done && l.v.perScope && f.node.rr != nil {
		if k, ok := scopeIdentity(f.scope()); ok {
			rr, key := f.node.rr, memoKey{l.v, k}
			if v, ok := rr.memo[key]; ok {
				l.done, l.val = true, v
				return v
			}
			v := f.eval(l)
			if rr.memo == nil {
				rr.memo = map[memoKey]ref.Val{}
			}
			rr.memo[key] = v
			return v
		}
	}
	if !l.done {
		return f.eval(l)
	}
	return l.val
}

// memoKey is a per-scope variable under one scope.
type memoKey struct {
	v     *variable
	scope scopeKey
}

// scopeKey identifies a scope: a scalar by its value, a list by its
// identity (nodes that inherit one scope holder share its list). It holds
// no new interface value, so that making one allocates nothing.
type scopeKey struct {
	scalar any  // a scalar scope, as it is
	first  *any // a list scope's first element, and its length
	n      int
}

// scopeIdentity returns a comparable key that equal scopes of the same
// holder share; false for a scope of another kind, which is not memoised.
func scopeIdentity(scope any) (scopeKey, bool) {
	switch x := scope.(type) {
	case nil, string, bool, int64, float64:
		return scopeKey{scalar: scope}, true
	case []any:
		return scopeKey{first: unsafe.SliceData(x), n: len(x)}, true
	}
	return scopeKey{}, false
}

// eval evaluates a lazy variable of f and keeps its value.
func (f *frame) eval(l *lazyVar) ref.Val {
	l.done = true
	var v ref.Val
	var err error
	if f.shared != nil && l.v.share != (shareKey{}) {
		v, err = f.shared.eval(l.v, f.lazySpend, f.lazyCtx, f)
	} else {
		v, err = f.lazySpend.eval(f.lazyCtx, l.v.prg, f)
	}
	if err != nil {
		// WrapErr keeps the cause (budget, cost limit, timeout) and its
		// location at the variable for whoever reads it.
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
	return l.val
}
