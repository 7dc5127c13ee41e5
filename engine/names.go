package engine

import (
	"fmt"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/google/cel-go/common/types"
	"github.com/google/cel-go/common/types/ref"

	"github.com/celint/celint/cel"
)

// Reading a variable by name searches the frames from the innermost out:
// each frame's names, a node's own variables, then its lazy variables.
// Most reads are of the same few names in chains of frames of the same
// shape, so a program that ran in a chain of one shape finds its free
// variables in the next chain of that shape at once, by codes
// (cel.Program.EvalCoded): where in the chain each name is.

// frameSig is the shape of a chain of frames, from its innermost frame:
// the names that frame binds, in order, whether it holds a node's
// variables (nodeVars), the names of its lazy variables, in order (vars
// are those of the first rule of the shape), and the shape of the chain
// outside it. Frames point to a shared frameSig, which nothing changes;
// a frame that points to none is searched by name.
type frameSig struct {
	names  []string
	node   bool
	vars   []*variable
	parent *frameSig
	depth  int // frames in the chain
}

// docNames are the names a document's frame binds.
var docNames = []string{"root"}

// sigTable holds a ruleset's chain shapes, one for each sequence of
// names: rules whose variables have the same names have the same shapes,
// so that a program several of them share (an environment compiles each
// expression once) keeps its codes from one rule to the next.
type sigTable struct {
	mu   sync.Mutex
	sigs map[string]*frameSig
}

