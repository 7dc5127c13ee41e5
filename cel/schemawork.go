package cel

import (
	"container/heap"
	"maps"
	"math"
	"slices"
	"sync"

	"github.com/celint/celint/internal/celtree"
	"github.com/google/cel-go/common/types/ref"
	"github.com/santhosh-tekuri/jsonschema/v6"
)

// Validating a value can cost far more than the value and the schema
// weigh. A schema that applies itself twice to the same member, such as
//
//	{"allOf": [{"properties": {"a": {"$ref": "#"}}},
//	           {"properties": {"a": {"$ref": "#"}}}]}
//
// is validated against {"a": {"a": …}} nested d deep in 2^d steps, and no
// limit on the schema's expansion or the value's size sees it. So every
// validation is first measured: Schema.Work is an upper bound of the
// subschemas the validator (the library's, or a fast path) applies to the
// value's nodes, computed from the schema's structure and the number of the
// value's nodes at each depth, in time linear in the value and in the
// schema times the value's height. The CEL functions that validate are
// charged it before they run, and a rule's schema fragment charges it to
// the rule's budget, so that a validation that would pass the cost limit
// is refused before it starts (TestSchemaWorkBounds).
//
// The bound: a node entered with schema S is visited once by S and by each
// schema S applies in place (allOf, anyOf, oneOf, not, if, then, else,
// $ref, dependentSchemas; $dynamicRef and $recursiveRef by the costliest of
// the schemas they may resolve to). Each of those applies, to one member
// of an object, at most one of its properties or its additionalProperties,
// and every patternProperties, unevaluatedProperties and propertyNames; to
// one item of an array, at most one of its prefixItems (or items) or its
// items (or additionalItems), and its contains and unevaluatedItems. So
// visits[k][S], the schemas applied to one node k levels below, follows
// from visits[k-1] of the schemas one level down, and the work is the sum
// over the value's levels of the number of nodes there times visits[k].

// workCap is where work counts saturate: past every limit, and far from
// overflowing when added.
const workCap = math.MaxUint64 / 4

// workGraph is a schema as the bound reads it, one node per subschema.
type workGraph struct {
	nodes []workNode
	// cyclic is set when subschemas may apply one another in place in a
	// cycle (possible only through dynamic references): no bound is
	// known, and every value is given workCap.
	cyclic bool
	order  []int32 // nodes, each after the ones it applies in place

	mu     sync.Mutex
	levels [][]uint64 // levels[k][i]: visits[k] of node i, computed as far as asked for
	zero   bool       // levels ends with a level of zeros: every deeper one is zero too
}

// workNode is one subschema: what it applies in place, and to members and
// items. Every index is into workGraph.nodes; -1 is none.
type workNode struct {
	inPlace []int32   // each applied to the same value
	oneOf   [][]int32 // dynamic references: one of each list is applied
	props   []int32   // at most one of these per member ...
	pnames  []string  // ... the one of props[i]'s name
	addl    int32     // ... or additionalProperties
	names   []int32   // propertyNames: applied to each member's name
	members []int32   // patternProperties, unevaluatedProperties: to any member
	prefix  []int32   // at most one of these per item ...
	rest    int32     // ... or the schema of the other items
	items   []int32   // contains, unevaluatedItems: to any item
}

// Work is an upper bound of the subschema visits validating v takes (see
// above), stopping past limit: a value within limit is validated in at
// most that many visits. It is deterministic: the same schema and value
// give the same work whatever the machine. v is a native value or a Tree.
func (s *Schema) Work(v any, limit uint64) uint64 {
	g := s.workGraph()
	if g == nil {
		return 0
	}
	return g.work(celtree.ViewOf(v), limit)
}

// workGraph is the schema's graph for Work, built once; nil when the
// schema does not compile (it then validates nothing).
func (s *Schema) workGraph() *workGraph {
	s.workOnce.Do(func() {
		if s.raw != nil {
			s.graph = rawWorkGraph(s.raw)
			return
		}
		if s.s != nil {
			s.graph = libWorkGraph(s.s)
		}
	})
	return s.graph
}

// exactFrom is the bound from the levels past which the value is walked
// (exact): below it, the levels' bound is cheaper to compute and close
// enough.
const exactFrom = 1 << 16

// work is the bound for v: the levels' bound, or, when that is large, the
// count of a walk over v that knows its member names and positions.
func (g *workGraph) work(v celtree.View, limit uint64) uint64 {
	if g.cyclic {
		return workCap
	}
	counts := levelCounts(v, limit)
	var total uint64
	for k, n := range counts {
		q := g.level(k)
		if q == nil {
			break
		}
		total = satAdd(total, satMul(n, q[0]))
		if total > limit {
			break
		}
	}
	if total <= exactFrom {
		return total
	}
	return g.exact(v, limit)
}

