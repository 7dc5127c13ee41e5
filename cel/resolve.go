package cel

import (
	"fmt"
	"strings"

	"github.com/google/cel-go/common/types"
	"github.com/google/cel-go/common/types/ref"
	"github.com/google/cel-go/common/types/traits"

	"github.com/celint/celint/internal/jsonpointer"
)

const (
	// maxReferenceChain bounds a chain of references to references.
	maxReferenceChain = 64
	// maxResolveAllNodes bounds the nodes resolveAll visits.
	maxResolveAllNodes = 1_000_000
)

// referenceOf returns the reference string of v when v is a reference
// object: a map with a member named by the reference key whose value is a
// string. Other members may sit beside it.
func (l *library) referenceOf(v ref.Val) (string, bool) {
	if l.refKey == "" {
		return "", false
	}
	m, ok := v.(traits.Mapper)
	if !ok {
		return "", false
	}
	got, found := m.Find(types.String(l.refKey))
	if !found {
		return "", false
	}
	s, ok := got.(types.String)
	return string(s), ok
}

// follow looks one reference up in root.
func (l *library) follow(root ref.Val, r string) (ref.Val, error) {
	pointer, err := jsonpointer.Target(r)
	if err != nil {
		return nil, err
	}
	tokens, err := jsonpointer.Parse(pointer)
	if err != nil {
		return nil, fmt.Errorf("reference %q is not a JSON Pointer fragment (\"#/...\"): %v", r, err)
	}
	target, ok := lookupPointer(root, tokens)
	if !ok {
		return nil, fmt.Errorf("reference %q does not resolve", r)
	}
	return target, nil
}

// resolve follows v's reference (and the references its target makes,
// and so on) to the first value that is not a reference.
func (l *library) resolve(root, v ref.Val) (ref.Val, error) {
	var chain []string
	for {
		r, ok := l.referenceOf(v)
		if !ok {
			return v, nil
		}
		for _, seen := range chain {
			if seen == r {
				return nil, fmt.Errorf("reference cycle: %s", strings.Join(append(chain, r), " -> "))
			}
		}
		chain = append(chain, r)
		if len(chain) > maxReferenceChain {
			return nil, fmt.Errorf("reference chain longer than %d: %s -> ...", maxReferenceChain, strings.Join(chain[:3], " -> "))
		}
		target, err := l.follow(root, r)
		if err != nil {
			return nil, err
		}
		v = target
	}
}

// resolveAllState carries one resolveAll call.
type resolveAllState struct {
	lib     *library
	root    ref.Val
	visited int
	active  []string // references being expanded, outermost first
}

// resolveAll returns v as a JSON-compatible Go value with every reference
// object inside it replaced by its resolved target, recursively.
func (l *library) resolveAll(root, v ref.Val) (any, error) {
	s := &resolveAllState{lib: l, root: root}
	return s.expand(v)
}

func (s *resolveAllState) expand(v ref.Val) (any, error) {
	s.visited++
	if s.visited > maxResolveAllNodes {
		return nil, fmt.Errorf("resolveAll: more than %d nodes visited; the expansion is too large", maxResolveAllNodes)
	}
	if _, ok := s.lib.referenceOf(v); ok {
		depth := len(s.active)
		defer func() { s.active = s.active[:depth] }()
		for {
			r, ok := s.lib.referenceOf(v)
			if !ok {
				break
			}
			for i, a := range s.active {
				if a == r {
					cycle := append(append([]string(nil), s.active[i:]...), r)
					return nil, fmt.Errorf("reference cycle: %s", strings.Join(cycle, " -> "))
				}
			}
			s.active = append(s.active, r)
			if len(s.active)-depth > maxReferenceChain {
				return nil, fmt.Errorf("reference chain longer than %d: %s -> ...", maxReferenceChain, strings.Join(s.active[depth:depth+3], " -> "))
			}
			target, err := s.lib.follow(s.root, r)
			if err != nil {
				return nil, err
			}
			v = target
		}
		return s.expand(v)
	}
	switch t := v.(type) {
	case traits.Mapper:
		out := make(map[string]any)
		it := t.Iterator()
		for it.HasNext() == types.True {
			k := it.Next()
			key, err := mapKeyString(k)
			if err != nil {
				return nil, err
			}
			val, err := s.expand(t.Get(k))
			if err != nil {
				return nil, err
			}
			out[key] = val
		}
		return out, nil
	case traits.Lister:
		var out []any
		it := t.Iterator()
		for it.HasNext() == types.True {
			val, err := s.expand(it.Next())
			if err != nil {
				return nil, err
			}
			out = append(out, val)
		}
		if out == nil {
			out = []any{}
		}
		return out, nil
	}
	return ToNative(v)
}
