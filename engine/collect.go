package engine

import (
	"cmp"
	"container/heap"
	"hash/maphash"
	"slices"
	"sync"
)

// collector gathers the diagnostics of one lint as the rules report them
// (linter.collect hands it each rule's new ones), and keeps what Lint
// returns:
//
//   - each finding once: one reported again (a referenced value checked
//     from each place that references it) is merged into the first, its
//     related positions added (see compact);
//   - the findings LintOptions.Adjust keeps, as it changed them;
//   - with LintOptions.MaxDiagnostics, only the first that many findings
//     in the order of the result, in a max-heap that evicts the last
//     whenever one that sorts before it comes; the others are counted in
//     omitted;
//   - every rule error.
//
// Ties in the sort go to the earlier rule, then to the rule's earlier
// finding: each rule reports its findings in an order that does not depend
// on the others or on the number of workers, so neither does the result.
//
// What the collector remembers of a finding it does not keep is a 64-bit
// hash, so that a finding reported again is recognised: a few bytes each.
type collector struct {
	mu     sync.Mutex
	max    int // 0: no bound
	adjust func(*Diagnostic) bool
	path   func(pointer string) string // a finding's Path (identity.go); nil: none
	seed   maphash.Seed

	entries []collected // the kept diagnostics; an evicted one's slot is its successor's
	// last is a max-heap of the slots of the kept findings (not rule
	// errors) when max > 0: its first is the finding that sorts last.
	last lastHeap
	// seen holds, by hash, the slot of each finding kept, or -1 for one
	// dropped (by adjust, or evicted): its repetitions are dropped as
	// well, and not counted again.
	seen    map[uint64]int32
	omitted Counts
}

// collected is a diagnostic with its place in the order rules report
// them: the rule's index, and the finding's among that rule's.
type collected struct {
	d          Diagnostic
	rule, seq  int32
	hash       uint64
	relatedSet map[Related]bool // d.Related as a set, once it is long
}

func newCollector(opts LintOptions) *collector {
	c := &collector{max: max(opts.MaxDiagnostics, 0), adjust: opts.Adjust, seed: maphash.MakeSeed(), seen: map[uint64]int32{}}
	c.last.c = c
	return c
}

// findingKey is what makes two diagnostics the same finding (sameFinding),
// for hashing.
type findingKey struct {
	file, rule, code, message, pointer, url string
	severity                                Severity
	line, column, endLine, endColumn        int
	ruleError, inputError                   bool
}

func (c *collector) hash(d *Diagnostic) uint64 {
	return maphash.Comparable(c.seed, findingKey{
		d.File, d.RuleID, d.Code, d.Message, d.Pointer, d.URL, d.Severity,
		d.Line, d.Column, d.EndLine, d.EndColumn, d.RuleError, d.InputError,
	})
}

// add takes the diagnostics a rule reported since the last call; rule is
// the rule's index and seq counts the rule's diagnostics so far.
func (c *collector) add(ds []Diagnostic, rule int32, seq *int32) {
	c.mu.Lock()
	defer c.mu.Unlock()
	for i := range ds {
		e := collected{d: ds[i], rule: rule, seq: *seq}
		*seq++
		if e.d.RuleError {
			c.put(e) // always kept; repeated ones are merged by compact
			continue
		}
		e.hash = c.hash(&e.d)
		if slot, ok := c.seen[e.hash]; ok {
			if slot >= 0 {
				c.entries[slot].merge(e.d.Related)
			}
			continue
		}
		if c.path != nil {
			e.d.Path = c.path(e.d.Pointer)
		}
		if c.adjust != nil && !c.adjust(&e.d) {
			c.seen[e.hash] = -1
			continue
		}
		if c.max == 0 || c.last.Len() < c.max {
			slot := c.put(e)
			c.seen[e.hash] = slot
			if c.max > 0 {
				heap.Push(&c.last, slot)
			}
			continue
		}
		// The bound is reached: the finding that sorts last is left out,
		// this one or the heap's first, whose slot this one then takes.
		last := c.last.slots[0]
		if !c.before(&e, &c.entries[last]) {
			c.drop(&e)
			c.seen[e.hash] = -1
			continue
		}
		c.drop(&c.entries[last])
		c.seen[c.entries[last].hash] = -1
		c.entries[last] = e
		c.seen[e.hash] = last
		heap.Fix(&c.last, 0)
	}
}

// put stores e and returns its slot.
func (c *collector) put(e collected) int32 {
	c.entries = append(c.entries, e)
	return int32(len(c.entries) - 1)
}

// drop counts a finding left out.
func (c *collector) drop(e *collected) {
	switch e.d.Severity {
	case Error:
		c.omitted.Errors++
	case Warning:
		c.omitted.Warnings++
	default:
		c.omitted.Infos++
	}
}

// merge adds the related positions of a repetition of e's finding.
func (e *collected) merge(related []Related) {
	for _, rel := range related {
		// A finding reached from thousands of places would be quadratic
		// to merge by looking through its list: past a few, a set.
		if e.relatedSet == nil && len(e.d.Related) >= 16 {
			e.relatedSet = make(map[Related]bool, 2*len(e.d.Related))
			for _, r := range e.d.Related {
				e.relatedSet[r] = true
			}
		}
		switch {
		case e.relatedSet != nil:
			if e.relatedSet[rel] {
				continue
			}
			e.relatedSet[rel] = true
		case slices.Contains(e.d.Related, rel):
			continue
		}
		e.d.Related = append(e.d.Related, rel)
	}
}

// before reports whether a comes before b in the result.
func (c *collector) before(a, b *collected) bool { return compareCollected(a, b) < 0 }

func compareCollected(a, b *collected) int {
	return cmp.Or(compareDiagnostics(&a.d, &b.d), cmp.Compare(a.rule, b.rule), cmp.Compare(a.seq, b.seq))
}

// result returns the kept diagnostics in order, the repeated rule errors
// merged, and the counts of the findings left out.
func (c *collector) result() ([]Diagnostic, Counts) {
	c.mu.Lock()
	defer c.mu.Unlock()
	order := make([]int32, len(c.entries))
	for i := range order {
		order[i] = int32(i)
	}
	slices.SortFunc(order, func(i, j int32) int { return compareCollected(&c.entries[i], &c.entries[j]) })
	ds := make([]Diagnostic, len(order))
	for i, slot := range order {
		ds[i] = c.entries[slot].d
	}
	c.entries, c.last.slots, c.seen = nil, nil, nil
	return compact(ds), c.omitted
}

// lastHeap orders slots of the collector's entries so that the first is
// the finding that sorts last.
type lastHeap struct {
	c     *collector
	slots []int32
}

func (h *lastHeap) Len() int { return len(h.slots) }
func (h *lastHeap) Less(i, j int) bool {
	return h.c.before(&h.c.entries[h.slots[j]], &h.c.entries[h.slots[i]])
}
func (h *lastHeap) Swap(i, j int) { h.slots[i], h.slots[j] = h.slots[j], h.slots[i] }
func (h *lastHeap) Push(x any)    { h.slots = append(h.slots, x.(int32)) }
func (h *lastHeap) Pop() any {
	n := len(h.slots) - 1
	x := h.slots[n]
	h.slots = h.slots[:n]
	return x
}