// exact is the bound of the walk over v: for each of v's nodes, how many
// times each subschema applies to it, so that a member gets only the
// property of its name (or additionalProperties) and an item only the
// schema of its position. Dynamic references count each schema they may
// resolve to, patternProperties every member. Its own steps are bounded
// by limit: past it, the result is past limit too.
func (g *workGraph) exact(v celtree.View, limit uint64) uint64 {
	e := exactWalk{g: g, limit: limit, pos: make([]int32, len(g.nodes))}
	for p, i := range g.order {
		e.pos[i] = int32(p)
	}
	e.walk(v, map[int32]uint64{0: 1})
	return e.total
}

type exactWalk struct {
	g            *workGraph
	limit        uint64
	pos          []int32 // each node's place in g.order
	total, steps uint64
}

// walk counts the visits of v, entered by the schemas of entry (with how
// many times each), and of its members or items.
func (e *exactWalk) walk(v celtree.View, entry map[int32]uint64) {
	if e.total > e.limit || e.steps > e.limit {
		e.total = max(e.total, e.limit+1)
		return
	}
	// The in-place closure, parents before what they apply: a node comes
	// after what it applies in g.order, so the largest place goes first.
	all := maps.Clone(entry)
	h := &nodeHeap{pos: e.pos}
	for i := range all {
		h.ids = append(h.ids, i)
	}
	heap.Init(h)
	var applied []int32
	for h.Len() > 0 {
		i := heap.Pop(h).(int32)
		c := all[i]
		applied = append(applied, i)
		e.total = satAdd(e.total, c)
		e.steps++
		w := &e.g.nodes[i]
		push := func(j int32) {
			if _, ok := all[j]; !ok {
				heap.Push(h, j)
			}
			all[j] = satAdd(all[j], c)
		}
		for _, j := range w.inPlace {
			push(j)
		}
		for _, alts := range w.oneOf {
			for _, j := range alts {
				push(j)
			}
		}
	}
	if e.total > e.limit || v.Len() == 0 {
		return
	}
	isArray := false
	if v.IsArray() {
		isArray = true
	}
	index := 0
	v.Each(func(name string, m celtree.View) bool {
		next := map[int32]uint64{}
		for _, i := range applied {
			c, w := all[i], &e.g.nodes[i]
			add := func(j int32) {
				if j >= 0 {
					next[j] = satAdd(next[j], c)
				}
			}
			if isArray {
				if index < len(w.prefix) {
					add(w.prefix[index])
				} else {
					add(w.rest)
				}
				for _, j := range w.items {
					add(j)
				}
				continue
			}
			if k := slices.Index(w.pnames, name); k >= 0 {
				add(w.props[k])
			} else {
				add(w.addl)
			}
			for _, j := range w.members {
				add(j)
			}
			for _, j := range w.names {
				if l := e.g.level(0); l != nil {
					e.total = satAdd(e.total, satMul(c, l[j]))
				}
			}
		}
		index++
		if len(next) > 0 {
			e.walk(m, next)
		}
		return e.total <= e.limit && e.steps <= e.limit
	})
}

// nodeHeap orders node ids by their place in the graph's order, largest
// first.
type nodeHeap struct {
	ids []int32
	pos []int32
}

func (h *nodeHeap) Len() int           { return len(h.ids) }
func (h *nodeHeap) Less(a, b int) bool { return h.pos[h.ids[a]] > h.pos[h.ids[b]] }
func (h *nodeHeap) Swap(a, b int)      { h.ids[a], h.ids[b] = h.ids[b], h.ids[a] }
func (h *nodeHeap) Push(x any)         { h.ids = append(h.ids, x.(int32)) }
func (h *nodeHeap) Pop() any {
	x := h.ids[len(h.ids)-1]
	h.ids = h.ids[:len(h.ids)-1]
	return x
}

// levelCounts is the number of v's nodes at each depth, counted until
// their sum passes limit.
func levelCounts(v celtree.View, limit uint64) []uint64 {
	c := levelCounter{limit: limit, counts: make([]uint64, 0, 8)}
	c.count(v, 0)
	return c.counts
}

type levelCounter struct {
	counts      []uint64
	seen, limit uint64
}

func (c *levelCounter) count(v celtree.View, depth int) bool {
	if depth == len(c.counts) {
		c.counts = append(c.counts, 0)
	}
	c.counts[depth]++
	c.seen++
	if c.seen > c.limit {
		return false
	}
	if v.Len() == 0 {
		return true
	}
	return v.Each(func(_ string, e celtree.View) bool { return c.count(e, depth+1) })
}