// sig returns the table's shape of a frame with these names, node
// variables and lazy variables, inside a chain of shape parent; it adds
// the shape when the table has none.
func (t *sigTable) sig(names []string, node bool, vars []*variable, parent *frameSig) *frameSig {
	var key strings.Builder
	fmt.Fprintf(&key, "%p %q %t", parent, names, node)
	for _, v := range vars {
		key.WriteString(" " + strconv.Quote(v.name))
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	if s, ok := t.sigs[key.String()]; ok {
		return s
	}
	if t.sigs == nil {
		t.sigs = map[string]*frameSig{}
	}
	s := &frameSig{names: names, node: node, vars: vars, parent: parent, depth: 1}
	if parent != nil {
		s.depth = parent.depth + 1
	}
	t.sigs[key.String()] = s
	return s
}

// ruleSigs are the shapes of a rule's frames in a document's frame of
// shape doc: its run's frame (its document variables), its nodes' frames
// (its variables) and its items' frames.
type ruleSigs struct {
	doc, rule, node, each *frameSig
}

// ruleShapes finds a rule's frame shapes. A copy of a rule shares it.
type ruleShapes struct {
	table *sigTable
	r     *Rule
	last  atomic.Pointer[ruleSigs]
}

// in returns the rule's shapes in a document's frame of shape doc.
func (s *ruleShapes) in(doc *frameSig) *ruleSigs {
	if rs := s.last.Load(); rs != nil && rs.doc == doc {
		return rs
	}
	rs := &ruleSigs{doc: doc}
	rs.rule = s.table.sig(nil, false, s.r.docVars, doc)
	rs.node = s.table.sig(nodeNames, true, s.r.vars, rs.rule)
	rs.each = s.table.sig(eachNames, false, nil, rs.node)
	s.last.Store(rs)
	return rs
}

// shapes returns the rule's frame shapes in the document's frame; nil
// when its frames are searched by name.
func (rr *ruleRun) shapes() *ruleSigs {
	if rr.rule.sigs == nil || rr.docFrame.sig == nil {
		return nil
	}
	return rr.rule.sigs.in(rr.docFrame.sig)
}

// nodeSig is the shape of a node's frame inside parent, once its lazy
// variables are added; nil when parent is not the run's frame.
func (rr *ruleRun) nodeSig(parent *frame) *frameSig {
	if parent.sig == nil || parent != rr.ruleFrame {
		return nil
	}
	// (the shapes shapes() found for the run: those whose rule frame
	// parent has, unless another document's frame came since)
	if sh := rr.rule.sigs.last.Load(); sh != nil && sh.rule == parent.sig {
		return sh.node
	}
	return nil
}

// eachSig is the shape of an item's frame inside node, a node's frame.
func (rr *ruleRun) eachSig(node *frame) *frameSig {
	if node.sig == nil {
		return nil
	}
	if sh := rr.rule.sigs.last.Load(); sh != nil && sh.node == node.sig {
		return sh.each
	}
	return nil
}

// nodeVarNames are the names nodeVars.get answers.
var nodeVarNames = []string{"path", "selfKey", "parent", "parentScope", "selfKeys", "resolveError"}

// A code says where a name is in a chain of frames: how many frames out
// (its low 4 bits), in which part of that frame (the next 4), and at
// which position there (the rest).
const (
	codeKindShift = 4
	codeIndex     = 8

	codeAbsent  = 0 // nowhere: not found
	codeName    = 1 // fr.names[i]
	codeNodeVar = 2 // a nodeVars name
	codeLazy    = 3 // fr.lazy[i]

	maxCodeDepth = 1<<codeKindShift - 1
)

// binding is a program's codes for a chain shape.
type binding struct {
	sig   *frameSig
	codes []int32 // by the program's free variables
}

// newBinding returns the codes of names in chains of shape sig; nil when
// the chain is too deep for a code.
func newBinding(names []string, sig *frameSig) *binding {
	if sig.depth > maxCodeDepth {
		return nil
	}
	b := &binding{sig: sig, codes: make([]int32, len(names))}
	for i, name := range names {
		b.codes[i] = codeOf(name, sig)
	}
	return b
}

// codeOf finds name as frame.ResolveName would, in a chain of shape sig.
func codeOf(name string, sig *frameSig) int32 {
	code := func(depth, kind, i int) int32 {
		return int32(depth | kind<<codeKindShift | i<<codeIndex)
	}
	for d, s := 0, sig; s != nil; d, s = d+1, s.parent {
		for i, n := range s.names {
			if n == name {
				return code(d, codeName, i)
			}
		}
		if s.node {
			for i, n := range nodeVarNames {
				if n == name {
					return code(d, codeNodeVar, i)
				}
			}
		}
		for i, v := range s.vars {
			if v.name == name {
				return code(d, codeLazy, i)
			}
		}
	}
	return codeAbsent
}

// ResolveCode implements cel.CodedActivation: name, found where its code
// (newBinding) says.
func (f *frame) ResolveCode(code int32, name string, a types.Adapter) (ref.Val, bool) {
	if code == codeName<<codeKindShift { // self or item, in this frame: most reads
		return valueOf(f.vals[0], a), true
	}
	fr := f
	for d := code & maxCodeDepth; d > 0; d-- {
		fr = fr.parent
	}
	i := int(code >> codeIndex)
	switch code >> codeKindShift & 0xf {
	case codeName:
		switch {
		case i == 0: // self or item
			return valueOf(fr.vals[0], a), true
		case i == 1 && fr.node.rr != nil:
			return valueOf(fr.scope(), a), true
		}
		if k, ok := fr.vals[i].(memberKey); ok {
			return cel.StringAt(k.n.KeyRef()), true
		}
		return valueOf(fr.vals[i], a), true
	case codeNodeVar:
		v, ok := fr.node.get(name)
		return valueOf(v, a), ok
	case codeLazy:
		return fr.get(&fr.lazy[i]), true
	}
	return nil, false
}

// valueOf is v as a CEL value: v itself when it is one (the node views a
// frame holds most often are told first, without a lookup: they are one
// pointer, and convert without allocating), else v converted by a, as
// cel-go converts what ResolveName returns.
func valueOf(v any, a types.Adapter) ref.Val {
	switch x := v.(type) {
	case nodeMap:
		return x
	case nodeList:
		return x
	case ref.Val:
		return x
	}
	return a.NativeToValue(v)
}
