package engine

import (
	"bytes"
	"fmt"
	"strings"
	"sync"

	"github.com/celint/celint/internal/jsonpointer"
	"github.com/celint/celint/loader"
)

const (
	// maxReferenceChain bounds a chain of references to references.
	maxReferenceChain = 64
	// maxResolvedValues bounds the values one document's resolution builds.
	maxResolvedValues = 1_000_000
)

// resolver resolves the reference objects of one document, on its located
// tree: only objects at the places the ruleset recognises count, a target
// is followed by JSON Pointer, and what a node resolves to is computed once
// per document, whichever rules ask.
type resolver struct {
	mu         sync.Mutex // guards values and built: rules may run at once
	doc        *loader.Document
	cfg        *refConfig
	recognised map[*loader.Node]bool // nil: everywhere
	// limited maps a reference object that the ruleset's targets limit to
	// the nodes it may name.
	limited map[*loader.Node]map[*loader.Node]bool
	values  map[*loader.Node]resolved
	built   int
	none    bool // no object of the document has the reference key as a member
}

type resolved struct {
	v   any
	err error
}

func newResolver(doc *loader.Document, cfg *refConfig) *resolver {
	x := &resolver{doc: doc, cfg: cfg, values: map[*loader.Node]resolved{},
		none: !doc.MayHaveMember(cfg.key)}
	// A document where no object has the key as a member has no
	// reference: which objects would be one does not matter (every
	// question about a node is answered by mayHold first). The tree
	// answers this, so that a document whose JSON is a rendering is not
	// rendered for it (see loader.Document.JSON).
	if cfg.at != nil && !x.none {
		x.recognised = map[*loader.Node]bool{}
		for _, sel := range cfg.at {
			_ = sel.match(doc, func(n *loader.Node) { x.recognised[n] = true })
		}
	}
	if len(cfg.targets) > 0 && !x.none {
		x.limited = map[*loader.Node]map[*loader.Node]bool{}
		for _, t := range cfg.targets {
			to := map[*loader.Node]bool{}
			for _, sel := range t.to {
				_ = sel.match(doc, func(n *loader.Node) { to[n] = true })
			}
			for _, sel := range t.at {
				_ = sel.match(doc, func(n *loader.Node) { x.limited[n] = to })
			}
		}
	}
	return x
}

// reference returns the reference a node makes, if it is a recognised
// reference object.
func (x *resolver) reference(n *loader.Node) (string, bool) {
	if x.none || n.Kind != loader.Object || x.recognised != nil && !x.recognised[n] {
		return "", false
	}
	m := n.Member(x.cfg.key)
	if m == nil {
		return "", false
	}
	s, ok := m.Value().(string)
	return s, ok
}

// mayHold reports whether the node's JSON mentions the reference key at
// all (as a member name, or as a string equal to it): most nodes do not,
// and need no resolving. A document with references has its JSON made
// here, when it is a rendering.
func (x *resolver) mayHold(n *loader.Node) bool {
	return !x.none && containsNeedle(x.doc.JSON()[n.Offset:x.doc.JSONEnd(n)], x.cfg.needle)
}

// containsNeedle is bytes.Contains(data, needle) for a needle of two bytes
// or more whose first byte is common, such as a JSON string with its
// quotes: it searches from the second byte (bytes.Index skips to a rare
// first byte quickly, and falls back to testing every offset when the
// first byte keeps matching), then checks the first.
func containsNeedle(data, needle []byte) bool {
	if len(needle) < 2 {
		return bytes.Contains(data, needle)
	}
	rest := needle[1:]
	for off := 1; off < len(data); {
		i := bytes.Index(data[off:], rest)
		if i < 0 {
			return false
		}
		if data[off+i-1] == needle[0] {
			return true
		}
		off += i + 1
	}
	return false
}

// target follows the reference object n, and the references its target
// makes, to the first node that is not a reference.
func (x *resolver) target(n *loader.Node) (*loader.Node, error) {
	var chain []string
	for {
		ref, ok := x.reference(n)
		if !ok {
			return n, nil
		}
		for _, seen := range chain {
			if seen == ref {
				return nil, fmt.Errorf("reference cycle: %s", strings.Join(append(chain, ref), " -> "))
			}
		}
		chain = append(chain, ref)
		if len(chain) > maxReferenceChain {
			return nil, fmt.Errorf("reference chain longer than %d: %s -> ...", maxReferenceChain, strings.Join(chain[:3], " -> "))
		}
		ptr, err := jsonpointer.Target(ref)
		if err != nil {
			return nil, err
		}
		t, ok := x.doc.Lookup(ptr)
		if !ok {
			return nil, fmt.Errorf("reference %q does not resolve", ref)
		}
		if to, limited := x.limited[n]; limited && !to[t] {
			return nil, fmt.Errorf("reference %q names a value its place does not take", ref)
		}
		n = t
	}
}

// errorOf returns why the reference object n does not resolve, or "" when
// it does or is not a reference.
func (x *resolver) errorOf(n *loader.Node) string {
	if _, ok := x.reference(n); !ok {
		return ""
	}
	if _, err := x.target(n); err != nil {
		return err.Error()
	}
	return ""
}

// value returns n's value with every recognised reference object inside it
// replaced by its target's value, recursively.
func (x *resolver) value(n *loader.Node) (any, error) {
	if !x.mayHold(n) {
		return n.Value(), nil
	}
	x.mu.Lock()
	defer x.mu.Unlock()
	if r, ok := x.values[n]; ok {
		return r.v, r.err
	}
	v, err := x.expand(n, nil)
	x.values[n] = resolved{v, err}
	return v, err
}

// expand builds n's resolved value; active holds the references being
// expanded, outermost first, to catch a value that contains itself.
func (x *resolver) expand(n *loader.Node, active []string) (any, error) {
	if !x.mayHold(n) {
		return n.Value(), nil
	}
	if ref, ok := x.reference(n); ok {
		for i, a := range active {
			if a == ref {
				return nil, fmt.Errorf("reference cycle: %s", strings.Join(append(active[i:], ref), " -> "))
			}
		}
		t, err := x.target(n)
		if err != nil {
			return nil, err
		}
		return x.expand(t, append(active, ref))
	}
	x.built += n.Len() + 1
	if x.built > maxResolvedValues {
		return nil, fmt.Errorf("the references expand to more than %d values", maxResolvedValues)
	}
	switch n.Kind {
	case loader.Object:
		out := make(map[string]any, n.Len())
		for _, c := range n.Children() {
			v, err := x.expand(c, active)
			if err != nil {
				return nil, err
			}
			out[c.Key()] = v
		}
		return out, nil
	case loader.Array:
		out := make([]any, n.Len())
		for i, c := range n.Children() {
			v, err := x.expand(c, active)
			if err != nil {
				return nil, err
			}
			out[i] = v
		}
		return out, nil
	}
	return n.Value(), nil
}

// deref follows reference objects from n to the node they point at; a
// reference that does not resolve leaves n as it is.
func (x *resolver) deref(n *loader.Node) *loader.Node {
	if _, ok := x.reference(n); !ok {
		return n
	}
	if t, err := x.target(n); err == nil {
		return t
	}
	return n
}