// level returns visits[k] for every node, computing the levels up to k;
// nil when every node's visits[k] is zero.
func (g *workGraph) level(k int) []uint64 {
	g.mu.Lock()
	defer g.mu.Unlock()
	for len(g.levels) <= k {
		if g.zero {
			return nil
		}
		g.levels = append(g.levels, g.next())
	}
	return g.levels[k]
}

// next computes the level after g.levels (level 0 when there is none).
func (g *workGraph) next() []uint64 {
	n := len(g.nodes)
	obj := make([]uint64, n) // applied to one member, by the node and what it applies in place
	arr := make([]uint64, n)
	var prev, first []uint64
	if len(g.levels) > 0 {
		prev, first = g.levels[len(g.levels)-1], g.levels[0]
	}
	at := func(l []uint64, i int32) uint64 {
		if i < 0 || l == nil {
			return 0
		}
		return l[i]
	}
	maxOf := func(l []uint64, is []int32) uint64 {
		var m uint64
		for _, i := range is {
			m = max(m, at(l, i))
		}
		return m
	}
	sumOf := func(l []uint64, is []int32) uint64 {
		var s uint64
		for _, i := range is {
			s = satAdd(s, at(l, i))
		}
		return s
	}
	zero := true
	for _, i := range g.order {
		w := &g.nodes[i]
		var o, a uint64
		if prev == nil {
			o = 1 // level 0: the node's own visit
		} else {
			o = satAdd(max(maxOf(prev, w.props), at(prev, w.addl)), sumOf(prev, w.members))
			if len(g.levels) == 1 {
				o = satAdd(o, sumOf(first, w.names)) // a member's name, one level down
			}
			a = satAdd(max(maxOf(prev, w.prefix), at(prev, w.rest)), sumOf(prev, w.items))
		}
		o, a = satAdd(o, sumOf(obj, w.inPlace)), satAdd(a, sumOf(arr, w.inPlace))
		for _, alts := range w.oneOf {
			o, a = satAdd(o, maxOf(obj, alts)), satAdd(a, maxOf(arr, alts))
		}
		obj[i], arr[i] = o, a
	}
	for i := range obj {
		obj[i] = max(obj[i], arr[i])
		if obj[i] != 0 {
			zero = false
		}
	}
	g.zero = zero
	return obj
}

// sort orders the nodes so that each comes after those it applies in
// place, and sets cyclic when that is impossible.
func (g *workGraph) sort() {
	const (
		unseen = iota
		onPath
		done
	)
	state := make([]uint8, len(g.nodes))
	type frame struct {
		i    int32
		next []int32
	}
	for root := range g.nodes {
		if state[root] != unseen {
			continue
		}
		stack := []frame{{int32(root), g.nodes[root].inPlaceAll()}}
		state[root] = onPath
		for len(stack) > 0 {
			top := &stack[len(stack)-1]
			if len(top.next) == 0 {
				state[top.i] = done
				g.order = append(g.order, top.i)
				stack = stack[:len(stack)-1]
				continue
			}
			c := top.next[0]
			top.next = top.next[1:]
			switch state[c] {
			case onPath:
				g.cyclic = true
				return
			case unseen:
				state[c] = onPath
				stack = append(stack, frame{c, g.nodes[c].inPlaceAll()})
			}
		}
	}
}

// inPlaceAll is every node w may apply in place.
func (w *workNode) inPlaceAll() []int32 {
	out := append([]int32(nil), w.inPlace...)
	for _, alts := range w.oneOf {
		out = append(out, alts...)
	}
	return out
}

func satAdd(a, b uint64) uint64 {
	if a >= workCap || b >= workCap || a+b >= workCap {
		return workCap
	}
	return a + b
}

func satMul(a, b uint64) uint64 {
	if a == 0 || b == 0 {
		return 0
	}
	if a >= workCap/b {
		return workCap
	}
	return a * b
}

// libWorkGraph is the graph of a schema the library compiled.
func libWorkGraph(root *jsonschema.Schema) *workGraph {
	g := &workGraph{}
	index := map[*jsonschema.Schema]int32{}
	var all []*jsonschema.Schema
	id := func(s *jsonschema.Schema) int32 {
		if s == nil {
			return -1
		}
		if i, ok := index[s]; ok {
			return i
		}
		i := int32(len(all))
		index[s] = i
		all = append(all, s)
		return i
	}
	ids := func(list []*jsonschema.Schema) []int32 {
		var out []int32
		for _, s := range list {
			if s != nil {
				out = append(out, id(s))
			}
		}
		return out
	}
	id(root)
	// The dynamic references are resolved once every schema is known.
	type dynamic struct {
		node   int32
		static *jsonschema.Schema
		anchor string // "" for $recursiveRef
	}
	var dyns []dynamic
	for n := 0; n < len(all); n++ {
		s := all[n]
		var w workNode
		w.addl, w.rest = -1, -1
		for _, e := range inPlaceEdges(s) {
			if e.ref && e.keyword != "$ref" {
				continue // dynamic: below
			}
			w.inPlace = append(w.inPlace, id(e.to))
		}
		if s.RecursiveRef != nil {
			dyns = append(dyns, dynamic{int32(n), s.RecursiveRef, ""})
		}
		if d := s.DynamicRef; d != nil && d.Ref != nil {
			anchor := d.Anchor
			if anchor == "" || d.Ref.DynamicAnchor != anchor {
				w.inPlace = append(w.inPlace, id(d.Ref)) // resolved statically
			} else {
				dyns = append(dyns, dynamic{int32(n), d.Ref, anchor})
			}
		}
		for _, name := range slices.Sorted(maps.Keys(s.Properties)) {
			w.props = append(w.props, id(s.Properties[name]))
			w.pnames = append(w.pnames, name)
		}
		if a, ok := s.AdditionalProperties.(*jsonschema.Schema); ok {
			w.addl = id(a)
		}
		for _, p := range s.PatternProperties {
			w.members = append(w.members, id(p))
		}
		if s.UnevaluatedProperties != nil {
			w.members = append(w.members, id(s.UnevaluatedProperties))
		}
		if s.PropertyNames != nil {
			w.names = append(w.names, id(s.PropertyNames))
		}
		switch items := s.Items.(type) {
		case *jsonschema.Schema:
			w.rest = id(items)
		case []*jsonschema.Schema:
			w.prefix = ids(items)
			if a, ok := s.AdditionalItems.(*jsonschema.Schema); ok {
				w.rest = id(a)
			}
		}
		w.prefix = append(w.prefix, ids(s.PrefixItems)...)
		if s.Items2020 != nil {
			w.rest = id(s.Items2020)
		}
		if s.Contains != nil {
			w.items = append(w.items, id(s.Contains))
		}
		if s.UnevaluatedItems != nil {
			w.items = append(w.items, id(s.UnevaluatedItems))
		}
		g.nodes = append(g.nodes, w)
	}
	for _, d := range dyns {
		alts := []int32{index[d.static]}
		for i, s := range all {
			if s != d.static && ((d.anchor == "" && s.RecursiveAnchor) || (d.anchor != "" && s.DynamicAnchor == d.anchor)) {
				alts = append(alts, int32(i))
			}
		}
		g.nodes[d.node].oneOf = append(g.nodes[d.node].oneOf, alts)
	}
	g.sort()
	return g
}

// rawWorkGraph is the graph of a schema of the plain subset (see
// rawschema.go), read in place.
func rawWorkGraph(raw any) *workGraph {
	g := &workGraph{}
	var add func(s celtree.View) int32
	add = func(s celtree.View) int32 {
		i := int32(len(g.nodes))
		g.nodes = append(g.nodes, workNode{addl: -1, rest: -1})
		if s.Len() == 0 {
			return i
		}
		var w workNode
		w.addl, w.rest = -1, -1
		s.Each(func(kw string, sub celtree.View) bool {
			switch kw {
			case "not":
				w.inPlace = append(w.inPlace, add(sub))
			case "allOf", "anyOf", "oneOf":
				sub.Each(func(_ string, e celtree.View) bool {
					w.inPlace = append(w.inPlace, add(e))
					return true
				})
			case "properties":
				sub.Each(func(name string, e celtree.View) bool {
					w.props = append(w.props, add(e))
					w.pnames = append(w.pnames, name)
					return true
				})
			case "additionalProperties":
				w.addl = add(sub)
			case "items":
				w.rest = add(sub)
			}
			return true
		})
		g.nodes[i] = w
		return i
	}
	add(celtree.ViewOf(raw))
	g.sort()
	return g
}

// schemaCost measures a call of schemaErrors or matchesSchema before it
// runs: its arguments' weights plus the work of the validation (Work).
// A schema that does not compile, or a value that cannot be validated, is
// charged its weights; the call then reports why.
func (l *library) schemaCost(args []ref.Val, limit uint64) uint64 {
	c := sumOfWeights(args, limit)
	if c > limit || len(args) < 2 {
		return c
	}
	o := schemaOptions{dialect: "2020-12"}
	if len(args) == 3 {
		var err error
		if o, err = parseSchemaOptions(args[2]); err != nil {
			return c
		}
	}
	sch, err := l.compiledSchemaWith(args[1], o)
	if err != nil {
		return c
	}
	if sch.raw == nil && sch.s == nil {
		return c
	}
	inst, err := instance(args[0])
	if err != nil {
		return c
	}
	return satAdd(c, sch.Work(inst, limit-c))
}
